export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A fixed window's verdict on its `hits` so far: over `limit`, the whole seconds until the window ends. */
export function windowVerdict(hits: number, limit: number, windowStartMs: number, windowMs: number, now: number): LimitVerdict {
  if (hits <= limit) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStartMs + windowMs - now) / 1000)) };
}
