"""Small facts the bot keeps about itself (key -> text), such as the hash of the last synced commands."""

from __future__ import annotations

from bot.storage.driver import Statements

_GET = "SELECT value FROM meta WHERE key = :key"
_SET = "INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = excluded.value"


class Meta:
    """The meta key/value table."""

    def __init__(self, statements: Statements) -> None:
        self._db = statements

    async def get(self, key: str) -> str | None:
        """The value stored under key, or None."""
        row = await self._db.fetch_one(_GET, {"key": key})
        return row["value"] if row else None

    async def set(self, key: str, value: str) -> None:
        """Store value under key, replacing any earlier one."""
        await self._db.write(_SET, {"key": key, "value": value})

