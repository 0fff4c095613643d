-- The export names the cut of the book each round's passages belong to and the texts its votes
-- were cast on (009 gave each vote its passage set): export_rows keeps them with the rest of a
-- row's content, so a row whose texts it did not hold yet takes a new revision once.
ALTER TABLE export_rows ADD COLUMN passage_set text, ADD COLUMN text_a text, ADD COLUMN text_b text;
