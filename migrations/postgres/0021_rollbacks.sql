-- A moderator's rollback (issue 40 item 6). The same in the sqlite/ and postgres/ folders.
--
-- A rollback waiting for the seated players' confirmation, one per game at most: the host (or
-- a moderator who plays in the game, or anyone whose rollback would undo a reveal) asked to
-- take the game back to its first `keep` live moves, the start of turn `turn`, undoing
-- `undone` moves. It was asked on the game's `version`: once a move is played the request
-- lapses, as it does at `expires_at`. `revealed` (0 or 1): it would undo a card drawn or a
-- vote shown, which the players have seen.
CREATE TABLE rollback_requests (
    game         BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version      BIGINT NOT NULL,
    keep         BIGINT NOT NULL,
    turn         BIGINT NOT NULL,
    undone       BIGINT NOT NULL,
    revealed     BIGINT NOT NULL,
    asked_by     BIGINT NOT NULL,
    by_moderator BIGINT NOT NULL,
    asked_at     BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);

-- The seated members who confirmed the game's pending rollback (cleared with it).
CREATE TABLE rollback_votes (
    game    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game, user_id)
);

-- Rollbacks done, for `/history` ("rolled back to turn 3 by @mod"): who, when, to which turn.
-- The moves undone stay in `moves`, marked `undone_at`, as for an undo.
CREATE TABLE rollbacks (
    game     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn     BIGINT NOT NULL,
    keep     BIGINT NOT NULL,
    undone   BIGINT NOT NULL,
    revealed BIGINT NOT NULL,
    by_user  BIGINT NOT NULL,
    at       BIGINT NOT NULL
);
CREATE INDEX rollbacks_by_game ON rollbacks (game, at);
