-- A save's statement as a function (server/modules/arena/sql/feedback.ts: saveFeedback). Sent as
-- text, the statement was parsed and planned anew on every save, about 40% of its cost on both
-- stores; PL/pgSQL keeps the plan of each statement it runs for the rest of the connection (the
-- embedded store's one connection, each pooled one on PostgreSQL, a pooler's included), so a save
-- is now planned once. The votes are stored only when `p_live` (the reader's session is live,
-- worked out by the calling statement); inserted in the array's order (ORDINALITY), each new one
-- also marked waiting for the tallier (arena_pending, 015). Returns whether they were stored
-- (`p_live` itself) and how many were new.
CREATE FUNCTION arena_save_votes(p_author text, p_votes json, p_saved_at timestamptz, p_live boolean)
RETURNS TABLE (stored_live boolean, stored_count int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  IF p_live IS NOT TRUE THEN
    RETURN QUERY SELECT false, 0;
    RETURN;
  END IF;
  RETURN QUERY
  WITH stored AS (
    INSERT INTO feedback (author, client_id, round_id, user_type, claimed_username, query,
      retrieved_text, model_type, result_label, reaction, confidence_score, question_id, passage_id, verdict, created_at,
      passage_set, passage_sha256, drawn_by, drawn_pair)
    SELECT p_author, v.client_id, v.round_id, v.user_type, v.claimed_username, v.query,
           v.retrieved_text, v.model_type, v.result_label, v.reaction, v.confidence_score, v.question_id, v.passage_id, v.verdict, p_saved_at,
           v.passage_set, v.passage_sha256, v.drawn_by, v.drawn_pair
    FROM ROWS FROM (json_to_recordset(p_votes) AS (client_id uuid, round_id uuid, user_type text, claimed_username text,
           query text, retrieved_text text, model_type text, result_label text, reaction text, confidence_score float8,
           question_id text, passage_id text, verdict text, passage_set text, passage_sha256 text, drawn_by text, drawn_pair text))
         WITH ORDINALITY AS v(client_id, round_id, user_type, claimed_username, query, retrieved_text, model_type, result_label,
           reaction, confidence_score, question_id, passage_id, verdict, passage_set, passage_sha256, drawn_by, drawn_pair, n)
    ORDER BY v.n
    ON CONFLICT (author, client_id) DO NOTHING
    RETURNING id
  ), pending AS (INSERT INTO arena_pending (id) SELECT id FROM stored)
  SELECT true, (SELECT count(*)::int FROM stored);
END $$;
