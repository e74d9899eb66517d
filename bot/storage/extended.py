"""Seven Kingdoms extended tests in SQLite (the rest is bot/storage/shared/extended.py): the name column's
NOCASE collation matches a name whatever its case."""

from __future__ import annotations

from bot.storage.applied import applied_in
from bot.storage.shared.extended import ExtendedSql, ExtendedTask, SharedExtendedTests, task_name
from bot.storage.store import Store, Transaction

__all__ = ["ExtendedTask", "ExtendedTests", "task_name"]


class ExtendedTests(SharedExtendedTests[Transaction]):
    """Extended tests kept per (guild_id, channel_id, name)."""

    _SQL = ExtendedSql(named="name = :name", key="name", by_name="name")

    def __init__(self, store: Store) -> None:
        super().__init__(store, applied_in)
