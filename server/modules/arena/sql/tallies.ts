import type { Db, Queryable } from '../../../platform/store/db.ts';
import { dayOf, tallyBatch, type ReaderState, type StoredVote, type TallyChanges } from '../tally-batch.ts';
import { PASSAGE_KEY_SQL } from '../passage-key.ts';

export { armsOf, type StoredVote } from '../tally-batch.ts';

/**
 * The arena's tallies (migration 007), kept current as each vote is stored, in the same
 * transaction: a reader's rounds, their decided rounds a day, their counted rounds per pair, and
 * counters. /api/stats and the draw read these, never every vote. Rules (docs/arena.md): a round
 * is one reader's votes on one question under one drawn pair, each arm's newest vote counting
 * (an older one is a `repeat`); decided once both arms are rated; counted if its two passages
 * differ and it is among the reader's first `bound` decided rounds of the day it was decided.
 */

export const SHARDS = 16;

/** The reader's shard of the counters (a stable hash of the name). */
export function shardOf(author: string): number {
  let h = 0;
  for (let i = 0; i < author.length; i++) h = (h * 31 + author.charCodeAt(i)) | 0;
  return Math.abs(h) % SHARDS;
}

/**
 * Votes the tallier takes out of arena_pending in one transaction: at most two statements a
 * reader, and on the embedded store none of them long enough to hold up other requests.
 */
export const PENDING_BATCH = 1000;

/** What the tallies need of a vote, as `StoredVote` names it. */
const VOTE_COLUMNS = `id::text AS id, author, coalesce(round_id::text, 'vote ' || id::text) AS round_key, user_type, model_type, reaction,
  question_id, ${PASSAGE_KEY_SQL} AS passage_id, verdict, drawn_by, drawn_pair, created_at`;
const VOTE_FIELDS = 'id, author, round_key, user_type, model_type, reaction, question_id, passage_id, verdict, drawn_by, drawn_pair, created_at';

/** `votes` (by reader, then id) tallied reader by reader. */
async function tallyByReader(tx: Queryable, votes: readonly StoredVote[], bound: number): Promise<void> {
  let start = 0;
  for (let i = 1; i <= votes.length; i++) {
    if (i === votes.length || votes[i]!.author !== votes[start]!.author) {
      await tallyStored(tx, votes[start]!.author, votes.slice(start, i), bound);
      start = i;
    }
  }
}

/**
 * Every stored vote (of `author` only, when given) tallied here and now, made again
 * (retallyReaders, rebuildTallies), a page at a time by reader and id. Each page is taken out of
 * arena_pending in the statement that reads it, so that a vote saved meanwhile and read here is
 * not tallied a second time by the tallier; one saved after its page is left to the tallier.
 */
async function tallyStoredVotesNow(tx: Queryable, bound: number, author?: string): Promise<void> {
  let after: unknown[] = ['', '0'];
  for (;;) {
    const page = await tx.query<StoredVote>(
      `WITH page AS (
         SELECT feedback.id AS n, ${VOTE_COLUMNS} FROM feedback
         WHERE (author, id) > ($1, $2::bigint) ${author === undefined ? '' : 'AND author = $3'} ORDER BY author, feedback.id LIMIT 5000
       ), tallied AS (DELETE FROM arena_pending WHERE id IN (SELECT n FROM page))
       SELECT ${VOTE_FIELDS} FROM page ORDER BY author, n`,
      author === undefined ? after : [...after, author],
    );
    if (page.length === 0) return;
    await tallyByReader(tx, page, bound);
    after = [page.at(-1)!.author, page.at(-1)!.id];
  }
}

/**
 * Takes the tallier's lock, held to the end of the transaction: one tallier at a time on the
 * store, whichever instance it runs in, so that votes are tallied in the order they were stored
 * and never twice. A statement of its own: the next one reads what the lock's last holder wrote.
 */
