import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult, Stats } from '../../contract/api-schemas.ts';
import { loadQuestions } from '../../server/eval/evaluate.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { vectorPairEngine } from './engine-helpers.ts';
import { STORES, startTestServer, roundVote, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';
/** Rounds each reader plays: one question each, all on one day, below the daily bound. */
const ROUNDS = 12;

let engine: RetrievalEngine;
let questions: string[];
beforeAll(async () => {
  // LSA and SIF only: every search draws that pair.
  engine = await vectorPairEngine();
  questions = [];
  for (const { query } of await loadQuestions()) {
    const results = await engine.search(query, 1, ['lsa-96', 'sif-150']);
    if (results.length === 2 && results[0]!.id !== results[1]!.id) questions.push(query);
    if (questions.length === ROUNDS) break;
  }
});

/**
 * A group of accounts of one person against honest readers, through the real API, receipts and
 * all (issue 41): ten honest readers prefer LSA, 9 rounds in 12 each; then accounts of one person
 * join, one by one, each voting SIF in every round. SIF is never called ahead; LSA is while the
 * honest readers stand alone.
 */
describe.each(STORES)('a group of accounts on %s store', (store) => {
  let server: TestServer;
  let viewer = '';

  beforeAll(async () => {
    server = await startTestServer(store, { extra: { engine } });
  });
  afterAll(() => server.close());

  /** A new reader plays ROUNDS rounds, each a search of its own and a vote on its two first passages; `prefersLsa(i)` says who wins round i. */
  async function play(prefersLsa: (round: number) => boolean): Promise<void> {
    const { token } = await server.newReader(PASSWORD);
    viewer ||= token;
    const items = [];
    for (const [i, query] of questions.entries()) {
      const results = (await (await server.api('/api/search', { json: { query, top_k: 1 }, token })).json()) as SearchResult[];
      const [lsa, sif] = [results.find((r) => r.model === 'lsa-96')!, results.find((r) => r.model === 'sif-150')!];
      const round = randomUUID();
      const lsaWins = prefersLsa(i);
      items.push(roundVote(query, lsa, 'A', lsaWins ? '👍' : '👎', round), roundVote(query, sif, 'B', lsaWins ? '👎' : '👍', round));
    }
    const res = await server.api('/api/save', { token, json: { items } });
    expect(res.status).toBe(200);
  }
  const separation = async () => ((await (await server.api('/api/stats', { token: viewer })).json()) as Stats).leaderboard!.separation;
  const lsaName = () => engine.pool().find((arm) => arm.id === 'lsa-96')!.modelType;

  it('never calls the group’s arm ahead, and finds the honest readers’ preference without it', async () => {
    // The statistics may be served a while from before the last votes when they are costly (stats-cache.ts): wait for them.
    const after = (readers: number) => expect.poll(separation, { timeout: 30_000, interval: 200 }).toMatchObject({ readers });
    for (let reader = 0; reader < 10; reader++) await play((i) => i % 10 < 7);
    await after(10);
    const honest = await separation();
    expect(honest).toMatchObject({ leader: lsaName(), verdict: 'separated', separated: true, readers: 10 });

    for (let account = 1; account <= 6; account++) {
      await play(() => false);
      await after(10 + account);
      const now = await separation();
      expect(now.separated && now.leader !== lsaName(), `${account} accounts: ${JSON.stringify(now)}`).toBe(false);
      expect(now.readers).toBe(10 + account);
    }
  });
});
