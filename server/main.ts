import { AuthService } from './auth/auth-service.ts';
import { dummyPasswordHash } from './auth/passwords.ts';
import { loadSigningKey } from './auth/signing-key.ts';
import { buildApp } from './app.ts';
import { ensureDemoUser } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDb } from './store/db.ts';
import { migrate } from './store/migrate.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDb(config);
  const applied = await migrate(db);
  await ensureDemoUser(db, config.demoPassword);
  const key = await loadSigningKey(config);
  await dummyPasswordHash(); // so the first unknown-user sign-in costs no more than any other
  const auth = new AuthService(db, key, config);
  const app = await buildApp({
    db,
    auth,
    staticDir: config.staticDir,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
  });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  app.log.info({ database: db.kind }, 'store ready');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
