-- The vote export's rows as last exported, so that an incremental export (npm run votes --
-- export --after CURSOR) can give each new or changed row exactly once (docs/arena.md):
--   id        the row's stable round_id in the export, given the first time the row is seen;
--   row_key   what the row is: a reader's round (author and round), or a vote a newer one replaced;
--   revision  from export_revision, taken when the row first appears or its content changes
--             (digest): only ever by an export holding this table's lock, so revisions commit in
--             the order they are taken and a cursor never skips one committed late;
--   the rest  the row's content as that export classified it.
CREATE SEQUENCE export_revision;
CREATE TABLE export_rows (
  id          bigserial PRIMARY KEY,
  row_key     text NOT NULL UNIQUE,
  revision    bigint NOT NULL,
  digest      text NOT NULL,
  last_id     bigint NOT NULL,
  author      text NOT NULL,
  user_type   text NOT NULL,
  query       text NOT NULL,
  question_id text,
  model_a     text,
  model_b     text,
  passage_a   text,
  passage_b   text,
  reaction_a  text,
  reaction_b  text,
  tstamp      timestamptz NOT NULL,
  status      text
);
CREATE INDEX export_rows_revision ON export_rows (revision);
CREATE INDEX export_rows_last_id ON export_rows (last_id);

-- A vote deleted (a reader removed, retention over) takes its export rows with it at once, so no
-- copy of a reader's questions outlives their votes until the next export. A round that keeps
-- another vote is exported again by the next export, under a new round_id.
CREATE FUNCTION export_rows_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM export_rows
  WHERE row_key IN (
    SELECT json_build_array('round', author, coalesce(round_id::text, 'vote ' || id::text))::text FROM gone
    UNION ALL
    SELECT json_build_array('vote', id)::text FROM gone);
  RETURN NULL;
END $$;
CREATE TRIGGER export_rows_forget AFTER DELETE ON feedback
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION export_rows_forget();
