-- A server's own settings (issue 38). The same in the sqlite/ and postgres/ folders.
-- `lang`: the language of the server's public messages (lobbies, boards, results), set with
-- `/settings server_language` by a member who can manage the server; NULL follows each lobby's
-- host. Discord's `guild_locale` cannot say it: it is en-US on every server that is not a
-- Community server.
CREATE TABLE guild_settings (
    guild      BIGINT PRIMARY KEY,
    lang       TEXT,
    updated_at BIGINT NOT NULL
);
