import type { Db } from '../../platform/store/db.ts';
import { DEVICE_RECEIPT, type VoteCheck } from './vote-check.ts';

/** Votes checked per round trip. */
const BATCH = 500;

/**
 * Checks again the votes still unchecked: rounds a device answered offline whose arm this server
 * could not run when they arrived (vote-check.ts), by the same check as a save, only those cast on
 * the passages it serves (`passage_set`): a vote cast on an earlier cut of the book is never
 * judged by today's passages, and keeps what it had; a batch at a time by id, until none is left
 * that this server can check. Votes it cannot check either keep `unchecked`. Returns how many
 * were decided; `stopped` ends it early (a shutdown).
 */
export async function recheckVotes(db: Db, check: VoteCheck, stopped: () => boolean = () => false, now: () => number = Date.now): Promise<number> {
  let after = 0;
  let decided = 0;
  while (!stopped()) {
    const rows = await db.query<{ id: string; author: string; query: string; model_type: string; retrieved_text: string }>(
      `SELECT id::text, author, query, model_type, retrieved_text FROM feedback
       WHERE verdict = 'unchecked' AND drawn_by = 'device' AND passage_set = $3 AND id > $1 ORDER BY feedback.id LIMIT $2`,
      [after, BATCH, check.passageSet()],
    );
    if (rows.length === 0) break;
    const verdicts = [];
    for (const row of rows) verdicts.push(...(await check.check(row.author, [{ ...row, receipt: DEVICE_RECEIPT }], now())));
    // Only a vote still unchecked is changed: another instance may have checked it meanwhile.
    // A vote whose text is a passage of an earlier cut keeps its set and stays as it was.
    await db.query(
      `UPDATE feedback AS f SET question_id = v.question_id, passage_id = v.passage_id, verdict = v.verdict, drawn_pair = v.drawn_pair,
         passage_sha256 = v.passage_sha256
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
            AS v(id, question_id, passage_id, verdict, drawn_pair, passage_set, passage_sha256)
       WHERE f.id = v.id AND f.verdict = 'unchecked' AND f.passage_set = v.passage_set`,
      [
        rows.map((r) => r.id),
        verdicts.map((v) => v.questionId),
        verdicts.map((v) => v.passageId),
        verdicts.map((v) => v.verdict),
        verdicts.map((v) => v.drawnPair ?? null),
        verdicts.map((v) => v.passageSet),
        verdicts.map((v) => v.passageSha256),
      ],
    );
    decided += verdicts.filter((v) => v.verdict !== 'unchecked').length;
    after = Number(rows.at(-1)!.id);
  }
  return decided;
}
