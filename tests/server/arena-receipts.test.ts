import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult, Stats, StoredFeedback } from '../../contract/api-schemas.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';
import { arenaReaders, firstOfEachArm, STORES, startTestServer, roundVote, voteItem, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;
/** Questions whose arms' first passages differ between every two arms of the pool. */
const QUERY = 'hypocrisy';

let engine: RetrievalEngine;
beforeAll(async () => {
  engine = await corpusEngine();
});

/**
 * Only what was shown counts, played through the real API: every vote is stored, and only one
 * for its arm's first passage, in the pair its search drew, with its own unexpired receipt, counts.
 */
describe.each(STORES)('votes and their search’s receipt on %s store', (store) => {
  let server: TestServer;
  const clock = { ms: Date.parse('2026-11-23T09:00:00Z') };
  beforeAll(async () => {
    server = await startTestServer(store, { extra: { engine, now: () => clock.ms } });
  });
  afterAll(() => server.close());

  const { reader, search, save, stats, token } = arenaReaders(() => server, PASSWORD);
  const stored = async (name: string) => (await (await server.api('/api/feedback?limit=100', { token: token(name) })).json()) as StoredFeedback[];
  const firsts = firstOfEachArm;
  const roundOf = (query: string, [a, b]: Array<{ text: string; model_type: string; receipt?: string }>) => {
    const round = randomUUID();
    return [roundVote(query, a!, 'A', '👍', round), roundVote(query, b!, 'B', '👎', round)];
  };
  const notCounted = (s: Stats) => s.leftOutVotes;
  /** A search of QUERY whose two arms' first passages differ (a pool's pairs may agree on one). */
  const distinctDraw = async (name: string) => {
    for (let i = 0; i < 60; i++) {
      const pair = firsts(await search(name, QUERY));
      if (pair[0]!.id !== pair[1]!.id) return pair;
    }
    throw new Error('every draw showed one passage twice');
  };

  it('gives a reader’s drawn search one receipt on both results, and none to a search without a token', async () => {
    const name = await reader();
    const results = await search(name, QUERY);
    expect(new Set(results.map((r) => r.model_type)).size).toBe(2);
    expect(results[0]!.receipt).toMatch(/^v1\./);
    expect(results.every((r) => r.receipt === results[0]!.receipt)).toBe(true);
    expect((await search(null, QUERY)).every((r) => r.receipt === undefined)).toBe(true);
  });

  it('keeps the bytes of a search without a token apart from a reader’s: a receipt never goes to another', async () => {
    const question = 'What happens to envy in the next world?';
    // Anyone's reply first, so that it is the one kept; then a reader's; then anyone's again.
    for (let i = 0; i < 6; i++) expect((await search(null, question)).every((r) => r.receipt === undefined)).toBe(true);
    const name = await reader();
    for (let i = 0; i < 6; i++) expect((await search(name, question)).every((r) => r.receipt?.startsWith('v1.'))).toBe(true);
    for (let i = 0; i < 6; i++) expect((await search(null, question)).every((r) => r.receipt === undefined)).toBe(true);
  });

  it('counts a round with its own receipt for its arms’ first passages, once', async () => {
    const name = await reader();
    const before = await stats(name);
    await save(name, roundOf(QUERY, await distinctDraw(name)));
    const after = await stats(name);
    expect(after.rounds.compared - before.rounds.compared).toBe(1);
    expect(after.leftOut).toBe(before.leftOut);
  });

  it('stores and counts apart a forged receipt, another reader’s, an undrawn arm, a second passage, an expired one and none at all', async () => {
    const [honest, thief] = [await reader(), await reader()];
    const before = await stats(honest);

    // Forged: the receipt's signature changed by one character (and one made up outright).
    const [a, b] = firsts(await search(thief, QUERY));
    const receipt = a!.receipt!;
    const flipped = receipt.slice(0, -2) + (receipt.at(-2) === 'A' ? 'B' : 'A') + receipt.at(-1);
    await save(thief, roundOf(QUERY, [{ ...a!, receipt: flipped }, { ...b!, receipt: 'v1.e30.AAAA' }]));

    // Another reader's receipt: the honest reader's search, the thief's votes.
    const honestResults = firsts(await search(honest, QUERY));
    await save(thief, roundOf(QUERY, honestResults));

    // An arm the draw did not give: a search drawn without LSA, and LSA's first passage voted with its receipt.
    let drawn: SearchResult[] = [];
    for (let i = 0; i < 60 && (drawn.length === 0 || drawn.some((r) => r.model === 'lsa-96')); i++) drawn = firsts(await search(thief, QUERY));
    expect(drawn.some((r) => r.model === 'lsa-96')).toBe(false);
    const [lsa] = await search(null, QUERY, { models: 'lsa-96' });
    await save(thief, roundOf(QUERY, [{ ...lsa!, receipt: drawn[0]!.receipt! }, drawn[1]!]));
    // The same receipt on another question: not drawn for that question either.
    await save(thief, roundOf('music and dancing', drawn));

    // Second passages: a search of three a side, each arm's second voted.
    const three = await search(thief, QUERY, { top_k: 3 });
    const seconds = [...new Set(three.map((r) => r.model_type))].map((m) => three.filter((r) => r.model_type === m)[1]!);
    await save(thief, roundOf(QUERY, seconds));

    // Expired: a search's receipt sent eight days later.
    const old = firsts(await search(thief, QUERY));
    clock.ms += 8 * DAY_MS;
    try {
      await save(thief, roundOf(QUERY, old));
    } finally {
      clock.ms -= 8 * DAY_MS;
    }

    // An older client's votes: no receipt field at all.
    await save(thief, [voteItem({ query: QUERY, retrieved_text: a!.text, model_type: a!.model_type, client_id: randomUUID() })]);

    const after = await stats(honest);
    expect(after.rounds.compared).toBe(before.rounds.compared);
    const out = notCounted(after);
    const was = notCounted(before);
    expect(out.forged - was.forged).toBe(2);
    expect(out.otherReader - was.otherReader).toBe(2);
    // LSA under BM25-against-SIF's receipt (1), and both arms on another question (2).
    expect(out.notDrawn - was.notDrawn).toBe(3);
    expect(out.notFirst - was.notFirst).toBe(2);
    expect(out.expired - was.expired).toBe(2);
    expect(out.noReceipt - was.noReceipt).toBe(1);
    // Every one of them stored, as sent.
    expect(await stored(thief)).toHaveLength(2 + 2 + 2 + 2 + 2 + 2 + 1);
    // The undrawn arm's partner was drawn and first, but its round is left out with it.
    expect(after.rounds.leftOut.notDrawn - before.rounds.leftOut.notDrawn).toBeGreaterThanOrEqual(2);
  });

  it('counts a round the device answered offline when the server works out the same, and marks it', async () => {
    const name = await reader();
    const [lsa] = await search(null, QUERY, { models: 'lsa-96' });
    const [sif] = await search(null, QUERY, { models: 'sif-150' });
    const [bm25] = await search(null, QUERY, { models: 'bm25' });
    const before = await stats(name);
    await save(name, roundOf(QUERY, [{ ...lsa!, receipt: 'device' }, { ...sif!, receipt: 'device' }]));
    const counted = await stats(name);
    expect(counted.rounds.compared - before.rounds.compared).toBe(1);
    expect(counted.rounds.fromDevice - before.rounds.fromDevice).toBe(1);
    // A device answers with LSA and SIF only; and its passages are each arm's first.
    const lsaSecond = (await search(null, QUERY, { models: 'lsa-96', top_k: 2 }))[1]!;
    await save(name, roundOf(QUERY, [{ ...bm25!, receipt: 'device' }, { ...sif!, receipt: 'device' }]));
    await save(name, roundOf(QUERY, [{ ...lsaSecond, receipt: 'device' }, { ...sif!, receipt: 'device' }]));
    const after = await stats(name);
    expect(after.rounds.compared).toBe(counted.rounds.compared);
    expect(after.leftOutVotes.notDrawn - counted.leftOutVotes.notDrawn).toBe(1);
    expect(after.leftOutVotes.notFirst - counted.leftOutVotes.notFirst).toBeGreaterThanOrEqual(1);
  });
});
