-- Lobby: the seat cap chosen at /play (NULL = the game's maximum).
-- The same in the sqlite/ and postgres/ folders.
ALTER TABLE games ADD COLUMN max_seats BIGINT;
