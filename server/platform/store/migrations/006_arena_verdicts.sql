-- The arena's rules (docs/arena.md), decided for each vote as it is saved and kept with it, so
-- that the statistics stay one query:
--   question_id  the stable id of the vote's normalised question (server/modules/arena/question.ts);
--   passage_id   the book's passage whose text the vote carries (null for a text that is none);
--   verdict      whether its model shows that passage for that question: 'shown' (it may count),
--                'not-shown', 'unknown-model', or 'unchecked' (not checked yet: the server checks
--                these as it starts). Votes saved before this migration start unchecked.
ALTER TABLE feedback ADD COLUMN question_id text;
ALTER TABLE feedback ADD COLUMN passage_id text;
ALTER TABLE feedback ADD COLUMN verdict text NOT NULL DEFAULT 'unchecked'
  CHECK (verdict IN ('shown', 'not-shown', 'unknown-model', 'unchecked'));
CREATE INDEX feedback_unchecked ON feedback (id) WHERE verdict = 'unchecked';

-- Secrets the arena keeps: 'judge' keys the hash that names a reader in the export.
CREATE TABLE arena_secrets (
  name       text PRIMARY KEY,
  secret     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
