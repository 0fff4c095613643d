import type { Queryable } from '../store/db.ts';

/** Failed sign-ins counted against one key (an account or an address). */
export interface ThrottleState {
  failures: number;
  windowStartedAt: number;
  lockedUntil: number | null;
}

interface ThrottleRow {
  failures: number;
  pending: number;
  pending_until: Date | null;
  window_started_at: Date;
  locked_until: Date | null;
}

function toState(row: ThrottleRow | undefined): ThrottleState | undefined {
  if (!row) return undefined;
  return {
    failures: row.failures,
    windowStartedAt: row.window_started_at.getTime(),
    lockedUntil: row.locked_until ? row.locked_until.getTime() : null,
  };
}

/** A key's count, and how many of its failures are attempts whose password is still being checked. */
export interface LockedThrottle {
  state: ThrottleState | undefined;
  pending: number;
}

/**
 * Locks a key's row for the rest of the transaction, creating it first when absent, so that
 * concurrent sign-ins on one account (on any instance) queue here instead of all reading the
 * same count. The state is undefined when the key has no failures yet.
 */
export async function lockThrottle(db: Queryable, key: string, now: number): Promise<LockedThrottle> {
  await db.query(
    `INSERT INTO login_throttle (key, failures, window_started_at) VALUES ($1, 0, $2) ON CONFLICT (key) DO NOTHING`,
    [key, new Date(now)],
  );
  const rows = await db.query<ThrottleRow>('SELECT * FROM login_throttle WHERE key = $1 FOR UPDATE', [key]);
  const row = rows[0];
  const state = toState(row);
  // Attempts still pending past their time were cut short (a crash, a lost database): not waited for.
  const pending = row && row.pending_until && row.pending_until.getTime() > now ? row.pending : 0;
  return { state: state && state.failures > 0 ? state : undefined, pending };
}

/** How long an attempt may take to be checked before its pending count is no longer believed. */
export const PENDING_FOR_MS = 10_000;

/** Writes a key's count; `pendingUntil` (with `pending` > 0) when an attempt was just counted. */
export async function writeThrottle(db: Queryable, key: string, state: ThrottleState, pending: number, pendingUntil?: number): Promise<void> {
  await db.query(
    `INSERT INTO login_throttle (key, failures, window_started_at, locked_until, pending, pending_until) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (key) DO UPDATE SET failures = $2, window_started_at = $3, locked_until = $4, pending = $5,
       pending_until = coalesce($6, login_throttle.pending_until)`,
    [
      key,
      state.failures,
      new Date(state.windowStartedAt),
      state.lockedUntil === null ? null : new Date(state.lockedUntil),
      Math.max(0, pending),
      pendingUntil === undefined ? null : new Date(pendingUntil),
    ],
  );
}

/** Attempts whose password was checked and did not match: their failures stand, no longer pending. */
export async function settleFailures(db: Queryable, keys: string[]): Promise<void> {
  await db.query('UPDATE login_throttle SET pending = greatest(pending - 1, 0) WHERE key = ANY($1)', [keys]);
}

export async function clearThrottle(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}

/**
 * Deletes the counts that no longer count: those whose window ended before `windowStartedBefore`
 * and that hold no lock, and those of no failures at all (an attempt refused before its count
 * leaves one), unless attempts are still being checked against them. Returns how many.
 */
export async function deleteSettledThrottles(db: Queryable, now: number, windowStartedBefore: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM login_throttle
     WHERE (failures = 0 OR (window_started_at <= $2 AND (locked_until IS NULL OR locked_until <= $1)))
       AND (pending = 0 OR pending_until IS NULL OR pending_until <= $1)
     RETURNING key`,
    [new Date(now), new Date(windowStartedBefore)],
  );
  return rows.length;
}
