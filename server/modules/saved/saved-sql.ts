import type { Queryable } from '../../platform/store/db.ts';

export interface SavedRow {
  id: string;
  anchor: string;
  note: string;
  saved_at: number;
  updated_at: number;
  removed: boolean;
}

const COLUMNS = 'id::text AS id, anchor, note, saved_at::float8 AS saved_at, updated_at::float8 AS updated_at, removed';

/**
 * Stores a change to one of `username`'s saved passages, unless the row already holds a change as
 * new or newer (last write wins by the client's `updated_at`; a replay of the same change is a
 * no-op). Returns the row as it stands after.
 */
export async function putSaved(db: Queryable, username: string, row: SavedRow): Promise<SavedRow> {
  const rows = await db.query<SavedRow>(
    `INSERT INTO saved_passages AS s (username, id, anchor, note, saved_at, updated_at, removed)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (username, id) DO UPDATE SET
       anchor = CASE WHEN EXCLUDED.removed THEN s.anchor ELSE EXCLUDED.anchor END,
       note = CASE WHEN EXCLUDED.removed THEN '' ELSE EXCLUDED.note END,
       saved_at = LEAST(s.saved_at, EXCLUDED.saved_at),
       updated_at = EXCLUDED.updated_at,
       removed = EXCLUDED.removed
     WHERE s.updated_at < EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [username, row.id, row.anchor, row.note, row.saved_at, row.updated_at, row.removed],
  );
  if (rows[0]) return rows[0];
  return (await db.query<SavedRow>(`SELECT ${COLUMNS} FROM saved_passages WHERE username = $1 AND id = $2`, [username, row.id]))[0]!;
}

/** The reader's saved passages, newest first, removed ones left out. */
export async function listSaved(db: Queryable, username: string): Promise<SavedRow[]> {
  return db.query<SavedRow>(
    `SELECT ${COLUMNS} FROM saved_passages WHERE username = $1 AND NOT removed ORDER BY saved_at DESC, id LIMIT 1000`,
    [username],
  );
}

/** Forgets every saved passage of the reader (npm run users -- forget). */
export async function deleteSavedOf(db: Queryable, username: string): Promise<number> {
  const rows = await db.query<{ id: string }>('DELETE FROM saved_passages WHERE username = $1 RETURNING id', [username]);
  return rows.length;
}
