"""What SQLite and PostgreSQL say differently, side by side (why: docs/architecture.md); the rest is said once."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.roll_log import LOG_COLUMNS, LOG_VALUES


@dataclass(frozen=True, slots=True)
class Dialect:
    """The statements one database says its own way, with their named parameters (docs/architecture.md)."""

    claim: str  # push :made + 1 of roll :id by :user at :now, if still pushable; RETURNING the roll
    keep: str  # mark roll :id kept if :user may still push it (newer than :oldest); RETURNING it
    highest_id: str  # one row, ``highest``: the highest roll id ever given (0 before the first)
    points_before_change: str  # one row, ``points``, of :guild's :user (or none), unchanged until the commit
    claim_reads_points: bool  # the claim's row holds willpower_before (the write lock is held already)
    refund: str  # give :points back to :guild's :user, at most :most (a spend withdrawn)
    task_named: str  # matches an extended test's name :name whatever its case
    task_key: str  # the name column(s) of extended_tests' unique key
    task_order: str  # orders a channel's extended tests by name
    log_push: str  # log push :pushes of entry :id unless one as late is; RETURNING its id (docs/architecture.md)
    set_messages: str  # write :noted (JSON: [{id, channel, message}]) as rolls' messages; RETURNING their ids
    before_recall: str | None  # run on :id before an applied interaction is read: a second delivery waits
    lease_turn: str | None  # run first when the shard leases change, so they change one process at a time
    store_roll: str | None  # a roll, its log entry and :interaction in one statement (else rolls.py's transaction)


_SQLITE_PENDING = "created_at >= :oldest AND (SELECT state FROM yz_roll_states WHERE id = :id) = 'pending'"

SQLITE = Dialect(
    claim=f"""
UPDATE yz_rolls SET state = CASE WHEN :last THEN 'pushed' ELSE 'pending' END,
    pushed_payload = :pushed, pushed_at = :now, pushes_made = pushes_made + 1
WHERE id = :id AND user_id = :user AND pushes_made = :made AND pushes_made < pushes_allowed AND {_SQLITE_PENDING}
RETURNING *, (
    SELECT points FROM willpower WHERE willpower.guild_id = yz_rolls.guild_id AND willpower.user_id = :user
) AS willpower_before
""",
    keep=f"UPDATE yz_rolls SET state = 'kept' WHERE id = :id AND user_id = :user AND {_SQLITE_PENDING} RETURNING *",
    highest_id="SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'yz_rolls'), 0) AS highest",
    points_before_change="SELECT points FROM willpower WHERE guild_id = :guild AND user_id = :user",
    claim_reads_points=True,
    refund="UPDATE willpower SET points = min(points + :points, :most) WHERE guild_id = :guild AND user_id = :user",
    task_named="name = :name",  # the name column's NOCASE collation
    task_key="name",
    task_order="name",
    log_push="""
UPDATE roll_log SET reading = :reading, events = trim(events || ' ' || :events),
    extras = json_set(extras, '$.pushes', :pushes,
                      '$.willpower', coalesce(json_extract(extras, '$.willpower'), 0) + :willpower,
                      '$.banes', :banes),
    card = CASE WHEN private = 1 THEN :card ELSE NULL END
WHERE id = :id AND coalesce(json_extract(extras, '$.pushes'), 0) < :pushes
RETURNING id
""",
    set_messages="""
UPDATE yz_rolls SET channel_id = noted.channel, message_id = noted.message
FROM (SELECT json_extract(value, '$.id') AS id, json_extract(value, '$.channel') AS channel,
             json_extract(value, '$.message') AS message FROM json_each(:noted)) AS noted
WHERE yz_rolls.id = noted.id
RETURNING yz_rolls.id
""",
    before_recall=None,
    lease_turn=None,
    store_roll=None,
)

_POSTGRES_PUSHABLE = """
roll.id = :id AND roll.user_id = :user AND roll.created_at >= :oldest AND roll.state = 'pending'
  AND NOT EXISTS (
      SELECT 1 FROM yz_rolls AS newer
      WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id
        AND newer.user_id = roll.user_id AND newer.id > roll.id
  )
