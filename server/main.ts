import { existsSync } from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { AuthService } from './modules/auth/index.ts';
import { dummyPasswordHash } from './modules/auth/index.ts';
import { THROTTLE_WINDOW_MS } from './modules/auth/index.ts';
import { listenForMetrics, Metrics } from './platform/http/metrics.ts';
import { StoreLimiter } from './platform/limits/rate-limit.ts';
import { staticKeyRing, StoredKeyRing } from './modules/auth/index.ts';
import { buildApp } from './app.ts';
import { ensureDemoUser } from './modules/admin/index.ts';
import { ConfigError, loadConfig, type Config } from './platform/config/config.ts';
import { createLogger, driverWords, OPERATOR_DETAIL, textDestination } from './platform/log.ts';
import { CorpusError } from './modules/book/index.ts';
import { keepForgetting, VOTE_RETENTION_DAYS } from './modules/housekeeping/index.ts';
import { checkAdminSocketPath, listenForAdmin } from './modules/admin/index.ts';
import { COMMAND_WAIT_MS, DataDirLockedError, FOREIGN_LOCK_STALE_MS } from './platform/store/data-dir-lock.ts';
import { DataFolderError, openDb, type Db } from './platform/store/db.ts';
import { migrate } from './platform/store/migrate.ts';
import { makeDataDir } from './platform/store/private-dir.ts';
import { databaseLabel, databaseProblem, describeDatabaseError, untilDatabaseAnswers } from './platform/store/wait-for-database.ts';
import { checkArenaArms, chooseLineup, LineupError, servableModelTypes } from './modules/search/index.ts';
import { startRetrieval } from './modules/search/index.ts';
import { buildIndexesInWorker, corpusIndexesMissing } from './modules/search/index.ts';
import { terminalProgress } from './platform/util/progress.ts';
import { fetchModelsOnFirstStart } from './modules/search/index.ts';
import { recheckVotes } from './modules/arena/index.ts';

/** The signing keys in the store, shared by every instance on it (the first start makes one). */
async function storedKeys(db: Db, config: Config): Promise<StoredKeyRing> {
  const ring = new StoredKeyRing(db, { accessTokenTtlSeconds: config.accessTokenTtlSeconds });
  await ring.start();
  return ring;
}

