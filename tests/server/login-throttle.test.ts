import { afterEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError, type Db } from '../../server/platform/store/db.ts';
import { STORES, openTestDb, startTestServer, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';

describe.each(STORES)('failed sign-in throttling on %s store', (store) => {
  let server: TestServer;
  afterEach(() => server.close());

  it('answers 429 with Retry-After once an account passes its free failures, then backs off exponentially', async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    for (let i = 0; i < 5; i++) expect((await server.login('reader', 'wrong password')).status).toBe(401);

    const blocked = await server.login('reader', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(((await blocked.json()) as { detail: string }).detail).toBe(
      'Too many failed sign-in attempts. Try again in 1 second.',
    );

    server.clock.advance(1);
    expect((await server.login('reader', 'wrong again')).status).toBe(401);
    const longer = await server.login('reader', PASSWORD);
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('2');

    // Once the wait is over the right password works, and clears the account's count.
    server.clock.advance(2);
    expect((await server.login('reader', PASSWORD)).status).toBe(200);
    expect((await server.login('reader', 'wrong password')).status).toBe(401);
    expect((await server.login('reader', PASSWORD)).status).toBe(200);
  });

  it('throttles an unknown account exactly like a real one, so a 429 reveals nothing', async () => {
    server = await startTestServer(store);
    for (let i = 0; i < 5; i++) expect((await server.login('ghost', 'wrong password')).status).toBe(401);
    expect((await server.login('ghost', 'wrong password')).status).toBe(429);
  });

  it('counts failures per address separately from accounts', async () => {
    server = await startTestServer(store, {
      settings: { addressPolicy: { freeFailures: 3, maxDelaySeconds: 900, maxFailuresPerHour: 500 } },
    });
    await server.addUser('reader', PASSWORD);
    // Three different accounts, one wrong password each: no account is near its limit...
    for (const name of ['a1', 'a2', 'a3']) expect((await server.login(name, 'wrong password')).status).toBe(401);
    // ...but this address is, even for a right password.
    const res = await server.login('reader', PASSWORD);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps the count in the store, so a second server instance sees it', async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    for (let i = 0; i < 5; i++) await server.login('reader', 'wrong password');
    const rows = await server.db.query<{ failures: number }>("SELECT failures FROM login_throttle WHERE key = 'user:reader'");
    expect(rows[0]?.failures).toBe(5);
  });

  it('does not count against a reader the sign-ins the database failed, unless a password was checked and refused', async () => {
    const test = await openTestDb(store);
    // The real store, but looking up an account fails while `failing` (a database faltering
    // just after the attempt was counted).
    let failing: string | undefined;
    const lost = () => Promise.reject(new StoreUnavailableError(new Error('connection lost')));
    const faltering: Db = {
      ...test.db,
      kind: test.db.kind,
      transaction: (work, options) =>
        test.db.transaction((tx) => work({ ...tx, query: (sql, params) => (failing && sql.startsWith(failing) ? lost() : tx.query(sql, params)) }), options),
      close: () => test.db.close(),
      query: (sql, params) => (failing && sql.startsWith(failing) ? lost() : test.db.query(sql, params)),
    };
    server = await startTestServer(store, {
      sharedDb: faltering,
      settings: { addressPolicy: { freeFailures: 3, maxDelaySeconds: 900, maxFailuresPerHour: 500 } },
    });
    try {
      await server.addUser('reader', PASSWORD);
      // Looking the account up fails; then, the password right, clearing its count fails.
      for (const step of ['SELECT * FROM users WHERE', 'DELETE FROM login_throttle']) {
        failing = step;
        for (let i = 0; i < 4; i++) expect((await server.login('reader', PASSWORD)).status).toBe(503);
      }
      failing = undefined;
      // Neither the account (5 free) nor the address (3 free) was locked by them.
      for (let i = 0; i < 3; i++) expect((await server.login('reader', PASSWORD)).status).toBe(200);
      const rows = await test.db.query<{ failures: number; pending: number }>('SELECT failures, pending FROM login_throttle');
      expect(rows.every((r) => r.failures === 0 && r.pending === 0)).toBe(true);
    } finally {
      await test.drop();
    }
  });
});
