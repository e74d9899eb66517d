-- PostgreSQL V7 (SQLite's V9): the language a server's public cards speak, chosen by a game master with
-- /settings language (issue 21). A server with no row follows Discord's server locale.
CREATE TABLE server_languages (
    guild_id BIGINT PRIMARY KEY,
    language TEXT NOT NULL
);
