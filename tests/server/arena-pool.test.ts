import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECIDED_ROUNDS_TTL_MS } from '../../server/modules/arena/decided-rounds.ts';
import { roundReceipt } from '../../server/modules/arena/search-receipt.ts';
import type { Stats } from '../../contract/api-schemas.ts';
import type { RetrievalEngine, SearchResult } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { startTestServer, STORES, TestClock, voteItem, type TestServer } from './harness.ts';

let engine: RetrievalEngine;
beforeAll(async () => {
  engine = await corpusEngine();
});

/** The two models of a `both` search's answer, by id, in name order. */
const pairOf = (results: SearchResult[]) => [...new Set(results.map((r) => r.model))].sort().join(' vs ');

describe.each(STORES)('the arena’s draw (%s store)', (kind) => {
  let first: TestServer;
  let second: TestServer;
  const firstClock = new TestClock();
  const secondClock = new TestClock();
  let token: string;

  beforeAll(async () => {
    first = await startTestServer(kind, { extra: { engine, now: firstClock.now } });
    // Another instance on the same store.
    second = await startTestServer(kind, { sharedDb: first.db, extra: { engine, now: secondClock.now } });
    await first.addUser('reader', 'reader password 1');
    token = ((await (await first.login('reader', 'reader password 1')).json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const search = async (server: TestServer, query: string) => {
    const res = await server.api('/api/search', { json: { query, top_k: 1 } });
    expect(res.status).toBe(200);
    return (await res.json()) as SearchResult[];
  };

  /** The first passage `model` shows for `query`. */
  const firstOf = async (model: string, query: string) =>
    ((await (await first.api('/api/search', { json: { query, top_k: 1, models: model } })).json()) as SearchResult[])[0]!;

  /**
   * A round the reader rated on both sides: `a`'s first passage for the question shown as A, `b`'s
   * as B, with the receipt a search drawing that pair for the reader would have carried.
   */
  const round = async (query: string, a: string, b: string) => {
    const round_id = crypto.randomUUID();
    const [ra, rb] = [await firstOf(a, query), await firstOf(b, query)];
    const receipt = await roundReceipt(first.db, 'reader', query, [ra.model_type, rb.model_type], [ra.id, rb.id], Date.now());
    const side = (result: SearchResult, result_label: 'A' | 'B', reaction: string) =>
      voteItem({ query, model_type: result.model_type, retrieved_text: result.text, result_label, reaction, round_id, client_id: crypto.randomUUID(), receipt });
    return [side(ra, 'A', '👍'), side(rb, 'B', '👎')];
  };

  it('draws two different models of the pool for each search: the same question asked again is not pinned to one pair', async () => {
    const pairs = new Set<string>();
    for (let i = 0; i < 30; i++) pairs.add(pairOf(await search(first, 'the mirror of the heart')));
    // With no votes yet every pair is tied, and each is drawn (3 pairs in 30 draws: all but surely).
    expect([...pairs].sort()).toEqual(['bm25 vs lsa-96', 'bm25 vs sif-150', 'lsa-96 vs sif-150']);
  });

  it('draws the pair with the fewest decided rounds, as counted in the store every instance shares', async () => {
    // This instance has read the counts (none) on its first search.
    await search(second, 'the mirror of the heart');
    // Each arm shows a passage of its own for this question; all three the same one for the other.
    const distinct = 'hypocrisy';
    const shared = 'blind men and the elephant';
    const items = [
      ...(await round(distinct, 'lsa-96', 'sif-150')),
      ...(await round(distinct, 'bm25', 'lsa-96')),
      // The same passage from both: counted apart, not as a comparison.
      ...(await round(shared, 'sif-150', 'bm25')),
    ];
    expect(items[4]!.retrieved_text).toBe(items[5]!.retrieved_text);
    const saved = await first.api('/api/save', { token, json: { items } });
    expect(await saved.json()).toEqual({ saved: 6, duplicates: 0 });
    const stats = (await (await first.api('/api/stats', { token })).json()) as Stats;
    expect(stats.rounds).toMatchObject({ compared: 2, samePassage: 1 });
    // Within the counts' lifetime the other instance may still draw any pair; after it, only
    // the pair without a decided round (the count is read again behind a search).
    secondClock.advance(DECIDED_ROUNDS_TTL_MS / 1000);
    // the pair without a decided round (the count is read again behind a search): ten draws in a
    // row of one pair of three, by chance, would be one in 20,000.
    const tenDraws = async () => {
      const pairs = new Set<string>();
      for (let i = 0; i < 10; i++) pairs.add(pairOf(await search(second, 'the mirror of the heart')));
      return [...pairs];
    };
    await expect.poll(tenDraws, { interval: 50 }).toEqual(['bm25 vs sif-150']);
    expect(await tenDraws()).toEqual(['bm25 vs sif-150']);
  });

  it('still asks one model alone when given its id', async () => {
    for (const id of ['lsa-96', 'sif-150', 'bm25']) {
      const res = await first.api('/api/search', { json: { query: 'the mirror of the heart', models: id } });
      expect(pairOf((await res.json()) as SearchResult[])).toBe(id);
    }
  });
});
