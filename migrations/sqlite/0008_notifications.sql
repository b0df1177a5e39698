-- Notifications the player controls (issue 22). The same in the sqlite/ and postgres/ folders.
-- pings = 0: boards that mention the player go out as silent messages (no push or desktop
-- notification, only the mention badge); reminders still notify.
ALTER TABLE users ADD COLUMN pings BIGINT NOT NULL DEFAULT 1;
-- hand_dms = 0: no DM of the hand when it changes; the player reads it with the board's
-- "Show my hand" button or /hand.
ALTER TABLE users ADD COLUMN hand_dms BIGINT NOT NULL DEFAULT 1;
