import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSessionParams, liveSessionSql } from '../../server/modules/auth/index.ts';
import { STORES, openTestDb, type TestDb } from './harness.ts';

const DAY = 86_400_000;
const IDLE_SECONDS = 14 * 86_400;
const NOW = new Date('2026-11-28T12:00:00Z');

// A save checks its reader's session in the statement that stores the votes (liveSessionSql),
// not by AuthService.authenticate's lookup: both must call the same sessions live.
describe.each(STORES)('a live session, as a statement checks it, on the %s store', (store) => {
  let test: TestDb;
  beforeAll(async () => {
    test = await openTestDb(store);
    await test.db.query(`INSERT INTO users (username, password_hash) VALUES ('reader', 'x'), ('other', 'x')`);
  });
  afterAll(() => test.drop());

  async function session(fields: { lastUsedMsAgo?: number; expiresInMs?: number; revoked?: boolean } = {}): Promise<string> {
    const id = randomUUID();
    await test.db.query(
      `INSERT INTO sessions (id, username, created_at, last_used_at, expires_at, revoked_at) VALUES ($1, 'reader', $2, $3, $4, $5)`,
      [id, new Date(NOW.getTime() - 20 * DAY), new Date(NOW.getTime() - (fields.lastUsedMsAgo ?? 0)), new Date(NOW.getTime() + (fields.expiresInMs ?? DAY)), fields.revoked ? NOW : null],
    );
    return id;
  }
  const live = async (sessionId: string, username = 'reader') =>
    (await test.db.query<{ live: boolean }>(`SELECT ${liveSessionSql(1)} AS live`, liveSessionParams({ sessionId, username, now: NOW, idleSeconds: IDLE_SECONDS })))[0]!.live;

  it('holds a session used within the idle time, before its end, not revoked, for its own reader', async () => {
    expect(await live(await session({ lastUsedMsAgo: IDLE_SECONDS * 1000 - 1000 }))).toBe(true);
  });

  it('reads times written with microseconds (by SQL) to the millisecond, as authenticate reads them', async () => {
    // authenticate compares JavaScript dates, which hold milliseconds: 500 µs past the edge is the edge.
    const id = await session();
    await test.db.query(`UPDATE sessions SET last_used_at = $2::timestamptz + interval '500 microseconds' WHERE id = $1`, [id, new Date(NOW.getTime() - IDLE_SECONDS * 1000)]);
    expect(await live(id)).toBe(false);
    const ending = await session();
    await test.db.query(`UPDATE sessions SET expires_at = $2::timestamptz + interval '500 microseconds' WHERE id = $1`, [ending, NOW]);
    expect(await live(ending)).toBe(false);
  });

  it('ends it once unused for the idle time, past its end, revoked, or presented for another reader', async () => {
    expect(await live(await session({ lastUsedMsAgo: IDLE_SECONDS * 1000 }))).toBe(false);
    expect(await live(await session({ expiresInMs: 0 }))).toBe(false);
    expect(await live(await session({ revoked: true }))).toBe(false);
    expect(await live(await session(), 'other')).toBe(false);
    expect(await live(randomUUID())).toBe(false);
  });
});
