-- A reader's saved passages (docs/api.md, "Saved passages"), kept across their devices.
--   id          the client's UUID for the save: the same id saved again is the same row;
--   anchor      the paragraph, as the reader addresses it (`ch4#p12`);
--   saved_at, updated_at  the client's times (ms): a change older than updated_at changes nothing;
--   removed     a removal is kept as a mark, so that an older save sent late does not bring it back.
CREATE TABLE saved_passages (
  username   text NOT NULL REFERENCES users (username) ON DELETE CASCADE,
  id         uuid NOT NULL,
  anchor     text NOT NULL,
  note       text NOT NULL DEFAULT '',
  saved_at   bigint NOT NULL,
  updated_at bigint NOT NULL,
  removed    boolean NOT NULL DEFAULT false,
  PRIMARY KEY (username, id)
);
CREATE INDEX saved_passages_newest ON saved_passages (username, saved_at DESC);
