import { describe, expect, it } from 'vitest';
import {
  msUntilExpiry,
  needsRefreshOnCheck,
  needsRefreshOnDemand,
  ON_DEMAND_REFRESH_MS,
  REFRESH_AHEAD_MS,
  serverClockOffset,
  SESSION_CHECK_INTERVAL_MS,
  tokenSubject,
} from '../../src/features/session/token-timing.ts';
import { tokenWith } from './jwt.ts';

const NOW = 1_800_000_000_000;
const expiringIn = (ms: number) => tokenWith({ sub: 'reader', exp: (NOW + ms) / 1000 });

describe('token timing', () => {
  it('reads how far the server’s clock is from the device’s from a token’s iat, ignoring the reply’s travel', () => {
    const issuedAt = (seconds: number) => tokenWith({ sub: 'reader', iat: seconds, exp: seconds + 900 });
    expect(serverClockOffset(issuedAt(NOW / 1000 + 3600), NOW)).toBe(3_600_000);
    expect(serverClockOffset(issuedAt(NOW / 1000 - 600), NOW)).toBe(-600_000);
    expect(serverClockOffset(issuedAt(NOW / 1000 - 2), NOW)).toBe(0);
    expect(serverClockOffset(tokenWith({ sub: 'reader' }), NOW)).toBe(0);
    expect(serverClockOffset('not a token', NOW)).toBe(0);
  });

  it('uses the spec’s constants', () => {
    expect([SESSION_CHECK_INTERVAL_MS, REFRESH_AHEAD_MS, ON_DEMAND_REFRESH_MS]).toEqual([60_000, 300_000, 30_000]);
  });

  it('reads the expiry from exp, in seconds', () => {
    expect(msUntilExpiry(expiringIn(90_000), NOW)).toBe(90_000);
    expect(tokenSubject(expiringIn(1))).toBe('reader');
  });

  it('refreshes on the periodic check under 5 minutes left, not at or above', () => {
    expect(needsRefreshOnCheck(expiringIn(299_000), NOW)).toBe(true);
    expect(needsRefreshOnCheck(expiringIn(300_000), NOW)).toBe(false);
    expect(needsRefreshOnCheck(expiringIn(600_000), NOW)).toBe(false);
  });

  it('refreshes on demand under 30 seconds left only', () => {
    expect(needsRefreshOnDemand(expiringIn(29_000), NOW)).toBe(true);
    expect(needsRefreshOnDemand(expiringIn(31_000), NOW)).toBe(false);
    expect(needsRefreshOnDemand(expiringIn(-1_000), NOW)).toBe(true);
  });

  it('treats an unreadable token as expired', () => {
    expect(needsRefreshOnDemand('not-a-jwt', NOW)).toBe(true);
    expect(tokenSubject('not-a-jwt')).toBeNull();
  });
});
