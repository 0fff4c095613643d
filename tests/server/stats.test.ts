import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackItem, Stats } from '../../contract/api-schemas.ts';
import type { Reaction, UserType } from '../../contract/vocabulary.ts';
import { bootstrapBradleyTerry, fitBradleyTerry } from '../../server/modules/arena/stats/bradley-terry.ts';
import { BRADLEY_TERRY_MAX_MODELS, computeStats } from '../../server/modules/arena/stats/model-stats.ts';
import { outcomeForA } from '../../server/modules/arena/stats/rounds.ts';
import { wilsonInterval } from '../../server/modules/arena/stats/wilson.ts';
import type { Db } from '../../server/platform/store/db.ts';
import { saveFeedback, tallyVotes, type CheckedFeedback } from '../../server/modules/arena/sql/feedback.ts';
import { questionId } from '../../server/modules/arena/question.ts';
import { drawnPairOf } from '../../server/modules/arena/vote-check.ts';
import { rebuildTallies } from '../../server/modules/arena/sql/tallies.ts';
import type { Verdict } from '../../server/modules/arena/shown-check.ts';
import { openTestDb, type TestDb } from './harness.ts';

let votesMade = 0;
let rounds = 0;
/** One vote; client_ids increase, so votes are stored in the order they are made. */
function vote(roundId: string, label: 'A' | 'B', model: string, reaction: Reaction, userType: UserType, passage: string): FeedbackItem {
  const n = String(++votesMade).padStart(12, '0');
  return {
    client_id: `00000000-0000-4000-8000-${n}`,
    round_id: `00000000-0000-4000-9000-${roundId.padStart(12, '0')}`,
    result_label: label,
    model_type: model,
    reaction,
    user_type: userType,
    username: 'reader',
    // A question of its own for each round: the same question, models and passages again would be the same round.
    query: `question ${roundId}`,
    retrieved_text: passage,
    confidence_score: 0.5,
  };
}

/** Two votes of one round: model `a` shown as A, model `b` as B. */
function round(a: string, ra: Reaction, b: string, rb: Reaction, options: { userType?: UserType; same?: boolean } = {}): FeedbackItem[] {
  const id = String(++rounds);
  const userType = options.userType ?? 'Enthusiast';
  return [vote(id, 'A', a, ra, userType, 'passage one'), vote(id, 'B', b, rb, userType, options.same ? 'passage one' : 'passage two')];
}

/** A vote on one label of a round of its own. */
const lone = (model: string, reaction: Reaction, userType: UserType) => vote(String(++rounds), 'A', model, reaction, userType, 'x');

let db: Db;
let test: TestDb;
beforeAll(async () => {
  test = await openTestDb('embedded');
  db = test.db;
});
afterAll(() => test.drop());

/** The bound the tests count under, unless they say otherwise. */
const BOUND = 1000;

/** A vote with its verdict, as the service saves it: a passage's id is its text here. */
function checked(item: FeedbackItem, verdict: Verdict = 'shown'): CheckedFeedback {
  return { ...item, questionId: questionId(item.query), passageId: item.retrieved_text.trim(), passageSet: 'now', passageSha256: null, verdict };
}

/**
 * Stores votes 50 to a batch, as the client sends them, those for `served` models shown by them,
 * each round drawn by the server for the two models its votes name (as its receipt would say).
 */
async function store(author: string, items: FeedbackItem[], served?: string[], savedAt = new Date()): Promise<void> {
  const models = new Map<string, string[]>();
  for (const item of items) models.set(item.round_id!, [...(models.get(item.round_id!) ?? []), item.model_type]);
  const pairOf = (item: FeedbackItem) => {
    const [a, b = a] = models.get(item.round_id!)!;
    return drawnPairOf(a!, b!);
  };
  const batch = items.map((item) => ({
    ...checked(item, !served || served.includes(item.model_type) ? 'shown' : 'unknown-model'),
    drawnBy: 'server' as const,
    drawnPair: pairOf(item),
  }));
  for (let i = 0; i < batch.length; i += 50) await saveFeedback(db, author, batch.slice(i, i + 50), savedAt);
}

