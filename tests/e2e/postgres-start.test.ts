import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type RunningServer } from './server-process.ts';

// Like every PostgreSQL suite: where TEST_DATABASE_URL names a database to use (CI sets it).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the server as npm start runs it, on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  let server: RunningServer | undefined;

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql);
    await client.end();
  }
  afterAll(async () => {
    await server?.stop();
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('warns at start that, without JWT_SECRET, other instances will reject its tokens', async () => {
    await admin(`CREATE SCHEMA ${schema}`);
    server = await startServerProcess({ DATABASE_URL: url, PGOPTIONS: `-c search_path=${schema}`, LOG_LEVEL: 'info', DEMO_PASSWORD: 'demo password 1' });
    expect(await (await fetch(`${server.url}/api/health`)).json()).toMatchObject({ database: 'postgres' });
    expect(server.output()).toContain('DATABASE_URL is set but JWT_SECRET is not');
  });
});
