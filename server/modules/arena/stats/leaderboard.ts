import type { Leaderboard } from '../../../../contract/api-schemas.ts';
import { bootstrapFit, differenceVariance, type Comparison } from './bradley-terry.ts';
import { flipOutcome, outcomeForA, type Outcome, type RoundTally } from './rounds.ts';
import { Z95 } from './wilson.ts';

/**
 * The strengths are fitted among the models in the most compared rounds, at most this many: a
 * deployment compares a handful, and a model name is whatever a client sent, so thousands of
 * made-up names must not cost thousands of fitted strengths (a bootstrap of 200 fits each).
 */
export const BRADLEY_TERRY_MAX_MODELS = 12;

/** The models in the most compared rounds (ties by name), at most `max`, sorted by name. */
function mostCompared(compared: readonly RoundTally[], max: number): string[] {
  const rounds = new Map<string, number>();
  for (const r of compared) for (const m of [r.a, r.b]) rounds.set(m, (rounds.get(m) ?? 0) + r.count);
  return [...rounds]
    .sort(([m1, n1], [m2, n2]) => n2 - n1 || (m1 < m2 ? -1 : 1))
    .slice(0, max)
    .map(([m]) => m)
    .sort();
}

/** Whether the interval of the top two's difference excludes zero, and if not, how many more decided rounds would make it. */
export interface SeparationOutlook {
  separated: boolean;
  /** Null when already separated, or when no number of rounds would do on this estimate (no difference at all). */
  moreRounds: number | null;
}

/**
 * How many more decided rounds would separate two models at 95%: from the current estimate of
 * their difference (`difference`, in log strength) and its variance after `rounds` decided
 * rounds. The variance of an estimate from n rounds goes as 1/n, so after n + m rounds it is
 * variance × n / (n + m), and the interval difference ± z·√that excludes zero once
 * n + m > z² · variance · n / difference². Assumes the difference stays as estimated and the
 * new rounds are spread over the pairs as the old ones were (the draw keeps them balanced).
 */
export function roundsToSeparate({ difference, variance, rounds }: { difference: number; variance: number; rounds: number }, z = Z95): SeparationOutlook {
  if (Math.abs(difference) > z * Math.sqrt(variance)) return { separated: true, moreRounds: null };
  if (difference === 0 || rounds <= 0 || !Number.isFinite(variance)) return { separated: false, moreRounds: null };
  const needed = (z * z * variance * rounds) / (difference * difference);
  return { separated: false, moreRounds: Math.max(1, Math.ceil(needed - rounds)) };
}

const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/**
 * The leaderboard: every compared model's Bradley–Terry strength with its 95% bootstrap
 * interval, its decided rounds, the pairwise record of every ordered pair that met, and how sure
 * the order of the top two is. Null with fewer than two models compared.
 */
export function leaderboard(compared: readonly RoundTally[]): Leaderboard | null {
  const models = mostCompared(compared, BRADLEY_TERRY_MAX_MODELS);
  if (models.length < 2) return null;
  const among = new Set(models);
  const rounds = compared.filter((r) => among.has(r.a) && among.has(r.b));

  // One comparison per round, each group's rounds sharing one object.
  const comparisons: Comparison[] = [];
  const roundsOf = new Map<string, number>();
  const pairs = new Map<string, Leaderboard['pairs'][number]>();
  const tally = (model: string, opponent: string, outcome: Outcome, count: number) => {
    const key = `${model}\u0000${opponent}`;
    const record = pairs.get(key) ?? { model, opponent, wins: 0, ties: 0, losses: 0 };
    record[outcome === 'win' ? 'wins' : outcome === 'tie' ? 'ties' : 'losses'] += count;
    pairs.set(key, record);
  };
  for (const r of rounds) {
    const o = outcomeForA(r);
    const comparison = { first: r.a, second: r.b, score: o === 'win' ? 1 : o === 'tie' ? 0.5 : 0 };
    for (let i = 0; i < r.count; i++) comparisons.push(comparison);
    for (const m of [r.a, r.b]) roundsOf.set(m, (roundsOf.get(m) ?? 0) + r.count);
    tally(r.a, r.b, o, r.count);
    tally(r.b, r.a, flipOutcome(o), r.count);
  }

  const { strengths, samples } = bootstrapFit(models, comparisons);
  const arms = [...strengths]
    .map(([model, s]) => ({ model, ...s, rounds: roundsOf.get(model) ?? 0 }))
    .sort((x, y) => y.strength - x.strength || (x.model < y.model ? -1 : 1));

  // The top two's difference in log strength (the log odds that the leader wins a round against
  // the runner-up), its variance, and the normal interval from it. The variance is the larger of
  // the bootstrap's spread and the fit's Wald variance: the bootstrap's collapses when a few
  // rounds all went one way (2 rounds won of 2 looked "separated"), the Wald variance does not;
  // with many rounds the two agree (6 wins in 10 over 100 rounds: 0.043 and 0.041).
  const [leader, runnerUp] = arms as [(typeof arms)[number], (typeof arms)[number]];
  const difference = Math.log(leader.strength / runnerUp.strength);
  const leaderSamples = samples.get(leader.model)!;
  const differences = samples.get(runnerUp.model)!.map((s, r) => Math.log(leaderSamples[r]! / s));
  const centre = mean(differences);
  const spread = differences.length > 1 ? differences.reduce((sum, d) => sum + (d - centre) ** 2, 0) / (differences.length - 1) : 0;
  const point = new Map([...strengths].map(([model, s]) => [model, s.strength]));
  const variance = Math.max(spread, differenceVariance(point, comparisons, leader.model, runnerUp.model));
  const half = Z95 * Math.sqrt(variance);
  return {
    rounds: comparisons.length,
    arms,
    pairs: [...pairs.values()].sort((x, y) => (x.model === y.model ? (x.opponent < y.opponent ? -1 : 1) : x.model < y.model ? -1 : 1)),
    separation: {
      leader: leader.model,
      runnerUp: runnerUp.model,
      difference,
      low: difference - half,
      high: difference + half,
      ...roundsToSeparate({ difference, variance, rounds: comparisons.length }),
    },
  };
}
