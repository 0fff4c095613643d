export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts requests per key (an address) and says whether one more is allowed. */
export interface SearchLimiter {
  hit(key: string, now: number): Promise<LimitVerdict>;
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
    if (window.count <= this.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)) };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
