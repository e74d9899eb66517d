-- V5: a Year Zero roll may allow 0-3 pushes (RULES.md section 6), and its roller may keep it (state 'kept').
-- pushes_made counts the pushes claimed; each claim is a compare-and-set on it, so the Nth push happens at most
-- once. A roll stays 'pending' while it has pushes left (pushed_payload then holds the roll after its last push)
-- and becomes 'pushed' with its last push. SQLite cannot change a CHECK constraint in place, so the table is
-- built again: same ids, and the AUTOINCREMENT high-water mark carried over so that no id is ever given twice.

DROP VIEW yz_roll_states;

CREATE TABLE yz_rolls_rebuilt (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    message_id     INTEGER,
    state          TEXT    NOT NULL DEFAULT 'pending'
                           CHECK (state IN ('pending', 'pushed', 'superseded', 'kept')),
    payload        TEXT    NOT NULL,           -- JSON of the first roll
    pushed_payload TEXT,                       -- JSON of the roll after its latest push
    created_at     REAL    NOT NULL,
    pushed_at      REAL,                       -- when the latest push was claimed
    pushes_allowed INTEGER NOT NULL DEFAULT 1 CHECK (pushes_allowed BETWEEN 0 AND 3),
    pushes_made    INTEGER NOT NULL DEFAULT 0 CHECK (pushes_made BETWEEN 0 AND pushes_allowed),
    CHECK ((pushes_made > 0) = (pushed_payload IS NOT NULL AND pushed_at IS NOT NULL)),
    CHECK (state <> 'pushed' OR pushes_made > 0)
);

INSERT INTO yz_rolls_rebuilt
    (id, guild_id, channel_id, user_id, message_id, state, payload, pushed_payload, created_at, pushed_at,
     pushes_allowed, pushes_made)
SELECT id, guild_id, channel_id, user_id, message_id, state, payload, pushed_payload, created_at, pushed_at,
       1, CASE WHEN state = 'pushed' THEN 1 ELSE 0 END
FROM yz_rolls;

DELETE FROM sqlite_sequence WHERE name = 'yz_rolls_rebuilt';
INSERT INTO sqlite_sequence (name, seq) SELECT 'yz_rolls_rebuilt', seq FROM sqlite_sequence WHERE name = 'yz_rolls';

DROP TABLE yz_rolls;
ALTER TABLE yz_rolls_rebuilt RENAME TO yz_rolls;

CREATE INDEX yz_rolls_by_player ON yz_rolls (guild_id, channel_id, user_id);
CREATE INDEX yz_rolls_by_age ON yz_rolls (created_at);

CREATE VIEW yz_roll_states AS
SELECT
    roll.id, roll.guild_id, roll.channel_id, roll.user_id, roll.message_id,
    CASE
        WHEN roll.state = 'pending' AND EXISTS (
            SELECT 1 FROM yz_rolls AS newer
            WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id
              AND newer.user_id = roll.user_id AND newer.id > roll.id
        ) THEN 'superseded'
        ELSE roll.state
    END AS state,
    roll.payload, roll.pushed_payload, roll.created_at, roll.pushed_at, roll.pushes_allowed, roll.pushes_made
FROM yz_rolls AS roll;
