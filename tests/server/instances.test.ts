import { decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { runUserCommand, type UserCommand } from '../../server/modules/admin/user-commands.ts';
import { AuthService } from '../../server/modules/auth/auth-service.ts';
import { StoredKeyRing, rotateSigningKey, staticKeyRing } from '../../server/modules/auth/key-ring.ts';
import { hashPassword } from '../../server/modules/auth/passwords.ts';
import type { Db } from '../../server/platform/store/db.ts';
import { StoreLimiter } from '../../server/platform/limits/rate-limit.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { listSigningKeys } from '../../server/modules/auth/sql/signing-keys.ts';
import { corpusEngine } from './engine-helpers.ts';
import { STORES, TEST_KEY, TEST_SETTINGS, openTestDb, startTestServer, voteItem, type TestDb, type TestServer, BOUND } from './harness.ts';

const PASSWORD = 'correct horse battery';

const vote = (clientId: string) => voteItem({ user_type: 'Ustaz', client_id: clientId });

let engine: RetrievalEngine | undefined;

/** Two instances on one store, each signing with the keys kept in it (no JWT_SECRET). */
describe.each(STORES)('two instances on one %s store', (store) => {
  let test: TestDb;
  let a: TestServer;
  let b: TestServer;

  async function startPair(options: { searchRateLimit?: number; reloadIntervalMs?: number } = {}) {
    test = await openTestDb(store);
    engine ??= await corpusEngine();
    const extra = (limit: number | undefined) => ({
      engine,
      ...(limit ? { searchLimiter: new StoreLimiter(test.db, limit) } : {}),
    });
    const storedKeys = { reloadIntervalMs: options.reloadIntervalMs ?? 60_000 };
    [a, b] = await Promise.all([
      startTestServer(store, { sharedDb: test.db, storedKeys, extra: extra(options.searchRateLimit) }),
      startTestServer(store, { sharedDb: test.db, storedKeys, extra: extra(options.searchRateLimit) }),
    ]);
    await a.addUser('reader', PASSWORD);
  }
  afterEach(async () => {
    await a.close();
    await b.close();
    await test.drop();
  });

  const signIn = async (server: TestServer) => {
    const res = await server.login('reader', PASSWORD);
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };

  it('make one signing key between them, and each accepts the other’s tokens', async () => {
    await startPair();
    expect(await listSigningKeys(test.db)).toHaveLength(1);
    const fromA = await signIn(a);
    const fromB = await signIn(b);
    expect(decodeProtectedHeader(fromA.access_token).kid).toBe(decodeProtectedHeader(fromB.access_token).kid);
    // A reader whose requests alternate between the instances is never turned away.
    for (let i = 0; i < 10; i += 1) {
      const server = i % 2 === 0 ? a : b;
      const res = await server.api('/api/save', { token: fromA.access_token, json: { items: [vote(crypto.randomUUID())] } });
      expect(res.status).toBe(200);
    }
    const refreshed = await b.api('/api/refresh', { json: { refresh_token: fromA.refresh_token } });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect((await a.api('/api/feedback', { token: access_token })).status).toBe(200);
  });

  it('answer 500, not 401, when the keys cannot be read: a fault of the server never signs a reader out', async () => {
    await startPair({ reloadIntervalMs: 1_000 });
    const { access_token } = await signIn(a);
    await test.db.query('ALTER TABLE signing_keys RENAME TO signing_keys_away');
    try {
      a.clock.advance(2); // past the reload interval: the ring reads the store again
      const res = await a.api('/api/feedback', { token: access_token });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      await test.db.query('ALTER TABLE signing_keys_away RENAME TO signing_keys');
    }
    expect((await a.api('/api/feedback', { token: access_token })).status).toBe(200);
  });

  it('sign out on one instance ends the token on the other at once', async () => {
    await startPair();
    const tokens = await signIn(a);
    expect((await b.api('/api/feedback', { token: tokens.access_token })).status).toBe(200);
    expect((await a.api('/api/logout', { method: 'POST', token: tokens.access_token })).status).toBe(200);
    expect((await b.api('/api/feedback', { token: tokens.access_token })).status).toBe(401);
    expect((await b.api('/api/refresh', { json: { refresh_token: tokens.refresh_token } })).status).toBe(401);
  });

  it('share the search limit: 10 searches on one and 1 on the other, with a limit of 10, gets 429', async () => {
    await startPair({ searchRateLimit: 10 });
    const search = (server: TestServer) => server.api('/api/search', { json: { query: 'patience', top_k: 1 } });
    const first = await Promise.all(Array.from({ length: 10 }, () => search(a)));
    expect(first.map((r) => r.status)).toEqual(Array(10).fill(200));
    const over = await search(b);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toEqual({ detail: expect.stringMatching(/^Too many searches\. Try again in \d+ seconds\.$/) });
  });

  it('rotate keys together: new tokens carry the new kid, tokens signed before keep working on both', async () => {
    await startPair({ reloadIntervalMs: 1000 });
    const before = await signIn(a);
    const { kid } = await rotateSigningKey(test.db);
    a.clock.advance(2);
    b.clock.advance(2);
    const after = await signIn(b);
    expect(decodeProtectedHeader(after.access_token).kid).toBe(kid);
    expect(decodeProtectedHeader(before.access_token).kid).not.toBe(kid);
    for (const server of [a, b]) {
      expect((await server.api('/api/feedback', { token: before.access_token })).status).toBe(200);
      expect((await server.api('/api/feedback', { token: after.access_token })).status).toBe(200);
    }
    expect(await listSigningKeys(test.db)).toHaveLength(2);
  });
});

describe.each(STORES)('signing keys in the %s store', (store) => {
  let test: TestDb;
  afterEach(() => test.drop());

  it('are made once when several instances start together on an empty store', async () => {
    test = await openTestDb(store);
    const rings = Array.from({ length: 6 }, () => new StoredKeyRing(test.db, { accessTokenTtlSeconds: 900 }));
    await Promise.all(rings.map((ring) => ring.start()));
    expect(await listSigningKeys(test.db)).toHaveLength(1);
    const kids = await Promise.all(rings.map(async (ring) => (await ring.signingKey()).kid));
    expect(new Set(kids).size).toBe(1);
  });

  it('sign with the key added last, even when it was made in the same millisecond as the one before', async () => {
    test = await openTestDb(store);
    for (let i = 0; i < 40; i++) {
      await test.db.query('DELETE FROM signing_keys');
      const ring = new StoredKeyRing(test.db, { accessTokenTtlSeconds: 900, reloadIntervalMs: 0 });
      await ring.start();
      const { kid } = await rotateSigningKey(test.db);
      expect((await ring.signingKey()).kid).toBe(kid);
    }
  });

  it('retire a replaced key once no token it signed can still be valid, and not before', async () => {
    test = await openTestDb(store);
    let now = Date.now();
    const ring = new StoredKeyRing(test.db, { accessTokenTtlSeconds: TEST_SETTINGS.accessTokenTtlSeconds, now: () => now, reloadIntervalMs: 60_000 });
    await ring.start();
    const old = await ring.signingKey();
    await rotateSigningKey(test.db, now);
    now += 61_000; // past the reload interval: the ring signs with the new key
    const current = await ring.signingKey();
    expect(current.kid).not.toBe(old.kid);
    expect(await ring.verifyingKey(old.kid)).toEqual(old.secret);
    // Retired after the reload interval, the longest token lifetime and the clock skew allowed.
    now += (TEST_SETTINGS.accessTokenTtlSeconds + 30) * 1000;
    expect(await ring.verifyingKey(old.kid)).toBeNull();
    expect(await ring.verifyingKey(current.kid)).toEqual(current.secret);
    expect(await ring.verifyingKey('no-such-key')).toBeNull();
    expect(await ring.verifyingKey(undefined)).toBeNull();
  });

  it('are deleted a day after a newer key replaced them', async () => {
    test = await openTestDb(store);
    await new StoredKeyRing(test.db, { accessTokenTtlSeconds: 900 }).start();
    await rotateSigningKey(test.db);
    expect(await listSigningKeys(test.db)).toHaveLength(2);
    const { deleted } = await rotateSigningKey(test.db, Date.now() + 25 * 3600 * 1000);
    expect(deleted).toBe(2);
    expect(await listSigningKeys(test.db)).toHaveLength(1);
  });
});

/**
 * `npm run users` may run on any instance's store while a sign-in on another is checking the
 * password (an argon2id hash's time): the command ends the account's sessions, and a session the
 * sign-in opens after it must not outlive them.
 */
describe.each(STORES)('a sign-in that races a user command, on one %s store', (store) => {
  let test: TestDb;
  afterEach(() => test.drop());

  /** The store as a sign-in sees it, with `command` carried out the moment the sign-in has read the account. */
  function commandAfterTheAccountIsRead(db: Db, command: UserCommand): Db {
    let done = false;
    return new Proxy(db, {
      get(target, property) {
        if (property !== 'query') return Reflect.get(target, property, target) as unknown;
        return async (sql: string, params?: unknown[]) => {
          const rows = await target.query(sql, params);
          if (!done && sql.startsWith('SELECT * FROM users')) {
            done = true;
            await runUserCommand(target, command, { dailyRoundBound: BOUND });
          }
          return rows;
        };
      },
    });
  }

  it.each(['passwd', 'disable', 'remove'] as const)('%s: the sign-in is refused (not a 500) and opens no session', async (kind) => {
    test = await openTestDb(store);
    await runUserCommand(test.db, { command: 'add', username: 'reader', passwordHash: await hashPassword(PASSWORD) }, { dailyRoundBound: BOUND });
    const command: UserCommand =
      kind === 'passwd' ? { command: kind, username: 'reader', passwordHash: await hashPassword('a new password') } : { command: kind, username: 'reader' };
    const auth = new AuthService(commandAfterTheAccountIsRead(test.db, command), staticKeyRing(TEST_KEY), TEST_SETTINGS);
    expect(await auth.login('reader', PASSWORD, '192.0.2.1')).toEqual({ kind: 'rejected' });
    expect(await test.db.query(`SELECT id FROM sessions WHERE revoked_at IS NULL`)).toEqual([]);
  });
});
