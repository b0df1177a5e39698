-- Guided first games (`/learn`, issue 41 item 3). The same in the sqlite/ and postgres/ folders.
--
-- `lesson`: 1 for a learner's lesson against a bot. A lesson is a real game (it survives
-- restarts and can be resumed) that never counts: no rating (it is stored `rated` = 0 and
-- `casual` = 1 as well), no /stats, no profile, no presence count, no member's or channel's cap.
ALTER TABLE games ADD COLUMN lesson BIGINT NOT NULL DEFAULT 0;
