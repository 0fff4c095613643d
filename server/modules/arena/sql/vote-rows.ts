import { randomBytes } from 'node:crypto';
import type { Reaction } from '../../../../contract/vocabulary.ts';
import { CLASSIFIED_ROUNDS_SQL, type RoundLeftOut } from './arena-rounds.ts';
import type { Db } from '../../../platform/store/db.ts';

/** A round, or a lone vote, as the store hands it to the export. */
export interface ExportRecord {
  author: string;
  user_type: string;
  query: string;
  question_id: string | null;
  model_a: string | null;
  model_b: string | null;
  passage_a: string | null;
  passage_b: string | null;
  reaction_a: Reaction | null;
  reaction_b: Reaction | null;
  /** The round's last vote's time. */
  tstamp: Date;
  /** Why it is left out of the comparison, or null when it counts. */
  status: RoundLeftOut | null;
}

/** Rows fetched at a time: a page is the most the export holds. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * Every round (arena-rounds.ts: classified as the statistics count it) and every vote a newer one
 * replaced within its round (a lone 'repeat'), in the order of their last vote, from `since` on.
 */
const EXPORT_SQL = `WITH ${CLASSIFIED_ROUNDS_SQL}
  SELECT author, user_type, query, question_id, model_a, model_b, passage_a, passage_b, reaction_a, reaction_b, tstamp, status
  FROM (
    SELECT decided_id AS last_id, author, user_type, query, question_id, a AS model_a, b AS model_b, pa AS passage_a, pb AS passage_b,
           ra AS reaction_a, rb AS reaction_b, decided_at AS tstamp, status
    FROM classified
    UNION ALL
    SELECT id, author, user_type, query, question_id,
           CASE WHEN result_label = 'A' THEN model_type END, CASE WHEN result_label = 'B' THEN model_type END,
           CASE WHEN result_label = 'A' THEN passage_id END, CASE WHEN result_label = 'B' THEN passage_id END,
           CASE WHEN result_label = 'A' THEN reaction END, CASE WHEN result_label = 'B' THEN reaction END,
           created_at, 'repeat'
    FROM items WHERE nth > 1) AS exported
  WHERE $2::timestamptz IS NULL OR tstamp >= $2::timestamptz
  ORDER BY last_id`;

/**
 * Hands the export's records to `onPage` a page at a time, each page fetched only once the last
 * was taken (so a slow reader of the export holds one page, whatever the number of votes), from a
 * cursor over one snapshot of the votes. On PostgreSQL the cursor lives in a transaction of its
 * own, without time-outs. The embedded store has one connection, which a transaction would hold
 * for the whole export: its cursor is made WITH HOLD (the database keeps the result, on disk
 * past work_mem) and read outside any transaction, between the server's other queries.
 */
export async function exportRecords(
  db: Db,
  options: { dailyRoundBound: number; since?: Date },
  onPage: (records: ExportRecord[]) => Promise<void>,
): Promise<void> {
  const cursor = `vote_export_${randomBytes(8).toString('hex')}`;
  const params = [options.dailyRoundBound, options.since ?? null];
  const fetchAll = async (fetch: () => Promise<ExportRecord[]>) => {
    for (;;) {
      const page = await fetch();
      if (page.length > 0) await onPage(page);
      if (page.length < EXPORT_PAGE_ROWS) return;
    }
  };
  const fetchSql = `FETCH FORWARD ${EXPORT_PAGE_ROWS} FROM ${cursor}`;
  if (db.kind === 'postgres') {
    await db.transaction(
      async (tx) => {
        await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${EXPORT_SQL}`, params);
        await fetchAll(() => tx.query<ExportRecord>(fetchSql));
      },
      { unlimited: true },
    );
    return;
  }
  await db.transaction(async (tx) => void (await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR ${EXPORT_SQL}`, params)));
  try {
    await fetchAll(() => db.query<ExportRecord>(fetchSql));
  } finally {
    await db.query(`CLOSE ${cursor}`).catch(() => undefined);
  }
}
