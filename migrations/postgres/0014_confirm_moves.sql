-- Table manners (issue 40, item 5). The same in the sqlite/ and postgres/ folders.
-- confirm_moves = 1: an option that would end the member's turn (hand it to another seat, or
-- end the game) is asked about privately ("Play …? Confirm / Back") before it is played.
ALTER TABLE users ADD COLUMN confirm_moves BIGINT NOT NULL DEFAULT 0;
