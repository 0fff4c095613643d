import type { Db } from '../../platform/store/db.ts';
import type { CheckedVote } from './sql/feedback.ts';
import { tallyAllPendingIn, tallyChecked, type StoredVote } from './sql/tallies.ts';
import { DEVICE_RECEIPT, type VoteCheck } from './vote-check.ts';

/** Votes checked per round trip. */
const BATCH = 500;

/**
 * Checks again the votes still unchecked: rounds a device answered offline whose arm this server
 * could not run when they arrived (vote-check.ts), by the same check as a save, only those cast on
 * the passages it serves (`passage_set`): a vote cast on an earlier cut of the book is never
 * judged by today's passages, and keeps what it had; a batch at a time by id, until none is left
 * that this server can check. Votes it cannot check either keep `unchecked`. The votes decided
 * change the tallies in the same transaction (tallies.ts: tallyChecked), so /api/stats counts a
 * round confirmed so as it would have counted it on arrival. Returns how many were decided;
 * `stopped` ends it early (a shutdown). `bound`: ARENA_DAILY_ROUNDS.
 */
export async function recheckVotes(
  db: Db,
  check: VoteCheck,
  bound: number,
  stopped: () => boolean = () => false,
  now: () => number = Date.now,
): Promise<number> {
  let after = 0;
  let decided = 0;
  while (!stopped()) {
    const rows = await db.query<{ id: string; author: string; query: string; model_type: string; retrieved_text: string }>(
      `SELECT id::text, author, query, model_type, retrieved_text FROM feedback
       WHERE verdict = 'unchecked' AND drawn_by = 'device' AND passage_set = $3 AND id > $1 ORDER BY feedback.id LIMIT $2`,
      [after, BATCH, check.passageSet()],
    );
    if (rows.length === 0) break;
    const verdicts: CheckedVote[] = [];
    for (const row of rows) verdicts.push(...(await check.check(row.author, [{ ...row, receipt: DEVICE_RECEIPT }], now())));
    // Only a vote still unchecked is changed: another instance may have checked it meanwhile.
    // A vote whose text is a passage of an earlier cut keeps its set and stays as it was.
    await db.transaction(async (tx) => {
      // The votes below were tallied as unchecked: those still waiting for the tallier are tallied first, under its lock, held to the end.
      await tallyAllPendingIn(tx, bound);
      const updated = await tx.query<StoredVote>(
        `UPDATE feedback AS f SET question_id = v.question_id, passage_id = v.passage_id, verdict = v.verdict, drawn_pair = v.drawn_pair,
           passage_sha256 = v.passage_sha256
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              AS v(id, question_id, passage_id, verdict, drawn_pair, passage_set, passage_sha256)
         WHERE f.id = v.id AND f.verdict = 'unchecked' AND f.passage_set = v.passage_set
         RETURNING f.id::text, f.author, coalesce(f.round_id::text, 'vote ' || f.id::text) AS round_key, f.user_type, f.model_type, f.reaction,
                   f.question_id, f.passage_set || '/' || f.passage_id AS passage_id, f.verdict, f.drawn_by, f.drawn_pair, f.created_at`,
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
      // Only the votes this UPDATE took out of `unchecked` (another instance may have checked the rest), reader by reader, by id.
      const byReader = new Map<string, StoredVote[]>();
      for (const vote of updated.filter((u) => u.verdict !== 'unchecked').sort((a, b) => Number(a.id) - Number(b.id))) {
        byReader.set(vote.author, [...(byReader.get(vote.author) ?? []), vote]);
      }
      for (const [author, votes] of [...byReader].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) await tallyChecked(tx, author, votes, bound);
    });
    decided += verdicts.filter((v) => v.verdict !== 'unchecked').length;
    after = Number(rows.at(-1)!.id);
  }
  return decided;
}
