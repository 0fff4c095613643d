import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackItem } from '../../contract/api-schemas.ts';
import type { Queryable } from '../../server/platform/store/db.ts';
import { deleteFeedbackBefore, deleteFeedbackOf, saveFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { rebuildTallies, tallyPending, tallyPendingIn } from '../../server/modules/arena/sql/tallies.ts';
import { readTallies } from '../../server/modules/arena/sql/read-tallies.ts';
import { computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { checkedVote, decidedRound, STORES, openTestDb, saveAndTally, startTestServer, talliesOf, type TestServer } from './harness.ts';
import { SAVE_BODY_LIMIT_BYTES } from '../../server/platform/http/body-limits.ts';

const PASSWORD = 'correct horse battery';

function item(overrides: Record<string, unknown> = {}) {
  return {
    user_type: 'Ustaz',
    username: 'reader',
    query: 'What is the knowledge of self?',
    retrieved_text: 'KNOW, O beloved, that man was not created in jest or at random.',
    model_type: 'BGE bge-small-en-v1.5',
    result_label: 'A',
    reaction: '👍',
    confidence_score: 0.71,
    ...overrides,
  };
}

describe.each(STORES)('feedback on %s store', (store) => {
  let server: TestServer;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    await server.addUser('other', PASSWORD);
    token = ((await (await server.login('reader', PASSWORD)).json()) as { access_token: string }).access_token;
    otherToken = ((await (await server.login('other', PASSWORD)).json()) as { access_token: string }).access_token;
  });
  afterAll(() => server.close());

  const save = (items: unknown[], as = token) => server.api('/api/save', { token: as, json: { items } });
  const mine = async (as = token, limit = 100) =>
    (await (await server.api(`/api/feedback?limit=${limit}`, { token: as })).json()) as Array<Record<string, unknown>>;

  it('stores a batch, records the token’s user as author whatever the item claims, and lists it newest first', async () => {
    const round = randomUUID();
    const res = await save([
      item({ round_id: round, client_id: randomUUID(), username: 'someone-else' }),
      item({ round_id: round, client_id: randomUUID(), result_label: 'B', reaction: '🤷', model_type: 'unknown' }),
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: 2, duplicates: 0 });
    const stored = await mine();
    expect(stored.slice(0, 2).map((f) => f.result_label).sort()).toEqual(['A', 'B']);
    for (const f of stored.slice(0, 2)) {
      expect(f.username).toBe('reader');
      expect(f.round_id).toBe(round);
      expect(typeof f.id).toBe('number');
      expect(Date.parse(String(f.created_at))).not.toBeNaN();
    }
    expect(stored[0]).toMatchObject({ query: 'What is the knowledge of self?', user_type: 'Ustaz' });
  });

  it('stores each text exactly as sent: quotes, backslashes, line breaks, braces and emoji', async () => {
    const query = 'He said "be patient" \\ then {left}\n\tand wept 😢 \u2028 [1, 2]';
    const text = 'KNOW, O beloved — “the heart” is a mirror;\r\nits rust is \\sin\\ and {desire} ☾';
    const res = await save([item({ client_id: randomUUID(), query, retrieved_text: text, confidence_score: 0.125 })]);
    expect(await res.json()).toEqual({ saved: 1, duplicates: 0 });
    expect((await mine())[0]).toMatchObject({ query, retrieved_text: text, confidence_score: 0.125, model_type: 'BGE bge-small-en-v1.5', user_type: 'Ustaz' });
  });

  it('stores the same client_id once, and says it was a duplicate', async () => {
    const clientId = randomUUID();
    const before = (await mine()).length;
    expect(await (await save([item({ client_id: clientId })])).json()).toEqual({ saved: 1, duplicates: 0 });
    expect(await (await save([item({ client_id: clientId })])).json()).toEqual({ saved: 0, duplicates: 1 });
    const after = await mine();
    expect(after.length).toBe(before + 1);
    expect(after.filter((f) => f.client_id === clientId)).toHaveLength(1);
  });

  it('stores nothing from a batch with one bad item, and names the field', async () => {
    const before = (await mine()).length;
    const res = await save([item({ client_id: randomUUID() }), item({ reaction: '🎉' })]);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'items[1].reaction must be one of 👍, 🤷, 👎' });
    expect((await mine()).length).toBe(before);
  });

  it.each([
    [{ items: [] }, 'items must hold at least 1 item'],
    [{ items: Array.from({ length: 51 }, () => item()) }, 'items must hold at most 50 items'],
    [{}, 'items is required'],
    [{ items: [item({ user_type: 'Admin' })] }, 'items[0].user_type must be one of Enthusiast, Ustaz'],
    [{ items: [item({ result_label: 'C' })] }, 'items[0].result_label must be one of A, B'],
    [{ items: [item({ query: '' })] }, 'items[0].query must not be empty'],
    [{ items: [item({ query: 'q'.repeat(1001) })] }, 'items[0].query must be at most 1000 characters'],
    [{ items: [item({ retrieved_text: 'r'.repeat(10001) })] }, 'items[0].retrieved_text must be at most 10000 characters'],
    [{ items: [item({ confidence_score: '0.7' })] }, 'items[0].confidence_score must be a number'],
    [{ items: [item({ client_id: 'not-a-uuid' })] }, 'items[0].client_id must be a UUID'],
    [{ items: [item({ round_id: 7 })] }, 'items[0].round_id must be a string'],
    [{ items: [{ ...item(), reaction: undefined }] }, 'items[0].reaction is required'],
  ])('rejects %j with 400: %s', async (body, detail) => {
    const res = await server.api('/api/save', { token, json: body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail });
  });

  it('ignores unknown fields', async () => {
    const res = await save([item({ favourite_colour: 'green', client_id: randomUUID() })]);
    expect(res.status).toBe(200);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await server.api('/api/save', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: '{"items": [',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'Request body is not valid JSON' });
  });

  it('answers 413 for a body over the limit, and stores nothing', async () => {
    const before = (await mine()).length;
    const huge = { items: [item({ retrieved_text: 'x'.repeat(SAVE_BODY_LIMIT_BYTES) })] };
    const res = await server.api('/api/save', { token, json: huge });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/too large/);
    expect((await mine()).length).toBe(before);
  });

  it('answers 401 without a valid token, and stores nothing', async () => {
    const noToken = await server.api('/api/save', { json: { items: [item()] } });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ detail: 'Not authenticated' });
    expect((await server.api('/api/feedback')).status).toBe(401);
    expect((await server.api('/api/save', { token: 'nope', json: { items: [item()] } })).status).toBe(401);
  });

  it('stores nothing for a token whose session has ended, and answers 401 as every route does', async () => {
    await server.addUser('leaver', PASSWORD);
    const signIn = async () => ((await (await server.login('leaver', PASSWORD)).json()) as { access_token: string }).access_token;
    const first = await signIn();
    expect((await save([item({ client_id: randomUUID(), query: 'before signing out' })], first)).status).toBe(200);
    expect((await server.api('/api/logout', { method: 'POST', token: first })).status).toBe(200);
    // The access token itself still holds (signature, time): only its session has ended.
    const after = await save([item({ client_id: randomUUID(), query: 'after signing out' })], first);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
    expect(await after.json()).toEqual({ detail: 'Invalid or expired token' });
    expect((await mine(await signIn())).map((f) => f.query)).toEqual(['before signing out']);
  });

  it('refuses a batch of rounds the device answered on an ended session before working them out again', async () => {
    await server.addUser('device-leaver', PASSWORD);
    const { access_token: ended } = (await (await server.login('device-leaver', PASSWORD)).json()) as { access_token: string };
    await server.api('/api/logout', { method: 'POST', token: ended });
    const checks: unknown[] = [];
    const check = server.app.votes['options'].check;
    const original = check.check.bind(check);
    check.check = async (...args: Parameters<typeof original>) => (checks.push(args), original(...args));
    try {
      const res = await save([item({ client_id: randomUUID(), receipt: 'device' })], ended);
      expect(res.status).toBe(401);
      expect(checks).toHaveLength(0);
    } finally {
      check.check = original;
    }
  });

  it('shows each reader only their own votes, and honours limit', async () => {
    await save([item({ client_id: randomUUID(), query: 'only for other' })], otherToken);
    const others = await mine(otherToken);
    expect(others).toHaveLength(1);
    expect(others[0]!.username).toBe('other');
    expect((await mine()).some((f) => f.query === 'only for other')).toBe(false);
    expect(await mine(token, 1)).toHaveLength(1);
  });

  it('rejects a limit out of range', async () => {
    for (const limit of ['0', '101', 'ten']) {
      const res = await server.api(`/api/feedback?limit=${limit}`, { token });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^limit must be/);
    }
  });

  it('defaults to the 20 newest', async () => {
    const items = Array.from({ length: 25 }, (_, i) => item({ client_id: randomUUID(), query: `q${i}` }));
    await save(items);
    const res = await server.api('/api/feedback', { token });
    expect(((await res.json()) as unknown[]).length).toBe(20);
  });
});