/** How long requests in flight may take to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  checkArenaArms(config.arenaArms); // the pool's arms, before anything starts
  const logger = createLogger(config.logLevel, config.logFormat === 'text' ? textDestination() : undefined);
  const started = performance.now();
  // Hashed on libuv's threads while this one opens the store and loads the models.
  const dummyHash = dummyPasswordHash();
  dummyHash.catch(() => undefined); // its failure is reported where it is awaited, below
  const { wasMode } = await makeDataDir(config.dataDir);
  if (wasMode) logger.warn({ dataDir: config.dataDir }, `DATA_DIR ${config.dataDir} was open to other users (mode ${wasMode}); it is now 700`);
  if (!config.databaseUrl) await checkAdminSocketPath(config.dataDir);
  // The store (a new PGlite folder is made in a worker thread) gets ready while the models fit.
  const openStore = async () => {
    const db = await openDb(config, {
      // One line per pooled connection lost: what PostgreSQL said, without pg's stack (about 1 KB each).
      onConnectionError: (error) => logger.warn({ cause: driverWords(error) }, 'database connection lost; reconnecting on demand'),
      lock: { onWait: (pid) => logger.warn({ pid }, `waiting for a command (process ${pid}) to finish with ${config.dataDir}`) },
    });
    try {
      const applied = await migrate(db);
      await ensureDemoUser(db, config.demoPassword);
      // The signing keys too: a database restarting now is waited for like one not yet up.
      const keys = config.jwtSecret ? staticKeyRing(new Uint8Array(Buffer.from(config.jwtSecret, 'utf8'))) : await storedKeys(db, config);
      return { db, applied, keys };
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
  };
  const where = config.databaseUrl ? databaseLabel(config.databaseUrl) : '';
  // A PostgreSQL not answering yet (started with the server, restarting) is waited for.
  const store = config.databaseUrl
    ? untilDatabaseAnswers(where, openStore, {
        waitMs: config.databaseWaitSeconds * 1000,
        onRetry: (error, delayMs) =>
          logger.warn(
            { database: where, retryInMs: delayMs },
            `PostgreSQL at ${where} is not answering (${describeDatabaseError(error)}); trying again in ${(delayMs / 1000).toFixed(1)} s`,
          ),
      })
    : openStore();
  store.catch(() => undefined); // its failure is reported where it is awaited, below
  // PostgreSQL is connected to before the models fit: a fit holds the event loop for seconds, and
  // a connection handshake waiting behind it would time out.
  if (config.databaseUrl) await store;
  await fetchModelsOnFirstStart(config, logger, terminalProgress);
  // Where the weight-free models have no index yet, they fit in a worker thread, on the other
  // core, while this thread opens the store; this one then loads what it cached, as on a
  // restart. Neural models do not (they would be loaded twice: the worker is given the
  // weight-free lineup only), nor does a start from the sources (npm run dev:server: tsx does
  // not reach worker threads, and the worker's entry is built beside main.js).
  const workerUrl = new URL('./build-indexes-worker.js', import.meta.url);
  // MODEL_LINEUP=neural without its weights ends the start here, before anything is fitted.
  chooseLineup(config.modelLineup, config);
  if (existsSync(workerUrl) && corpusIndexesMissing(config.dataDir, config.arenaArms)) {
    const workerStarted = performance.now();
    try {
      const report = await buildIndexesInWorker(workerUrl, { ...config, modelLineup: 'corpus' });
      const built = report.models.filter((m) => !m.fromCache && !m.error).map((m) => m.id);
      logger.info({ ...OPERATOR_DETAIL, models: built, ms: Math.round(performance.now() - workerStarted) }, 'indexes built in a worker thread');
    } catch (error) {
      // The main thread could not read the book either: the start ends in its one sentence.
      if (error instanceof CorpusError) throw error;
      logger.warn({ err: error }, 'the index builder thread failed; the indexes are built on the main thread');
    }
  }
  const engine = await startRetrieval(config, logger);
  const { db, applied, keys } = await store;
  await dummyHash; // so the first unknown-user sign-in costs no more than any other
  const auth = new AuthService(db, keys, config);
  const metrics = config.metricsPort ? new Metrics(db) : null;
  const app = await buildApp({
    db,
    auth,
    engine,
    servedModelTypes: [...new Set([...engine.modelTypes(), ...servableModelTypes(config)])],
    // Instances sharing a PostgreSQL share the counts; the embedded store has one process.
    searchLimiter: db.kind === 'postgres' ? new StoreLimiter(db, config.searchRateLimit) : undefined,
    searchRateLimit: config.searchRateLimit,
    voteRateLimit: config.voteRateLimit,
    dailyRoundBound: config.dailyRoundBound,
    closeStore: true,
    ...(metrics ? { metrics } : {}),
    staticDir: config.staticDir,
    offlinePackDir: path.join(config.dataDir, 'vectors'),
    bookFile: config.corpusFile,
    trustProxy: config.trustProxy,
    logger,
  });
  if (applied.length > 0) app.log.info({ ...OPERATOR_DETAIL, migrations: applied }, 'database migrated');
  app.log.info({ ...OPERATOR_DETAIL, database: db.kind }, 'store ready');
  if (db.kind === 'embedded') {
    const admin = await listenForAdmin(db, config.dataDir, logger, { dailyRoundBound: config.dailyRoundBound });
    // Before the store closes (onClose): a command arriving now would find it gone.
    if (admin) app.addHook('preClose', () => admin.close());
  }

  if (metrics && config.metricsPort) {
    const metricsServer = await listenForMetrics(metrics, config.host, config.metricsPort, logger).catch((error: unknown) => {
      throw new ListenError(error, 'METRICS_PORT');
    });
    app.addHook('onClose', () => metricsServer.close());
    app.log.info({ port: config.metricsPort }, 'metrics for Prometheus at /metrics');
  }

  // Sign-in counts, ended sessions and old votes are deleted as the privacy page promises.
  const retention = {
    sessionIdleSeconds: config.sessionIdleSeconds,
    voteDays: VOTE_RETENTION_DAYS,
    signInWindowMs: THROTTLE_WINDOW_MS,
    dailyRoundBound: config.dailyRoundBound,
  };
  const stopHousekeeping = keepForgetting(db, retention, app.log);
  app.addHook('preClose', async () => stopHousekeeping());

  // The background check of unchecked votes (after listen, below) stops as the app begins to close.
  let closing = false;
  app.addHook('preClose', async () => void (closing = true));

  // On SIGTERM or SIGINT: stop being ready, finish the requests in flight, close the store, exit.
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an uncaught error');
    else app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // Not ready from now on; the server stops taking connections, serves what arrives on open
    // ones with Connection: close, and closes once every connection has ended.
    app.lifecycle.draining = true;
    await app.close();
  });

  await app.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
    throw new ListenError(error);
  });
  const address = `http://${/^(0\.0\.0\.0|::)$/.test(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  // For a person at a terminal the address on a line of its own, where it is seen, says it is ready.
  app.log.info({ ...OPERATOR_DETAIL, lineup: engine.kind, readyMs: Math.round(performance.now() - started), address }, 'ready');
  if (config.logFormat === 'text') process.stdout.write(`\n  Open ${address} in a browser.\n\n`);

  // Offline rounds whose model was not served when they arrived are checked now, while the server serves.
  recheckVotes(db, app.voteCheck, config.dailyRoundBound, () => closing).then(
    (decided) => decided > 0 && app.log.info({ votes: decided }, 'unchecked votes checked against what the models show'),
    (error: unknown) => !closing && app.log.warn({ err: error }, 'the unchecked votes could not be checked; the next start tries again'),
  );
}

/** The server could not listen where it was told (a port in use, an address this machine has not, a HOST that does not resolve). */
class ListenError extends Error {
  /** `setting`: which port it was, when not PORT (METRICS_PORT). */
  constructor(cause: unknown, setting?: string) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(setting ? `${setting}: ${message}` : message, { cause });
  }
}

