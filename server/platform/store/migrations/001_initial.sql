-- Users, sessions with their refresh-token families, failed-login throttling and feedback.
CREATE TABLE users (
  username      text PRIMARY KEY CHECK (username = lower(username)),
  password_hash text NOT NULL,
  disabled      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- A session is one sign-in: a family of refresh tokens rotated one after another.
CREATE TABLE sessions (
  id             uuid PRIMARY KEY,
  username       text NOT NULL REFERENCES users (username) ON DELETE CASCADE,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  revoked_at     timestamptz,
  revoked_reason text
);
CREATE INDEX sessions_username ON sessions (username);

-- Refresh tokens are stored only as SHA-256 hashes.
CREATE TABLE refresh_tokens (
  token_hash  text PRIMARY KEY,
  session_id  uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  rotated_at  timestamptz
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Failed sign-ins, per account ('user:NAME') and per address ('ip:ADDR').
CREATE TABLE login_throttle (
  key               text PRIMARY KEY,
  failures          integer NOT NULL,
  window_started_at timestamptz NOT NULL,
  locked_until      timestamptz
);

CREATE TABLE feedback (
  id               bigserial PRIMARY KEY,
  author           text NOT NULL,
  client_id        uuid,
  round_id         uuid,
  user_type        text NOT NULL CHECK (user_type IN ('Enthusiast', 'Ustaz')),
  claimed_username text NOT NULL,
  query            text NOT NULL,
  retrieved_text   text NOT NULL,
  model_type       text NOT NULL,
  result_label     text NOT NULL CHECK (result_label IN ('A', 'B')),
  reaction         text NOT NULL CHECK (reaction IN ('👍', '🤷', '👎')),
  confidence_score double precision NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (author, client_id)
);
CREATE INDEX feedback_author_created ON feedback (author, created_at DESC, id DESC);
CREATE INDEX feedback_round ON feedback (round_id) WHERE round_id IS NOT NULL;
