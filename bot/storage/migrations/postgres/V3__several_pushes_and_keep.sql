-- PostgreSQL V3 (SQLite's V5): a Year Zero roll may allow 0-3 pushes (RULES.md section 6), and its roller may
-- keep it (state 'kept'). pushes_made counts the pushes claimed; each claim is a compare-and-set on it, so the
-- Nth push happens at most once. A roll stays 'pending' while it has pushes left (pushed_payload then holds the
-- roll after its latest push) and becomes 'pushed' with its last push. PostgreSQL changes the table in place.

ALTER TABLE yz_rolls
    DROP CONSTRAINT yz_rolls_state_check,
    DROP CONSTRAINT yz_rolls_check,
    ADD COLUMN pushes_allowed INTEGER NOT NULL DEFAULT 1,
    ADD COLUMN pushes_made INTEGER NOT NULL DEFAULT 0;

UPDATE yz_rolls SET pushes_made = 1 WHERE state = 'pushed';

ALTER TABLE yz_rolls
    ADD CONSTRAINT yz_rolls_state_check CHECK (state IN ('pending', 'pushed', 'superseded', 'kept')),
    ADD CONSTRAINT yz_rolls_pushes_allowed_check CHECK (pushes_allowed BETWEEN 0 AND 3),
    ADD CONSTRAINT yz_rolls_pushes_made_check CHECK (pushes_made BETWEEN 0 AND pushes_allowed),
    ADD CONSTRAINT yz_rolls_pushed_check CHECK ((pushes_made > 0) = (pushed_payload IS NOT NULL AND pushed_at IS NOT NULL)),
    ADD CONSTRAINT yz_rolls_ended_check CHECK (state <> 'pushed' OR pushes_made > 0);

CREATE OR REPLACE VIEW yz_roll_states AS
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
