import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { THROTTLE_WINDOW_MS } from '../../server/modules/auth/throttle-policy.ts';
import { forgetWhatIsDue, VOTE_RETENTION_DAYS } from '../../server/modules/housekeeping/housekeeping.ts';
import { STORES, startTestServer, TEST_SETTINGS, type TestServer, BOUND } from './harness.ts';

const PASSWORD = 'correct horse battery';
const HOUR = 3600;
const RETENTION = { sessionIdleSeconds: TEST_SETTINGS.sessionIdleSeconds, voteDays: VOTE_RETENTION_DAYS, signInWindowMs: THROTTLE_WINDOW_MS, dailyRoundBound: BOUND };

describe.each(STORES)('forgetting what is due, on %s store', (store) => {
  let server: TestServer;
  afterEach(() => server.close());

  const count = async (table: string) => (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const forget = () => forgetWhatIsDue(server.db, server.clock.ms, RETENTION);
  const tokensOf = async (res: Response) => (await res.json()) as { access_token: string; refresh_token: string };

  it('keeps failed sign-in counts for their hour only, however many names are tried, and a lock holds until it ends', async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    // Made-up names, as a scanner tries them: each leaves a count, refused or not.
    for (let i = 0; i < 30; i++) await server.login(`nobody-${i}`, 'a wrong password');
    for (let i = 0; i < 6; i++) await server.login('reader', 'a wrong password');
    // Past the address's 20 free failures the rest were refused uncounted, each leaving a count of nothing.
    expect(await count('login_throttle')).toBe(32);
    const counting = await count('login_throttle WHERE failures > 0');
    expect(counting).toBe(21);

    await forget();
    expect(await count('login_throttle')).toBe(counting); // the counts of nothing go, the rest are still in their hour
    expect((await server.login('reader', PASSWORD)).status).toBe(429);

    server.clock.advance(HOUR + 60);
    await forget();
    expect(await count('login_throttle')).toBe(0);
    expect((await server.login('reader', PASSWORD)).status).toBe(200);
  });

  it('deletes sessions that have ended, signed out a day ago, unused too long or past their last day, and keeps live ones working', async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    const signedOut = await tokensOf(await server.login('reader', PASSWORD));
    await server.api('/api/logout', { method: 'POST', token: signedOut.access_token });
    const idle = await tokensOf(await server.login('reader', PASSWORD));
    server.clock.advance(2 * 86400);
    await forget();
    expect(await count('sessions')).toBe(1); // the idle one, not yet idle long enough
    expect(await count('refresh_tokens')).toBe(1);

    let live = await tokensOf(await server.login('reader', PASSWORD));
    // The idle session ends unused; the live one is refreshed every week.
    for (let week = 0; week < 2; week++) {
      server.clock.advance(7 * 86400);
      live = await tokensOf(await server.api('/api/refresh', { json: { refresh_token: live.refresh_token } }));
    }
    await forget();
    expect(await count('sessions')).toBe(1);
    expect((await server.api('/api/refresh', { json: { refresh_token: idle.refresh_token } })).status).toBe(401);
    live = await tokensOf(await server.api('/api/refresh', { json: { refresh_token: live.refresh_token } }));
    expect((await server.api('/api/feedback', { token: live.access_token })).status).toBe(200);

    // Past the session's 30 days, however used.
    for (let week = 0; week < 3; week++) {
      server.clock.advance(7 * 86400);
      await server.api('/api/refresh', { json: { refresh_token: live.refresh_token } }).then(async (res) => res.ok && (live = await tokensOf(res)));
    }
    await forget();
    expect(await count('sessions')).toBe(0);
    expect(await count('refresh_tokens')).toBe(0);
  });

  it('deletes votes past their retention and no others', async () => {
    server = await startTestServer(store);
    const vote = (id: string, ageDays: number) =>
      server.db.query(
        `INSERT INTO feedback (author, client_id, user_type, claimed_username, query, retrieved_text, model_type, result_label, reaction, confidence_score, created_at)
         VALUES ('reader', $1, 'Ustaz', 'reader', 'q', 't', 'LSA', 'A', '👍', 0.5, $2)`,
        [id, new Date(server.clock.ms - ageDays * 86400_000)],
      );
    const kept = randomUUID();
    await vote(randomUUID(), VOTE_RETENTION_DAYS + 1);
    await vote(kept, VOTE_RETENTION_DAYS - 1);
    expect(await forget()).toMatchObject({ votes: 1 });
    expect(await server.db.query<{ client_id: string }>('SELECT client_id FROM feedback')).toEqual([{ client_id: kept }]);
  });
});
