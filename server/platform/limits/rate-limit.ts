import { countHit, deleteWindowsBefore } from './rate-limit-counts.ts';
import { TooLateError, withinTime } from '../util/within-time.ts';
import { StoreUnavailableError, type Queryable } from '../store/db.ts';

import { windowVerdict, type LimitVerdict } from './window-verdict.ts';

/** Counts requests per key (an address) and says whether one more is allowed. */
export interface SearchLimiter {
  /** A limiter counting in this process answers at once; one counting in the store, later. */
  hit(key: string, now: number): LimitVerdict | Promise<LimitVerdict>;
}

/** Requests per key (an address) in fixed windows; over the limit, how long until the next window. */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  hit(key: string, now: number): LimitVerdict {
    if (this.limit <= 0) return { allowed: true };
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return windowVerdict(window.count, this.limit, window.start, this.windowMs, now);
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}

/** How long a search waits for the store's count before counting on its own. */
const STORE_COUNT_MS = 1_000;
/** After the store failed to count, how long this instance counts on its own before asking it again. */
const LOCAL_COUNTING_MS = 5_000;

/**
 * The same fixed windows, counted in the store, so that every instance on it shares one count per
 * address (instances on one PostgreSQL; an embedded store has one process, which counts in memory).
 * Search needs no database: while the store cannot be reached, or does not answer within a second
 * (frozen, overloaded), this instance counts on its own for a few seconds, then lets one search ask
 * the store again while the others go on counting here; so a search is never held up by a store
 * that is down, and a store that is struggling is not sent every search at once.
 */
export class StoreLimiter implements SearchLimiter {
  private lastPrune = 0;
  /** Counting here until then (0: counting in the store). */
  private localUntil = 0;
  /** One search is asking the store whether it answers again. */
  private probing = false;
  private readonly fallback: FixedWindowLimiter;

  constructor(
    private readonly db: Queryable,
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly storeCountMs = STORE_COUNT_MS,
  ) {
    this.fallback = new FixedWindowLimiter(limit, windowMs);
  }

  async hit(key: string, now: number): Promise<LimitVerdict> {
    if (this.limit <= 0) return { allowed: true };
    const recovering = this.localUntil > 0;
    if (recovering && (now < this.localUntil || this.probing)) return this.fallback.hit(key, now);
    this.probing = recovering;
    try {
      const verdict = await withinTime(this.storeCountMs, () => this.hitInStore(key, now));
      this.localUntil = 0;
      return verdict;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError || error instanceof TooLateError)) throw error;
      this.localUntil = Math.max(this.localUntil, now + LOCAL_COUNTING_MS);
      return this.fallback.hit(key, now);
    } finally {
      if (recovering) this.probing = false;
    }
  }

  private async hitInStore(key: string, now: number): Promise<LimitVerdict> {
    if (now - this.lastPrune >= this.windowMs) {
      this.lastPrune = now;
      // Not waited for: a search is not held up by housekeeping, and a failed prune is tried next window.
      deleteWindowsBefore(this.db, now - 2 * this.windowMs).catch(() => undefined);
    }
    const { windowStartMs, hits } = await countHit(this.db, key, now, this.windowMs);
    return windowVerdict(hits, this.limit, windowStartMs, this.windowMs, now);
  }
}
