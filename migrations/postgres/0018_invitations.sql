-- Invitations (`/play … invite:@a @b open:false`, issue 40 item 2). The same in the sqlite/ and
-- postgres/ folders.
--
-- An invited member's seat is kept for them the way a rematch keeps its players' seats
-- (`seats.vacant` = 1 until they accept). `invitees`: every member the host invited, written
-- `,1,2,` (kept after they answer, so a closed lobby still knows who may sit). `invite_only`:
-- 1 for `open:false`, a lobby only the invited members may join.
ALTER TABLE games ADD COLUMN invitees TEXT;
ALTER TABLE games ADD COLUMN invite_only BIGINT NOT NULL DEFAULT 0;
