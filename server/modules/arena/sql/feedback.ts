import type { Db, Queryable } from '../../../platform/store/db.ts';
import { forgetTallies, lockTallier, retallyReaders, tallyPending } from './tallies.ts';
import { readTallies } from './read-tallies.ts';
import { liveSessionParams, liveSessionSql, type LiveSession } from '../../auth/index.ts';

import type { FeedbackItem, SaveReply, StoredFeedback } from '../../../../contract/api-schemas.ts';
import type { VoteTallies } from '../stats/rounds.ts';
import type { Verdict } from '../../../../contract/vocabulary.ts';

/** What the service made of a vote as it was saved (server/modules/arena/shown-check.ts). */
export interface CheckedVote {
  /** The question's stable id (server/modules/arena/question.ts). */
  questionId: string;
  /** The book's passage whose text the vote carries, or null for a text that is no passage. */
  passageId: string | null;
  /** The set of passages `passageId` names (the one served now, or an earlier cut such as 'v1'). */
  passageSet: string;
  /** The sha256 of the text the vote carries (its ends' spaces aside); the service always gives it. */
  passageSha256: string | null;
  verdict: Verdict;
  /** Who drew the round's pair: the server (the vote carried a receipt), the device (offline), or null (no receipt). */
  drawnBy?: 'server' | 'device' | null;
  /** The drawn pair (pairKey of the two arms; `device …` for a device's), or null when unknown: a round's two votes must share it. */
  drawnPair?: string | null;
}

/** A vote as sent, with what the service made of it as it was saved (server/modules/arena/shown-check.ts). */
export type CheckedFeedback = FeedbackItem & CheckedVote;

/**
 * Stores a batch in one statement: all of it or none, each vote as sent with its verdict, at
 * `savedAt`, and waiting for the tallies (arena_pending: the tallier brings them in, tallier.ts).
 * Items whose client_id this author already stored (or that repeat one in the batch) are counted
 * as duplicates and left as they were; concurrent batches sharing client_ids never deadlock.
 * With `session`, the statement stores nothing unless the reader's session is live, and says so
 * (`live`): the check a request's lookup would make, in the same round trip.
 */
export async function saveFeedback(
  db: Queryable,
  author: string,
  items: CheckedFeedback[],
  savedAt = new Date(),
  session: LiveSession | null = null,
): Promise<SaveReply & { live: boolean }> {
  // Inserted in client_id order: two batches holding the same ids in different orders would
  // otherwise each wait on a row the other has inserted (a deadlock on PostgreSQL).
  const key = (item: FeedbackItem) => item.client_id?.toLowerCase() ?? '';
  const ordered = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  // The votes go as one JSON text, inserted in the array's order: a parameter an array per column
  // cost both stores more to write and to read (on the embedded store a save took 15% longer).
  const rows = ordered.map((item) => ({
    client_id: item.client_id ?? null,
    round_id: item.round_id ?? null,
    user_type: item.user_type,
    claimed_username: item.username,
    query: item.query,
    retrieved_text: item.retrieved_text,
    model_type: item.model_type,
    result_label: item.result_label,
    reaction: item.reaction,
    confidence_score: item.confidence_score,
    question_id: item.questionId,
    passage_id: item.passageId,
    verdict: item.verdict,
    passage_set: item.passageSet,
    passage_sha256: item.passageSha256,
    drawn_by: item.drawnBy ?? null,
    drawn_pair: item.drawnPair ?? null,
  }));
  // One statement for the whole batch, one round trip: the session checked by the auth module's
  // rule, the storing in arena_save_votes (migration 016), whose plan each connection keeps (sent
  // as text, the insert was planned anew on every save).
  const [{ saved, live }] = (await db.query<{ saved: number; live: boolean }>(
    `SELECT stored_live AS live, stored_count AS saved FROM arena_save_votes($1, $2::json, $3, ${session ? liveSessionSql(4) : 'true'})`,
    [author, JSON.stringify(rows), savedAt, ...(session ? liveSessionParams(session) : [])],
  )) as [{ saved: number; live: boolean }];
  return { saved, duplicates: items.length - saved, live };
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

/** Deletes every vote of a reader (the privacy page's promise), and the tallies' every trace of them (tallies.ts: forgetTallies). */
export async function deleteFeedbackOf(db: Queryable | Db, author: string, bound: number): Promise<number> {
  if ('transaction' in db) return db.transaction((tx) => deleteFeedbackOf(tx, author, bound));
  const rows = await deleteVotes(db, 'author = $1', [author]);
  if (rows.length > 0) await forgetTallies(db, author, bound);
  return rows.length;
}

/**
 * Deletes the votes `where` chooses, and their ids still waiting for the tallier, in one
 * statement, under the tallier's lock (taken first, as the tallier takes it). Returns each
 * deleted vote's reader.
 */
async function deleteVotes(db: Queryable, where: string, params: unknown[]): Promise<Array<{ author: string }>> {
  await lockTallier(db);
  return db.query<{ author: string }>(
    `WITH gone AS (DELETE FROM feedback WHERE ${where} RETURNING id, author), waiting AS (DELETE FROM arena_pending WHERE id IN (SELECT id FROM gone))
     SELECT author FROM gone`,
    params,
  );
}

/** Deletes the votes given before `before` (their retention over), their readers' tallies made again without them. Returns how many. */
export async function deleteFeedbackBefore(db: Queryable | Db, before: Date, bound: number): Promise<number> {
  if ('transaction' in db) return db.transaction((tx) => deleteFeedbackBefore(tx, before, bound), { unlimited: true });
  const rows = await deleteVotes(db, 'created_at <= $1', [before]);
  // Only the readers who lost votes: their tallies made again from what they have left.
  if (rows.length > 0) await retallyReaders(db, rows.map((r) => r.author), bound);
  return rows.length;
}

/**
 * What the votes are now, in a few bytes: their count and newest id, and how many are still
 * unchecked. A vote saved raises the id; one deleted lowers the count; a vote checked at a start
 * lowers the unchecked; no mix of these leaves all three as they were.
 */
export async function votesVersion(db: Db): Promise<string> {
  const [row] = await db.query<{ n: number; last: string; unchecked: number }>(
    `SELECT count(*)::int AS n, coalesce(max(id), 0)::text AS last, count(*) FILTER (WHERE verdict = 'unchecked')::int AS unchecked FROM feedback`,
  );
  return `${row!.n}:${row!.last}:${row!.unchecked}`;
}

/**
 * The stored votes as /api/stats counts them (docs/arena.md), by its own path: every vote still
 * waiting brought into the tallies (tallies.ts), then the tallies read. For the simulations and
 * tests, which save and count at once. `dailyRoundBound`: how many decided rounds a reader a day
 * count in the comparison (the bound the tallies were kept with).
 */
export async function tallyVotes(db: Db, dailyRoundBound: number): Promise<VoteTallies> {
  await tallyPending(db, dailyRoundBound);
  return readTallies(db);
}
