import type { Queryable } from './db.ts';
import type { ThrottleState } from '../auth/throttle-policy.ts';

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

export async function readThrottle(db: Queryable, key: string): Promise<ThrottleState | undefined> {
  const rows = await db.query<ThrottleRow>('SELECT * FROM login_throttle WHERE key = $1', [key]);
  return toState(rows[0]);
}

export async function lockThrottle(db: Queryable, key: string): Promise<ThrottleState | undefined> {
  const rows = await db.query<ThrottleRow>('SELECT * FROM login_throttle WHERE key = $1 FOR UPDATE', [key]);
  return toState(rows[0]);
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
