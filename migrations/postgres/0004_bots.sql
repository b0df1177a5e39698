-- Bot seats: how hard the game's bots think and how long they wait before playing, so people
-- can follow (chosen at /play). The same in the sqlite/ and postgres/ folders.
ALTER TABLE games ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE games ADD COLUMN bot_delay BIGINT NOT NULL DEFAULT 0;
