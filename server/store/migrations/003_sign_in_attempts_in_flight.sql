-- Sign-in attempts counted as failures whose password is still being checked: a key locked only
-- by these may soon be unlocked (the attempts succeed), so a new attempt waits a moment for them
-- instead of being refused.
ALTER TABLE login_throttle ADD COLUMN pending integer NOT NULL DEFAULT 0;
