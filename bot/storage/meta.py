"""Text kept by key, one table each: the bot's small facts (``meta``) and the servers' chosen languages."""

from __future__ import annotations

import time

from bot.storage.driver import Statements

REMEMBERED_FOR = 60.0  # seconds a server's language is answered from memory (another shard's change shows then)


class KeyedText:
    """One table of text by key; setting None forgets the key."""

    def __init__(self, statements: Statements, table: str, key: str, value: str) -> None:
        self._db = statements
        self._get = f"SELECT {value} AS value FROM {table} WHERE {key} = :key"
        self._set = f"""
INSERT INTO {table} ({key}, {value}) VALUES (:key, :value) ON CONFLICT ({key}) DO UPDATE SET {value} = excluded.{value}
"""
        self._forget = f"DELETE FROM {table} WHERE {key} = :key"

    async def get(self, key: int | str) -> str | None:
        """The text kept under key, or None."""
        row = await self._db.fetch_one(self._get, {"key": key})
        return row["value"] if row else None

    async def set(self, key: int | str, value: str | None) -> None:
        """Keep value under key, replacing any earlier one; None forgets the key."""
        await self._db.write(self._forget if value is None else self._set, {"key": key, "value": value})


class RememberedText(KeyedText):
    """Text by key each process remembers for REMEMBERED_FOR seconds (the servers' languages: one trip a minute)."""

    def __init__(self, statements: Statements, table: str, key: str, value: str) -> None:
        super().__init__(statements, table, key, value)
        self._remembered: dict[int | str, tuple[float, str | None]] = {}

    async def get(self, key: int | str) -> str | None:
        now = time.monotonic()
        read_at, value = self._remembered.get(key, (-REMEMBERED_FOR, None))
        if now - read_at < REMEMBERED_FOR:
            return value
        value = await super().get(key)
        self._remembered[key] = (now, value)
        return value

    async def set(self, key: int | str, value: str | None) -> None:
        await super().set(key, value)
        self._remembered[key] = (time.monotonic(), value)
