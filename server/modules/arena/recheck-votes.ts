import type { Db } from '../../platform/store/db.ts';
import type { ShownCheck } from './shown-check.ts';

/** Votes checked per round trip. */
const BATCH = 500;

/**
 * Checks the votes still unchecked (saved before the arena's checks, or naming a model the
 * service could not run then) against what the service shows now, by the same check as a save,
 * a batch at a time by id, until none is left that this server can check. Votes it cannot check
 * either (their model is still not served here) keep `unchecked`, with their question and
 * passage filled in. Returns how many were decided; `stopped` ends it early (a shutdown).
 */
export async function recheckVotes(db: Db, check: ShownCheck, stopped: () => boolean = () => false): Promise<number> {
  let after = 0;
  let decided = 0;
  while (!stopped()) {
    const rows = await db.query<{ id: string; query: string; model_type: string; retrieved_text: string }>(
      `SELECT id::text, query, model_type, retrieved_text FROM feedback WHERE verdict = 'unchecked' AND id > $1 ORDER BY id LIMIT $2`,
      [after, BATCH],
    );
    if (rows.length === 0) break;
    const verdicts = await check.check(rows);
    // Only a vote still unchecked is changed: another instance may have checked it meanwhile.
    await db.query(
      `UPDATE feedback AS f SET question_id = v.question_id, passage_id = v.passage_id, verdict = v.verdict
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS v(id, question_id, passage_id, verdict)
       WHERE f.id = v.id AND f.verdict = 'unchecked'`,
      [rows.map((r) => r.id), verdicts.map((v) => v.questionId), verdicts.map((v) => v.passageId), verdicts.map((v) => v.verdict)],
    );
    decided += verdicts.filter((v) => v.verdict !== 'unchecked').length;
    after = Number(rows.at(-1)!.id);
  }
  return decided;
}
