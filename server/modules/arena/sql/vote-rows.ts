import { randomBytes } from 'node:crypto';
import type { Reaction } from '../../../../contract/vocabulary.ts';
import type { RoundLeftOut } from '../../../../contract/vocabulary.ts';
import type { Db, Transaction } from '../../../platform/store/db.ts';

/** A round, or a lone vote, as the store hands it to the export. */
export interface ExportRecord {
  /** The row's stable id (export_rows.id): the same round keeps it in every export. */
  round_id: number;
  /** Taken anew whenever the row's content changes (a lone vote paired, a verdict checked, …). */
  revision: number;
  author: string;
  user_type: string;
  query: string;
  question_id: string | null;
  model_a: string | null;
  model_b: string | null;
  passage_a: string | null;
  passage_b: string | null;
  /** Which cut of the book into passages `passage_a` and `passage_b` name ('v1': corpus/passages-v1.json). */
  passage_set: string | null;
  /** The texts the A and B votes were cast on, as shown. */
  text_a: string | null;
  text_b: string | null;
  reaction_a: Reaction | null;
  reaction_b: Reaction | null;
  /** The round's last vote's time. */
  tstamp: Date;
  /** Why it is left out of the comparison, or null when it counts. */
  status: RoundLeftOut | null;
  /** 'round': a round as /api/stats counts it (compared, or left out for `status`); 'vote': a vote it counts only among the votes left out. */
  kind: 'round' | 'vote';
}

/** Rows fetched at a time: a page is the most the export holds. */
export const EXPORT_PAGE_ROWS = 1000;

const CONTENT =
  'last_id, author, user_type, query, question_id, model_a, model_b, passage_a, passage_b, passage_set, text_a, text_b, reaction_a, reaction_b, tstamp, status, kind';

/** A shown vote's side of its drawn pair (drawn_pair: `lo\nhi`, or `device\nlo\nhi`): its model is the lo arm. */
const LO_SIDE_SQL = `model_type = split_part(regexp_replace(drawn_pair, '^device\\n', ''), E'\\n', 1)`;

/**
 * Every row the export has now, into the transaction's own table `export_now`, each with its key
 * and a digest of its content. The rounds are the tallies' (tallies.ts, migration 007): a vote
 * shown (verdict `shown`, with its drawn pair) belongs to its reader's round of its question
 * under its drawn pair, and the round's verdict is the one the tallies gave it (arena_rounds'
 * status: the daily bound by the day it was first decided), never worked out again here:
 * - a round: each arm's newest vote, its `status` from arena_rounds;
 * - an earlier decision of a round (`repeat`): the votes, each arm's newest, of a round_id that
 *   decided the round (or came after that) and that a newer round_id's votes replaced;
 * - a round_id's votes not counted (not `shown`): one row, its reason the first such vote's verdict;
 * - every other vote a row of its own (`kind` 'vote'): one a newer vote of its round and arm
 *   replaced (`repeat`), or a second not counted vote of one label in its round_id (its verdict).
 * The A and B columns hold the votes labelled so; two of one label in a round go lo arm first.
 */
