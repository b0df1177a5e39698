-- Board delivery: the version whose public post went out, so a board lost between storing a
-- change and posting it (a crash, Discord down past the retries) is posted again by the
-- scheduler. The same in the sqlite/ and postgres/ folders.
ALTER TABLE games ADD COLUMN posted_version BIGINT NOT NULL DEFAULT 0;
-- While a process re-posts a board, others leave the game alone until this time.
ALTER TABLE games ADD COLUMN board_retry_at BIGINT;
-- Games stored before this release had their boards posted (or have no way to know): no flood.
UPDATE games SET posted_version = version;
CREATE INDEX games_unposted ON games (updated_at) WHERE posted_version < version;
