-- A game's ending (issue 22). The same in the sqlite/ and postgres/ folders.
-- When the game started (its lobby's Start, or its creation when it starts at once), for the
-- result card's "played over"; games started before this migration use created_at.
ALTER TABLE games ADD COLUMN started_at BIGINT;
-- The seat that resigned, when a game ended that way: last on the result card.
ALTER TABLE games ADD COLUMN resigned_seat BIGINT;
-- The lobby of this game's rematch, once a player asked for it: one rematch per game, and a
-- second click on Rematch confirms a seat in it instead of opening another.
ALTER TABLE games ADD COLUMN rematch BIGINT;