const CURRENT_ROWS_SQL = `
  INSERT INTO export_now (row_key, digest, ${CONTENT})
  WITH votes AS (
    SELECT id, author, coalesce(round_id::text, 'vote ' || id::text) AS round_key, result_label, model_type, question_id, verdict, drawn_pair,
           created_at, verdict = 'shown' AND drawn_pair IS NOT NULL AS in_round
    FROM feedback),
  shown AS (
    SELECT *, ${LO_SIDE_SQL} AS lo_side FROM votes WHERE in_round),
  arms AS (
    SELECT *, row_number() OVER (PARTITION BY author, question_id, drawn_pair, lo_side ORDER BY id DESC) = 1 AS current,
           row_number() OVER (PARTITION BY author, question_id, drawn_pair, round_key, lo_side ORDER BY id DESC) AS nth_in_key,
           max(id) OVER (PARTITION BY author, question_id, drawn_pair, round_key) AS key_last,
           first_value(round_key) OVER (PARTITION BY author, question_id, drawn_pair ORDER BY id DESC) AS newest_key,
           min(id) FILTER (WHERE lo_side) OVER (PARTITION BY author, question_id, drawn_pair) AS first_lo,
           min(id) FILTER (WHERE NOT lo_side) OVER (PARTITION BY author, question_id, drawn_pair) AS first_hi
    FROM shown),
  placed AS (
    SELECT CASE WHEN current THEN json_build_array('round', author, question_id, drawn_pair)::text
                WHEN earlier_decision THEN json_build_array('repeat', author, round_key, question_id, drawn_pair)::text
                ELSE json_build_array('vote', id)::text END AS row_key,
           CASE WHEN current THEN 'tallied' WHEN earlier_decision THEN 'round' ELSE 'vote' END AS kind,
           id, author, result_label, lo_side, question_id, drawn_pair, created_at, CASE WHEN NOT current THEN 'repeat' END AS status
    FROM (SELECT *, NOT current AND nth_in_key = 1 AND round_key <> newest_key AND key_last >= greatest(first_lo, first_hi)
                    AND first_lo IS NOT NULL AND first_hi IS NOT NULL AS earlier_decision
          FROM arms) AS a
    UNION ALL
    SELECT CASE WHEN nth = 1 THEN json_build_array('round', author, round_key)::text ELSE json_build_array('vote', id)::text END,
           CASE WHEN nth = 1 THEN 'round' ELSE 'vote' END,
           id, author, result_label, result_label = 'A', question_id, NULL, created_at,
           CASE WHEN nth = 1 THEN first_verdict ELSE verdict END
    FROM (SELECT *, row_number() OVER (PARTITION BY author, round_key, result_label ORDER BY id DESC) AS nth,
                 first_value(verdict) OVER (PARTITION BY author, round_key ORDER BY id) AS first_verdict
          FROM votes WHERE NOT in_round) AS l),
  rows_now AS (
    SELECT row_key, min(kind) AS kind, max(id) AS last_id, min(author) AS author, min(question_id) AS question_id, min(drawn_pair) AS drawn_pair,
           max(created_at) AS tstamp, min(status) AS status,
           CASE WHEN count(*) = 2 AND min(result_label) = max(result_label) THEN max(id) FILTER (WHERE lo_side)
                ELSE max(id) FILTER (WHERE result_label = 'A') END AS vote_a,
           CASE WHEN count(*) = 2 AND min(result_label) = max(result_label) THEN max(id) FILTER (WHERE NOT lo_side)
                ELSE max(id) FILTER (WHERE result_label = 'B') END AS vote_b
    FROM placed GROUP BY row_key)
  SELECT row_key, md5(row(${CONTENT})::text), ${CONTENT}
  FROM (
    SELECT r.row_key, r.last_id, r.author,
           CASE WHEN r.kind = 'tallied' THEN coalesce(t.user_type, fa.user_type, fb.user_type) ELSE coalesce(fa.user_type, fb.user_type) END AS user_type,
           coalesce(fa.query, fb.query) AS query, coalesce(fa.question_id, fb.question_id) AS question_id, fa.model_type AS model_a, fb.model_type AS model_b,
           fa.passage_id AS passage_a, fb.passage_id AS passage_b, coalesce(fa.passage_set, fb.passage_set) AS passage_set,
           btrim(fa.retrieved_text, E' \\t\\n\\r') AS text_a, btrim(fb.retrieved_text, E' \\t\\n\\r') AS text_b,
           fa.reaction AS reaction_a, fb.reaction AS reaction_b, r.tstamp,
           CASE WHEN r.kind <> 'tallied' THEN CASE WHEN r.status = 'shown' THEN 'not-drawn' ELSE r.status END
                WHEN t.status = 'counted' THEN NULL
                WHEN t.status IS NULL THEN 'one-sided'
                ELSE t.status END AS status,
           CASE WHEN r.kind = 'vote' THEN 'vote' ELSE 'round' END AS kind
    FROM rows_now AS r
    LEFT JOIN arena_rounds AS t ON r.kind = 'tallied' AND t.author = r.author AND t.question_id = r.question_id AND t.drawn_pair = r.drawn_pair
    LEFT JOIN feedback AS fa ON fa.id = r.vote_a
    LEFT JOIN feedback AS fb ON fb.id = r.vote_b) AS rows_now`;

/**
 * Brings export_rows up to the votes as they are now, and returns the cursor: the newest revision.
 * A row new or changed since it was last exported takes the next revision; a row whose votes
 * were forgotten (housekeeping) goes. The table's lock is held to the transaction's end, so two
 * exports never interleave their revisions: each revision is committed before a later one is
 * taken, and no cursor passes one that commits late.
 */
