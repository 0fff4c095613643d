-- Which signing key is the newest: created_at alone ties for keys made in the same millisecond
-- (the embedded store's clock counts milliseconds), and the tie fell to the random kid, so a
-- rotated-out key could go on signing. Ties are now broken by the order keys were added in.
ALTER TABLE signing_keys ADD COLUMN seq bigserial;
