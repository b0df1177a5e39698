-- Table manners (issue 40, item 1): undo by request. The same in the sqlite/ and postgres/
-- folders.
-- moves.revealed = 1: the option revealed randomness or hidden information (a card drawn, a
-- deck reshuffled, a random pick, sealed votes shown, a hidden card or panel face shown).
-- Nothing, not even an agreed take-back or a rollback, goes back past it. A barrier alone
-- (a turn ended) may be crossed by agreement. Rows stored before this column existed only
-- knew `barrier`: they count as revealed wherever they are barriers (the safe side).
ALTER TABLE moves ADD COLUMN revealed BIGINT NOT NULL DEFAULT 0;
UPDATE moves SET revealed = barrier;

-- The pending take-back request of a game, one at most (the primary key): `seat` (played by
-- `user_id`) asks to take back its last turn and everything after it. `keep_moves`: how many
-- live moves stay; `from_seq`: the seq of the first move taken back (a refusal is remembered
-- by it); `version`: the game's version when asked (any move played since ends the request);
-- `expires_at`: the turn's deadline when asked (NULL: the game has no clock).
CREATE TABLE takeback_requests (
    game       BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seat       BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    keep_moves BIGINT NOT NULL,
    from_seq   BIGINT NOT NULL,
    version    BIGINT NOT NULL,
    asked_at   BIGINT NOT NULL,
    expires_at BIGINT
);

-- The seats that accepted the pending request of their game (a refusal ends it at once).
CREATE TABLE takeback_answers (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat BIGINT NOT NULL,
    at   BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);

-- Refused requests, by the first move they would have taken back: not asked again.
CREATE TABLE takeback_refusals (
    game     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    from_seq BIGINT NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (game, from_seq)
);
