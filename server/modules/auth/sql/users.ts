import type { Queryable } from '../../../platform/store/db.ts';

export interface UserRow {
  username: string;
  password_hash: string;
  disabled: boolean;
  created_at: Date;
}

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** USERNAME_PATTERN in a sentence, for whoever chose a name that does not fit it. */
export const USERNAME_RULE = 'A username is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit';

/** Usernames are matched without regard to case or surrounding spaces. */
export function normaliseUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * The account, or undefined. With `forShare`, in a transaction, its row stays locked until the
 * transaction ends: a password change, a disable or a removal waits for a sign-in that holds it,
 * and a sign-in that comes second waits for them, then reads what they wrote.
 */
export function findUser(db: Queryable, username: string, options: { forShare?: boolean } = {}): Promise<UserRow | undefined> {
  return db
    .query<UserRow>(`SELECT * FROM users WHERE username = $1${options.forShare ? ' FOR SHARE' : ''}`, [normaliseUsername(username)])
    .then((rows) => rows[0]);
}

export function listUsers(db: Queryable): Promise<UserRow[]> {
  return db.query<UserRow>('SELECT * FROM users ORDER BY username');
}

export async function countUsers(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return row?.n ?? 0;
}

/** Returns false when the name is taken. */
export async function insertUser(db: Queryable, username: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO users (username, password_hash) VALUES ($1, $2)
     ON CONFLICT (username) DO NOTHING RETURNING username`,
    [normaliseUsername(username), passwordHash],
  );
  return rows.length === 1;
}

export async function setPasswordHash(db: Queryable, username: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query('UPDATE users SET password_hash = $2 WHERE username = $1 RETURNING username', [
    normaliseUsername(username),
    passwordHash,
  ]);
  return rows.length === 1;
}

export async function setDisabled(db: Queryable, username: string, disabled: boolean): Promise<boolean> {
  const rows = await db.query('UPDATE users SET disabled = $2 WHERE username = $1 RETURNING username', [
    normaliseUsername(username),
    disabled,
  ]);
  return rows.length === 1;
}

/** Deletes the account; its sessions go with it (ON DELETE CASCADE). False when there is no such user. */
export async function deleteUser(db: Queryable, username: string): Promise<boolean> {
  return (await db.query('DELETE FROM users WHERE username = $1 RETURNING username', [username])).length > 0;
}
