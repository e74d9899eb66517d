"""The language each server's public cards speak, when a game master chose one (/settings language)."""

from __future__ import annotations

import time

from bot.storage.driver import Statements

_GET = "SELECT language FROM server_languages WHERE guild_id = :guild"
_SET = ("INSERT INTO server_languages (guild_id, language) VALUES (:guild, :language)"
        " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language")
_CLEAR = "DELETE FROM server_languages WHERE guild_id = :guild"
REMEMBERED_FOR = 60.0
"""Seconds a server's choice is answered from memory: a roll costs no extra trip to the store, and a change made
through another process (another shard) is seen within this time."""


class ServerLanguages:
    """guild id -> language code; no row means Discord's server locale."""

    def __init__(self, statements: Statements) -> None:
        self._db = statements
        self._remembered: dict[int, tuple[float, str | None]] = {}

    async def get(self, guild_id: int) -> str | None:
        now = time.monotonic()
        read_at, language = self._remembered.get(guild_id, (-REMEMBERED_FOR, None))
        if now - read_at < REMEMBERED_FOR:
            return language
        row = await self._db.fetch_one(_GET, {"guild": guild_id})
        language = row["language"] if row else None
        self._remembered[guild_id] = (now, language)
        return language

    async def set(self, guild_id: int, language: str | None) -> None:
        """Keep language for the server; None forgets the choice."""
        if language is None:
            await self._db.write(_CLEAR, {"guild": guild_id})
        else:
            await self._db.write(_SET, {"guild": guild_id, "language": language})
        self._remembered[guild_id] = (time.monotonic(), language)