export async function lockTallier(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('arena tallier'))`);
}

/**
 * Brings the tallies up to date with the votes stored and not yet tallied (arena_pending), in
 * this transaction: up to `limit` of them, oldest first, reader by reader. Returns how many it
 * took; fewer than `limit` means none was left (of those committed when it began).
 */
export async function tallyPendingIn(tx: Queryable, bound: number, limit = PENDING_BATCH): Promise<number> {
  await lockTallier(tx);
  // The oldest `limit` waiting (an index range): those whose save has committed, each taken by one tallier.
  const taken = await tx.query<{ id: string }>(
    `DELETE FROM arena_pending WHERE id < coalesce((SELECT id FROM arena_pending ORDER BY id OFFSET $1 LIMIT 1), 9223372036854775807)
     RETURNING id::text`,
    [limit],
  );
  if (taken.length === 0) return 0;
  // An id whose vote is gone (deleted meanwhile) is passed over.
  const votes = await tx.query<StoredVote>(
    `SELECT ${VOTE_COLUMNS} FROM feedback WHERE id = ANY($1::bigint[]) ORDER BY author, feedback.id`,
    [taken.map((t) => t.id)],
  );
  await tallyByReader(tx, votes, bound);
  return taken.length;
}

/**
 * Brings every vote waiting into the tallies, a batch a transaction, until a batch is not full:
 * the tallier's run (tallier.ts, which `stopped` stops between batches), and the export's first step.
 */
export async function tallyPending(db: Db, bound: number, stopped: () => boolean = () => false): Promise<void> {
  while (!stopped() && (await db.transaction((tx) => tallyPendingIn(tx, bound))) === PENDING_BATCH);
}

/** Every vote waiting brought into the tallies in this one transaction, under the tallier's lock (held to its end). */
export async function tallyAllPendingIn(tx: Queryable, bound: number): Promise<void> {
  while ((await tallyPendingIn(tx, bound)) === PENDING_BATCH);
}

/** SQL: whether some stored votes are not yet in the tallies. */
export const ANY_PENDING_SQL = 'EXISTS (SELECT 1 FROM arena_pending)';

/** Whether some stored votes are not yet in the tallies. */
export async function anyPending(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>(`SELECT ${ANY_PENDING_SQL} AS any`);
  return row!.any;
}

/**
 * Brings the tallies up to date with `votes`, just stored by one reader in this transaction (`tx`),
 * in two statements whatever the batch's size: the reader's lock and the tallies the batch
 * touches, read in one (arena_reader_state, migration 014: two batches of one reader, on any
 * instance, are tallied one after the other), and every change written in one. Other readers'
 * batches only meet on the shared counters, which are written in key order (no deadlock).
 */
export async function tallyStored(tx: Queryable, author: string, votes: readonly StoredVote[], bound: number): Promise<void> {
  if (votes.length === 0) return;
  const paired = (v: StoredVote) => v.verdict === 'shown' && v.drawn_pair !== null;
  const state = await lockAndRead(tx, author, votes, votes.filter((v) => !paired(v)).map((v) => v.round_key));
  await writeTallies(tx, author, tallyBatch(state, votes, bound));
}

/** Takes the reader's lock and reads the tallies `votes` touch, and the rounds of `roundKeys` already counted apart. */
async function lockAndRead(tx: Queryable, author: string, votes: readonly StoredVote[], roundKeys: string[]): Promise<ReaderState> {
  const paired = votes.filter((v) => v.verdict === 'shown' && v.drawn_pair !== null);
  const [{ state }] = (await tx.query<{ state: ReaderState }>(`SELECT arena_reader_state($1, $2::text[], $3::text[], $4::date[], $5::text[]) AS state`, [
    author,
    paired.map((v) => v.question_id),
    paired.map((v) => v.drawn_pair),
    [...new Set(paired.map((v) => dayOf(v.created_at)))],
    [...new Set(roundKeys)],
  ])) as [{ state: ReaderState }];
  return state;
}

/** Whether a vote, by its verdict and drawn pair, is left out (votes:<verdict>), and its round_id with it. */
const leftOut = (verdict: string, drawnPair: string | null) => verdict !== 'shown' || drawnPair === null;

/**
 * Votes of one reader that were stored `unchecked` and are now checked (recheck-votes.ts), in
 * this transaction, after their verdicts were written: the tallies as if each had arrived with
 * its verdict. Each leaves `votes:unchecked`; a vote now shown joins its round (a newer vote of
 * its arm stays the one counted); and each of their round_ids is counted apart by its first
 * left-out vote's reason now (by id), or no longer counted apart when none is left.
 */
export async function tallyChecked(tx: Queryable, author: string, votes: readonly StoredVote[], bound: number): Promise<void> {
  if (votes.length === 0) return;
  const keys = [...new Set(votes.map((v) => v.round_key))];
  // Every one of these round_ids is already counted apart (as unchecked): none is counted again by tallyBatch.
  const state = await lockAndRead(tx, author, votes, keys);
  const changes = tallyBatch({ ...state, left: keys }, votes, bound);
  const add = (name: string, n: number) => changes.counts.set(name, (changes.counts.get(name) ?? 0) + n);
  add('votes:unchecked', -votes.length);
  const checked = new Set(votes.map((v) => v.id));
  const rows = await tx.query<{ round_key: string; id: string; verdict: string; drawn_pair: string | null }>(
    `SELECT coalesce(round_id::text, 'vote ' || id::text) AS round_key, id::text, verdict, drawn_pair FROM feedback
     WHERE author = $1 AND coalesce(round_id::text, 'vote ' || id::text) = ANY($2::text[]) ORDER BY feedback.id`,
    [author, keys],
  );
  const stillApart: string[] = [];
  const noLongerApart: string[] = [];
  for (const key of keys) {
    const round = rows.filter((r) => r.round_key === key);
    const was = round.find((r) => checked.has(r.id) || leftOut(r.verdict, r.drawn_pair));
    const now = round.find((r) => leftOut(r.verdict, r.drawn_pair));
    const before = was && (checked.has(was.id) ? 'unchecked' : was.verdict);
    if (before === now?.verdict) continue;
    if (before) add(`rounds:${before}`, -1);
    if (now) add(`rounds:${now.verdict}`, 1);
    (now ? stillApart : noLongerApart).push(key);
  }
  changes.left = stillApart;
  await writeTallies(tx, author, changes);
  if (noLongerApart.length > 0) await tx.query('DELETE FROM arena_left_rounds WHERE author = $1 AND round_key = ANY($2::text[])', [author, noLongerApart]);
}

/** Writes a reader's tally changes in one statement (their share of the counters too); the shared counters last, in key order. */
async function writeTallies(tx: Queryable, author: string, { rounds, days, left, pairs, counts }: TallyChanges): Promise<void> {
  const names = [...counts.keys()].filter((name) => counts.get(name) !== 0).sort();
  const col = <T, R>(rows: readonly T[], pick: (row: T) => R) => rows.map(pick);
  await tx.query(
    `WITH rounds AS (
       INSERT INTO arena_rounds (author, question_id, drawn_pair, user_type, lo_vote, lo_passage, lo_reaction, hi_vote, hi_passage, hi_reaction, status, round_key)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[])
       ON CONFLICT (author, question_id, drawn_pair) DO UPDATE SET lo_vote = EXCLUDED.lo_vote, lo_passage = EXCLUDED.lo_passage,
         lo_reaction = EXCLUDED.lo_reaction, hi_vote = EXCLUDED.hi_vote, hi_passage = EXCLUDED.hi_passage, hi_reaction = EXCLUDED.hi_reaction,
         status = EXCLUDED.status, round_key = EXCLUDED.round_key
     ), days AS (
       INSERT INTO arena_reader_days (author, day, decided) SELECT $1, * FROM unnest($13::date[], $14::int[])
       ON CONFLICT (author, day) DO UPDATE SET decided = arena_reader_days.decided + EXCLUDED.decided
     ), left_rounds AS (
       INSERT INTO arena_left_rounds (author, round_key) SELECT $1, k FROM unnest($15::text[]) AS k ON CONFLICT DO NOTHING
     ), reader_counts AS (
       INSERT INTO arena_reader_counts (author, name, n) SELECT $1, name, n FROM unnest($23::text[], $24::bigint[]) AS c(name, n) WHERE name <> 'changes'
       ON CONFLICT (author, name) DO UPDATE SET n = arena_reader_counts.n + EXCLUDED.n
     ), pairs AS (
       INSERT INTO arena_reader_pairs (author, lo, hi, user_type, lo_wins, ties, hi_wins)
       SELECT $1, * FROM unnest($16::text[], $17::text[], $18::text[], $19::int[], $20::int[], $21::int[])
       ON CONFLICT (author, lo, hi, user_type) DO UPDATE SET lo_wins = arena_reader_pairs.lo_wins + EXCLUDED.lo_wins,
         ties = arena_reader_pairs.ties + EXCLUDED.ties, hi_wins = arena_reader_pairs.hi_wins + EXCLUDED.hi_wins
     )
     INSERT INTO arena_counts (shard, name, n) SELECT $22, name, n FROM unnest($23::text[], $24::bigint[]) AS c(name, n) ORDER BY name
     ON CONFLICT (shard, name) DO UPDATE SET n = arena_counts.n + EXCLUDED.n`,
    [
      author,
      col(rounds, (r) => r.question_id), col(rounds, (r) => r.drawn_pair), col(rounds, (r) => r.user_type),
      col(rounds, (r) => r.lo_vote), col(rounds, (r) => r.lo_passage), col(rounds, (r) => r.lo_reaction),
      col(rounds, (r) => r.hi_vote), col(rounds, (r) => r.hi_passage), col(rounds, (r) => r.hi_reaction),
      col(rounds, (r) => r.status), col(rounds, (r) => r.round_key),
      [...days.keys()], [...days.values()],
      left,
      col(pairs, (p) => p.lo), col(pairs, (p) => p.hi), col(pairs, (p) => p.userType), col(pairs, (p) => p.w), col(pairs, (p) => p.t), col(pairs, (p) => p.l),
      shardOf(author), names, names.map((name) => counts.get(name)!),
    ],
  );
}

/** Adds `counts` to the counters of `shard`, in one statement, in key order. */
export async function addCounts(tx: Queryable, shard: number, counts: ReadonlyMap<string, number>): Promise<void> {
  const names = [...counts.keys()].filter((name) => counts.get(name) !== 0).sort();
  if (names.length === 0) return;
  await tx.query(
    `INSERT INTO arena_counts (shard, name, n) SELECT $1, name, n FROM unnest($2::text[], $3::bigint[]) AS c(name, n) ORDER BY name
     ON CONFLICT (shard, name) DO UPDATE SET n = arena_counts.n + EXCLUDED.n`,
    [shard, names, names.map((name) => counts.get(name)!)],
  );
}

const READER_TABLES = ['arena_rounds', 'arena_reader_days', 'arena_reader_pairs', 'arena_left_rounds', 'arena_reader_counts'];
const TALLY_TABLES = [...READER_TABLES, 'arena_counts'];
/** Set while some votes' tallies have no reader's share (stored before migration 014, or loaded in bulk). */
export const INCOMPLETE = 'reader-counts-incomplete';

/**
 * Takes a reader's votes, just deleted in this transaction, out of the tallies: their rows, and
 * their share of the counters subtracted from their shard, under their lock; other readers'
 * tallies are not touched. Where some shares are missing (INCOMPLETE), every tally is made again
 * from the votes left (which fills them). Either way the tallies are those of the votes left.
 */
export async function forgetTallies(tx: Queryable, author: string, bound: number): Promise<void> {
  if (await sharesIncomplete(tx)) return rebuildTallies(tx, bound);
  await dropReaderTallies(tx, author);
}

/** Whether some votes' tallies have no reader's share (INCOMPLETE). */
async function sharesIncomplete(tx: Queryable): Promise<boolean> {
  const [flag] = await tx.query<{ n: string | null }>(`SELECT sum(n)::text AS n FROM arena_counts WHERE name = $1`, [INCOMPLETE]);
  return Number(flag?.n ?? 0) > 0;
}

/** A reader's tally rows deleted and their share subtracted from the counters, under their lock. */
async function dropReaderTallies(tx: Queryable, author: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('arena ' || $1))`, [author]);
  const share = await tx.query<{ name: string; n: string }>('SELECT name, n::text AS n FROM arena_reader_counts WHERE author = $1', [author]);
  for (const table of READER_TABLES) await tx.query(`DELETE FROM ${table} WHERE author = $1`, [author]);
  // 'changes' goes up, never back: the statistics' caches see that the tallies changed.
  await addCounts(tx, shardOf(author), new Map([...share.map((c) => [c.name, -Number(c.n)] as const), ['changes', 1]]));
}

/**
 * The tallies of `authors` made again from the votes they have left (some were deleted: past their
 * retention), in this transaction, under the tallier's lock (the caller's): each reader's rows and
 * share are taken out and their votes tallied afresh in order (those waiting for the tallier too),
 * as rebuildTallies does for everyone. Other readers' tallies are not touched. Where
 * shares are missing (INCOMPLETE), every tally is made again.
 */
export async function retallyReaders(tx: Queryable, authors: readonly string[], bound: number): Promise<void> {
  if (await sharesIncomplete(tx)) return rebuildTallies(tx, bound);
  for (const author of [...new Set(authors)].sort()) {
    await dropReaderTallies(tx, author);
    await tallyStoredVotesNow(tx, bound, author);
  }
}

/**
 * The tallies made again from the votes stored, reader by reader in the order of their votes:
 * after votes are deleted (a reader's, on request; or past their retention), which the counters
 * cannot take back one by one. Costs a pass over every vote, like a statistics query of old.
 */
export async function rebuildTallies(tx: Queryable, bound: number): Promise<void> {
  await lockTallier(tx);
  for (const table of TALLY_TABLES) await tx.query(`DELETE FROM ${table}`);
  await tallyStoredVotesNow(tx, bound);
}
