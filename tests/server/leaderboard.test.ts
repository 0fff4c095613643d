// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import type { Reaction } from '../../contract/vocabulary.ts';
import { differenceVariance, fitBradleyTerry } from '../../server/modules/arena/stats/bradley-terry.ts';
import { leaderboard, roundsToSeparate } from '../../server/modules/arena/stats/leaderboard.ts';
import type { RoundTally } from '../../server/modules/arena/stats/rounds.ts';
import { Z95 } from '../../server/modules/arena/stats/wilson.ts';

/** `count` rounds of `a` shown as A against `b` as B, rated so, by `reader`. */
const rounds = (a: string, ra: Reaction, b: string, rb: Reaction, count: number, reader = 'r0'): RoundTally => ({
  reader,
  userType: 'Enthusiast',
  a,
  b,
  aReaction: ra,
  bReaction: rb,
  count,
});

/**
 * `first` wins `wins` of `n` rounds against `second`, the rest going the other way; shown either
 * side; the wins spread evenly over the rounds, and the rounds over `readers` readers, each a
 * run of them.
 */
const record = (first: string, second: string, wins: number, n: number, readers = 20): RoundTally[] =>
  Array.from({ length: n }, (_, i) => {
    const won = Math.floor(((i + 1) * wins) / n) > Math.floor((i * wins) / n);
    const reader = `r${Math.floor((i * readers) / n)}`;
    return i % 2 === 0
      ? rounds(first, won ? '👍' : '👎', second, won ? '👎' : '👍', 1, reader)
      : rounds(second, won ? '👎' : '👍', first, won ? '👍' : '👎', 1, reader);
  });

describe('how many more rounds would separate the top two', () => {
  it('says "already separated" when the interval of their difference excludes zero', () => {
    expect(roundsToSeparate({ difference: 1, variance: 0.1, rounds: 50 })).toEqual({ separated: true, moreRounds: null });
    expect(roundsToSeparate({ difference: -1, variance: 0.1, rounds: 50 })).toEqual({ separated: true, moreRounds: null });
  });

  it('gives the fewest more rounds after which, the difference as it is, its interval excludes zero', () => {
    const now = { difference: 0.2, variance: 0.04, rounds: 100 };
    const { separated, moreRounds } = roundsToSeparate(now);
    expect(separated).toBe(false);
    // z² · 0.04 · 100 / 0.04 = 384.1 rounds in all: 285 more.
    expect(moreRounds).toBe(Math.ceil(Z95 * Z95 * 100 - 100));
    const after = (more: number) =>
      roundsToSeparate({ difference: 0.2, variance: (now.variance * now.rounds) / (now.rounds + more), rounds: now.rounds + more });
    expect(after(moreRounds!).separated).toBe(true);
    expect(after(moreRounds! - 1).separated).toBe(false);
  });

  it('gives no number when no difference is seen at all', () => {
    expect(roundsToSeparate({ difference: 0, variance: 0.3, rounds: 40 })).toEqual({ separated: false, moreRounds: null });
  });
});

describe('the leaderboard', () => {
  it('needs two models compared', () => {
    expect(leaderboard([])).toBeNull();
  });

  it('ranks every compared model by strength, with its interval and decided rounds', () => {
    const board = leaderboard([...record('BM25', 'LSA', 12, 40), ...record('LSA', 'SIF', 22, 40), ...record('SIF', 'BM25', 26, 40)])!;
    expect(board.rounds).toBe(120);
    expect(board.arms.map((a) => a.model)).toEqual(['LSA', 'SIF', 'BM25']);
    for (const arm of board.arms) {
      expect(arm.rounds).toBe(80);
      expect(arm.low).toBeLessThanOrEqual(arm.strength);
      expect(arm.high).toBeGreaterThanOrEqual(arm.strength);
    }
  });

  it('gives wins, ties and losses for every ordered pair that met, both ways round', () => {
    const board = leaderboard([rounds('X', '👍', 'Y', '🤷', 3), rounds('Y', '👍', 'X', '👎', 2), rounds('X', '🤷', 'Y', '🤷', 4)])!;
    expect(board.pairs).toEqual([
      { model: 'X', opponent: 'Y', wins: 3, ties: 4, losses: 2 },
      { model: 'Y', opponent: 'X', wins: 2, ties: 4, losses: 3 },
    ]);
  });

  it('does not call two models apart on a few rounds that all went one way, as the bootstrap alone did', () => {
    const few = leaderboard(record('good', 'poor', 2, 2))!;
    expect(few.separation).toMatchObject({ leader: 'good', separated: false });
    expect(few.separation.moreRounds).toBeGreaterThan(0);
    // Twenty of twenty, from twenty readers, are another matter.
    expect(leaderboard(record('good', 'poor', 20, 20))!.separation.separated).toBe(true);
  });

  it('says the top two are separated when one wins 9 rounds in 10, and not yet at 6 in 10, with how many more rounds would do', () => {
    const clear = leaderboard(record('good', 'poor', 90, 100))!;
    expect(clear.separation).toMatchObject({ leader: 'good', runnerUp: 'poor', separated: true, moreRounds: null });
    expect(clear.separation.low).toBeGreaterThan(0);

    const close = leaderboard(record('good', 'poor', 12, 20))!;
    expect(close.separation).toMatchObject({ leader: 'good', runnerUp: 'poor', separated: false });
    expect(close.separation.low).toBeLessThan(0);
    const more = close.separation.moreRounds!;
    expect(more).toBeGreaterThan(0);
    // The same 6 in 10, over somewhat more rounds than it said (enough to hold without the three
    // most influential of the 20 readers, whose rounds the interval then lacks), are separated.
    const n = Math.ceil(((20 + more) * 1.6) / 10) * 10;
    expect(leaderboard(record('good', 'poor', (n * 6) / 10, n))!.separation.separated).toBe(true);
  });
});

describe('the variance of two models’ difference, from the fit', () => {
  it('is about 1 / (n p (1 - p)) for two models that met n times, p the share one won', () => {
    const comparisons = [...Array.from({ length: 60 }, () => ({ first: 'g', second: 'p', score: 1 })), ...Array.from({ length: 40 }, () => ({ first: 'g', second: 'p', score: 0 }))];
    const variance = differenceVariance(fitBradleyTerry(['g', 'p'], comparisons), comparisons, 'g', 'p');
    expect(variance).toBeCloseTo(1 / (100 * 0.6 * 0.4), 2);
    expect(differenceVariance(fitBradleyTerry(['g', 'p'], comparisons), comparisons, 'p', 'g')).toBeCloseTo(variance, 12);
  });
});
