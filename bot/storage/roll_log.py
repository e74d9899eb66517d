"""The roll log in SQLite: one row per roll of every system, public and private (migration V7); the rest is
bot/storage/shared/roll_log.py, and what an entry is, bot/storage/log_records.py.

A Year Zero roll's entry takes the id of the stored roll; the triggers of migration V7 keep the two tables' ids
apart otherwise.
"""

from __future__ import annotations

from bot.storage.log_records import MAX_READING, LogEntry, NewEntry, RevealClaim, RevealRefusal
from bot.storage.shared.roll_log import SharedRollLog
from bot.storage.store import Store

__all__ = ["MAX_READING", "LogEntry", "NewEntry", "RevealClaim", "RevealRefusal", "RollLog"]


class RollLog(SharedRollLog):
    """The roll log of every channel."""

    _PUSH = """
UPDATE roll_log SET reading = :reading, events = trim(events || ' ' || :events),
    extras = json_set(extras, '$.pushes', :pushes,
                      '$.willpower', coalesce(json_extract(extras, '$.willpower'), 0) + :willpower,
                      '$.banes', :banes),
    card = CASE WHEN private = 1 THEN :card ELSE NULL END
WHERE id = :id AND coalesce(json_extract(extras, '$.pushes'), 0) < :pushes
"""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
