"""Small facts the bot keeps about itself (key -> text), in PostgreSQL."""

from __future__ import annotations

from bot.storage.postgres.pool import PostgresStore

_SET = "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


class PostgresMeta:
    """The meta key/value table."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    async def get(self, key: str) -> str | None:
        """The value stored under key, or None."""
        row = await self._store.fetch_one("SELECT value FROM meta WHERE key = $1", key)
        return row["value"] if row else None

    async def set(self, key: str, value: str) -> None:
        """Store value under key, replacing any earlier one."""
        await self._store.execute(_SET, key, value)

    async def delete(self, key: str) -> bool:
        """Forget key; False if it was not there."""
        return bool(await self._store.execute("DELETE FROM meta WHERE key = $1", key))
