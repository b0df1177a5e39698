-- Pings on your terms (issue 40 item 4). The same in the sqlite/ and postgres/ folders.
-- users.reminders: a member's own reminder points, as percents of a turn's time still left,
-- largest first ("50,10"); NULL keeps the server's plan, '' is no reminders at all.
ALTER TABLE users ADD COLUMN reminders TEXT;
-- How one game pings one member: 'my_turn' (only what needs them) or 'mute' (nothing); no row
-- is 'all', what every game did before.
CREATE TABLE game_pings (
    game   BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    member BIGINT NOT NULL,
    mode   TEXT NOT NULL,
    since  BIGINT NOT NULL,
    PRIMARY KEY (game, member)
);
