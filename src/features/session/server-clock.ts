import { readStored, STORAGE_KEYS, writeStored } from '../../lib/browser-storage.ts';
import { serverClockOffset } from './token-timing.ts';

/** Notes how far the server's clock is from this device's, from a token it has just issued. */
export function recordServerClock(accessToken: string): void {
  const offset = serverClockOffset(accessToken, Date.now());
  writeStored(STORAGE_KEYS.serverClockOffset, offset === 0 ? null : String(offset));
}

/** Now, by the server's clock as last seen (shared by every tab): what token lifetimes are counted in. */
export function serverNow(): number {
  const offset = Number(readStored(STORAGE_KEYS.serverClockOffset) ?? 0);
  return Date.now() + (Number.isFinite(offset) ? offset : 0);
}
