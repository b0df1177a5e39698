-- Asynchronous play: the per-game clock, the timeout policy, open seats, final ranks, the
-- daily digest and per-user jobs. The same in the sqlite/ and postgres/ folders.
-- A game's clock: clock_rev grows with every change of the running clock (a new turn, pause,
-- resume, extend, a vacation), so a job planned for an older clock does nothing.
ALTER TABLE games ADD COLUMN policy TEXT;
ALTER TABLE games ADD COLUMN lang TEXT;
ALTER TABLE games ADD COLUMN clock_rev BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_seat BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
ALTER TABLE games ADD COLUMN paused_left BIGINT;
ALTER TABLE games ADD COLUMN board_message BIGINT;
-- A seat whose player timed out or was kicked waits for /replace.
ALTER TABLE seats ADD COLUMN vacant BIGINT NOT NULL DEFAULT 0;
-- 1 = won; set when the game ends with an outcome.
ALTER TABLE seats ADD COLUMN final_rank BIGINT;
ALTER TABLE users ADD COLUMN digest BIGINT NOT NULL DEFAULT 0;
-- Jobs about a user rather than a game (the daily digest).
ALTER TABLE jobs ADD COLUMN user_id BIGINT;
CREATE INDEX jobs_user_kind ON jobs (user_id, kind);
CREATE INDEX games_guild_kind ON games (guild, kind, status);
