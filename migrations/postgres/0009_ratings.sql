-- Skill ratings (issue 24). The same in the sqlite/ and postgres/ folders.
-- A rating is a Weng-Lin estimate (skillratings crate): mu and sigma, kept in millionths as
-- BIGINT (the store reads only integers and text on both backends).
--
-- Existing finished games are brought in by the service, not here: a rating update is maths
-- this file cannot do. Every finished game starts with `rated` NULL, and the service rates the
-- unrated games of a server one by one in end order (updated_at, then id) before it shows or
-- changes a rating, so the first /stats or game end after this migration replays the history.
-- `rated`: NULL not yet looked at; 1 rated; 0 looked at, nothing to rate (fewer than two
-- players, or nobody who can be rated).
ALTER TABLE games ADD COLUMN rated BIGINT;
CREATE INDEX games_unrated ON games (guild, status, rated);

-- The current rating of a player in one game on one server. `player` is `u:<user id>` for a
-- member, `bot:<level>` for a bot level, `puzzle` for a solitaire's puzzle.
CREATE TABLE ratings (
    guild      BIGINT NOT NULL,
    kind       TEXT   NOT NULL,
    player     TEXT   NOT NULL,
    user_id    BIGINT,
    name       TEXT   NOT NULL,
    mu         BIGINT NOT NULL,
    sigma      BIGINT NOT NULL,
    played     BIGINT NOT NULL DEFAULT 0,
    wins       BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild, kind, player)
);
CREATE INDEX ratings_user ON ratings (user_id);

-- Every change, in the order it was made (`seq`, per server): a leaderboard can be rebuilt by
-- replaying these rows.
CREATE TABLE rating_changes (
    guild        BIGINT NOT NULL,
    seq          BIGINT NOT NULL,
    game         BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind         TEXT   NOT NULL,
    player       TEXT   NOT NULL,
    seat         BIGINT,
    final_rank   BIGINT NOT NULL,
    won          BIGINT NOT NULL DEFAULT 0,
    mu_before    BIGINT NOT NULL,
    sigma_before BIGINT NOT NULL,
    mu_after     BIGINT NOT NULL,
    sigma_after  BIGINT NOT NULL,
    at           BIGINT NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE INDEX rating_changes_order ON rating_changes (guild, seq);

-- One row per server: its rating transactions take this row's lock first (PostgreSQL's row
-- lock, SQLite's write lock), so two games ending together are rated one after the other.
CREATE TABLE rating_heads (
    guild BIGINT PRIMARY KEY,
    seq   BIGINT NOT NULL DEFAULT 0
);
