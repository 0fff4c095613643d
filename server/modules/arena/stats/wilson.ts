/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, method 3):
 * well behaved for small n and for proportions near 0 or 1, unlike the normal approximation.
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): { low: number; high: number } | null {
  if (trials === 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
