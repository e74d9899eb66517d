"""The cards of superseded rolls: edited to say so once the new roll was answered, coalesced per channel.

Discord limits message edits per channel, so a burst of rolls in one channel must not queue a burst of edits:
while one edit is on its way in a channel, the rolls superseded meanwhile wait, the latest WAITING of them, and
the edit under way sends them next. An older one left out keeps its buttons until a click on it, which repairs the
message from the stored roll (endings.refuse_or_repair): the buttons never act on a roll that has ended.
"""

from __future__ import annotations

import logging

from bot.interactions.rollkeeper import Rollkeeper
from bot.storage.roll_records import YearZeroRoll
from cogs.yearzero.endings import Ending, mark_ended

_log = logging.getLogger(__name__)

WAITING = 5
"""Superseded rolls that wait, per channel, for the edit under way there; older ones are left to a click."""


class SupersededCards:
    """Marks superseded rolls' messages, one edit at a time per channel (see the module's docstring)."""

    def __init__(self, bot: Rollkeeper, waiting: int = WAITING) -> None:
        self.bot = bot
        self.waiting = waiting
        self._queues: dict[int, dict[int, YearZeroRoll]] = {}
        """Per channel with an edit under way: the rolls waiting for it, by id, oldest first."""

    async def mark(self, stored: YearZeroRoll) -> None:
        """Edit the superseded roll's message now, or leave it to the edit under way in its channel."""
        queue = self._queues.get(stored.channel_id)
        if queue is not None:
            queue[stored.id] = stored
            while len(queue) > self.waiting:
                left = queue.pop(next(iter(queue)))
                _log.info("Roll %s's card is left to a click to repair (a burst of rolls in its channel)", left.id)
            return
        self._queues[stored.channel_id] = queue = {}
        try:
            await mark_ended(self.bot, stored, Ending.SUPERSEDED)
            while queue:
                await mark_ended(self.bot, queue.pop(next(iter(queue))), Ending.SUPERSEDED)
        finally:
            del self._queues[stored.channel_id]
