-- Substitutes (issue 40 item 7). The same in the sqlite/ and postgres/ folders. A member who
-- offers to step in for a game of a server: when a seat of that game opens there (a timeout
-- under the `open` policy, or /kick), the pool is told first and any of them may take it.
CREATE TABLE substitutes (
    guild  BIGINT NOT NULL,
    kind   TEXT NOT NULL,
    member BIGINT NOT NULL,
    since  BIGINT NOT NULL,
    PRIMARY KEY (guild, kind, member)
);
