// Starts no server, store or engine: it does not wait for the run's fixtures.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_POLICY,
  ADDRESS_POLICY,
  afterFailure,
  afterRefund,
  describeWait,
  retryAfterSeconds,
  type ThrottleState,
} from '../../server/modules/auth/throttle-policy.ts';

const T0 = 1_700_000_000_000;

function failTimes(n: number, start: number, stepMs: number): ThrottleState | undefined {
  let state: ThrottleState | undefined;
  for (let i = 0; i < n; i++) state = afterFailure(state, start + i * stepMs, ACCOUNT_POLICY);
  return state;
}

describe('throttle policy', () => {
  it('allows the free failures without a wait', () => {
    expect(retryAfterSeconds(failTimes(4, T0, 0), T0)).toBe(0);
  });

  it('doubles the wait with each failure past the free ones, up to 15 minutes', () => {
    const waits = [5, 6, 7, 8, 20].map((n) => retryAfterSeconds(failTimes(n, T0, 0), T0));
    expect(waits).toEqual([1, 2, 4, 8, 900]);
  });

  it('never allows more than 100 failures in an hour', () => {
    // One failure every 30 s would dodge a short back-off; the hourly cap still holds.
    const state = afterFailure({ failures: 99, windowStartedAt: T0, lockedUntil: null }, T0 + 1000, ACCOUNT_POLICY);
    expect(state.lockedUntil).toBe(T0 + 3_600_000);
  });

  it('starts a new window an hour after the first failure', () => {
    const state = afterFailure({ failures: 50, windowStartedAt: T0, lockedUntil: null }, T0 + 3_600_000, ACCOUNT_POLICY);
    expect(state).toEqual({ failures: 1, windowStartedAt: T0 + 3_600_000, lockedUntil: null });
  });

  it('says how long to wait in words', () => {
    expect(describeWait(1)).toBe('Try again in 1 second.');
    expect(describeWait(45)).toBe('Try again in 45 seconds.');
    expect(describeWait(900)).toBe('Try again in 15 minutes.');
  });
});

describe('afterRefund', () => {
  it('hands a successful attempt its reserved failure back, and lifts a lock the count no longer reaches', () => {
    expect(afterRefund(undefined, ADDRESS_POLICY)).toBeUndefined();
    const atLimit = failTimes(ADDRESS_POLICY.freeFailures, T0, 1000)!;
    expect(atLimit.lockedUntil).not.toBeNull();
    expect(afterRefund(atLimit, ADDRESS_POLICY)).toEqual({ ...atLimit, failures: ADDRESS_POLICY.freeFailures - 1, lockedUntil: null });
  });

  it('keeps the lock of a count still past the free failures', () => {
    const past = failTimes(ADDRESS_POLICY.freeFailures + 3, T0, 1000)!;
    expect(afterRefund(past, ADDRESS_POLICY)).toEqual({ ...past, failures: past.failures - 1 });
  });
});
