-- V6: the roll log (issue 12): every roll of every system, public and private, kept ROLL_LOG_DAYS days.
-- reading is the card's short text; events the roll's luck events, each 'p/q:1' or 'p/q:0' (exact chance of
-- success, then the outcome), space-separated; extras a small JSON object of per-system figures (Year Zero
-- pushes, Willpower, banes; Seven Kingdoms degrees). A private roll keeps its card (the embed as sent, JSON) so
-- that Reveal can post the same dice; revealed_at is set by the one Reveal that wins.
CREATE TABLE roll_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    system      TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    reading     TEXT    NOT NULL,
    events      TEXT    NOT NULL DEFAULT '',
    extras      TEXT    NOT NULL DEFAULT '{}',
    private     INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    card        TEXT,
    revealed_at REAL,
    pushable    TEXT,   -- a Year Zero roll that can be pushed: its payload, stored in yz_rolls by the trigger
    pushes_allowed INTEGER, -- and how many pushes it allows (NULL: one)
    CHECK (revealed_at IS NULL OR (private = 1 AND card IS NOT NULL))
);

CREATE INDEX roll_log_by_channel ON roll_log (guild_id, channel_id, created_at);
CREATE INDEX roll_log_by_age ON roll_log (created_at);

-- A pushable Year Zero roll and its log entry are one INSERT (one trip): the trigger stores the roll under the
-- entry's own id, so the Push and Reveal buttons of a roll name the same number.
CREATE TRIGGER roll_log_pushable AFTER INSERT ON roll_log WHEN NEW.pushable IS NOT NULL
BEGIN
    INSERT INTO yz_rolls (id, guild_id, channel_id, user_id, payload, created_at, pushes_allowed)
    VALUES (NEW.id, NEW.guild_id, NEW.channel_id, NEW.user_id, NEW.pushable, NEW.created_at,
            coalesce(NEW.pushes_allowed, 1));
END;

-- Log ids start above every roll id given so far, so that an entry's id never names an older stored roll; a
-- roll stored in yz_rolls directly (not through the log) moves the log's counter past its id for the same reason.
INSERT INTO sqlite_sequence (name, seq)
SELECT 'roll_log', seq FROM sqlite_sequence WHERE name = 'yz_rolls';

CREATE TRIGGER yz_rolls_keep_log_ids_apart AFTER INSERT ON yz_rolls
WHEN NEW.id > coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'roll_log'), 0)
BEGIN
    INSERT OR REPLACE INTO sqlite_sequence (rowid, name, seq)
    SELECT (SELECT rowid FROM sqlite_sequence WHERE name = 'roll_log'), 'roll_log', NEW.id;
END;
