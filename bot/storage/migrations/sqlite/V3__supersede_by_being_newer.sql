-- V3: a newer roll supersedes the older ones by being newer; storing it no longer rewrites them.
-- V2's trigger made every INSERT also UPDATE the player's previous roll, a row (and index entries) elsewhere in
-- the file: the benchmark measured it as half of what storing a roll cost. The stored state now says 'pending'
-- until the roll is pushed (or a roll that cannot be pushed supersedes it, as before); whether a newer roll of
-- the same player in the same channel exists is read when it matters. The view yz_roll_states shows every roll
-- with the state the bot acts on: use it, not yz_rolls.state, to see where a roll stands.

DROP TRIGGER yz_rolls_supersede;

-- The newest roll of a player in a channel is the last entry of its group (SQLite appends the rowid to every
-- index); without `state` in the key, a push no longer moves the roll's index entry either.
DROP INDEX yz_rolls_by_player;
CREATE INDEX yz_rolls_by_player ON yz_rolls (guild_id, channel_id, user_id);

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
    roll.payload, roll.pushed_payload, roll.created_at, roll.pushed_at
FROM yz_rolls AS roll;