"""

POSTGRES = Dialect(
    claim=f"""
UPDATE yz_rolls AS roll SET state = CASE WHEN :last THEN 'pushed' ELSE 'pending' END,
    pushed_payload = :pushed, pushed_at = :now, pushes_made = roll.pushes_made + 1
WHERE {_POSTGRES_PUSHABLE} AND roll.pushes_made = :made AND roll.pushes_made < roll.pushes_allowed
RETURNING roll.*
""",
    keep=f"UPDATE yz_rolls AS roll SET state = 'kept' WHERE {_POSTGRES_PUSHABLE} RETURNING roll.*",
    highest_id="SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('yz_rolls', 'id')), 0) AS highest",
    # Creates the row at 0 if missing, and locks it until the transaction ends.
    points_before_change="""
INSERT INTO willpower (guild_id, user_id, points) VALUES (:guild, :user, 0)
ON CONFLICT (guild_id, user_id) DO UPDATE SET points = willpower.points
RETURNING points
""",
    claim_reads_points=False,
    refund="UPDATE willpower SET points = least(points + :points, :most) WHERE guild_id = :guild AND user_id = :user",
    task_named="name_key = lower(:name)",  # name_key: the name in lower case (migration V1)
    task_key="name_key",
    task_order="name_key, name",
    log_push="""
UPDATE roll_log SET reading = :reading, events = trim(events || ' ' || :events),
    extras = (extras::jsonb || jsonb_build_object(
        'pushes', CAST(:pushes AS int),
        'willpower', coalesce((extras::jsonb ->> 'willpower')::int, 0) + :willpower,
        'banes', CAST(:banes AS int)))::text,
    card = CASE WHEN private = 1 THEN :card ELSE NULL END
WHERE id = :id AND coalesce((extras::jsonb ->> 'pushes')::int, 0) < :pushes
RETURNING id
""",
    set_messages="""
UPDATE yz_rolls SET channel_id = noted.channel, message_id = noted.message
FROM jsonb_to_recordset(CAST(:noted AS jsonb)) AS noted (id bigint, channel bigint, message bigint)
WHERE yz_rolls.id = noted.id
RETURNING yz_rolls.id
""",
    before_recall="SELECT pg_advisory_xact_lock(:id)",
    # ('roll', 1): the two-key form, apart from the other advisory locks' key space.
    lease_turn=f"SELECT pg_advisory_xact_lock({0x726F6C6C}, 1)",
    # One statement, one implicit transaction: a repeat takes the first delivery's roll id (docs/architecture.md).
    store_roll=f"""
WITH remembered AS (
    INSERT INTO applied_interactions (interaction_id, applied_at, outcome)
    VALUES (:interaction, :now, json_build_object('roll_id', nextval(pg_get_serial_sequence('yz_rolls', 'id'))))
    ON CONFLICT (interaction_id) DO UPDATE SET outcome = applied_interactions.outcome
    RETURNING CAST(outcome::json ->> 'roll_id' AS bigint) AS id
),
roll AS (
    INSERT INTO yz_rolls (id, guild_id, channel_id, user_id, payload, created_at, pushes_allowed)
    VALUES ((SELECT id FROM remembered), :guild, :channel, :user, :payload, :now, :allowed)
    ON CONFLICT (id) DO NOTHING RETURNING *
),
logged AS (
    INSERT INTO roll_log (id, {LOG_COLUMNS}) VALUES ((SELECT id FROM remembered), {LOG_VALUES}) ON CONFLICT DO NOTHING
)
SELECT 'new' AS found, * FROM roll
UNION ALL SELECT 'new', * FROM yz_roll_states WHERE id = (SELECT id FROM remembered)  -- a repeat's, if committed
UNION ALL SELECT 'older', * FROM yz_rolls WHERE state = 'pending' AND id = (SELECT max(id) FROM yz_rolls
    WHERE guild_id = :guild AND channel_id = :channel AND user_id = :user AND id < (SELECT id FROM roll))
""",
)
