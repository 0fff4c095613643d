import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type RunningServer } from './server-process.ts';

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

  it('started before its database answers, waits for it, saying so, and then serves', async () => {
    // The database "comes up" late: its first three connections are dropped at once, as a
    // PostgreSQL still starting, or restarting, drops them; the fourth gets through.
    const port = await freePort();
    const real = new URL(url);
    let dropped = 0;
    const forwarder: Server = createServer((socket) => {
      if (dropped < 3) {
        dropped++;
        socket.destroy();
        return;
      }
      const upstream = connect(Number(real.port || 5432), real.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
    const late = new URL(url);
    late.hostname = '127.0.0.1';
    late.port = String(port);
    try {
      const waited = await startServerProcess({ DATABASE_URL: late.toString(), PGOPTIONS: `-c search_path=${schema}`, DEMO_PASSWORD: 'demo password 1' });
      servers.push(waited);
      expect((await fetch(`${waited.url}/api/health/ready`)).status).toBe(200);
      // A dropped connection reads as the one or the other, depending on when the drop lands.
      const said = (delay: string) =>
        new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${port}${late.pathname} is not answering \\((Connection terminated unexpectedly|read ECONNRESET)\\); trying again in ${delay} s`);
      for (const delay of ['0.5', '1.0', '2.0']) expect(waited.output()).toMatch(said(delay));
      expect(dropped).toBe(3);
      expect(waited.output()).not.toContain(`${real.username}:${real.password}@`); // no credentials in the log
    } finally {
      forwarder.close();
    }
  });

  it('drains on SIGTERM: exits 0 once what is in flight is answered', async () => {
    const [one] = servers as [RunningServer];
    expect(await one.stop('SIGTERM')).toBe(0);
    expect(one.output()).toContain('shutting down: finishing requests in flight');
  });
});

describe('the server as npm start runs it, with no PostgreSQL answering', () => {
  it('gives up after DATABASE_WAIT_SECONDS with one sentence, not a stack trace', async () => {
    const port = await freePort();
    const failure = await startServerProcess({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/alchemy`, DATABASE_WAIT_SECONDS: '1' }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toContain(`PostgreSQL at 127.0.0.1:${port}/alchemy did not answer within 1 s (connect ECONNREFUSED 127.0.0.1:${port})`);
    expect(failure).toMatch(/^server exited with 1:/);
    expect(failure).not.toMatch(/^\s+at /m);
    expect(failure).not.toContain('s3cret');
  });
});
