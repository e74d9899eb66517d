"""What the bot does about gateway events discord.py cannot parse: log them and drop them, never stop.

discord.py parses each INTERACTION_CREATE synchronously, inside the loop that reads the gateway; an exception
there (a member without its user, an id that is not a number, a click without data or with a custom_id that is
not text) ends `Client.connect`, and with it the whole process. Discord does not send such payloads on purpose,
but one that slipped through must cost one interaction, not every player's evening.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

_log = logging.getLogger(__name__)

INTERACTION_CREATE = "INTERACTION_CREATE"


def describe_event(data: object) -> str:
    """A payload named for the log by what identifies it, never its token nor what a player typed."""
    if not isinstance(data, dict):
        return f"a payload of type {type(data).__name__}"
    fields = ("id", "type", "guild_id", "channel_id")
    return ", ".join(f"{name} {str(data.get(name))[:24]!r}" for name in fields)


def drop_malformed_interactions(client: discord.Client) -> None:
    """Wrap discord.py's INTERACTION_CREATE parser so that a payload it cannot read is logged and dropped.

    DEP: discord.py 2.7 offers no public hook that runs before an event is parsed (``on_socket_raw_receive`` is
    dispatched as a task, after the parse), so this wraps the connection state's parser table
    (the connection state's ``parsers``), the table the gateway reads its parsers from.
    tests/bot/interactions/test_gateway.py pins it: an upgrade that moves the table fails there first.
    """
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers  # DEP: pinned by test_gateway.py
    parse = parsers[INTERACTION_CREATE]

    def parse_or_drop(data: Any) -> None:
        try:
            parse(data)
        except Exception as error:
            _log.warning(
                "Dropped a malformed INTERACTION_CREATE (%s): %s: %s",
                describe_event(data), type(error).__name__, str(error)[:200],
            )
            _log.debug("The parser's traceback for that INTERACTION_CREATE", exc_info=error)

    parsers[INTERACTION_CREATE] = parse_or_drop
