import type { Db, Queryable } from '../../../platform/store/db.ts';

export interface StoredKey {
  kid: string;
  /** The secret, base64url. */
  secret: string;
  created_at: Date;
}

/** Every key, oldest first (keys made in the same millisecond in the order they were added). */
export async function listSigningKeys(db: Queryable): Promise<StoredKey[]> {
  return db.query<StoredKey>('SELECT kid, secret, created_at FROM signing_keys ORDER BY created_at, seq');
}

/**
 * Adds the first key unless there is one: under a table lock, so that instances starting
 * together on an empty database make one key between them. True when this call made it.
 */
export async function ensureFirstSigningKey(db: Db, key: { kid: string; secret: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE signing_keys IN SHARE ROW EXCLUSIVE MODE');
    const existing = await tx.query('SELECT 1 FROM signing_keys LIMIT 1');
    if (existing.length > 0) return false;
    await tx.query('INSERT INTO signing_keys (kid, secret) VALUES ($1, $2)', [key.kid, key.secret]);
    return true;
  });
}

/** Adds a key that signs from now on. */
export async function addSigningKey(db: Queryable, key: { kid: string; secret: string }): Promise<void> {
  await db.query('INSERT INTO signing_keys (kid, secret) VALUES ($1, $2)', [key.kid, key.secret]);
}

/** Deletes keys that a newer key replaced before `before` (long retired). */
export async function deleteKeysReplacedBefore(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query(
    `DELETE FROM signing_keys k WHERE EXISTS (
       SELECT 1 FROM signing_keys newer
       WHERE (newer.created_at, newer.seq) > (k.created_at, k.seq) AND newer.created_at < $1)
     RETURNING kid`,
    [before],
  );
  return rows.length;
}
