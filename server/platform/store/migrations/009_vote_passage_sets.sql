-- A vote names the text it was cast on, whichever way the book is later cut into passages:
--   passage_set     the set of passages its passage_id belongs to: 'v1' is the first chunking of
--                   the scan (corpus/passages-v1.json, id -> text), every vote saved before this
--                   migration (and by a server that does not set it); a later server stores its
--                   book's passage version (the first 16 hex digits of the corpus hash).
--   passage_sha256  the sha256 of the text the vote carries (spaces at its ends aside); null
--                   for votes saved before this migration (their retrieved_text is the text).
-- A vote is only ever checked against passages of its own set: the start's re-check takes only
-- the unchecked votes of the set the server serves.
ALTER TABLE feedback ADD COLUMN passage_set text NOT NULL DEFAULT 'v1';
ALTER TABLE feedback ADD COLUMN passage_sha256 text;
DROP INDEX feedback_unchecked;
CREATE INDEX feedback_unchecked ON feedback (passage_set, id) WHERE verdict = 'unchecked';
