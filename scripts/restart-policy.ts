/**
 * When `npm run cluster` starts a crashed instance again: after 1 s at first, twice as long each
 * time it crashes again soon after a start (a crash loop is not hammered), at most 30 s; back to
 * 1 s once it has stayed up a minute.
 */
export const RESTART_POLICY = { firstMs: 1_000, maxMs: 30_000, stableMs: 60_000 };

/** The wait before the next start, given the last wait (none yet) and how long it stayed up. */
export function restartDelay(lastDelayMs: number | undefined, upForMs: number, policy = RESTART_POLICY): number {
  if (lastDelayMs === undefined || upForMs >= policy.stableMs) return policy.firstMs;
  return Math.min(lastDelayMs * 2, policy.maxMs);
}
