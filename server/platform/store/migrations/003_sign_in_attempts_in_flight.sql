-- Sign-in attempts counted as failures whose password is still being checked: a key locked only
-- by these may soon be unlocked (the attempts succeed), so a new attempt waits a moment for them
-- instead of being refused. Until pending_until only: an attempt cut short (a crash) is not
-- waited for again.
ALTER TABLE login_throttle ADD COLUMN pending integer NOT NULL DEFAULT 0;
ALTER TABLE login_throttle ADD COLUMN pending_until timestamptz;