describe('saveFeedback', () => {
  it('stores a batch of fifty in one statement, duplicates within it counted once; the tallier takes many readers’ batches in a few', async () => {
    const test = await openTestDb('embedded');
    try {
      const sent: string[] = [];
      const counting = (db: Queryable): Queryable => ({ query: (sql, params) => (sent.push(sql), db.query(sql, params)) });
      const batch = Array.from({ length: 50 }, () => ({ ...(item() as FeedbackItem), client_id: randomUUID(), questionId: 'q', passageId: null, passageSet: 'now', passageSha256: null, verdict: 'not-shown' as const }));
      expect(await saveFeedback(counting(test.db), 'reader', [...batch, batch[0]!])).toEqual({ saved: 50, duplicates: 1, live: true });
      // The votes, and their waiting for the tallier, in one statement: the save's only one.
      expect(sent).toHaveLength(1);
      expect(await test.db.query('SELECT count(*)::int AS n FROM arena_pending')).toEqual([{ n: 50 }]);
      expect(computeStats(await readTallies(test.db), 30).votes).toBe(0);
      // Three readers' twenty-five shown rounds each, A and B, decided: one statement a save.
      sent.length = 0;
      const rounds = () => Array.from({ length: 25 }, (_, i) => {
        const round = { round_id: randomUUID(), questionId: `q${i}`, passageSet: 'now', passageSha256: null, verdict: 'shown' as const, drawnBy: 'server' as const, drawnPair: 'LSA\nSIF' };
        return [
          { ...(item({ model_type: 'LSA', result_label: 'A', reaction: '👍' }) as FeedbackItem), ...round, client_id: randomUUID(), passageId: 'ch1-1' },
          { ...(item({ model_type: 'SIF', result_label: 'B', reaction: '👎' }) as FeedbackItem), ...round, client_id: randomUUID(), passageId: 'ch1-2' },
        ];
      }).flat();
      for (const reader of ['reader', 'other', 'third']) expect(await saveFeedback(counting(test.db), reader, rounds())).toEqual({ saved: 50, duplicates: 0, live: true });
      expect(sent).toHaveLength(3);
      // The tallier: its lock, the ids waiting, their votes, then two statements a reader (their lock and state, their changes), whatever their number of votes.
      sent.length = 0;
      expect(await test.db.transaction((tx) => tallyPendingIn(counting(tx), 30))).toBe(200);
      expect(sent).toHaveLength(3 + 2 * 3);
      expect(computeStats(await readTallies(test.db), 30).rounds.compared).toBe(75);
      expect(await saveFeedback(counting(test.db), 'reader', batch.slice(0, 10))).toEqual({ saved: 0, duplicates: 10, live: true });
      expect(await test.db.transaction((tx) => tallyPendingIn(tx, 30))).toBe(0);
    } finally {
      await test.drop();
    }
  });
});

