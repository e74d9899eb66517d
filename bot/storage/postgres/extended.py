"""Seven Kingdoms extended tests in PostgreSQL (the rest is bot/storage/shared/extended.py): a task is found by
its name_key column, the name in lower case, so that a name matches whatever its case."""

from __future__ import annotations

from bot.storage.postgres.applied import applied_in
from bot.storage.postgres.named import NamedStatements, NamedTransaction
from bot.storage.postgres.pool import PostgresStore
from bot.storage.shared.extended import ExtendedSql, SharedExtendedTests


class PostgresExtendedTests(SharedExtendedTests[NamedTransaction]):
    """Extended tests kept per (guild_id, channel_id, name)."""

    _SQL = ExtendedSql(named="name_key = lower(:name)", key="name_key", by_name="name_key, name")

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store), applied_in)
