-- The export reads each round's verdict from the tallies kept at vote time (arena_rounds, 007), so
-- that it tells the story /api/stats tells (docs/arena.md): a round is now a reader's question
-- under one drawn pair, as the tallies count it. Its rows are keyed so:
--   ["round", author, question_id, drawn_pair]           a round, with each arm's newest vote;
--   ["repeat", author, round_key, question_id, drawn_pair]  an earlier decision of that round;
--   ["round", author, round_key]                         a round_id's votes not counted (their verdict);
--   ["vote", id]                                         a vote a newer one replaced.
-- `kind` says which rows /api/stats counts as rounds ('round') and which as a vote only ('vote').
ALTER TABLE export_rows ADD COLUMN kind text;

CREATE OR REPLACE FUNCTION export_rows_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM export_rows
  WHERE row_key IN (
    SELECT json_build_array('round', author, coalesce(round_id::text, 'vote ' || id::text))::text FROM gone
    UNION ALL
    SELECT json_build_array('vote', id)::text FROM gone
    UNION ALL
    SELECT json_build_array('round', author, question_id, drawn_pair)::text FROM gone WHERE drawn_pair IS NOT NULL
    UNION ALL
    SELECT json_build_array('repeat', author, coalesce(round_id::text, 'vote ' || id::text), question_id, drawn_pair)::text
    FROM gone WHERE drawn_pair IS NOT NULL);
  RETURN NULL;
END $$;
