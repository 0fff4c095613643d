-- What several instances on one database must share: the access-token signing keys and the
-- search rate limit's counts.

-- A key signs new tokens from its creation until a newer one exists; it verifies until the
-- longest access-token lifetime after that (the key ring decides, from created_at).
CREATE TABLE signing_keys (
  kid        text PRIMARY KEY,
  secret     text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Searches per address in fixed windows of a minute.
CREATE TABLE rate_limits (
  key             text PRIMARY KEY,
  window_start_ms bigint NOT NULL,
  hits            integer NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits (window_start_ms);
