import { staticKeyRing } from '../../server/modules/auth/key-ring.ts';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../../server/modules/auth/auth-service.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';
import { buildApp } from '../../server/app.ts';
import { openPostgresDb, StoreUnavailableError, type Db } from '../../server/platform/store/db.ts';
import { migrate } from '../../server/platform/store/migrate.ts';
import { insertUser } from '../../server/modules/auth/sql/users.ts';
import { StoreLimiter } from '../../server/platform/limits/rate-limit.ts';
import { listenForMetrics, Metrics } from '../../server/platform/http/metrics.ts';
import { corpusEngine } from './engine-helpers.ts';
import { TEST_KEY, TEST_SETTINGS } from './harness.ts';
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const PASSWORD = 'correct horse battery';
const SEARCH_LIMIT = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function vote() {
  return {
    user_type: 'Ustaz',
    username: 'reader',
    query: 'patience',
    retrieved_text: 'Patience is half of faith.',
    model_type: 'UAE UAE-Large-V1',
    result_label: 'B',
    reaction: '🤷',
    confidence_score: 0.4,
    client_id: randomUUID(),
  };
}

// A cluster of its own, restarted and stopped under load: only where PostgreSQL is installed and
// the PostgreSQL suites run (TEST_DATABASE_URL set, as in CI), like every other PostgreSQL test.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('the server while PostgreSQL goes away and comes back', () => {
  let cluster: PrivatePostgres;
  let db: Db;
  let url: string;
  let token: string;
  let close: () => Promise<void>;
  let tallier: { catchUp(): Promise<void> };
  let metricsUrl: string;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    db = await openPostgresDb(cluster.url, {
      onConnectionError: (error) => connectionErrors.push(error),
      // Longer than the 5 s lock time-out (tested below), shorter than the 25 s of production.
      queryReadTimeoutMs: 8_000,
    });
    await migrate(db);
    await insertUser(db, 'reader', await hashPassword(PASSWORD));
    const metrics = new Metrics(db);
    const app = await buildApp({
      db,
      metrics,
      auth: new AuthService(db, staticKeyRing(TEST_KEY), TEST_SETTINGS),
      engine: await corpusEngine(),
      searchLimiter: new StoreLimiter(db, SEARCH_LIMIT),
      // Each test searches as a reader of its own address (X-Forwarded-For), so counts do not carry over.
      trustProxy: 1,
      staticDir: '/nonexistent',
      logLevel: 'silent',
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    tallier = app.tallier;
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const metricsServer = await listenForMetrics(metrics, '127.0.0.1', 0, app.log);
    const metricsAddress = metricsServer.server.address();
    metricsUrl = `http://127.0.0.1:${typeof metricsAddress === 'object' && metricsAddress ? metricsAddress.port : 0}/metrics`;
    close = async () => {
      await metricsServer.close();
      await app.close();
      await db.close();
    };
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'reader', password: PASSWORD, grant_type: 'password' }),
    });
    token = ((await login.json()) as { access_token: string }).access_token;
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await cluster?.destroy();
  });

  const save = (items: unknown[]) =>
    fetch(`${url}/api/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ items }),
    });
  const search = (query: string, from: string) =>
    fetch(`${url}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ query, top_k: 1 }),
    });
  /** The db_up gauge an operator's Prometheus reads. */
  const databaseUp = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    const line = (await res.text()).split('\n').find((l) => l.startsWith('db_up '));
    return Number(line?.slice('db_up '.length));
  };
  const storedVotes = async () => {
    const res = await fetch(`${url}/api/feedback?limit=100`, { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()) as Array<{ client_id: string }>;
  };

  /** The reply every request that needs the database gets while it cannot serve. */
  async function expectUnavailable(res: Response) {
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ detail: 'The database is unavailable. Please try again shortly.' });
  }
  /** One search past the limit from `from`: the statuses, which should end in the 429. */
  async function searchPastLimit(from: string) {
    const statuses: number[] = [];
    for (let i = 0; i <= SEARCH_LIMIT; i += 1) statuses.push((await search('the heart is like a mirror', from)).status);
    return statuses;
  }

  /** Sends each vote until the server takes it, as the client's outbox does; every reply is kept. */
  async function deliver(item: ReturnType<typeof vote>, replies: Array<{ status: number; body: unknown }>) {
    for (;;) {
      const res = await save([item]);
      replies.push({ status: res.status, body: await res.json() });
      if (res.status === 200) return;
      await sleep(100);
    }
  }

  it('stays up when PostgreSQL terminates its connections, and the next requests succeed', async () => {
    // Several connections open and idle in the pool.
    expect((await Promise.all(Array.from({ length: 8 }, () => save([vote()])))).map((r) => r.status)).toEqual(Array(8).fill(200));
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await admin.end();
    expect(rowCount).toBeGreaterThan(0);
    await sleep(200);
    expect(connectionErrors.length).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      expect((await save([vote()])).status).toBe(200);
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
    }
  });

  it('answers 503, and is not ready, while the database is read-only (a standby after a failover), and recovers by itself', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const readOnly = async (on: boolean) => {
      await admin.query(`ALTER DATABASE ${new URL(cluster.url).pathname.slice(1)} SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
      // Sessions take the setting when they start: the pool's open ones are ended.
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await sleep(200);
    };
    await readOnly(true);
    try {
      await expectUnavailable(await save([vote()]));
      const ready = await fetch(`${url}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ detail: 'The database is read-only' });
    } finally {
      await readOnly(false);
      await admin.end();
    }
    expect((await fetch(`${url}/api/health/ready`)).status).toBe(200);
    expect((await save([vote()])).status).toBe(200);
  });

  it('answers 503, not 500, while the database takes no connections (ALLOW_CONNECTIONS false), and recovers by itself', async () => {
    // From another database: PostgreSQL closes none to the connection asking.
    const admin = new pg.Client({ connectionString: cluster.url.replace(/\/postgres$/, '/template1') });
    await admin.connect();
    const name = new URL(cluster.url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
    await sleep(200);
    try {
      await expectUnavailable(await save([vote()]));
      const signIn = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'reader', password: PASSWORD, grant_type: 'password' }),
      });
      await expectUnavailable(signIn);
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    expect((await save([vote()])).status).toBe(200);
  });

  it('answers 503 instead of waiting on for a table an operator holds locked', async () => {
    // The votes of the tests before in the tallies first: the tallier waits on the lock (in the background, up to the time-out) as any statement does.
    await tallier.catchUp();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE feedback IN ACCESS EXCLUSIVE MODE');
    try {
      // A write (a transaction) and a read (a single statement) alike.
      const [saved, listed] = await Promise.all([save([vote()]), fetch(`${url}/api/feedback`, { headers: { authorization: `Bearer ${token}` } })]);
      for (const res of [saved, listed]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
      }
      // Each was cancelled by the database, not left waiting there behind the lock after its 503.
      const { rows } = await admin.query("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
      expect(rows[0]).toEqual({ waiting: 0 });
    } finally {
      await admin.query('ROLLBACK');
      await admin.end();
    }
    expect((await save([vote()])).status).toBe(200);
  });

  it('answers /api/stats from the tallies as they stand while the votes waiting cannot be tallied, and counts them once they can', async () => {
    await tallier.catchUp();
    const stats = async () => {
      const res = await fetch(`${url}/api/stats`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { leftOutVotes: { noReceipt: number } }).leftOutVotes.noReceipt;
    };
    const before = await stats();
    // An operator's session holds the tallier's lock past the 5 s lock time-out.
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query(`SELECT pg_advisory_xact_lock(hashtext('arena tallier'))`);
    try {
      expect((await save([vote()])).status).toBe(200);
      expect(await stats()).toBe(before);
    } finally {
      await admin.query('ROLLBACK');
      await admin.end();
    }
    expect(await stats()).toBe(before + 1);
  });

  it('runs a migration with no lock or statement time-out, whatever the connection or the role has', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    await writeFile(
      path.join(dir, '001_seen.sql'),
      "CREATE TABLE seen AS SELECT current_setting('lock_timeout') AS lock_timeout, current_setting('statement_timeout') AS statement_timeout;",
    );
    const other = await openPostgresDb(cluster.url, { schema: 'timeouts_seen' });
    try {
      expect(await migrate(other, dir)).toEqual(['001_seen.sql']);
      expect(await other.query('SELECT * FROM seen')).toEqual([{ lock_timeout: '0', statement_timeout: '0' }]);
      // Every other statement has both.
      expect(await other.query("SELECT current_setting('lock_timeout') AS l, current_setting('statement_timeout') AS s")).toEqual([{ l: '5s', s: '20s' }]);
    } finally {
      await other.query('DROP SCHEMA timeouts_seen CASCADE');
      await other.close();
      await rm(dir, { recursive: true });
    }
  });

  it('gives a transaction as a whole the read time-out, however many slow answers it waits for', async () => {
    const other = await openPostgresDb(cluster.url, { queryReadTimeoutMs: 1_000 });
    try {
      // Each answer comes within the time-out; all four together do not.
      const slow = other.transaction(async (tx) => {
        for (let i = 0; i < 4; i++) await tx.query('SELECT pg_sleep(0.4)');
      });
      await expect(slow).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await other.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await other.close();
    }
  });

  it('does not hand on a connection whose ROLLBACK got no answer', async () => {
    const other = await openPostgresDb(cluster.url, { queryReadTimeoutMs: 1_000 });
    try {
      const failing = other.transaction(async (tx) => {
        await tx.query('SELECT 1');
        await cluster.freeze();
        throw new Error('the work failed');
      });
      await expect(failing).rejects.toThrow('the work failed');
      // Its ROLLBACK is still unanswered: the connection is destroyed, not left idle for the next query.
      expect(other.poolStats?.()).toEqual({ total: 0, idle: 0, waiting: 0 });
    } finally {
      await cluster.thaw();
      await other.close();
    }
  });

  it('answers 503 instead of waiting for good while the database is frozen, searches meanwhile, and recovers by itself', async () => {
    // Idle connections in the pool, which a frozen database will never answer on.
    expect((await Promise.all(Array.from({ length: 4 }, () => save([vote()])))).map((r) => r.status)).toEqual(Array(4).fill(200));
    const late = vote();
    await cluster.freeze();
    try {
      const [saved, health] = await Promise.all([save([late]), fetch(`${url}/api/health`)]);
      for (const res of [saved, health]) await expectUnavailable(res);
      // Search is not held up by the store's count: this instance counts on its own meanwhile.
      expect(await searchPastLimit('203.0.113.7')).toEqual([...Array<number>(SEARCH_LIMIT).fill(200), 429]);
      // A scrape is answered, within its check's 2 s, and says so. Checks made while one waits
      // share it: scrapes and readiness polls together hold at most one more connection.
      const inUse = () => db.poolStats!().total + db.poolStats!().waiting;
      const held = inUse();
      const checks = Promise.all([databaseUp(), databaseUp(), databaseUp(), fetch(`${url}/api/health/ready`).then((r) => r.status)]);
      await sleep(500);
      expect(inUse() - held).toBeLessThanOrEqual(1);
      expect(await checks).toEqual([0, 0, 0, 503]);
    } finally {
      await cluster.thaw();
    }
    expect(await databaseUp()).toBe(1);
    // The vote the outbox keeps after the 503 is stored once, when it is sent again.
    expect((await save([late])).status).toBe(200);
    expect((await storedVotes()).filter((v) => v.client_id === late.client_id)).toHaveLength(1);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  }, 60_000);

  it('answers 503 with a detail while the database is down, and recovers by itself', async () => {
    await cluster.stop();
    try {
      for (const res of [await fetch(`${url}/api/health`), await save([vote()]), await fetch(`${url}/api/feedback`, { headers: { authorization: `Bearer ${token}` } })]) {
        await expectUnavailable(res);
      }
      // Search needs no database: it goes on, its limit counted by this instance alone meanwhile.
      expect(await searchPastLimit('203.0.113.8')).toEqual([...Array<number>(SEARCH_LIMIT).fill(200), 429]);
      expect(await databaseUp()).toBe(0);
    } finally {
      await cluster.start();
    }
    expect(await databaseUp()).toBe(1);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect((await save([vote()])).status).toBe(200);
  });

  it('loses no vote and answers nothing but 200 or 503 while PostgreSQL restarts under load', async () => {
    const before = (await storedVotes()).length;
    const votes = Array.from({ length: 60 }, vote);
    const replies: Array<{ status: number; body: unknown }> = [];
    let next = 0;
    const worker = async () => {
      while (next < votes.length) {
        await deliver(votes[next++]!, replies);
        await sleep(20);
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, worker));
    await sleep(300);
    await cluster.restart();
    await load;

    expect(new Set(replies.map((r) => r.status))).toEqual(new Set(replies.some((r) => r.status === 503) ? [200, 503] : [200]));
    for (const reply of replies.filter((r) => r.status === 503)) {
      expect(reply.body).toEqual({ detail: 'The database is unavailable. Please try again shortly.' });
    }
    const stored = (await storedVotes()).map((v) => v.client_id);
    expect(stored.length - before).toBe(votes.length);
    for (const v of votes) expect(stored.filter((id) => id === v.client_id)).toHaveLength(1);
  });
});
