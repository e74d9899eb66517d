"""Small facts the bot keeps about itself (key -> text), in PostgreSQL: bot/storage/meta.py's statements."""

from __future__ import annotations

from bot.storage.meta import Meta
from bot.storage.postgres.named import NamedStatements
from bot.storage.postgres.pool import PostgresStore


class PostgresMeta(Meta):
    """The meta key/value table."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store))
