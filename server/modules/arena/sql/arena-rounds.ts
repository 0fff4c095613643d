/**
 * The arena's rules as SQL over every vote, as they were before the tallies kept at vote time
 * (tallies.ts), which now apply the rules (docs/arena.md) for /api/stats, the draw and the export.
 * Read only by tallyVotes (feedback.ts: the simulations and older tests); it differs from the
 * tallies where docs/arena.md's rules changed (a round's day is the day it was first decided; a
 * reaction counts once per round and arm).
 */

export { ROUND_LEFT_OUT, VOTE_LEFT_OUT, type RoundLeftOut, type VoteLeftOut } from '../../../../contract/vocabulary.ts';

/**
 * Every vote with `status`, why it is left out of the reaction counts, or null when it counts: a
 * vote whose passage its model did not show (its verdict), or one a newer vote of the same
 * reader on the same question, model and passage replaced ('repeat': the newest counts).
 */
export const VOTE_STATUS_SQL = `
  SELECT model_type, user_type, reaction,
         CASE WHEN verdict <> 'shown' THEN verdict
              WHEN row_number() OVER (PARTITION BY verdict = 'shown', author, question_id, model_type, passage_set, passage_id ORDER BY id DESC) > 1
                THEN 'repeat' END AS status
  FROM feedback`;

/**
 * A passage is told apart by its set and its id (`passage_set`, `passage_id`: 'v1', 'ch7-13'): the
 * same id in two cuts of the book names two texts, and a vote names the cut it was cast on
 * (migration 009).
 *
 * CTEs ending in `classified`: one row per round, a reader's A and B votes under one round_id
 * (each label's newest vote; a vote without a round_id is a round of its own), with `status`, why
 * the round is left out of the comparison, or null when it counts. In this order:
 * - 'one-sided': only one label was rated;
 * - a side's verdict (why it is not counted: 'no-receipt', 'forged', 'not-first', ...), or
 *   'not-shown' for two sides the service never shows together (two questions, or one model on
 *   both sides), or 'not-drawn' for sides from two draws (two receipts' pairs);
 * - 'repeat': the reader decided the same round (question, the two models and their passages,
 *   whichever was A) again later: the newest counts;
 * - 'same-passage': both models showed the same passage, so there is nothing to compare;
 * - 'over-daily-bound': past the reader's first `$1` decided rounds of that day (UTC).
 * Also `items`: every vote with `nth`, 1 for its label's newest in its round.
 */
export const CLASSIFIED_ROUNDS_SQL = `
  items AS (
    SELECT f.*, row_number() OVER (PARTITION BY author, round_key, result_label ORDER BY id DESC) AS nth
    FROM (SELECT id, author, coalesce(round_id::text, 'vote ' || id::text) AS round_key, result_label, model_type, reaction,
                 user_type, query, question_id, passage_id, passage_set, verdict, drawn_by, drawn_pair, created_at
          FROM feedback) AS f),
  rounds AS (
    SELECT author, round_key, count(*) = 2 AS paired, max(id) AS decided_id, max(created_at) AS decided_at,
           coalesce(max(user_type) FILTER (WHERE result_label = 'A'), max(user_type)) AS user_type,
           coalesce(max(query) FILTER (WHERE result_label = 'A'), max(query)) AS query,
           coalesce(max(question_id) FILTER (WHERE result_label = 'A'), max(question_id)) AS question_id,
           max(question_id) FILTER (WHERE result_label = 'A') AS qa, max(question_id) FILTER (WHERE result_label = 'B') AS qb,
           max(model_type) FILTER (WHERE result_label = 'A') AS a, max(model_type) FILTER (WHERE result_label = 'B') AS b,
           max(passage_id) FILTER (WHERE result_label = 'A') AS pa, max(passage_id) FILTER (WHERE result_label = 'B') AS pb,
           max(passage_set) FILTER (WHERE result_label = 'A') AS sa, max(passage_set) FILTER (WHERE result_label = 'B') AS sb,
           max(id) FILTER (WHERE result_label = 'A') AS vote_a, max(id) FILTER (WHERE result_label = 'B') AS vote_b,
           max(reaction) FILTER (WHERE result_label = 'A') AS ra, max(reaction) FILTER (WHERE result_label = 'B') AS rb,
           min(verdict) FILTER (WHERE verdict <> 'shown') AS side_verdict, bool_and(drawn_by = 'device') AS from_device,
           max(drawn_pair) FILTER (WHERE result_label = 'A') AS da, max(drawn_pair) FILTER (WHERE result_label = 'B') AS db
    FROM items WHERE nth = 1 GROUP BY author, round_key),
  s0 AS (
    SELECT *, CASE WHEN NOT paired THEN 'one-sided'
                   WHEN side_verdict IS NOT NULL THEN side_verdict
                   WHEN qa IS DISTINCT FROM qb OR a = b THEN 'not-shown'
                   WHEN da IS DISTINCT FROM db THEN 'not-drawn' END AS status0,
           (a, pa, sa) <= (b, pb, sb) AS a_first
    FROM rounds),
  s1 AS (
    SELECT *, coalesce(status0, CASE
             WHEN row_number() OVER (
                    PARTITION BY status0 IS NULL, author, qa,
                      CASE WHEN a_first THEN a ELSE b END, CASE WHEN a_first THEN pa ELSE pb END, CASE WHEN a_first THEN sa ELSE sb END,
                      CASE WHEN a_first THEN b ELSE a END, CASE WHEN a_first THEN pb ELSE pa END, CASE WHEN a_first THEN sb ELSE sa END
                    ORDER BY decided_id DESC) > 1 THEN 'repeat'
             WHEN pa = pb AND sa = sb THEN 'same-passage' END) AS status1
    FROM s0),
  classified AS (
    SELECT *, coalesce(status1, CASE
             WHEN row_number() OVER (PARTITION BY status1 IS NULL, author, (decided_at AT TIME ZONE 'UTC')::date ORDER BY decided_id)
                  > $1 THEN 'over-daily-bound' END) AS status
    FROM s1)`;
