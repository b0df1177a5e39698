-- Moderators are in charge of their server (issue 36). The same in the sqlite/ and postgres/
-- folders.
-- When the game lost its place: its thread was locked by a moderator, or the bot may no longer
-- post there, or the channel was deleted. The game is paused and nothing is posted for it until
-- the host or a moderator gives it a place again (`/clock resume` where they want it).
ALTER TABLE games ADD COLUMN lost_at BIGINT;
-- The last move a person (not a bot, not a timeout) played: a game nobody plays for days has
-- its thread archived, to free the server's active threads.
ALTER TABLE games ADD COLUMN human_move_at BIGINT;
-- When its thread was archived for that: boards the scheduler makes (timeouts, bots) are then
-- not posted (they would reopen it) until a person plays again.
ALTER TABLE games ADD COLUMN idle_at BIGINT;
-- A seat handed to a newcomer who would receive its hidden hand, waiting for every other seated
-- person to agree. `agreed` lists who did, as ",id,id,".
CREATE TABLE seat_requests (
    game BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    newcomer BIGINT NOT NULL,
    name TEXT NOT NULL,
    asked_by BIGINT NOT NULL,
    by_moderator BIGINT NOT NULL,
    agreed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);
