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
