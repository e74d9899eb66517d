-- V1: the first schema. Applied in one transaction by bot/storage/migrations.py (no BEGIN/COMMIT here).
-- Times are Unix seconds (REAL, UTC). Discord IDs (snowflakes) are INTEGER.

-- Year Zero rolls that a player may push: one row per roll posted, kept until it is past its lifetime.
-- AUTOINCREMENT so that an id is never reused after a purge: a button from long ago must not find a new roll.
CREATE TABLE yz_rolls (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    message_id     INTEGER,
    state          TEXT    NOT NULL DEFAULT 'pending'
                           CHECK (state IN ('pending', 'pushed', 'superseded')),
    payload        TEXT    NOT NULL,           -- JSON of the first roll
    pushed_payload TEXT,                       -- JSON of the pushed roll, set by the one successful claim
    created_at     REAL    NOT NULL,
    pushed_at      REAL,
    CHECK ((state = 'pushed') = (pushed_payload IS NOT NULL AND pushed_at IS NOT NULL))
);

-- /push and superseding look up a player's pending rolls in a channel; the purge looks rolls up by age.
CREATE INDEX yz_rolls_by_player ON yz_rolls (guild_id, channel_id, user_id, state);
CREATE INDEX yz_rolls_by_age ON yz_rolls (created_at);

-- Willpower Points per player per server, never outside 0-10.
CREATE TABLE willpower (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    points   INTEGER NOT NULL DEFAULT 0 CHECK (points BETWEEN 0 AND 10),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- Seven Kingdoms extended tests: a named task per channel, needing a number of degrees.
CREATE TABLE extended_tests (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    name       TEXT    NOT NULL COLLATE NOCASE,
    needed     INTEGER NOT NULL CHECK (needed >= 1),
    progress   INTEGER NOT NULL DEFAULT 0 CHECK (progress >= 0),
    PRIMARY KEY (guild_id, channel_id, name)
) WITHOUT ROWID;

-- Small facts about the bot itself, e.g. the hash of the command definitions last synced to Discord.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
