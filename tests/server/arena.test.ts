import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult, Stats } from '../../contract/api-schemas.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { vectorPairEngine } from './engine-helpers.ts';
import { arenaReaders, STORES, startTestServer, roundVote, type TestServer } from './harness.ts';

const PASSWORD = 'correct horse battery';
const BOUND = 3;
const DAY_MS = 86_400_000;

let engine: RetrievalEngine;
beforeAll(async () => {
  // LSA and SIF only, so that every search draws that pair: the questions below are ones whose
  // two first passages differ (the keyword arm agrees with one of them on some).
  engine = await vectorPairEngine();
});

/**
 * Readers trying to decide the leaderboard alone, against a real server and the real weight-free
 * engine: none of them moves /api/stats beyond one voice; an honest reader's round counts once.
 */
describe.each(STORES)('the arena on %s store, against a stuffing reader', (store) => {
  let server: TestServer;
  const clock = { ms: Date.parse('2026-11-23T09:00:00Z') };
  beforeAll(async () => {
    server = await startTestServer(store, { extra: { engine, dailyRoundBound: BOUND, now: () => clock.ms } });
  });
  afterAll(() => server.close());

  const { reader, save, stats, token, ...readers } = arenaReaders(() => server, PASSWORD);
  /** A reader's search: its results carry the receipt their votes copy. */
  const search = (query: string, name: string) => readers.search(name, query);
  const vote = roundVote;
  /**
   * The first `n` of these questions, with their results, whose two models' first passages differ
   * (and pass `also`): which do changes with the book's glosses, so each test takes them from a
   * list rather than naming them.
   */
  const QUESTIONS = ['hell', 'envy', 'death', 'pride', 'hypocrisy', 'the prophets', 'music and dancing', 'counting the days of one’s life',
    'marriage and its duties', 'patience', 'gratitude', 'anger', 'poverty', 'prayer', 'fasting', 'wealth', 'repentance', 'the angels', 'sleep and dreams',
    'the four elements', 'the ship and the island', 'the lawful and the unlawful', 'divorce', 'the pilgrim and his camel', 'the mirror of the heart',
    'the king and his ministers', 'the vision of God', 'the signs of love', 'astrology', 'the physician', 'travel', 'silence', 'children'];
  const comparable = async (name: string, n: number, also: (results: SearchResult[]) => boolean = () => true) => {
    const found: Array<[string, SearchResult[]]> = [];
    for (const q of QUESTIONS) {
      const results = await search(q, name);
      if (results[0]!.id !== results[1]!.id && also(results)) found.push([q, results]);
      if (found.length === n) return found;
    }
    throw new Error(`only ${found.length} of the questions show two different passages`);
  };
  /**
   * A's and B's votes on a search's first two results (the first of each model), the first
   * preferred. The questions are ones whose two models' first passages differ (a round showing
   * one passage twice has nothing to compare).
   */
  const roundOf = (query: string, [first, second]: SearchResult[], round = randomUUID()) => [
    vote(query, first!, 'A', '👍', round),
    vote(query, second!, 'B', '👎', round),
  ];

  /** What a reader's votes added to the statistics since `before`. */
  function added(before: Stats, after: Stats) {
    const wins = (s: Stats) => s.models.reduce((n, m) => n + m.comparison.wins + m.comparison.ties + m.comparison.losses, 0);
    const reactions = (s: Stats) => s.models.reduce((n, m) => n + m.reactions.total, 0);
    return { compared: after.rounds.compared - before.rounds.compared, sides: wins(after) - wins(before), reactions: reactions(after) - reactions(before) };
  }

  it('counts an honest reader’s round exactly once', async () => {
    const honest = await reader();
    const [[query, results]] = (await comparable(honest, 1)) as [[string, SearchResult[]]];
    const before = await stats();
    expect(await save(honest, roundOf(query, results))).toEqual({ saved: 2, duplicates: 0 });
    expect(added(before, await stats())).toEqual({ compared: 1, sides: 2, reactions: 2 });
  });

  it('counts one real search voted under a hundred round ids, five calls of twenty, as one round', async () => {
    const stuffer = await reader();
    const [[query, results]] = (await comparable(stuffer, 1)) as [[string, SearchResult[]]];
    const before = await stats();
    for (let call = 0; call < 5; call++) {
      const items = Array.from({ length: 10 }, () => roundOf(query, results)).flat();
      // The same two passages under the other labels too: still the same round.
      items.push(...roundOf(query, [results[1]!, results[0]!]).map((item) => ({ ...item, reaction: '👍' })));
      expect(await save(stuffer, items)).toMatchObject({ saved: 22 });
    }
    const after = await stats();
    expect(added(before, after)).toEqual({ compared: 1, sides: 2, reactions: 2 });
    expect(after.rounds.leftOut.repeat - before.rounds.leftOut.repeat).toBe(54);
  });

  it('counts a round sent again and again, and twenty-five 👍 for one passage, once', async () => {
    const stuffer = await reader();
    const [[query, results]] = (await comparable(stuffer, 1)) as [[string, SearchResult[]]];
    const round = randomUUID();
    const before = await stats();
    for (let i = 0; i < 25; i++) await save(stuffer, roundOf(query, results, round));
    expect(added(before, await stats())).toEqual({ compared: 1, sides: 2, reactions: 2 });
  });

  it('leaves out made-up passages (not shown) and another model’s passage under a served name (not its first), counted apart', async () => {
    const stuffer = await reader();
    // A question on which one model's first passage is not among the other's three: `named`, the
    // model whose name a vote borrows, and `other`, the model whose first passage it shows.
    const threeOf = (results: SearchResult[], model: string) => results.filter((r) => r.model === model).map((r) => r.id);
    const notAmong = ([a, b]: SearchResult[], results: SearchResult[]) => !threeOf(results, a!.model).includes(b!.id);
    const [[query, results]] = (await comparable(stuffer, 1, (r) => notAmong(r, r) || notAmong([r[1]!, r[0]!], r))) as [[string, SearchResult[]]];
    const [named, other] = notAmong(results, results) ? results : [results[1]!, results[0]!];
    const before = await stats();
    const forged = randomUUID();
    const borrowed = randomUUID();
    await save(stuffer, [
      // A made-up passage under the first model's name, against the second's real one.
      vote(query, { text: 'Model one is the best model ever made.', model_type: named!.model_type, receipt: named!.receipt }, 'A', '👍', forged),
      vote(query, other!, 'B', '👎', forged),
      // The second model's passage under the first model's name.
      vote(query, { text: other!.text, model_type: named!.model_type, receipt: named!.receipt }, 'A', '👍', borrowed),
      vote(query, other!, 'B', '👎', borrowed),
      // A passage of the book no model shows for this question.
      vote(query, { text: engine.corpus.passages.at(-1)!.text, model_type: named!.model_type, receipt: named!.receipt }, 'A', '👍', randomUUID()),
    ]);
    const after = await stats();
    expect(added(before, after)).toEqual({ compared: 0, sides: 0, reactions: 1 });
    expect(after.leftOutVotes.notShown - before.leftOutVotes.notShown).toBe(1);
    expect(after.leftOutVotes.notFirst - before.leftOutVotes.notFirst).toBe(2);
    expect(after.rounds.leftOut.notShown - before.rounds.leftOut.notShown).toBe(1);
    // The borrowed round, and the lone vote's own round.
    expect(after.rounds.leftOut.notFirst - before.rounds.leftOut.notFirst).toBe(2);
    // All five are stored as sent.
    const mine = (await (await server.api('/api/feedback?limit=10', { token: token(stuffer) })).json()) as unknown[];
    expect(mine).toHaveLength(5);
  });

  it('counts a reader’s first rounds of a day up to the bound, the rest apart; the next day counts again', async () => {
    const stuffer = await reader();
    const questions = await comparable(stuffer, 6);
    const before = await stats();
    for (const [q, results] of questions.slice(0, 5)) await save(stuffer, roundOf(q, results));
    const after = await stats();
    expect(added(before, after)).toMatchObject({ compared: BOUND, sides: 2 * BOUND, reactions: 10 });
    expect(after.rounds.leftOut.overDailyBound - before.rounds.leftOut.overDailyBound).toBe(2);
    expect(after.dailyRoundBound).toBe(BOUND);
    clock.ms += DAY_MS;
    const [q, results] = questions[5]!;
    await save(stuffer, roundOf(q, results));
    expect(added(after, await stats())).toMatchObject({ compared: 1 });
  });

  it('counts votes queued offline and delivered days later, the question however it was spaced and cased', async () => {
    const offline = await reader();
    const [[query, results]] = (await comparable(offline, 1)) as [[string, SearchResult[]]];
    // Spaced and cased otherwise than it was searched: upper case, a tab for its first space, blanks around.
    const items = roundOf(query, results).map((item) => ({ ...item, query: `  ${query.toUpperCase().replace(' ', '\t')}\t` }));
    clock.ms += 5 * DAY_MS;
    const before = await stats();
    await save(offline, items);
    expect(added(before, await stats())).toEqual({ compared: 1, sides: 2, reactions: 2 });
  });
});
