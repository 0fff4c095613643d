import type { Db, Queryable } from './db.ts';

import type { FeedbackItem, SaveReply, StoredFeedback } from '../../contract/api-schemas.ts';
import type { RoundTally, VoteTallies } from '../stats/rounds.ts';

/**
 * Stores a batch in one statement: all of it or none. Items whose client_id this author already
 * stored (or that repeat one in the batch) are counted as duplicates and left as they were;
 * concurrent batches sharing client_ids never deadlock.
 */
export async function saveFeedback(
  db: Queryable,
  author: string,
  items: FeedbackItem[],
): Promise<SaveReply> {
  // Inserted in client_id order: two batches holding the same ids in different orders would
  // otherwise each wait on a row the other has inserted (a deadlock on PostgreSQL).
  const key = (item: FeedbackItem) => item.client_id?.toLowerCase() ?? '';
  const ordered = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  // One statement for the whole batch: one round trip to the database, not one per vote.
  const column = <T>(pick: (item: FeedbackItem) => T) => ordered.map(pick);
  const rows = await db.query(
    `INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
       retrieved_text, model_type, result_label, reaction, confidence_score)
     SELECT $1, v.client_id, v.round_id, v.user_type, v.claimed_username, v.query,
            v.retrieved_text, v.model_type, v.result_label, v.reaction, v.confidence_score
     FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::text[], $10::text[], $11::float8[])
          WITH ORDINALITY AS v(client_id, round_id, user_type, claimed_username, query, retrieved_text,
                               model_type, result_label, reaction, confidence_score, n)
     ORDER BY v.n
     ON CONFLICT (author, client_id) DO NOTHING RETURNING id`,
    [
      author,
      column((item) => item.client_id ?? null),
      column((item) => item.round_id ?? null),
      column((item) => item.user_type),
      column((item) => item.username),
      column((item) => item.query),
      column((item) => item.retrieved_text),
      column((item) => item.model_type),
      column((item) => item.result_label),
      column((item) => item.reaction),
      column((item) => item.confidence_score),
    ],
  );
  return { saved: rows.length, duplicates: items.length - rows.length };
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

/** Deletes the votes given before `before` (their retention over). Returns how many. */
export async function deleteFeedbackBefore(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query('DELETE FROM feedback WHERE created_at <= $1 RETURNING id', [before]);
  return rows.length;
}

/**
 * What the votes are now, in a few bytes: their count and newest id, and how many models count.
 * A vote saved raises the id; one deleted lowers the count, and no mix of the two leaves both as
 * they were.
 */
export async function votesVersion(db: Db): Promise<string> {
  // The served models too: an instance starting with another lineup changes which votes count.
  const [row] = await db.query<{ n: number; last: string; served: number }>(
    'SELECT count(*)::int AS n, coalesce(max(id), 0)::text AS last, (SELECT count(*)::int FROM served_models) AS served FROM feedback',
  );
  return `${row!.n}:${row!.last}:${row!.served}`;
}

/**
 * The stored votes, counted by the database for the statistics: a reader's flood of votes costs
 * the server a few rows per model, not one row per vote (300,000 votes held whole took the
 * server past its heap). A round's first vote per label counts; its passages are compared by
 * a hash of the text.
 */
export async function tallyVotes(db: Db): Promise<VoteTallies> {
  // One snapshot for both counts, so that votes saved meanwhile cannot make them disagree.
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    // Only votes for a model some instance served count: any other name (one a reader made up,
    // or `unknown`) is counted apart, and a round with such a side is left out.
    const reactions = await tx.query<VoteTallies['reactions'][number]>(
      `SELECT model_type AS model, user_type AS "userType", reaction, count(*)::int AS count FROM feedback
       WHERE model_type IN (SELECT model_type FROM served_models) GROUP BY 1, 2, 3`,
    );
    const [{ count: leftOut } = { count: 0 }] = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM feedback WHERE model_type NOT IN (SELECT model_type FROM served_models)`,
    );
    // Each round's two labels side by side by grouping, not by joining the votes to themselves
    // (which, on a table PostgreSQL has not analysed yet, it may plan as a nested loop). A round is
    // one reader's: round_id comes from the client, so another reader's votes under the same id
    // make a round of their own rather than completing (or pre-empting) this one.
    const groups = await tx.query<RoundTally & { paired: boolean }>(
      `WITH firsts AS (
         SELECT DISTINCT ON (author, round_id, result_label) author, round_id, result_label, model_type, reaction,
                user_type, md5(btrim(retrieved_text)) AS passage
         FROM feedback WHERE round_id IS NOT NULL ORDER BY author, round_id, result_label, id),
       rounds AS (
         SELECT count(*) = 2 AS paired,
                max(user_type) FILTER (WHERE result_label = 'A') AS "userType",
                max(model_type) FILTER (WHERE result_label = 'A') AS a,
                max(model_type) FILTER (WHERE result_label = 'B') AS b,
                max(reaction) FILTER (WHERE result_label = 'A') AS "aReaction",
                max(reaction) FILTER (WHERE result_label = 'B') AS "bReaction",
                max(passage) FILTER (WHERE result_label = 'A') = max(passage) FILTER (WHERE result_label = 'B') AS "samePassage"
         FROM firsts GROUP BY author, round_id
         -- Both sides served: in the same pass (a NOT IN over the rounds turned quadratic once
         -- PostgreSQL judged the list too large to hash, past ~400,000 votes).
         HAVING bool_and(model_type IN (SELECT model_type FROM served_models)))
       SELECT paired, "userType", a, b, "aReaction", "bReaction", "samePassage", count(*)::int AS count
       FROM rounds GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    );
    const sum = (rows: Array<{ count: number }>) => rows.reduce((n, row) => n + row.count, 0);
    return {
      // Every vote has one model, user type and reaction: the reaction counts add up to all votes.
      votes: sum(reactions),
      leftOut,
      oneSided: sum(groups.filter((g) => !g.paired)),
      reactions,
      rounds: groups.filter((g) => g.paired).map(({ paired: _paired, ...round }) => round),
    };
  });
}
