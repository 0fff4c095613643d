import type { Queryable } from '../store/db.ts';

/**
 * Counts `n` hits of `key` (one request, or a batch's votes) in its current fixed window (a new
 * window starts when the last one has ended), in one statement: concurrent hits from any
 * instance each count once.
 */
export async function countHit(db: Queryable, key: string, now: number, windowMs: number, n = 1): Promise<{ windowStartMs: number; hits: number }> {
  const rows = await db.query<{ window_start_ms: string; hits: number }>(
    `INSERT INTO rate_limits AS r (key, window_start_ms, hits) VALUES ($1, $2, $4)
     ON CONFLICT (key) DO UPDATE SET
       window_start_ms = CASE WHEN r.window_start_ms <= $2 - $3 THEN $2 ELSE r.window_start_ms END,
       hits = CASE WHEN r.window_start_ms <= $2 - $3 THEN $4 ELSE r.hits + $4 END
     RETURNING window_start_ms, hits`,
    [key, now, windowMs, n],
  );
  const row = rows[0]!;
  return { windowStartMs: Number(row.window_start_ms), hits: row.hits };
}

/** Forgets windows that ended before `before`. */
export async function deleteWindowsBefore(db: Queryable, before: number): Promise<void> {
  await db.query('DELETE FROM rate_limits WHERE window_start_ms < $1', [before]);
}
