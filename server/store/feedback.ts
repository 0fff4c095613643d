import type { Db, Queryable } from './db.ts';

import type { FeedbackItem, SaveReply, StoredFeedback } from '../../contract/api-schemas.ts';
import type { Reaction, ResultLabel, UserType } from '../../contract/vocabulary.ts';

/**
 * Stores a batch in one transaction. Items whose client_id this author already stored are
 * counted as duplicates and left as they were; concurrent batches sharing client_ids never deadlock.
 */
export async function saveFeedback(
  db: Db,
  author: string,
  items: FeedbackItem[],
): Promise<SaveReply> {
  // Inserted in client_id order: two batches holding the same ids in different orders would
  // otherwise each wait on a row the other has inserted (a deadlock on PostgreSQL).
  const key = (item: FeedbackItem) => item.client_id?.toLowerCase() ?? '';
  const ordered = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return db.transaction(async (tx) => {
    let saved = 0;
    for (const item of ordered) {
      const rows = await tx.query(
        `INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
           retrieved_text, model_type, result_label, reaction, confidence_score)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (author, client_id) DO NOTHING RETURNING id`,
        [
          author,
          item.client_id ?? null,
          item.round_id ?? null,
          item.user_type,
          item.username,
          item.query,
          item.retrieved_text,
          item.model_type,
          item.result_label,
          item.reaction,
          item.confidence_score,
        ],
      );
      saved += rows.length;
    }
    return { saved, duplicates: items.length - saved };
  });
}

/** The author's own items, newest first. */
export async function listFeedback(db: Queryable, author: string, limit: number): Promise<StoredFeedback[]> {
  const rows = await db.query<Omit<StoredFeedback, 'created_at' | 'id'> & { id: string | number; created_at: Date }>(
    `SELECT id, client_id, round_id, user_type, author AS username, query, retrieved_text, model_type,
            result_label, reaction, confidence_score, created_at
     FROM feedback WHERE author = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [author, limit],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), created_at: row.created_at.toISOString() }));
}

/** Deletes every vote of a reader (the privacy page's promise). */
export async function deleteFeedbackOf(db: Queryable, author: string): Promise<number> {
  const rows = await db.query('DELETE FROM feedback WHERE author = $1 RETURNING id', [author]);
  return rows.length;
}

/** Every stored vote, with what the statistics need (the passage as a hash, not its text). */
export async function listVotesForStats(db: Queryable) {
  return db.query<{
    round_id: string | null;
    result_label: ResultLabel;
    model_type: string;
    reaction: Reaction;
    user_type: UserType;
    passage: string;
  }>(
    `SELECT round_id, result_label, model_type, reaction, user_type, md5(btrim(retrieved_text)) AS passage
     FROM feedback ORDER BY id`,
  );
}
