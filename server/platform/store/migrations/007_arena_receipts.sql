-- Only what was shown counts (docs/arena.md): a vote counts only with its search's receipt (or,
-- offline, as the device's own draw, worked out again on the server). The verdict now says why a
-- vote is not counted:
--   no-receipt    sent without a receipt (an older client), and every vote stored before this;
--   forged        a receipt the server never signed; expired: one past its time;
--   other-reader  another reader's receipt;   not-drawn: an arm or question the draw did not give;
--   not-first     a passage other than its arm's first;   not-shown: no passage its arm showed.
-- drawn_by says who drew the pair (server, device), drawn_pair which pair: a round's two votes
-- must share it.
ALTER TABLE feedback DROP CONSTRAINT feedback_verdict_check;
ALTER TABLE feedback ADD CONSTRAINT feedback_verdict_check CHECK (verdict IN (
  'shown', 'no-receipt', 'forged', 'expired', 'other-reader', 'not-drawn', 'not-first', 'not-shown', 'unknown-model', 'unchecked'));
ALTER TABLE feedback ADD COLUMN drawn_by text CHECK (drawn_by IN ('server', 'device'));
ALTER TABLE feedback ADD COLUMN drawn_pair text;
UPDATE feedback SET verdict = 'no-receipt';

-- The arena's tallies, kept current as votes are saved, in the same transaction
-- (server/modules/arena/sql/tallies.ts), so that /api/stats and the draw never read every vote.
-- A round: one reader's votes on one question under one drawn pair (the receipt's), each arm's
-- newest vote; status null while one-sided, then 'counted', 'same-passage' or 'over-daily-bound'.
CREATE TABLE arena_rounds (
  author      text NOT NULL,
  question_id text NOT NULL,
  drawn_pair  text NOT NULL,
  user_type   text NOT NULL,
  lo_vote     bigint,
  lo_passage  text,
  lo_reaction text,
  hi_vote     bigint,
  hi_passage  text,
  hi_reaction text,
  status      text,
  -- The round_id of its newest vote: a decision under another one is the same round again.
  round_key   text,
  PRIMARY KEY (author, question_id, drawn_pair)
);
-- A reader's rounds decided on a day (UTC): the daily bound.
CREATE TABLE arena_reader_days (
  author  text NOT NULL,
  day     date NOT NULL,
  decided integer NOT NULL,
  PRIMARY KEY (author, day)
);
-- A reader's counted rounds per pair of arms (lo < hi) and user type: the leaderboard's data.
CREATE TABLE arena_reader_pairs (
  author    text NOT NULL,
  lo        text NOT NULL,
  hi        text NOT NULL,
  user_type text NOT NULL,
  lo_wins   integer NOT NULL DEFAULT 0,
  ties      integer NOT NULL DEFAULT 0,
  hi_wins   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (author, lo, hi, user_type)
);
-- Rounds (a reader's round_id) already counted apart for a vote's reason.
CREATE TABLE arena_left_rounds (
  author    text NOT NULL,
  round_key text NOT NULL,
  PRIMARY KEY (author, round_key)
);
-- Counters, split in 16 shards by reader so that readers voting at once seldom wait on one row:
-- 'changes', 'votes:<reason>', 'rounds:<what>', 'decided:<lo>\n<hi>', 'reaction:<model>\n<user type>\n<reaction>'.
CREATE TABLE arena_counts (
  shard smallint NOT NULL,
  name  text NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (shard, name)
);
INSERT INTO arena_counts (shard, name, n) SELECT 0, 'votes:no-receipt', count(*) FROM feedback HAVING count(*) > 0;
INSERT INTO arena_counts (shard, name, n) SELECT 0, 'changes', count(*) FROM feedback HAVING count(*) > 0;
INSERT INTO arena_left_rounds (author, round_key) SELECT DISTINCT author, coalesce(round_id::text, 'vote ' || id::text) FROM feedback;
INSERT INTO arena_counts (shard, name, n) SELECT 0, 'rounds:no-receipt', count(*) FROM arena_left_rounds HAVING count(*) > 0;
