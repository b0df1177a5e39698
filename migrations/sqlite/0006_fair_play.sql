-- Fair play. The same in the sqlite/ and postgres/ folders.
-- Deadlines a seat missed since its player last played: a seat that ran out of time may be
-- taken over by the host; one still being played may not (a seated host could otherwise
-- hand it to an account of theirs and read its hidden hand).
ALTER TABLE seats ADD COLUMN timeouts BIGINT NOT NULL DEFAULT 0;
-- The lobby message, so an idle lobby can be closed by the scheduler and say so.
ALTER TABLE games ADD COLUMN lobby_message BIGINT;
