"""Text kept by key, one table each: the bot's small facts about itself (``meta``: the hash of the last synced
commands) and the language each server's public cards speak when a game master chose one (``server_languages``)."""

from __future__ import annotations

from bot.storage.driver import Statements


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
        if value is None:
            await self._db.write(self._forget, {"key": key})
        else:
            await self._db.write(self._set, {"key": key, "value": value})
