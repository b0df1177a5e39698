-- Reliability, shown and usable (issue 40, item 3). The same in the sqlite/ and postgres/
-- folders.
-- What a member did at a table, one row per event, kept for their record over the last days:
-- kind 'met' (their own move handed the turn on), 'missed' (their deadline passed and the
-- clock played or skipped for them), 'abandoned' (they resigned, cancelled alone as a
-- resignation, or lost their seat in a running game: kicked, replaced, opened after a timeout,
-- or given away), 'finished' (a game they were seated in ended normally). Bots have no rows.
CREATE TABLE conduct (
    member BIGINT NOT NULL,
    game   BIGINT NOT NULL,
    kind   TEXT   NOT NULL,
    at     BIGINT NOT NULL
);
CREATE INDEX conduct_member_at ON conduct (member, at);
-- `/play … reliable:90`: the lowest reliability (0-100) a member needs to join this lobby.
ALTER TABLE games ADD COLUMN min_reliable BIGINT;
