import type { Queryable } from '../../../platform/store/db.ts';

export interface SessionRow {
  id: string;
  username: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface RefreshTokenRow {
  token_hash: string;
  session_id: string;
  created_at: Date;
  rotated_at: Date | null;
}

export async function insertSession(
  db: Queryable,
  session: { id: string; username: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id, username, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $3, $4)`,
    [session.id, session.username, session.now, session.expiresAt],
  );
}

export function findSession(db: Queryable, id: string): Promise<SessionRow | undefined> {
  return db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id]).then((rows) => rows[0]);
}

/** What a statement acting for a signed-in reader needs to check, in itself, that their session is live. */
export interface LiveSession {
  sessionId: string;
  username: string;
  /** The service's clock, as AuthService.authenticate reads it. */
  now: Date;
  /** SESSION_IDLE_DAYS, in seconds. */
  idleSeconds: number;
}

/**
 * SQL that is true while the session is live, by AuthService's rules (not revoked, not past its
 * end, used within the idle time, the token's reader's): for a statement that checks it as it
 * acts, instead of a lookup of its own before. Its parameters are `$first` to `$first + 3`, in
 * liveSessionParams' order.
 */
export function liveSessionSql(first: number): string {
  const [id, username, now, usedSince] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  // Compared to the millisecond, as isLive compares JavaScript dates: a time written with
  // microseconds (by SQL's now()) is read alike by both.
  return `EXISTS (SELECT 1 FROM sessions WHERE id = ${id}::uuid AND username = ${username} AND revoked_at IS NULL
    AND date_trunc('milliseconds', expires_at) > ${now}::timestamptz
    AND date_trunc('milliseconds', last_used_at) > ${usedSince}::timestamptz)`;
}

/** liveSessionSql's parameters: the session, its reader, now, and the idle time's start (a session unused since then has ended). */
export const liveSessionParams = (session: LiveSession): unknown[] => [
  session.sessionId,
  session.username,
  session.now,
  new Date(session.now.getTime() - session.idleSeconds * 1000),
];

/** Locks the session row for the rest of the transaction, so that two refreshes queue. */
export function lockSession(db: Queryable, id: string): Promise<SessionRow | undefined> {
  return db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 FOR UPDATE', [id]).then((rows) => rows[0]);
}

export async function touchSession(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [id, now]);
}

export async function revokeSession(db: Queryable, id: string, now: Date, reason: string): Promise<void> {
  await db.query(
    'UPDATE sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL',
    [id, now, reason],
  );
}

export async function revokeUserSessions(db: Queryable, username: string, now: Date, reason: string): Promise<number> {
  const rows = await db.query(
    `UPDATE sessions SET revoked_at = $2, revoked_reason = $3
     WHERE username = $1 AND revoked_at IS NULL RETURNING id`,
    [username, now, reason],
  );
  return rows.length;
}

export async function insertRefreshToken(db: Queryable, tokenHash: string, sessionId: string, now: Date): Promise<void> {
  await db.query('INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES ($1, $2, $3)', [
    tokenHash,
    sessionId,
    now,
  ]);
}

export function findRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db
    .query<RefreshTokenRow>('SELECT * FROM refresh_tokens WHERE token_hash = $1', [tokenHash])
    .then((rows) => rows[0]);
}

export async function markRotated(db: Queryable, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE token_hash = $1 AND rotated_at IS NULL', [
    tokenHash,
    now,
  ]);
}

/** Removes every session (and so every refresh token) of a reader. */
export async function deleteSessionsOf(db: Queryable, username: string): Promise<number> {
  const rows = await db.query('DELETE FROM sessions WHERE username = $1 RETURNING id', [username]);
  return rows.length;
}

/**
 * Deletes the sessions that have ended (their refresh tokens with them): past their last day,
 * unused since `unusedSince`, or signed out or revoked before `revokedBefore`. Returns how many.
 */
export async function deleteEndedSessions(db: Queryable, now: Date, unusedSince: Date, revokedBefore: Date): Promise<number> {
  const rows = await db.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_used_at <= $2 OR revoked_at <= $3 RETURNING id', [
    now,
    unusedSince,
    revokedBefore,
  ]);
  return rows.length;
}
