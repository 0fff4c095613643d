import { seededRandom } from '../../../../common/seeded-random.ts';
import { bradleyTerryStrengths } from './bradley-terry.ts';

/**
 * Readers, not rounds, are the unit of evidence (docs/arena-pool.md). A reader's rounds come in a
 * cluster (one taste, one person, perhaps several accounts of one person), so the intervals are a
 * cluster bootstrap: whole readers are drawn with replacement, each with all their rounds. Pure:
 * readers' tallies and a seed in, samples out.
 */

/** One reader's decided rounds between two arms: `first` won `wins`, tied `ties`, lost `losses`. */
export interface ReaderPairTally {
  first: string;
  second: string;
  wins: number;
  ties: number;
  losses: number;
}

/** One reader's rounds, pair by pair. */
export type ReaderTallies = readonly ReaderPairTally[];

/** The data of a fit: per model its wins (a tie half a win), and per pair that met its games. */
interface Totals {
  wins: Float64Array;
  /** Games per pair, by pair index (i, j) in `pairs`. */
  games: Float64Array;
}

/** The pairs that met among `models` (by index), and each reader's tallies as (pair index, first's wins, games). */
export interface PreparedReaders {
  models: string[];
  pairs: Array<{ i: number; j: number }>;
  /** Per reader: flat triples (pair, wins of the pair's i, games). */
  readers: Float64Array[];
}

export function prepareReaders(models: string[], readers: readonly ReaderTallies[]): PreparedReaders {
  const index = new Map(models.map((m, i) => [m, i]));
  const pairIndex = new Map<number, number>();
  const pairs: Array<{ i: number; j: number }> = [];
  const prepared = readers.map((tallies) => {
    const flat: number[] = [];
    for (const t of tallies) {
      const x = index.get(t.first);
      const y = index.get(t.second);
      if (x === undefined || y === undefined || x === y) continue;
      const [i, j] = x < y ? [x, y] : [y, x];
      const key = i * models.length + j;
      let p = pairIndex.get(key);
      if (p === undefined) pairIndex.set(key, (p = pairs.push({ i, j }) - 1));
      const firstWins = t.wins + t.ties / 2;
      const games = t.wins + t.ties + t.losses;
      flat.push(p, x === i ? firstWins : games - firstWins, games);
    }
    return Float64Array.from(flat);
  });
  return { models, pairs, readers: prepared };
}

/** The totals of a set of readers, each counted `weight[r]` times (a resample's multiplicities). */
function totalsOf(data: PreparedReaders, weight: (r: number) => number): Totals {
  const wins = new Float64Array(data.models.length);
  const games = new Float64Array(data.pairs.length);
  data.readers.forEach((flat, r) => {
    const w = weight(r);
    if (w === 0) return;
    for (let k = 0; k < flat.length; k += 3) {
      const { i, j } = data.pairs[flat[k]!]!;
      wins[i]! += w * flat[k + 1]!;
      wins[j]! += w * (flat[k + 2]! - flat[k + 1]!);
      games[flat[k]!]! += w * flat[k + 2]!;
    }
  });
  return { wins, games };
}

/**
 * Bradley–Terry strengths from totals, by Hunter's MM iterations, with the prior of
 * bradley-terry.ts (one tie against a virtual model of strength 1), scaled to a geometric mean of 1.
 */
function fitTotals(data: PreparedReaders, { wins, games }: Totals, iterations: number): Float64Array {
  return bradleyTerryStrengths(data.models.length, data.pairs, games, wins, iterations);
}

/** The point fit on every reader's rounds (or those `keep` keeps). */
export function fitReaders(data: PreparedReaders, keep: (r: number) => boolean = () => true, iterations = 200): Float64Array {
  return fitTotals(data, totalsOf(data, (r) => (keep(r) ? 1 : 0)), iterations);
}

/**
 * The cluster bootstrap: `resamples` fits, each on as many readers as there are, drawn with
 * replacement among those `keep` keeps (each with all their rounds). Sample s of every model
 * comes from the same resample. Seeded: the same readers give the same samples.
 */
export function clusterBootstrap(data: PreparedReaders, resamples: number, seed: number, keep: (r: number) => boolean = () => true): Float64Array[] {
  return runSteps(clusterBootstrapSteps(data, resamples, seed, keep));
}

/** clusterBootstrap in steps: it yields after each resample (a caller may give the event loop back there). */
export function* clusterBootstrapSteps(data: PreparedReaders, resamples: number, seed: number, keep: (r: number) => boolean = () => true): Generator<void, Float64Array[]> {
  const random = seededRandom(seed);
  const kept = data.readers.map((_, r) => r).filter(keep);
  const samples: Float64Array[] = [];
  const counts = new Float64Array(data.readers.length);
  for (let s = 0; s < resamples; s++) {
    counts.fill(0);
    for (let k = 0; k < kept.length; k++) counts[kept[Math.floor(random() * kept.length)]!]! += 1;
    samples.push(fitTotals(data, totalsOf(data, (r) => counts[r]!), 100));
    yield;
  }
  return samples;
}

/** A computation in steps, run to its end at once. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** A computation in steps, `pause` awaited between them (yieldEvery: the event loop back every few ms). */
export async function runStepsAsync<T>(steps: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/**
 * How much each reader's rounds push `leader` over `runnerUp`: +1 for each round the leader won or
 * the runner-up lost, −1 for each the leader lost or the runner-up won (a tie, and a round between
 * the two themselves counted once, as the leader's). The readers whose removal costs the verdict
 * most are the ones with the most.
 */
export function readerInfluence(data: PreparedReaders, leader: number, runnerUp: number): Float64Array {
  return Float64Array.from(data.readers, (flat) => {
    let push = 0;
    for (let k = 0; k < flat.length; k += 3) {
      const { i, j } = data.pairs[flat[k]!]!;
      const iWins = flat[k + 1]!;
      const games = flat[k + 2]!;
      // i's wins minus its losses (ties half each way: they cancel).
      const net = 2 * iWins - games;
      if (i === leader || j === leader) push += i === leader ? net : -net;
      else if (i === runnerUp || j === runnerUp) push += i === runnerUp ? -net : net;
    }
    return push;
  });
}

/** The readers who took part in a round with `a` or `b`. */
export function readersOf(data: PreparedReaders, ...arms: number[]): number {
  return data.readers.filter((flat) => {
    for (let k = 0; k < flat.length; k += 3) {
      const { i, j } = data.pairs[flat[k]!]!;
      if (flat[k + 2]! > 0 && (arms.includes(i) || arms.includes(j))) return true;
    }
    return false;
  }).length;
}

/** How many of the most influential readers a verdict must survive losing: at least 3, or 10% of the readers. */
export function influentialCount(readers: number): number {
  return Math.max(3, Math.ceil(readers / 10));
}
