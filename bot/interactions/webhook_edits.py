"""Editing a message where the bot itself is absent: through the token of the interaction that showed it.

In a DM, a group DM or a server that did not add the app (places.py), the bot's own token reaches no channel: a
message the app showed there can be edited only through the webhook of an interaction that showed or updated it,
for the 15 minutes Discord lets that token live. `InteractionWebhooks` remembers, in memory only (a token answers as
the bot: it is never stored nor logged), the freshest such webhook of each message, and forgets it a little before
Discord would refuse it. After that, or after a restart, the message is left as it is: a click on it repairs it from
the stored record, as when any edit fails.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord

from bot.interactions.places import bot_present

_log = logging.getLogger(__name__)

TOKEN_LIFETIME = timedelta(minutes=15)
"""How long Discord takes an interaction's token for follow-ups and edits."""
TOKEN_MARGIN = timedelta(seconds=30)
"""A token is used only while this much of its lifetime is left, so that an edit under way does not outlive it."""
MOST_REMEMBERED = 10_000
"""Messages remembered at most (the oldest forgotten first): a bound on memory, far above 15 minutes of use."""


class InteractionWebhooks:
    """For each message shown where the bot is absent: the webhook that may still edit it, and until when."""

    def __init__(self, clock: Callable[[], datetime], most: int = MOST_REMEMBERED) -> None:
        self._clock = clock
        self._most = most
        self._webhooks: OrderedDict[int, tuple[discord.Webhook, datetime]] = OrderedDict()
        """By message id, oldest first: the webhook of the latest interaction that showed it, and when it stops."""

    def __len__(self) -> int:
        """How many messages are remembered now."""
        return len(self._webhooks)

    def remember(self, interaction: discord.Interaction, message_id: int) -> None:
        """Note that interaction showed (or updated) message_id, where the bot itself is absent (elsewhere the bot's
        own token edits it, and nothing is remembered)."""
        if bot_present(interaction):
            return
        now = self._clock()
        self._forget_expired(now)
        self._webhooks.pop(message_id, None)
        self._webhooks[message_id] = (interaction.followup, now + TOKEN_LIFETIME - TOKEN_MARGIN)
        while len(self._webhooks) > self._most:
            self._webhooks.popitem(last=False)

    def live(self, message_id: int) -> discord.Webhook | None:
        """The webhook that may edit message_id now, or None (never remembered, or its token too old)."""
        found = self._webhooks.get(message_id)
        if found is None or found[1] <= self._clock():
            return None
        return found[0]

    async def edit(self, message_id: int, doing: str, **fields: Any) -> bool:
        """Edit message_id through its live webhook; False (logged, saying what it was `doing`) when none lives or
        Discord refused or could not: the message is then left to a click to repair."""
        webhook = self.live(message_id)
        if webhook is None:
            _log.info("Could not %s on message %s: no live interaction token (left to a click)", doing, message_id)
            return False
        try:
            await webhook.edit_message(message_id, **fields)
        except (discord.HTTPException, aiohttp.ClientError) as failure:
            _log.info("Could not %s on message %s through its interaction's token: %s", doing, message_id, failure)
            return False
        return True

    def _forget_expired(self, now: datetime) -> None:
        while self._webhooks:
            message_id, (_, until) = next(iter(self._webhooks.items()))
            if until > now:
                return
            del self._webhooks[message_id]
