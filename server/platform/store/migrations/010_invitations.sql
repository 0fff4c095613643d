-- Invitations (npm run users -- invite): a single-use link through which a reader makes their own
-- account. Only the SHA-256 hash of the link's token is kept, never the token; `id` is what the
-- operator sees and revokes by. An invitation is pending while used_at and revoked_at are null and
-- expires_at lies ahead; taking it sets used_at in the same transaction that adds the account.
-- used_by names the account made with it, and is cleared when that reader is forgotten or removed.
CREATE TABLE invitations (
  id          text PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  user_type   text CHECK (user_type IN ('Enthusiast', 'Ustaz')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  used_by     text REFERENCES users (username) ON DELETE SET NULL,
  revoked_at  timestamptz
);