/** The start's one sentence when DATA_DIR's embedded store is held by another process. */
function whoHoldsTheFolder({ holder, foreign, pid, dir }: DataDirLockedError): string {
  if (holder === 'command') {
    return `A command (process ${pid}, npm run users or keys) has held ${dir} for over ${COMMAND_WAIT_MS / 1000} s: start the server again once it has finished, or stop it.`;
  }
  if (foreign) {
    return `Another server (process ${pid} of another container or pid namespace) is using ${dir}: stop it first, or give this one its own DATA_DIR. A lock its server left by stopping uncleanly is taken over ${FOREIGN_LOCK_STALE_MS / 1000} s after.`;
  }
  return `Another server (process ${pid}) is using ${dir}: stop it first, or give this one its own DATA_DIR.`;
}

main().catch((error: unknown) => {
  const problem = databaseProblem(error, process.env.DATABASE_URL);
  if (error instanceof CorpusError || error instanceof DataFolderError) {
    console.error(error.message);
  } else if (error instanceof ConfigError || error instanceof LineupError) {
    console.error(`Configuration error: ${error.message}`);
  } else if (error instanceof ListenError) {
    // A port in use or an address this machine does not have: Node's words say which.
    console.error(`Cannot listen: ${error.message}`);
  } else if (problem) {
    console.error(problem);
  } else if (error instanceof DataDirLockedError) {
    console.error(whoHoldsTheFolder(error));
  } else {
    console.error(error);
  }
  process.exit(1);
});
