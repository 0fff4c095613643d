-- A reader's tallies that a batch of votes touches, read under the reader's lock in one round
-- trip (server/modules/arena/sql/tallies.ts). The lock and the read must not share a statement:
-- a statement reads the snapshot taken as it began, before the lock was granted, and would miss
-- the batch that held it. A function's statements each take their own (READ COMMITTED), so the
-- SELECT below sees every batch of this reader committed before the lock was ours.
CREATE FUNCTION arena_reader_state(reader text, questions text[], pairs text[], days date[], round_keys text[])
RETURNS json LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('arena ' || reader));
  RETURN json_build_object(
    'rounds', (SELECT coalesce(json_agg(r), '[]') FROM (
       SELECT question_id, drawn_pair, user_type, lo_vote::text AS lo_vote, lo_passage, lo_reaction, hi_vote::text AS hi_vote,
              hi_passage, hi_reaction, status, round_key
       FROM arena_rounds WHERE author = reader AND (question_id, drawn_pair) IN (SELECT * FROM unnest(questions, pairs))) AS r),
    'days', (SELECT coalesce(json_agg(d), '[]') FROM (
       SELECT to_char(day, 'YYYY-MM-DD') AS day, decided FROM arena_reader_days WHERE author = reader AND day = ANY(days)) AS d),
    'left', (SELECT coalesce(json_agg(round_key), '[]') FROM arena_left_rounds WHERE author = reader AND round_key = ANY(round_keys)));
END
$$;

-- Each reader's share of arena_counts ('changes' aside), kept with them, so that forgetting a
-- reader takes back exactly what their votes added instead of making every tally again.
CREATE TABLE arena_reader_counts (
  author text NOT NULL,
  name   text NOT NULL,
  n      bigint NOT NULL,
  PRIMARY KEY (author, name)
);
-- The votes stored before have no share yet: until the tallies are next made again from the
-- votes (which fills it), forgetting a reader rebuilds them as before.
INSERT INTO arena_counts (shard, name, n) SELECT 0, 'reader-counts-incomplete', 1 WHERE EXISTS (SELECT 1 FROM feedback);
