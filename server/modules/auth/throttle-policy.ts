/**
 * Failed sign-in throttling (OWASP ASVS 4 2.2.1): a few free failures, then an exponential
 * back-off, and never more than `maxFailuresPerHour` failures in an hour.
 */
import type { ThrottleState } from '../../platform/limits/throttle.ts';

export type { ThrottleState };

export interface ThrottlePolicy {
  freeFailures: number;
  maxDelaySeconds: number;
  maxFailuresPerHour: number;
}

const HOUR_MS = 60 * 60 * 1000;

/** How long failures count: a window starts at an account's or address's first failure. */
export const THROTTLE_WINDOW_MS = HOUR_MS;

export const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, maxDelaySeconds: 15 * 60, maxFailuresPerHour: 100 };
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 20, maxDelaySeconds: 15 * 60, maxFailuresPerHour: 500 };

/** Whole seconds until another attempt is allowed; 0 when it is allowed now. */
export function retryAfterSeconds(state: ThrottleState | undefined, now: number): number {
  if (!state || state.lockedUntil === null || state.lockedUntil <= now) return 0;
  return Math.ceil((state.lockedUntil - now) / 1000);
}

export function afterFailure(state: ThrottleState | undefined, now: number, policy: ThrottlePolicy): ThrottleState {
  const fresh = !state || now - state.windowStartedAt >= THROTTLE_WINDOW_MS;
  const windowStartedAt = fresh ? now : state.windowStartedAt;
  const failures = (fresh ? 0 : state.failures) + 1;
  let lockedUntil: number | null = null;
  if (failures >= policy.maxFailuresPerHour) {
    lockedUntil = windowStartedAt + THROTTLE_WINDOW_MS;
  } else if (failures >= policy.freeFailures) {
    const delaySeconds = Math.min(2 ** (failures - policy.freeFailures), policy.maxDelaySeconds);
    lockedUntil = now + delaySeconds * 1000;
  }
  return { failures, windowStartedAt, lockedUntil };
}

/**
 * An attempt is counted as a failure before its password is checked (so that parallel guesses
 * cannot all pass one reading of the count); a success hands that count back.
 */
export function afterRefund(state: ThrottleState | undefined, policy: ThrottlePolicy): ThrottleState | undefined {
  if (!state) return undefined;
  const failures = Math.max(0, state.failures - 1);
  return { ...state, failures, lockedUntil: failures < policy.freeFailures ? null : state.lockedUntil };
}

/** "Try again in 3 seconds." / "Try again in 15 minutes." */
export function describeWait(seconds: number): string {
  if (seconds < 90) return `Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minutes.`;
}
