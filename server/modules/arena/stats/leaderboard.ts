import type { Leaderboard } from '../../../../contract/api-schemas.ts';
import { differenceVariance, type Comparison } from './bradley-terry.ts';
import { clusterBootstrapSteps, fitReaders, runSteps, runStepsAsync, influentialCount, prepareReaders, readerInfluence, readersOf, type ReaderPairTally } from './reader-bootstrap.ts';
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

/**
 * A bootstrap's variance, read from its central 95% ((q97.5 − q2.5) / 2z, squared): resampling
 * readers, a resample that happens to leave out every reader who disagreed has no loss at all,
 * and its difference is bounded by the prior alone; a few of those would blow up a plain variance.
 */
const spreadOf = (xs: readonly number[]) => {
  if (xs.length < 2) return 0;
  const sorted = [...xs].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))]!;
  return ((at(0.975) - at(0.025)) / (2 * Z95)) ** 2;
};

/**
 * The fewest distinct readers behind a verdict that the top two are told apart. Below 10 a
 * cluster bootstrap's interval is too narrow (with few clusters it under-covers: Cameron & Miller
 * 2015), and the verdict must also survive losing its 3 most influential readers: with fewer
 * than 10, that leaves a handful of people, and one person with four accounts would be a third
 * of them. Ten honest readers who agree (180 to 120 rounds) are enough; ten accounts are ten
 * sign-ups, each bounded per day, and each loses its pull when the most influential are set aside.
 */
export const MIN_READERS = 10;
/** Resamples of readers for the intervals, and for the check without the most influential. */
const RESAMPLES = 200;
const ROBUST_RESAMPLES = 100;

/**
 * The leaderboard: every compared model's Bradley–Terry strength with its 95% interval by
 * resampling readers (a cluster bootstrap: a reader's rounds are not independent of each other),
 * its decided rounds and readers, the pairwise record of every ordered pair that met, and whether
 * the top two are told apart: only when the interval of their difference excludes zero, at least
 * MIN_READERS readers stand behind it, and it still does without the most influential readers
 * (influentialCount). Null with fewer than two models compared.
 */
export function leaderboard(compared: readonly RoundTally[]): Leaderboard | null {
  return runSteps(leaderboardSteps(compared));
}

/** The leaderboard, giving way (`pause`) between the bootstrap's resamples: /api/stats never holds the event loop long. */
export function leaderboardAsync(compared: readonly RoundTally[], pause: () => Promise<void>): Promise<Leaderboard | null> {
  return runStepsAsync(leaderboardSteps(compared), pause);
}

