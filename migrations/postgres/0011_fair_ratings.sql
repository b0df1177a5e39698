-- Ratings that mean something (issue 36). The same in the sqlite/ and postgres/ folders.
--
-- `casual`: a game opened with `/play ... rated:false` (1) moves no rating; 0 for every game
-- before this migration, which were all rated.
ALTER TABLE games ADD COLUMN casual BIGINT NOT NULL DEFAULT 0;

-- Players of a running game who asked or agreed to cancel it, and when. A cancel without a
-- rating needs every seated member's fresh agreement (the service says how fresh); otherwise
-- the host's cancel counts as the host's resignation for the ratings (recorded in
-- `games.resigned_seat` of the cancelled game).
CREATE TABLE cancel_votes (
    game    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game, user_id)
);

-- The rules of who is rated changed: a one-seat puzzle or a game against bots only moves no
-- rating, and a resigned puzzle is no longer a win. As in 0009, the service rebuilds every
-- rating from the games themselves: this forgets the ratings and their history, and every
-- finished game is rated again, in the order the games ended, the next time a rating is read.
DELETE FROM rating_changes;
DELETE FROM ratings;
DELETE FROM rating_heads;
UPDATE games SET rated = NULL WHERE rated IS NOT NULL;
