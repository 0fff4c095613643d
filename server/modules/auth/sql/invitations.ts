import type { Queryable } from '../../../platform/store/db.ts';

export interface InvitationRow {
  id: string;
  token_hash: string;
  user_type: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  used_by: string | null;
  revoked_at: Date | null;
}

export async function insertInvitation(
  db: Queryable,
  invitation: { id: string; tokenHash: string; userType: string | null; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query('INSERT INTO invitations (id, token_hash, user_type, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    invitation.id,
    invitation.tokenHash,
    invitation.userType,
    invitation.now,
    invitation.expiresAt,
  ]);
}

export function findInvitation(db: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
  return db.query<InvitationRow>('SELECT * FROM invitations WHERE token_hash = $1', [tokenHash]).then((rows) => rows[0]);
}

/**
 * Takes the invitation for `username` if it is still pending at `now`, in one statement: of two
 * concurrent takes (any instance) the second waits for the first's row lock, reads used_at set
 * and takes nothing. False: it was taken, revoked or had expired meanwhile.
 */
export async function takeInvitation(db: Queryable, tokenHash: string, username: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE invitations SET used_at = $3, used_by = $2
     WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $3 RETURNING id`,
    [tokenHash, username, now],
  );
  return rows.length === 1;
}

/** The invitations not yet taken, revoked or expired, oldest first. */
export function listPendingInvitations(db: Queryable, now: Date): Promise<InvitationRow[]> {
  return db.query<InvitationRow>(
    'SELECT * FROM invitations WHERE used_at IS NULL AND revoked_at IS NULL AND expires_at > $1 ORDER BY created_at, id',
    [now],
  );
}

/** Withdraws a pending invitation. False when there is none by that id (or it was taken already). */
export async function revokeInvitation(db: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await db.query('UPDATE invitations SET revoked_at = $2 WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL RETURNING id', [id, now]);
  return rows.length === 1;
}

/** Forgets which invitation made a reader's account (npm run users -- forget). */
export async function forgetInvitationsOf(db: Queryable, username: string): Promise<number> {
  return (await db.query('UPDATE invitations SET used_by = NULL WHERE used_by = $1 RETURNING id', [username])).length;
}
