"""Small facts the bot keeps about itself (key -> text), such as the hash of the last synced commands."""

from __future__ import annotations

from bot.storage.store import Store

_SET = "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


class Meta:
    """The meta key/value table."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def get(self, key: str) -> str | None:
        """The value stored under key, or None."""
        row = await self._store.fetch_one("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row else None

    async def set(self, key: str, value: str) -> None:
        """Store value under key, replacing any earlier one."""
        await self._store.write(_SET, (key, value))

    async def delete(self, key: str) -> bool:
        """Forget key; False if it was not there."""
        return bool(await self._store.write("DELETE FROM meta WHERE key = ? RETURNING key", (key,)))
