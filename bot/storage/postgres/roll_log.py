"""The roll log in PostgreSQL: the same entries, rules and statements as SQLite's (bot/storage/shared/roll_log.py)
but for a push's update of the JSON extras. Its ids come from yz_rolls' sequence (migration V5), so a logged roll
and a stored roll never share an id unless the entry takes its pushable roll's id on purpose."""

from __future__ import annotations

from bot.storage.postgres.named import NamedStatements
from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.roll_log import SharedRollLog


class PostgresRollLog(SharedRollLog):
    """The roll log of every channel."""

    _PUSH = """
UPDATE roll_log SET reading = :reading, events = trim(events || ' ' || :events),
    extras = (extras::jsonb || jsonb_build_object(
        'pushes', CAST(:pushes AS int),
        'willpower', coalesce((extras::jsonb ->> 'willpower')::int, 0) + :willpower,
        'banes', CAST(:banes AS int)))::text,
    card = CASE WHEN private = 1 THEN :card ELSE NULL END
WHERE id = :id AND coalesce((extras::jsonb ->> 'pushes')::int, 0) < :pushes
"""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store))