/** No vote stored, and no tally left of any. */
async function emptyStore(bound = BOUND): Promise<void> {
  await db.query('DELETE FROM arena_pending');
  await db.query('DELETE FROM feedback');
  await db.transaction((tx) => rebuildTallies(tx, bound));
}

/**
 * The statistics of exactly these votes, stored and counted by the store, the models `served`
 * (by default, every model they name) showing their passages.
 */
async function statsOf(items: FeedbackItem[], served?: string[], bound = BOUND): Promise<Stats> {
  await emptyStore(bound);
  await store('reader', items, served);
  return computeStats(await tallyVotes(db, bound), bound);
}

const NO_REASONS = { notShown: 0, unknownModel: 0, unchecked: 0, noReceipt: 0, forged: 0, expired: 0, otherReader: 0, notDrawn: 0, notFirst: 0 };
const NOTHING_LEFT_OUT = { repeat: 0, overDailyBound: 0, ...NO_REASONS };

describe('Wilson interval', () => {
  it('matches Newcombe’s (1998) worked example: 81 of 263 gives 0.2553 to 0.3662', () => {
    const ci = wilsonInterval(81, 263)!;
    expect(ci.low).toBeCloseTo(0.2553, 4);
    expect(ci.high).toBeCloseTo(0.3662, 4);
  });

  it('stays inside [0, 1] at the extremes, and is undefined with no trials', () => {
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(10, 10)!.high).toBeCloseTo(1, 12);
    expect(wilsonInterval(10, 10)!.low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('round pairing', () => {
  it('pairs A and B of a round, ranks 👍 > 🤷 > 👎, and leaves one-sided rounds out', async () => {
    const stats = await statsOf([...round('BGE', '👍', 'UAE', '🤷'), ...round('BGE', '👎', 'UAE', '👎'), ...round('UAE', '🤷', 'BGE', '👍'), lone('BGE', '👍', 'Ustaz')]);
    expect(stats.rounds).toEqual({ compared: 3, fromDevice: 0, samePassage: 0, oneSided: 1, leftOut: NOTHING_LEFT_OUT });
    expect(stats.models.find((m) => m.model === 'BGE')!.comparison).toMatchObject({ wins: 2, ties: 1, losses: 0 });
    expect(outcomeForA({ aReaction: '🤷', bReaction: '👎' })).toBe('win');
  });

  it('marks rounds whose two passages were the same, whatever spaces stand at their ends', async () => {
    const [a, b] = round('BGE', '👍', 'UAE', '👎');
    const stats = await statsOf([a!, { ...b!, retrieved_text: '  passage one ' }]);
    expect(stats.rounds).toMatchObject({ compared: 0, samePassage: 1, oneSided: 0 });
  });

  it('pairs only one reader’s votes: another reader voting under the same round id neither completes nor pre-empts it', async () => {
    const [a, b] = round('BGE', '👍', 'UAE', '👎');
    await emptyStore();
    await store('reader', [a!]);
    // Another reader sends the other half, then votes on A first (under the same id) as well.
    await store('intruder', [b!]);
    const alone = computeStats(await tallyVotes(db, BOUND), BOUND);
    expect(alone.rounds).toMatchObject({ compared: 0, samePassage: 0, oneSided: 2 });
    await emptyStore();
    const first = { ...a!, client_id: vote('0', 'A', 'x', '👎', 'Enthusiast', 'x').client_id, reaction: '👎' as const, model_type: 'UAE' };
    await store('intruder', [first]);
    await store('reader', [a!, b!]);
    const stats = computeStats(await tallyVotes(db, BOUND), BOUND);
    expect(stats.rounds).toMatchObject({ compared: 1, samePassage: 0, oneSided: 1 });
    expect(stats.models.find((m) => m.model === 'BGE')!.comparison).toMatchObject({ wins: 1, ties: 0, losses: 0 });
  });

  it('counts a label’s newest vote when it was rated twice, and its reaction once', async () => {
    const [a, b] = round('BGE', '👍', 'UAE', '👎');
    const again = { ...a!, client_id: vote('0', 'A', 'x', '👍', 'Enthusiast', 'x').client_id, reaction: '👎' as const };
    const stats = await statsOf([a!, b!, again]);
    expect(stats.models.find((m) => m.model === 'BGE')!.comparison).toMatchObject({ wins: 0, ties: 1, losses: 0 });
    expect(stats.models.find((m) => m.model === 'BGE')!.reactions).toMatchObject({ '👍': 0, '👎': 1, total: 1 });
    expect(stats.leftOutVotes).toEqual({ ...NO_REASONS, repeat: 1 });
  });
});

describe('one voice per reader per round', () => {
  /** The same round (question, models, passages) under a new round id, its labels swapped when `swap`. */
  function sameRound(ra: Reaction, rb: Reaction, swap = false): FeedbackItem[] {
    const [a, b] = round('LSA', ra, 'SIF', rb);
    const base = { query: 'What is patience?' };
    const A = { ...a!, ...base, retrieved_text: 'passage of LSA' };
    const B = { ...b!, ...base, retrieved_text: 'passage of SIF' };
    if (!swap) return [A, B];
    // The client draws A and B at random: LSA's passage shown as B is still the same round.
    return [{ ...B, result_label: 'A' as const, reaction: rb }, { ...A, result_label: 'B' as const, reaction: ra }];
  }
  const lsa = (stats: Stats) => stats.models.find((m) => m.model === 'LSA')!;

  it('counts a round sent under twenty round ids, A and B either way round, once: the newest', async () => {
    const items: FeedbackItem[] = [];
    for (let i = 0; i < 19; i++) items.push(...sameRound('👍', '👎', i % 2 === 1));
    items.push(...sameRound('👎', '👍', true));
    const stats = await statsOf(items);
    expect(stats.rounds).toEqual({ compared: 1, fromDevice: 0, samePassage: 0, oneSided: 0, leftOut: { ...NOTHING_LEFT_OUT, repeat: 19 } });
    expect(lsa(stats).comparison).toMatchObject({ wins: 0, ties: 0, losses: 1 });
    expect(lsa(stats).reactions).toMatchObject({ '👍': 0, '👎': 1, total: 1 });
    expect(stats.votes).toBe(2);
    expect(stats.leftOutVotes.repeat).toBe(38);
  });

  it('counts the same round once for each reader who decided it', async () => {
    await emptyStore();
    await store('reader', sameRound('👍', '👎'));
    await store('other', sameRound('👍', '👎'));
    expect(lsa(computeStats(await tallyVotes(db, BOUND), BOUND)).comparison).toMatchObject({ wins: 2, losses: 0 });
  });

  it('counts a reader’s first rounds of a day up to the bound, the rest apart, and the next day afresh', async () => {
    await emptyStore();
    const day = Date.parse('2026-11-23T09:00:00Z');
    for (let i = 0; i < 5; i++) await store('reader', round('LSA', '👍', 'SIF', '👎'), undefined, new Date(day + i * 60_000));
    await store('other', round('LSA', '👎', 'SIF', '👍'), undefined, new Date(day));
    await store('reader', round('LSA', '👍', 'SIF', '👎'), undefined, new Date(day + 86_400_000));
    const stats = computeStats(await tallyVotes(db, 3), 3);
    expect(stats.rounds).toEqual({ compared: 5, fromDevice: 0, samePassage: 0, oneSided: 0, leftOut: { ...NOTHING_LEFT_OUT, overDailyBound: 2 } });
    expect(lsa(stats).comparison).toMatchObject({ wins: 4, losses: 1 });
    expect(stats.dailyRoundBound).toBe(3);
    // Their reactions all count: the bound is on the comparison.
    expect(lsa(stats).reactions.total).toBe(7);
  });

  it('decides nothing from two sides the service never shows together: two questions are two rounds, one model on both sides one arm', async () => {
    // A round is a reader's question under one drawn pair (docs/arena.md): each side here is a round of one arm rated.
    const [a, b] = round('LSA', '👍', 'SIF', '👎');
    const [c, d] = round('LSA', '👍', 'LSA', '👎');
    const stats = await statsOf([a!, { ...b!, query: 'another question' }, c!, d!]);
    expect(stats.rounds).toEqual({ compared: 0, fromDevice: 0, samePassage: 0, oneSided: 3, leftOut: NOTHING_LEFT_OUT });
  });

  it('leaves out a round with a side its model did not show, and counts that vote apart', async () => {
    await emptyStore();
    const [a, b] = round('LSA', '👍', 'SIF', '👎');
    const drawn = { drawnBy: 'server' as const, drawnPair: drawnPairOf('LSA', 'SIF') };
    await saveFeedback(db, 'reader', [{ ...checked(a!), ...drawn }, { ...checked(b!, 'not-shown'), ...drawn }]);
    const stats = computeStats(await tallyVotes(db, BOUND), BOUND);
    expect(stats.rounds.leftOut).toEqual({ ...NOTHING_LEFT_OUT, notShown: 1 });
    expect(stats).toMatchObject({ votes: 1, leftOut: 1, leftOutVotes: { repeat: 0, notShown: 1, unknownModel: 0, unchecked: 0 } });
  });
});

describe('computeStats', () => {
  let stats: Stats;
  beforeAll(async () => {
    stats = await statsOf([
      ...round('BGE', '👍', 'UAE', '🤷'), // BGE wins
      ...round('UAE', '👎', 'BGE', '🤷'), // BGE wins
      ...round('BGE', '🤷', 'UAE', '🤷'), // tie
      ...round('UAE', '👍', 'BGE', '👎', { userType: 'Ustaz' }), // UAE wins
      ...round('BGE', '👍', 'UAE', '👎', { same: true }), // same passage: apart
      lone('UAE', '👍', 'Ustaz'),
    ]);
  });
  const model = (name: string) => stats.models.find((m) => m.model === name)!;

  it('counts rounds: compared, same-passage and one-sided', () => {
    expect(stats.votes).toBe(11);
    expect(stats.rounds).toEqual({ compared: 4, fromDevice: 0, samePassage: 1, oneSided: 1, leftOut: NOTHING_LEFT_OUT });
  });

  it('counts every vote’s reaction per model, overall and per user type', () => {
    expect(model('BGE').reactions).toMatchObject({ '👍': 2, '🤷': 2, '👎': 1, total: 5 });
    expect(model('BGE').reactions.byUserType.Ustaz).toEqual({ '👍': 0, '🤷': 0, '👎': 1, total: 1 });
    expect(model('UAE').reactions).toMatchObject({ '👍': 2, '🤷': 2, '👎': 2, total: 6 });
  });

  it('gives wins, ties and losses with the win rate over decisive rounds and its Wilson interval', () => {
    const bge = model('BGE');
    expect(bge.comparison).toMatchObject({ wins: 2, ties: 1, losses: 1, winRate: 2 / 3 });
    expect(bge.comparison.interval).toEqual(wilsonInterval(2, 3));
    expect(model('UAE').comparison).toMatchObject({ wins: 1, ties: 1, losses: 2, winRate: 1 / 3 });
    expect(bge.comparison.byUserType.Ustaz).toMatchObject({ wins: 0, ties: 0, losses: 1, winRate: 0 });
    expect(bge.comparison.byUserType.Enthusiast).toMatchObject({ wins: 2, ties: 1, losses: 0, winRate: 1 });
  });

  it('ranks the compared models on a leaderboard of their decided rounds, same-passage rounds left out', () => {
    expect(stats.leaderboard!.rounds).toBe(4);
    expect(stats.leaderboard!.arms.map((m) => [m.model, m.rounds])).toEqual([['BGE', 4], ['UAE', 4]]);
    expect(stats.leaderboard!.pairs).toEqual([
      { model: 'BGE', opponent: 'UAE', wins: 2, ties: 1, losses: 1 },
      { model: 'UAE', opponent: 'BGE', wins: 1, ties: 1, losses: 2 },
    ]);
    expect(stats.leaderboard!.separation).toMatchObject({ leader: 'BGE', runnerUp: 'UAE', separated: false });
  });

  it('fits Bradley–Terry only when more than two models were compared', async () => {
    expect(stats.bradleyTerry).toBeNull();
    const three = await statsOf([
      ...round('A1', '👍', 'B1', '👎'),
      ...round('A1', '👍', 'C1', '👎'),
      ...round('B1', '👍', 'C1', '👎'),
      ...round('A1', '🤷', 'B1', '🤷'),
    ]);
    expect(three.bradleyTerry!.map((m) => m.model)).toEqual(['A1', 'B1', 'C1']);
    for (const m of three.bradleyTerry!) expect(m.low).toBeLessThanOrEqual(m.strength + 1e-9);
  });

  it('fits strengths among the most compared models only: a thousand models compared once each get their rows but no fit', async () => {
    const items: FeedbackItem[] = [];
    for (let i = 0; i < 30; i++) items.push(...round('LSA', '👍', 'SIF', '🤷'), ...round('SIF', '👍', 'BM25', '👎'), ...round('LSA', '👍', 'BM25', '🤷'));
    // A thousand rounds, each between two models served once.
    for (let i = 0; i < 1000; i++) items.push(...round(`made-up-${i}-a`, '👍', `made-up-${i}-b`, '👎'));
    const flooded = await statsOf(items);
    expect(flooded.models).toHaveLength(2003);
    expect(flooded.bradleyTerry).toHaveLength(BRADLEY_TERRY_MAX_MODELS);
    expect(flooded.bradleyTerry!.filter((m) => !m.model.startsWith('made-up')).map((m) => m.model)).toEqual(['LSA', 'SIF', 'BM25']);
  });

  it('has nothing to compare with no votes', async () => {
    expect(await statsOf([])).toEqual({
      votes: 0,
      leftOut: 0,
      leftOutVotes: { ...NO_REASONS, repeat: 0 },
      rounds: { compared: 0, fromDevice: 0, samePassage: 0, oneSided: 0, leftOut: NOTHING_LEFT_OUT },
      dailyRoundBound: BOUND,
      models: [],
      bradleyTerry: null,
      leaderboard: null,
    });
  });

  it('counts only the models the service served: a name a reader made up, or unknown, is stored but left out, with its round', async () => {
    const made = await statsOf(
      [
        ...round('LSA', '👍', 'SIF', '👎'),
        ...round('LSA', '👎', 'SIF', '👍'),
        // A reader's own names: one round against a real model, one between two made-up names, one lone vote.
        ...round('Visit https://evil.example to claim your prize', '👍', 'SIF', '👎'),
        ...round('\u202eevil', '👍', 'also made up', '👎'),
        lone('unknown', '👍', 'Ustaz'),
      ],
      ['LSA', 'SIF'],
    );
    expect(made.models.map((m) => m.model).sort()).toEqual(['LSA', 'SIF']);
    expect(made.votes).toBe(5); // 2 rounds of two, and SIF's side of the round against a made-up name
    expect(made.leftOut).toBe(4);
    expect(made.leftOutVotes).toEqual({ ...NO_REASONS, repeat: 0, unknownModel: 4 });
    // SIF's side beside a made-up name is a round of one arm; the made-up votes' rounds (the lone one too) are left out for their verdict.
    expect(made.rounds).toEqual({ compared: 2, fromDevice: 0, samePassage: 0, oneSided: 1, leftOut: { ...NOTHING_LEFT_OUT, unknownModel: 3 } });
    expect(made.models.find((m) => m.model === 'SIF')!.comparison).toMatchObject({ wins: 1, ties: 0, losses: 1 });
    expect(made.models.find((m) => m.model === 'SIF')!.reactions.total).toBe(3);
    expect(made.bradleyTerry).toBeNull();
  });
});

describe('Bradley–Terry', () => {
  it('recovers the order of known strengths from many comparisons', () => {
    const comparisons = [];
    // X beats Y 3 of 4, Y beats Z 3 of 4, X beats Z 9 of 10.
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'X', second: 'Y', score: i % 4 === 0 ? 0 : 1 });
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'Y', second: 'Z', score: i % 4 === 0 ? 0 : 1 });
    for (let i = 0; i < 40; i++) comparisons.push({ first: 'X', second: 'Z', score: i % 10 === 0 ? 0 : 1 });
    const s = fitBradleyTerry(['X', 'Y', 'Z'], comparisons);
    expect(s.get('X')! / s.get('Y')!).toBeGreaterThan(2);
    expect(s.get('Y')! / s.get('Z')!).toBeGreaterThan(2);
    const boot = bootstrapBradleyTerry(['X', 'Y', 'Z'], comparisons, 100, 7);
    expect(boot.get('X')!.low).toBeGreaterThan(boot.get('Z')!.high);
  });
});
