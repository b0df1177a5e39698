-- croupier schema, SQLite flavour. Keep in step with ../postgres/0001_initial.sql.
-- Portable types only: BIGINT, TEXT; booleans are 0/1 BIGINT; times are unix seconds;
-- JSON is TEXT. No CHECK constraints on enum-like TEXT columns: SQLite cannot alter a CHECK
-- without rebuilding the table, and the store validates every value it reads.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: ids live on in Discord buttons
    kind         TEXT    NOT NULL,
    options_json TEXT    NOT NULL,
    seed         BIGINT  NOT NULL,                  -- the engine's u64 seed, bit cast to i64
    state        TEXT    NOT NULL,
    version      BIGINT  NOT NULL DEFAULT 0,
    status       TEXT    NOT NULL,
    guild        BIGINT,
    channel      BIGINT,
    thread       BIGINT,
    host         BIGINT,
    clock_secs   BIGINT,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL
);
CREATE INDEX games_status_updated ON games (status, updated_at);
CREATE INDEX games_channel ON games (channel);
CREATE INDEX games_thread ON games (thread);

CREATE TABLE seats (
    game      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      BIGINT NOT NULL,
    user_id   BIGINT,
    name      TEXT   NOT NULL,
    is_bot    BIGINT NOT NULL DEFAULT 0,
    dm_status TEXT   NOT NULL DEFAULT 'unknown',
    PRIMARY KEY (game, seat)
);
CREATE INDEX seats_user ON seats (user_id);

-- Append-only: undo sets undone_at, rows are never deleted, seq is never reused.
CREATE TABLE moves (
    game      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq       BIGINT NOT NULL,
    seat      BIGINT NOT NULL,
    notation  TEXT   NOT NULL,
    barrier   BIGINT NOT NULL DEFAULT 0,
    at        BIGINT NOT NULL,
    undone_at BIGINT,
    PRIMARY KEY (game, seq)
);

CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    due_at      BIGINT NOT NULL,
    kind        TEXT   NOT NULL,
    game        BIGINT REFERENCES games (id) ON DELETE CASCADE,
    payload     TEXT   NOT NULL,
    claimed_by  TEXT,
    lease_until BIGINT,
    attempts    BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX jobs_due ON jobs (due_at);
CREATE INDEX jobs_game_kind ON jobs (game, kind);

CREATE TABLE users (
    id             BIGINT PRIMARY KEY,
    locale         TEXT,
    timezone       TEXT,
    quiet_start    BIGINT,             -- minutes after local midnight
    quiet_end      BIGINT,
    vacation_until BIGINT,
    dm_enabled     BIGINT NOT NULL DEFAULT 1,
    updated_at     BIGINT NOT NULL
);

CREATE TABLE interactions (
    id      BIGINT PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
CREATE INDEX interactions_seen ON interactions (seen_at);