describe.each(STORES)('the vote limit on %s store', (store) => {
  /** A server with this vote limit, whose clock the test moves, and a reader signed in on it. */
  async function readerUnderVoteLimit(voteRateLimit: number) {
    const clock = { ms: Date.parse('2026-11-23T12:00:00Z') };
    const server = await startTestServer(store, { extra: { voteRateLimit, now: () => clock.ms } });
    await server.addUser('reader', PASSWORD);
    const { access_token: token } = (await (await server.login('reader', PASSWORD)).json()) as { access_token: string };
    const save = (body: { items: unknown[] }) => server.api('/api/save', { token, json: body });
    return { server, clock, save };
  }
  const batch = (n: number) => ({ items: Array.from({ length: n }, () => item({ client_id: randomUUID() })) });

  it('takes a reader’s votes up to the limit a minute, then answers 429 with Retry-After until the next minute, storing none of the batch', async () => {
    const { server, clock, save } = await readerUnderVoteLimit(100);
    try {
      expect((await save(batch(50))).status).toBe(200);
      clock.ms += 15_000;
      expect((await save(batch(50))).status).toBe(200);
      const refused = batch(50);
      const res = await save(refused);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('45');
      expect(await res.json()).toEqual({ detail: 'Too many votes at once. Try again in 45 seconds.' });
      const stored = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback');
      expect(stored[0]!.n).toBe(100);
      // The outbox sends it again once the minute is over.
      clock.ms += 45_000;
      expect(await (await save(refused)).json()).toEqual({ saved: 50, duplicates: 0 });
    } finally {
      await server.close();
    }
  });

  it('stores nothing, and counts nothing of the minute, once the reader’s sessions are revoked', async () => {
    const { server, save } = await readerUnderVoteLimit(50);
    try {
      await server.db.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = 'disabled' WHERE username = 'reader'`);
      const res = await save(batch(50));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: 'Invalid or expired token' });
      const [stored] = await server.db.query<{ votes: number; waiting: number; counted: number }>(
        `SELECT (SELECT count(*)::int FROM feedback) AS votes, (SELECT count(*)::int FROM arena_pending) AS waiting,
                (SELECT count(*)::int FROM rate_limits) AS counted`,
      );
      expect(stored).toEqual({ votes: 0, waiting: 0, counted: 0 });
      // Signed in again, the whole minute is theirs.
      const { access_token: again } = (await (await server.login('reader', PASSWORD)).json()) as { access_token: string };
      expect(await (await server.api('/api/save', { token: again, json: batch(50) })).json()).toEqual({ saved: 50, duplicates: 0 });
    } finally {
      await server.close();
    }
  });

  it('counts votes stored, not votes sent: a refused batch and duplicates sent again use none of the minute', async () => {
    const { server, clock, save } = await readerUnderVoteLimit(60);
    try {
      const first = batch(50);
      expect(await (await save(first)).json()).toEqual({ saved: 50, duplicates: 0 });
      // 50 more would pass 60: refused, and counted for nothing.
      expect((await save(batch(50))).status).toBe(429);
      // The first batch sent again, as an outbox does when its reply was lost: it stores nothing and counts nothing.
      for (let i = 0; i < 3; i++) expect(await (await save(first)).json()).toEqual({ saved: 0, duplicates: 50 });
      clock.ms += 10_000;
      expect(await (await save(batch(10))).json()).toEqual({ saved: 10, duplicates: 0 });
      expect((await save(batch(1))).status).toBe(429);
      const stored = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM feedback');
      expect(stored[0]!.n).toBe(60);
    } finally {
      await server.close();
    }
  });
});

describe.each(STORES)('forgetting a reader’s votes on %s store', (store) => {
  it('takes exactly their share out of the tallies, without making the others’ again', async () => {
    const test = await openTestDb(store);
    try {
      const bound = 2;
      // Each reader: three decided rounds in a day (one over the bound), one decided again, a lone vote, a made-up passage.
      const vote = checkedVote;
      const readers = Array.from({ length: 12 }, (_, i) => `reader-${i}`);
      for (const reader of readers) {
        const rounds = ['q1', 'q2', 'q3'].map((q) => [randomUUID(), q] as const);
        await saveAndTally(test.db, reader, rounds.flatMap(([round, q], i) => [vote(reader, round, q, 'LSA', 'A', i ? '👍' : '🤷', 'ch1-1'), vote(reader, round, q, 'SIF', 'B', '👎', 'ch1-2')]), new Date(), bound);
        const again = randomUUID();
        await saveAndTally(test.db, reader, [vote(reader, again, 'q1', 'LSA', 'A', '👎', 'ch1-1'), vote(reader, again, 'q1', 'SIF', 'B', '👍', 'ch1-2'),
          vote(reader, randomUUID(), 'q4', 'LSA', 'A', '👍', 'ch1-3'), vote(reader, randomUUID(), 'q5', 'LSA', 'A', '👍', 'made-up', 'not-shown')], new Date(), bound);
      }
      const sent: string[] = [];
      const deleted = await test.db.transaction((tx) => deleteFeedbackOf({ query: (sql, params) => (sent.push(sql), tx.query(sql, params)) }, 'reader-0', bound));
      expect(deleted).toBe(10);
      // A few statements for the reader's share, not a pass over the other eleven readers' votes.
      expect(sent.length).toBeLessThanOrEqual(12);
      const tallies = async () => ({ ...(await talliesOf(test.db)), stats: computeStats(await readTallies(test.db), bound) });
      const kept = await tallies();
      expect(kept.stats.rounds).toMatchObject({ compared: 11 * 2, oneSided: 11, leftOut: { overDailyBound: 11, repeat: 11, notShown: 11 } });
      expect(kept.pairs.map((p) => p.author)).not.toContain('reader-0');
      // The same as every tally made again from the votes left.
      await test.db.transaction((tx) => rebuildTallies(tx, bound), { unlimited: true });
      expect(kept).toEqual(await tallies());
    } finally {
      await test.drop();
    }
  });
});

describe.each(STORES)('votes past their retention on %s store', (store) => {
  it('leave the tallies of their readers made again from what they have left, and no one else’s', async () => {
    const test = await openTestDb(store);
    try {
      const bound = 2;
      const DAY = 86_400_000;
      const now = Date.now();
      const decided = decidedRound;
      const readers = Array.from({ length: 8 }, (_, i) => `reader-${i}`);
      for (const [i, reader] of readers.entries()) {
        // Half the readers have old rounds, one of them asked again since; everyone has three of today's (one over the bound).
        if (i % 2 === 0) await saveAndTally(test.db, reader, [...decided(reader, 'q1', '👍', '👎'), ...decided(reader, 'q2', '🤷', '🤷')], new Date(now - 100 * DAY), bound);
        await saveAndTally(test.db, reader, ['q1', 'q3', 'q4'].flatMap((q) => decided(reader, q, '👎', '👍')), new Date(now), bound);
      }
      // A save still waiting for the tallier, of a reader about to lose votes.
      await saveFeedback(test.db, 'reader-0', decided('reader-0', 'q5', '👍', '👍'), new Date(now));
      const sent: string[] = [];
      // And one saved while the tallies are made again, just before the reader's votes are read: read there, it is not tallied again by the tallier.
      let savedDuring = false;
      const deleted = await test.db.transaction(
        (tx) =>
          deleteFeedbackBefore(
            {
              query: async (sql, params) => {
                if (!savedDuring && /^WITH page AS/.test(sql)) {
                  savedDuring = true;
                  await saveFeedback(tx, 'reader-0', decided('reader-0', 'q6', '👎', '🤷'), new Date(now));
                }
                sent.push(sql);
                return tx.query(sql, params);
              },
            },
            new Date(now - 90 * DAY),
            bound,
          ),
        { unlimited: true },
      );
      expect(savedDuring).toBe(true);
      await tallyPending(test.db, bound);
      expect(deleted).toBe(4 * 4);
      // Not every tally made again: the readers with no old votes keep theirs as they were.
      expect(sent.some((sql) => /^DELETE FROM arena_counts/.test(sql))).toBe(false);
      const tallies = async () => ({ ...(await talliesOf(test.db)), stats: computeStats(await readTallies(test.db), bound) });
      const kept = await tallies();
      expect(kept.stats.rounds).toMatchObject({ compared: 8 * 2, leftOut: { overDailyBound: 8 + 2, repeat: 0 } });
      await test.db.transaction((tx) => rebuildTallies(tx, bound), { unlimited: true });
      expect(kept).toEqual(await tallies());
    } finally {
      await test.drop();
    }
  });
});
