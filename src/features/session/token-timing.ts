import { jwtDecode } from 'jwt-decode';

/** How often the session is checked. */
export const SESSION_CHECK_INTERVAL_MS = 60_000;
/** A periodic check refreshes when less than this remains. */
export const REFRESH_AHEAD_MS = 300_000;
/** Fetching a token for a request refreshes when less than this remains. */
export const ON_DEMAND_REFRESH_MS = 30_000;

/** When the access token expires (ms since the epoch), or null when it cannot be read. */
export function tokenExpiresAt(token: string): number | null {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Below this, a token's issue time and the device's clock agree (the reply's own travel time). */
const CLOCK_AGREEMENT_MS = 5_000;

/**
 * How far the server's clock runs ahead of this device's, in ms (negative: behind), from a token
 * just received: its `iat` against the device's clock at receipt. A phone set an hour ahead would
 * otherwise find every token expired, and refresh before every request.
 */
export function serverClockOffset(token: string, receivedAt: number): number {
  try {
    const { iat } = jwtDecode<{ iat?: number }>(token);
    if (typeof iat !== 'number') return 0;
    const offset = iat * 1000 - receivedAt;
    return Math.abs(offset) < CLOCK_AGREEMENT_MS ? 0 : offset;
  } catch {
    return 0;
  }
}

/** Milliseconds the token has left at `now` by the server's clock; an unreadable token has none. */
export function msUntilExpiry(token: string, now: number): number {
  const expiresAt = tokenExpiresAt(token);
  return expiresAt === null ? -Infinity : expiresAt - now;
}

export function needsRefreshOnCheck(token: string, now: number): boolean {
  return msUntilExpiry(token, now) < REFRESH_AHEAD_MS;
}

export function needsRefreshOnDemand(token: string, now: number): boolean {
  return msUntilExpiry(token, now) < ON_DEMAND_REFRESH_MS;
}

/** The username a token was issued to. */
export function tokenSubject(token: string): string | null {
  try {
    const { sub } = jwtDecode<{ sub?: string }>(token);
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
