import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/store/db.ts';
import { recordServedModels } from '../../server/store/served-models.ts';
import { STORES, openTestDb, startTestServer, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';

describe.each(STORES)('GET /api/stats on %s store', (store) => {
  let server: TestServer;
  let reader: string;
  let ustaz: string;

  beforeAll(async () => {
    server = await startTestServer(store);
    await server.addUser('reader', PASSWORD);
    await server.addUser('teacher', PASSWORD);
    reader = ((await (await server.login('reader', PASSWORD)).json()) as { access_token: string }).access_token;
    ustaz = ((await (await server.login('teacher', PASSWORD)).json()) as { access_token: string }).access_token;
    // As instances serving these models record them when they start.
    await recordServedModels(server.db, ['BGE small', 'UAE large']);
  });
  afterAll(() => server.close());

  const vote = (round: string, label: 'A' | 'B', model: string, reaction: string, userType: string, text = `text ${model}`) => ({
    user_type: userType,
    username: 'x',
    query: 'q',
    retrieved_text: text,
    model_type: model,
    result_label: label,
    reaction,
    confidence_score: 0.5,
    client_id: randomUUID(),
    round_id: round,
  });

  it('answers 401 without a token', async () => {
    expect((await server.api('/api/stats')).status).toBe(401);
  });

  it('reports every reader’s votes by model: reactions, wins, ties, losses and intervals', async () => {
    const r1 = randomUUID();
    const r2 = randomUUID();
    const r3 = randomUUID();
    await server.api('/api/save', { token: reader, json: { items: [vote(r1, 'A', 'BGE small', '👍', 'Enthusiast'), vote(r1, 'B', 'UAE large', '👎', 'Enthusiast')] } });
    await server.api('/api/save', { token: ustaz, json: { items: [vote(r2, 'A', 'UAE large', '👍', 'Ustaz'), vote(r2, 'B', 'BGE small', '🤷', 'Ustaz')] } });
    await server.api('/api/save', {
      token: ustaz,
      json: { items: [vote(r3, 'A', 'UAE large', '👍', 'Ustaz', 'same'), vote(r3, 'B', 'BGE small', '👎', 'Ustaz', 'same')] },
    });
    const res = await server.api('/api/stats', { token: reader });
    expect(res.status).toBe(200);
    const stats = (await res.json()) as {
      rounds: Record<string, number>;
      models: Array<{ model: string; comparison: { wins: number; losses: number; ties: number; byUserType: Record<string, { wins: number }> }; reactions: { total: number } }>;
    };
    expect(stats.rounds).toEqual({ compared: 2, samePassage: 1, oneSided: 0 });
    const bge = stats.models.find((m) => m.model === 'BGE small')!;
    expect(bge.comparison).toMatchObject({ wins: 1, ties: 0, losses: 1 });
    expect(bge.comparison.byUserType.Enthusiast!.wins).toBe(1);
    expect(bge.reactions.total).toBe(3);
  });
});

// On PostgreSQL, where requests reach the store at the same time (the embedded store runs one
// query at a time, in this thread).
describe.runIf(STORES.includes('postgres'))('GET /api/stats asked many times at once', () => {
  it('counts the votes once for all the requests that arrive while it does', async () => {
    const test = await openTestDb('postgres');
    let counts = 0;
    const counted: Db = {
      ...test.db,
      kind: test.db.kind,
      transaction: (work, options) =>
        test.db.transaction(
          (tx) =>
            work({
              ...tx,
              query: (sql, params) => {
                if (sql.includes('DISTINCT ON')) counts += 1;
                return tx.query(sql, params);
              },
            }),
          options,
        ),
      close: () => test.db.close(),
    };
    // Enough votes that counting them takes a while (the answer is worked out in the store).
    await test.db.query(`INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
        retrieved_text, model_type, result_label, reaction, confidence_score)
      SELECT 'reader', gen_random_uuid(), gen_random_uuid(), 'Enthusiast', 'reader', 'q', 'passage ' || g,
             'LSA', 'A', '👍', 0.5 FROM generate_series(1, 20000) AS g`);
    await recordServedModels(test.db, ['LSA']);
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
      await test.db.query(`INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
          retrieved_text, model_type, result_label, reaction, confidence_score)
        VALUES ('reader', gen_random_uuid(), gen_random_uuid(), 'Enthusiast', 'reader', 'q', 'one more', 'LSA', 'A', '👎', 0.5)`);
      const after = (await (await server.api('/api/stats', { token })).json()) as { models: Array<{ model: string; reactions: { total: number } }> };
      expect(counts).toBe(before + 1);
      expect(after.models.find((m) => m.model === 'LSA')!.reactions.total).toBe(20_001);
    } finally {
      await server.close();
      await test.drop();
    }
  });
});
