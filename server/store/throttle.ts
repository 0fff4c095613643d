import type { Queryable } from './db.ts';

/** Failed sign-ins counted against one key (an account or an address). */
export interface ThrottleState {
  failures: number;
  windowStartedAt: number;
  lockedUntil: number | null;
}

interface ThrottleRow {
  failures: number;
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

/**
 * Locks a key's row for the rest of the transaction, creating it first when absent, so that
 * concurrent sign-ins on one account (on any instance) queue here instead of all reading the
 * same count. Undefined when the key has no failures yet.
 */
export async function lockThrottle(db: Queryable, key: string, now: number): Promise<ThrottleState | undefined> {
  await db.query(
    `INSERT INTO login_throttle (key, failures, window_started_at) VALUES ($1, 0, $2) ON CONFLICT (key) DO NOTHING`,
    [key, new Date(now)],
  );
  const rows = await db.query<ThrottleRow>('SELECT * FROM login_throttle WHERE key = $1 FOR UPDATE', [key]);
  const state = toState(rows[0]);
  return state && state.failures > 0 ? state : undefined;
}

export async function writeThrottle(db: Queryable, key: string, state: ThrottleState): Promise<void> {
  await db.query(
    `INSERT INTO login_throttle (key, failures, window_started_at, locked_until) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key) DO UPDATE SET failures = $2, window_started_at = $3, locked_until = $4`,
    [key, state.failures, new Date(state.windowStartedAt), state.lockedUntil === null ? null : new Date(state.lockedUntil)],
  );
}

export async function clearThrottle(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttle WHERE key = $1', [key]);
}
