import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackItem, SearchResult, Stats } from '../../contract/api-schemas.ts';
import type { Db } from '../../server/platform/store/db.ts';
import { vectorPairEngine } from './engine-helpers.ts';
import { rebuildTallies } from '../../server/modules/arena/sql/tallies.ts';
import { saveFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { STORES, openTestDb, startTestServer, roundVote, voteItem, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';

describe.each(STORES)('GET /api/stats on %s store', (store) => {
  let server: TestServer;
  let reader: string;
  let ustaz: string;

  beforeAll(async () => {
    // LSA and SIF only: the questions below are chosen for what those two show (the pool's draw would pick any pair).
    server = await startTestServer(store, { extra: { engine: await vectorPairEngine() } });
    await server.addUser('reader', PASSWORD);
    await server.addUser('teacher', PASSWORD);
    reader = ((await (await server.login('reader', PASSWORD)).json()) as { access_token: string }).access_token;
    ustaz = ((await (await server.login('teacher', PASSWORD)).json()) as { access_token: string }).access_token;
  });
  afterAll(() => server.close());

  /** A round on a real search: its first two results (the first of each model) as A and B, or the other way round. */
  async function round(query: string, reactions: [string, string], userType: string, swap = false) {
    // The reader who votes searches: the results carry that reader's receipt.
    const token = userType === 'Ustaz' ? ustaz : reader;
    const results = (await (await server.api('/api/search', { json: { query }, token })).json()) as SearchResult[];
    const [a, b] = swap ? [results[1]!, results[0]!] : [results[0]!, results[1]!];
    const id = randomUUID();
    const vote = (result: SearchResult, label: 'A' | 'B', reaction: string) => roundVote(query, result, label, reaction, id, userType);
    return { items: [vote(a, 'A', reactions[0]), vote(b, 'B', reactions[1])], models: [a.model_type, b.model_type] };
  }

  it('answers 401 without a token', async () => {
    expect((await server.api('/api/stats')).status).toBe(401);
  });

  it('reports every reader’s votes by model: reactions, wins, ties, losses and intervals, and what was left out', async () => {
    // The first model (LSA) shown as A, then as B; two questions whose models' first passages differ, one where they are the same.
    const r1 = await round('hypocrisy', ['👍', '👎'], 'Enthusiast');
    const r2 = await round('death', ['👍', '🤷'], 'Ustaz', true);
    const r3 = await round('the heart as a mirror', ['👍', '👎'], 'Ustaz');
    await server.api('/api/save', { token: reader, json: { items: r1.items } });
    await server.api('/api/save', { token: ustaz, json: { items: [...r2.items, ...r3.items] } });
    const res = await server.api('/api/stats', { token: reader });
    expect(res.status).toBe(200);
    const stats = (await res.json()) as Stats;
    expect(stats.rounds).toEqual({
      compared: 2,
      fromDevice: 0,
      samePassage: 1,
      oneSided: 0,
      leftOut: { repeat: 0, overDailyBound: 0, notShown: 0, unknownModel: 0, unchecked: 0, noReceipt: 0, forged: 0, expired: 0, otherReader: 0, notDrawn: 0, notFirst: 0 },
    });
    expect(stats).toMatchObject({ votes: 6, leftOut: 0, dailyRoundBound: 30 });
    const first = stats.models.find((m) => m.model === r1.models[0])!;
    expect(first.comparison).toMatchObject({ wins: 1, ties: 0, losses: 1 });
    expect(first.comparison.byUserType.Enthusiast.wins).toBe(1);
    expect(first.reactions.total).toBe(3);
  });
});

// On PostgreSQL, where requests reach the store at the same time (the embedded store runs one
// query at a time, in this thread).
describe.runIf(STORES.includes('postgres'))('GET /api/stats asked many times at once', () => {
  it('counts the votes once for all the requests that arrive while it does', async () => {
    const test = await openTestDb('postgres');
    let counts = 0;
    // /api/stats reads the tallies kept at vote time: one read of all their counters per count.
    const spy = (sql: string, params?: unknown[]) => {
      if (sql.includes('FROM arena_counts WHERE starts_with') && params?.[0] === '') counts += 1;
    };
    const counted: Db = {
      ...test.db,
      kind: test.db.kind,
      query: (sql, params) => {
        spy(sql, params);
        return test.db.query(sql, params);
      },
      transaction: (work, options) =>
        test.db.transaction(
          (tx) =>
            work({
              ...tx,
              query: (sql, params) => {
                spy(sql, params);
                return tx.query(sql, params);
              },
            }),
          options,
        ),
      close: () => test.db.close(),
    };
    // Enough votes that counting them takes a while, and their tallies made as the votes' saves would have.
    await test.db.query(`INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
        retrieved_text, model_type, result_label, reaction, confidence_score, question_id, passage_id, verdict, drawn_by, drawn_pair)
      SELECT 'reader', gen_random_uuid(), gen_random_uuid(), 'Enthusiast', 'reader', 'q', 'passage ' || g,
             'LSA', 'A', '👍', 0.5, 'q' || g, 'p' || g, 'shown', 'server', E'LSA\nSIF' FROM generate_series(1, 20000) AS g`);
    await test.db.transaction((tx) => rebuildTallies(tx, 30), { unlimited: true });
    // A clock that stands still: the count costs nothing by it, so a changed history is counted
    // again at once, as it is for any history that counts in under 100 ms (stats-cache.ts).
    const server = await startTestServer('postgres', { sharedDb: counted, extra: { now: () => 0 } });
    try {
      await server.addUser('reader', PASSWORD);
      const token = ((await (await server.login('reader', PASSWORD)).json()) as { access_token: string }).access_token;
      const replies = await Promise.all(Array.from({ length: 6 }, () => server.api('/api/stats', { token })));
      expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
      const bodies = await Promise.all(replies.map((r) => r.json()));
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect(counts).toBeLessThan(6);
      // Once answered, asking again with the votes unchanged counts nothing; a new vote is counted at once.
      const before = counts;
      await server.api('/api/stats', { token });
      expect(counts).toBe(before);
      const one = voteItem({ model_type: 'LSA', reaction: '👎', retrieved_text: 'one more', client_id: randomUUID(), round_id: randomUUID() }) as FeedbackItem;
      await saveFeedback(test.db, 'reader', [{ ...one, questionId: 'q0', passageId: 'p0', passageSet: 'v1', passageSha256: null, verdict: 'shown', drawnBy: 'server', drawnPair: 'LSA\nSIF' }]);
      const after = (await (await server.api('/api/stats', { token })).json()) as { models: Array<{ model: string; reactions: { total: number } }> };
      expect(counts).toBe(before + 1);
      expect(after.models.find((m) => m.model === 'LSA')!.reactions.total).toBe(20_001);
    } finally {
      await server.close();
      await test.drop();
    }
  });
});