async function refreshExportRows(tx: Transaction): Promise<string> {
  await tx.query('LOCK TABLE export_rows IN SHARE ROW EXCLUSIVE MODE');
  await tx.query(`CREATE TEMP TABLE export_now (
      row_key text PRIMARY KEY, digest text NOT NULL, last_id bigint NOT NULL, author text NOT NULL, user_type text NOT NULL,
      query text NOT NULL, question_id text, model_a text, model_b text, passage_a text, passage_b text, passage_set text,
      text_a text, text_b text, reaction_a text,
      reaction_b text, tstamp timestamptz NOT NULL, status text, kind text NOT NULL) ON COMMIT DROP`);
  // The planner takes the rows grouped by their key for 200 (its guess for an expression) and
  // joins them to the votes and the tallies row by row: at 100,000 votes on PostgreSQL 5.4 s,
  // with hash and merge joins 1.8 s.
  await tx.query('SET LOCAL enable_nestloop = off');
  await tx.query(CURRENT_ROWS_SQL);
  await tx.query('RESET enable_nestloop');
  await tx.query('DELETE FROM export_rows e WHERE NOT EXISTS (SELECT 1 FROM export_now n WHERE n.row_key = e.row_key)');
  await tx.query(`
    INSERT INTO export_rows (row_key, revision, digest, ${CONTENT})
    SELECT row_key, nextval('export_revision'), digest, ${CONTENT}
    FROM (SELECT n.* FROM export_now n LEFT JOIN export_rows e USING (row_key)
          WHERE e.digest IS DISTINCT FROM n.digest ORDER BY n.last_id) AS changed
    ON CONFLICT (row_key) DO UPDATE SET revision = EXCLUDED.revision, digest = EXCLUDED.digest,
      ${CONTENT.split(', ').map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`);
  const [sequence] = await tx.query<{ cursor: string }>(
    `SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS cursor FROM export_revision`,
  );
  return sequence!.cursor;
}

/** The rows of one export: those with a revision after `after` up to the cursor, from `since` on, in the order of their last vote. */
const EXPORT_SQL = `
  SELECT id::float8 AS round_id, revision::float8 AS revision, author, user_type, query, question_id, model_a, model_b,
         passage_a, passage_b, passage_set, text_a, text_b, reaction_a, reaction_b, tstamp, status, kind
  FROM export_rows
  WHERE revision > $1::bigint AND revision <= $2::bigint AND ($3::timestamptz IS NULL OR tstamp >= $3::timestamptz)
  ORDER BY last_id, id`;

export interface ExportQuery {
  since?: Date;
  /** A cursor an earlier export ended with: only rows new or changed since. */
  after?: string;
}

/**
 * Brings the export's rows up to date (refreshExportRows), tells `onCursor` the cursor this export
 * ends with, then hands its records to `onPage` a page at a time, each page fetched only once the
 * last was taken (so a slow reader of the export holds one page, whatever the number of votes).
 * On PostgreSQL it all runs in one transaction of its own, without time-outs, holding the rows'
 * lock (another export waits for it). The embedded store has one connection, which a transaction
 * would hold for the whole export: its cursor is made WITH HOLD in the refreshing transaction (the
 * database keeps the result, on disk past work_mem) and read outside it, between the server's
 * other queries.
 */
export async function exportRecords(
  db: Db,
  options: ExportQuery,
  onCursor: (cursor: string) => void | Promise<void>,
  onPage: (records: ExportRecord[]) => Promise<void>,
): Promise<void> {
  const cursorName = `vote_export_${randomBytes(8).toString('hex')}`;
  const declare = async (tx: Transaction, hold: boolean) => {
    const cursor = await refreshExportRows(tx);
    await tx.query(`DECLARE ${cursorName} NO SCROLL CURSOR ${hold ? 'WITH HOLD ' : ''}FOR ${EXPORT_SQL}`, [
      options.after ?? '0',
      cursor,
      options.since ?? null,
    ]);
    return cursor;
  };
  const fetchAll = async (fetch: () => Promise<ExportRecord[]>) => {
    for (;;) {
      const page = await fetch();
      if (page.length > 0) await onPage(page);
      if (page.length < EXPORT_PAGE_ROWS) return;
    }
  };
  const fetchSql = `FETCH FORWARD ${EXPORT_PAGE_ROWS} FROM ${cursorName}`;
  if (db.kind === 'postgres') {
    await db.transaction(
      async (tx) => {
        await onCursor(await declare(tx, false));
        await fetchAll(() => tx.query<ExportRecord>(fetchSql));
      },
      { unlimited: true },
    );
    return;
  }
  const cursor = await db.transaction((tx) => declare(tx, true), { unlimited: true });
  try {
    await onCursor(cursor);
    await fetchAll(() => db.query<ExportRecord>(fetchSql));
  } finally {
    await db.query(`CLOSE ${cursorName}`).catch(() => undefined);
  }
}
