import { randomBytes } from 'node:crypto';
import type { Reaction } from '../../../../contract/vocabulary.ts';
import { CLASSIFIED_ROUNDS_SQL, type RoundLeftOut } from './arena-rounds.ts';
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
}

/** Rows fetched at a time: a page is the most the export holds. */
export const EXPORT_PAGE_ROWS = 1000;

const CONTENT =
  'last_id, author, user_type, query, question_id, model_a, model_b, passage_a, passage_b, passage_set, text_a, text_b, reaction_a, reaction_b, tstamp, status';

/**
 * Every row the export has now, into the transaction's own table `export_now`: every round
 * (arena-rounds.ts: classified as the statistics count it) and every vote a newer one replaced
 * within its round (a lone 'repeat'), each with its key and a digest of its content.
 */
const CURRENT_ROWS_SQL = `
  INSERT INTO export_now (row_key, digest, ${CONTENT})
  WITH ${CLASSIFIED_ROUNDS_SQL}
  SELECT row_key, md5(row(${CONTENT})::text), ${CONTENT}
  FROM (
    SELECT row_key, last_id, r.author, r.user_type, r.query, r.question_id, model_a, model_b, passage_a, passage_b,
           coalesce(fa.passage_set, fb.passage_set) AS passage_set,
           btrim(fa.retrieved_text, E' \\t\\n\\r') AS text_a, btrim(fb.retrieved_text, E' \\t\\n\\r') AS text_b,
           reaction_a, reaction_b, tstamp, status
    FROM (
      SELECT json_build_array('round', author, round_key)::text AS row_key, decided_id AS last_id, author, user_type, query, question_id,
             a AS model_a, b AS model_b, pa AS passage_a, pb AS passage_b, vote_a, vote_b, ra AS reaction_a, rb AS reaction_b,
             decided_at AS tstamp, status
      FROM classified
      UNION ALL
      SELECT json_build_array('vote', id)::text, id, author, user_type, query, question_id,
             CASE WHEN result_label = 'A' THEN model_type END, CASE WHEN result_label = 'B' THEN model_type END,
             CASE WHEN result_label = 'A' THEN passage_id END, CASE WHEN result_label = 'B' THEN passage_id END,
             CASE WHEN result_label = 'A' THEN id END, CASE WHEN result_label = 'B' THEN id END,
             CASE WHEN result_label = 'A' THEN reaction END, CASE WHEN result_label = 'B' THEN reaction END,
             created_at, 'repeat'
      FROM items WHERE nth > 1) AS r
    LEFT JOIN feedback AS fa ON fa.id = r.vote_a
    LEFT JOIN feedback AS fb ON fb.id = r.vote_b) AS rows_now`;

/**
 * Brings export_rows up to the votes as they are now, and returns the cursor: the newest revision.
 * A row new or changed since it was last exported takes the next revision; a row whose votes
 * were forgotten (housekeeping) goes. The table's lock is held to the transaction's end, so two
 * exports never interleave their revisions: each revision is committed before a later one is
 * taken, and no cursor passes one that commits late.
 */
async function refreshExportRows(tx: Transaction, dailyRoundBound: number): Promise<string> {
  await tx.query('LOCK TABLE export_rows IN SHARE ROW EXCLUSIVE MODE');
  await tx.query(`CREATE TEMP TABLE export_now (
      row_key text PRIMARY KEY, digest text NOT NULL, last_id bigint NOT NULL, author text NOT NULL, user_type text NOT NULL,
      query text NOT NULL, question_id text, model_a text, model_b text, passage_a text, passage_b text, passage_set text,
      text_a text, text_b text, reaction_a text,
      reaction_b text, tstamp timestamptz NOT NULL, status text) ON COMMIT DROP`);
  await tx.query(CURRENT_ROWS_SQL, [dailyRoundBound]);
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
         passage_a, passage_b, passage_set, text_a, text_b, reaction_a, reaction_b, tstamp, status
  FROM export_rows
  WHERE revision > $1::bigint AND revision <= $2::bigint AND ($3::timestamptz IS NULL OR tstamp >= $3::timestamptz)
  ORDER BY last_id, id`;

export interface ExportQuery {
  dailyRoundBound: number;
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
    const cursor = await refreshExportRows(tx, options.dailyRoundBound);
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
