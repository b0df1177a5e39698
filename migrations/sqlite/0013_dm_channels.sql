-- Each member's direct-message channel with the bot (issue 37). The same in the sqlite/ and
-- postgres/ folders. Discord hands out one DM channel per member and keeps it; opening it again
-- for every hand, reminder and notice costs a counted request each time, and a burst of opens
-- is refused with 40003 ("opening direct messages too fast"). Kept here so every process and
-- every restart opens it once.
CREATE TABLE dm_channels (
    member    BIGINT PRIMARY KEY,
    channel   BIGINT NOT NULL,
    opened_at BIGINT NOT NULL
);

-- The bot processes running on this database, each seen at most a few seconds ago (issue 37).
-- Discord's global limit belongs to the bot's token, not to a process: each process paces
-- itself at the limit divided by the processes alive here.
CREATE TABLE processes (
    id      TEXT PRIMARY KEY,
    seen_at BIGINT NOT NULL
);
