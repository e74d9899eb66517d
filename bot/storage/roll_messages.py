"""The messages that show Year Zero rolls, noted as sent and written a moment later, many rolls in one UPDATE."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace

from bot.storage.driver import Statements
from bot.storage.errors import StorageError
from bot.storage.roll_records import YearZeroRoll

_log = logging.getLogger(__name__)

MESSAGE_FLUSH_DELAY = 0.05  # seconds between noting a roll's message id and writing it with the others noted


class RollMessages:
    """Message ids of stored rolls, noted but perhaps not written yet."""

    def __init__(self, store: Statements, set_messages: str) -> None:
        self._store = store
        self._set_messages = set_messages
        self._messages: dict[int, tuple[int, int]] = {}  # noted, not yet written: roll id -> (channel, message)
        self._writing: dict[int, tuple[int, int]] = {}  # being written (not visible to reads until it commits)
        self._flush_soon: asyncio.TimerHandle | None = None
        self._flushing: set[asyncio.Task] = set()

    def note(self, roll_id: int, channel_id: int, message_id: int) -> None:
        """Remember the message that shows a roll, without waiting: written a moment later with the others noted."""
        self._messages[roll_id] = (channel_id, message_id)
        if self._flush_soon is None:
            self._flush_soon = asyncio.get_running_loop().call_later(MESSAGE_FLUSH_DELAY, self._start_flush)

    def _start_flush(self) -> None:
        self._flush_soon = None
        task = asyncio.get_running_loop().create_task(self._write_noted())
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def flush(self) -> int:
        """Write the noted message ids now, after the writes under way (before closing); how many rolls got one."""
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
        if self._flushing:
            await asyncio.wait(set(self._flushing))
        return await self._write_noted()

    async def _write_noted(self) -> int:
        """Write the noted message ids in one statement; return how many rolls got one (a roll purged since: none)."""
        noted, self._messages = self._messages, {}
        if not noted or self._store.closed:
            return 0
        self._writing |= noted
        rows = [{"id": roll, "channel": channel, "message": message} for roll, (channel, message) in noted.items()]
        try:
            return len(await self._store.write(self._set_messages, {"noted": json.dumps(rows)}))
        except StorageError as error:
            _log.warning("Could not note the messages of %d Year Zero rolls: %s", len(noted), error)
            return 0
        finally:
            for roll_id in noted:
                self._writing.pop(roll_id, None)

    def seen_in(self, roll: YearZeroRoll) -> YearZeroRoll:
        """The roll with its message id noted but not written yet (a note is newer than what is written)."""
        noted = self._messages.get(roll.id) or self._writing.get(roll.id)
        if noted is None:
            return roll
        return replace(roll, channel_id=noted[0], message_id=noted[1])