function* leaderboardSteps(compared: readonly RoundTally[]): Generator<void, Leaderboard | null> {
  const models = mostCompared(compared, BRADLEY_TERRY_MAX_MODELS);
  if (models.length < 2) return null;
  const among = new Set(models);
  const rounds = compared.filter((r) => among.has(r.a) && among.has(r.b));

  // The pairwise table, each model's rounds, the rounds as weighted comparisons (for the Wald
  // variance), and each reader's rounds pair by pair (for the bootstrap).
  const comparisons: Comparison[] = [];
  const roundsOf = new Map<string, number>();
  const readersOfArm = new Map<string, Set<string>>();
  const pairs = new Map<string, Leaderboard['pairs'][number]>();
  const byReader = new Map<string, Map<string, ReaderPairTally>>();
  const tally = (model: string, opponent: string, outcome: Outcome, count: number) => {
    const key = `${model}\u0000${opponent}`;
    const record = pairs.get(key) ?? { model, opponent, wins: 0, ties: 0, losses: 0 };
    record[outcome === 'win' ? 'wins' : outcome === 'tie' ? 'ties' : 'losses'] += count;
    pairs.set(key, record);
  };
  for (const r of rounds) {
    const o = outcomeForA(r);
    comparisons.push({ first: r.a, second: r.b, score: o === 'win' ? 1 : o === 'tie' ? 0.5 : 0, weight: r.count });
    for (const m of [r.a, r.b]) {
      roundsOf.set(m, (roundsOf.get(m) ?? 0) + r.count);
      if (!readersOfArm.has(m)) readersOfArm.set(m, new Set());
      readersOfArm.get(m)!.add(r.reader);
    }
    tally(r.a, r.b, o, r.count);
    tally(r.b, r.a, flipOutcome(o), r.count);
    let mine = byReader.get(r.reader);
    if (!mine) byReader.set(r.reader, (mine = new Map()));
    const key = `${r.a}\u0000${r.b}`;
    const t = mine.get(key) ?? { first: r.a, second: r.b, wins: 0, ties: 0, losses: 0 };
    t[o === 'win' ? 'wins' : o === 'tie' ? 'ties' : 'losses'] += r.count;
    mine.set(key, t);
  }
  const data = prepareReaders(models, [...byReader.values()].map((m) => [...m.values()]));
  const fitted = fitReaders(data);
  const samples = yield* clusterBootstrapSteps(data, RESAMPLES, 1);
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  const arms = models
    .map((model, i) => {
      const sorted = samples.map((s) => s[i]!).sort((x, y) => x - y);
      return { model, strength: fitted[i]!, low: quantile(sorted, 0.025), high: quantile(sorted, 0.975), rounds: roundsOf.get(model) ?? 0, readers: readersOfArm.get(model)?.size ?? 0 };
    })
    .sort((x, y) => y.strength - x.strength || (x.model < y.model ? -1 : 1));

  // The top two's difference in log strength (the log odds that the leader wins a round against
  // the runner-up), and its variance: the larger of the cluster bootstrap's spread and the fit's
  // Wald variance (which treats rounds as independent, and does not collapse when a few rounds
  // all went one way, as a bootstrap's spread does: 2 rounds won of 2 looked "separated").
  const [leader, runnerUp] = arms as [(typeof arms)[number], (typeof arms)[number]];
  const [li, ri] = [models.indexOf(leader.model), models.indexOf(runnerUp.model)];
  const difference = Math.log(leader.strength / runnerUp.strength);
  const point = new Map(models.map((m, i) => [m, fitted[i]!]));
  const variance = Math.max(
    spreadOf(samples.map((s) => Math.log(s[li]! / s[ri]!))),
    differenceVariance(point, comparisons, leader.model, runnerUp.model),
  );
  const half = Z95 * Math.sqrt(variance);
  const outlook = roundsToSeparate({ difference, variance, rounds: comparisons.reduce((n, c) => n + (c.weight ?? 1), 0) });

  // The readers behind the top two, and the verdict without the most influential of them.
  const readers = readersOf(data, li, ri);
  const influential = Math.min(influentialCount(readers), data.readers.length);
  const influence = readerInfluence(data, li, ri);
  const order = data.readers.map((_, r) => r).sort((x, y) => influence[y]! - influence[x]!);
  const dropped = new Set(order.slice(0, influential));
  const keep = (r: number) => !dropped.has(r);
  const roundsWith = (r: number, arm: number[]) => {
    const flat = data.readers[r]!;
    let n = 0;
    for (let k = 0; k < flat.length; k += 3) {
      const { i, j } = data.pairs[flat[k]!]!;
      if (arm.includes(i) || arm.includes(j)) n += flat[k + 2]!;
    }
    return n;
  };
  const topTwoRounds = data.readers.reduce((n, _, r) => n + roundsWith(r, [li, ri]), 0);
  const droppedRounds = [...dropped].reduce((n, r) => n + roundsWith(r, [li, ri]), 0);
  let survives = false;
  if (outlook.separated && droppedRounds < topTwoRounds) {
    const rest = fitReaders(data, keep);
    const restDifference = Math.log(rest[li]! / rest[ri]!);
    const restSamples = yield* clusterBootstrapSteps(data, ROBUST_RESAMPLES, 2, keep);
    // Fewer rounds, more variance: at least the whole's, scaled up by the rounds set aside.
    const restVariance = Math.max(
      spreadOf(restSamples.map((s) => Math.log(s[li]! / s[ri]!))),
      (variance * topTwoRounds) / (topTwoRounds - droppedRounds),
    );
    survives = restDifference > Z95 * Math.sqrt(restVariance);
  }
  const verdict = !outlook.separated ? 'not-yet' : readers < MIN_READERS ? 'too-few-readers' : !survives ? 'carried-by-few' : 'separated';
  return {
    rounds: comparisons.reduce((n, c) => n + (c.weight ?? 1), 0),
    arms,
    pairs: [...pairs.values()].sort((x, y) => (x.model === y.model ? (x.opponent < y.opponent ? -1 : 1) : x.model < y.model ? -1 : 1)),
    separation: {
      leader: leader.model,
      runnerUp: runnerUp.model,
      difference,
      low: difference - half,
      high: difference + half,
      separated: verdict === 'separated',
      moreRounds: outlook.moreRounds,
      verdict,
      readers,
      minReaders: MIN_READERS,
      influential,
      influentialShare: topTwoRounds > 0 ? droppedRounds / topTwoRounds : 0,
      survivesWithoutInfluential: survives,
    },
  };
}
