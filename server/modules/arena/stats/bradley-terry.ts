import { seededRandom } from '../../../../common/seeded-random.ts';

/** One comparison between two models: `score` is 1 if `first` won, 0.5 for a tie, 0 if it lost. */
export interface Comparison {
  first: string;
  second: string;
  score: number;
  /** How many such comparisons this one stands for (1 when absent). */
  weight?: number;
}

/**
 * Bradley–Terry strengths by Hunter's (2004) MM iterations, ties counted as half a win each
 * way. Strengths are scaled to a geometric mean of 1, so 2.0 means twice the odds of the
 * average model.
 */
export function fitBradleyTerry(models: string[], comparisons: Comparison[], iterations = 200): Map<string, number> {
  const index = new Map(models.map((m, i) => [m, i]));
  const n = models.length;
  const wins = new Float64Array(n);
  // Games per pair that met, as a list: each iteration costs the pairs that met, not n².
  const gamesByPair = new Map<number, number>();
  for (const c of comparisons) {
    const i = index.get(c.first)!;
    const j = index.get(c.second)!;
    const w = c.weight ?? 1;
    wins[i]! += w * c.score;
    wins[j]! += w * (1 - c.score);
    const key = Math.min(i, j) * n + Math.max(i, j);
    gamesByPair.set(key, (gamesByPair.get(key) ?? 0) + w);
  }
  const pairs = [...gamesByPair.keys()].map((key) => ({ i: Math.floor(key / n), j: key % n }));
  const strength = bradleyTerryStrengths(n, pairs, [...gamesByPair.values()], wins, iterations);
  return new Map(models.map((m, i) => [m, strength[i]!]));
}

/**
 * The strengths fitted again on `resamples` resamples of the comparisons (drawn with
 * replacement): sample r of every model comes from the same resample, so differences between
 * models can be taken sample by sample.
 */
export function bootstrapSamples(models: string[], comparisons: Comparison[], resamples = 200, seed = 1): Map<string, number[]> {
  const random = seededRandom(seed);
  const samples = new Map(models.map((m) => [m, [] as number[]]));
  for (let r = 0; r < resamples; r++) {
    const resample = Array.from({ length: comparisons.length }, () => comparisons[Math.floor(random() * comparisons.length)]!);
    for (const [model, s] of fitBradleyTerry(models, resample, 100)) samples.get(model)!.push(s);
  }
  return samples;
}

/** The point estimates, and the bootstrap's samples behind the intervals. */
export interface BootstrapFit {
  strengths: Map<string, { strength: number; low: number; high: number }>;
  samples: Map<string, number[]>;
}

/** Percentile bootstrap (resampling comparisons) of each model's strength: 95% interval, with the samples it came from. */
export function bootstrapFit(models: string[], comparisons: Comparison[], resamples = 200, seed = 1): BootstrapFit {
  const point = fitBradleyTerry(models, comparisons);
  const samples = bootstrapSamples(models, comparisons, resamples, seed);
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  const strengths = new Map(
    models.map((m) => {
      const sorted = [...samples.get(m)!].sort((a, b) => a - b);
      return [m, { strength: point.get(m)!, low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) }];
    }),
  );
  return { strengths, samples };
}

/** Percentile bootstrap (resampling comparisons) of each model's strength: 95% interval. */
export function bootstrapBradleyTerry(
  models: string[],
  comparisons: Comparison[],
  resamples = 200,
  seed = 1,
): Map<string, { strength: number; low: number; high: number }> {
  return bootstrapFit(models, comparisons, resamples, seed).strengths;
}

/**
 * The variance of ln(s_a / s_b) at the fitted strengths, from the fit's observed information (a
 * Wald variance): the negative Hessian of the log-likelihood, its prior included (one tie against
 * a virtual model of strength 1 each), which keeps it finite. Unlike the bootstrap's spread, it
 * does not collapse when a few rounds all went one way (every resample then repeats them).
 */
export function differenceVariance(strengths: Map<string, number>, comparisons: Comparison[], a: string, b: string): number {
  const models = [...strengths.keys()];
  const index = new Map(models.map((m, i) => [m, i]));
  const n = models.length;
  const s = models.map((m) => strengths.get(m)!);
  const info = new Float64Array(n * n);
  const add = (i: number, j: number, games: number) => {
    const w = (games * s[i]! * s[j]!) / (s[i]! + s[j]!) ** 2;
    info[i * n + i]! += w;
    info[j * n + j]! += w;
    info[i * n + j]! -= w;
    info[j * n + i]! -= w;
  };
  for (let i = 0; i < n; i++) info[i * n + i]! += s[i]! / (s[i]! + 1) ** 2;
  // Games per pair that met (as in the fit: each costs the pairs that met, not every comparison).
  const gamesByPair = new Map<number, number>();
  for (const c of comparisons) {
    const key = index.get(c.first)! * n + index.get(c.second)!;
    gamesByPair.set(key, (gamesByPair.get(key) ?? 0) + (c.weight ?? 1));
  }
  for (const [key, games] of gamesByPair) add(Math.floor(key / n), key % n, games);
  const direction = new Float64Array(n);
  direction[index.get(a)!] = 1;
  direction[index.get(b)!] = -1;
  const x = solvePositiveDefinite(info, n, direction);
  return x[index.get(a)!]! - x[index.get(b)!]!;
}

/** x with A x = y, A symmetric positive definite (n × n, row-major), by Cholesky. */
function solvePositiveDefinite(A: Float64Array, n: number, y: Float64Array): Float64Array {
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = A[i * n + j]!;
      for (let k = 0; k < j; k++) sum -= L[i * n + k]! * L[j * n + k]!;
      L[i * n + j] = i === j ? Math.sqrt(sum) : sum / L[j * n + j]!;
    }
  }
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = y[i]!;
    for (let k = 0; k < i; k++) sum -= L[i * n + k]! * z[k]!;
    z[i] = sum / L[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = z[i]!;
    for (let k = i + 1; k < n; k++) sum -= L[k * n + i]! * x[k]!;
    x[i] = sum / L[i * n + i]!;
  }
  return x;
}

/**
 * The MM iterations themselves, on totals: `wins[i]` for model i, `games[p]` for the pair
 * `pairs[p]` (only pairs that met: each iteration costs those, not n²). A small prior (one tie
 * against a virtual average model) keeps unbeaten or winless models finite. Strengths by index,
 * scaled to a geometric mean of 1. The readers' bootstrap fits its resamples' totals with it too.
 */
export function bradleyTerryStrengths(
  n: number,
  pairs: ReadonlyArray<{ i: number; j: number }>,
  games: ArrayLike<number>,
  wins: ArrayLike<number>,
  iterations: number,
): Float64Array {
  let strength = new Float64Array(n).fill(1);
  const denominator = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < n; i++) denominator[i] = 1 / (strength[i]! + 1);
    pairs.forEach(({ i, j }, p) => {
      const share = games[p]! / (strength[i]! + strength[j]!);
      denominator[i]! += share;
      denominator[j]! += share;
    });
    const next = new Float64Array(n);
    let logSum = 0;
    for (let i = 0; i < n; i++) logSum += Math.log((next[i] = (wins[i]! + 0.5) / denominator[i]!));
    const scale = Math.exp(logSum / n);
    strength = next.map((v) => v / scale);
  }
  return strength;
}
