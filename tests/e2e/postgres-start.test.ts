import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type RunningServer } from './server-process.ts';

// Like every PostgreSQL suite: where TEST_DATABASE_URL names a database to use (CI sets it).
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the server as npm start runs it, on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  let servers: RunningServer[] = [];

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql);
    await client.end();
  }
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('two instances started together on one database, with no JWT_SECRET, accept each other’s tokens', async () => {
    await admin(`CREATE SCHEMA ${schema}`);
    const env = { DATABASE_URL: url, PGOPTIONS: `-c search_path=${schema}`, LOG_LEVEL: 'info', DEMO_PASSWORD: 'demo password 1', JWT_SECRET: '' };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const [one, two] = servers as [RunningServer, RunningServer];
    expect(await (await fetch(`${one.url}/api/health`)).json()).toMatchObject({ database: 'postgres' });
    const login = await fetch(`${one.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo', password: 'demo password 1', grant_type: 'password' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    for (const server of servers) {
      const res = await fetch(`${server.url}/api/feedback`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status).toBe(200);
    }
    expect((await fetch(`${two.url}/api/health/ready`)).status).toBe(200);
  });

  it('drains on SIGTERM: exits 0 once what is in flight is answered', async () => {
    const [one] = servers as [RunningServer];
    expect(await one.stop('SIGTERM')).toBe(0);
    expect(one.output()).toContain('shutting down: finishing requests in flight');
  });
});
