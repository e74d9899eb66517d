-- V7: the roll log (issue 12): every roll of every system, public and private, kept ROLL_LOG_DAYS days.
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
    CHECK (revealed_at IS NULL OR (private = 1 AND card IS NOT NULL))
);

CREATE INDEX roll_log_by_channel ON roll_log (guild_id, channel_id, created_at);
CREATE INDEX roll_log_by_age ON roll_log (created_at);

-- A Year Zero roll's entry takes the id of its stored roll (so that Push and Reveal name one number); every
-- other id is kept apart: log ids start above every roll id given so far, a new roll moves the log's counter past
-- its id, and a new entry moves the rolls' counter past its own. (No OR REPLACE in these triggers: an outer
-- INSERT OR IGNORE would turn it into OR IGNORE.)
INSERT INTO sqlite_sequence (name, seq)
SELECT 'roll_log', seq FROM sqlite_sequence WHERE name = 'yz_rolls';

CREATE TRIGGER yz_rolls_keep_log_ids_apart AFTER INSERT ON yz_rolls
WHEN NEW.id > coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'roll_log'), 0)
BEGIN
    UPDATE sqlite_sequence SET seq = NEW.id WHERE name = 'roll_log';
    INSERT INTO sqlite_sequence (name, seq)
    SELECT 'roll_log', NEW.id WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'roll_log');
END;

CREATE TRIGGER roll_log_keep_roll_ids_apart AFTER INSERT ON roll_log
WHEN NEW.id > coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'yz_rolls'), 0)
BEGIN
    UPDATE sqlite_sequence SET seq = NEW.id WHERE name = 'yz_rolls';
    INSERT INTO sqlite_sequence (name, seq)
    SELECT 'yz_rolls', NEW.id WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'yz_rolls');
END;
