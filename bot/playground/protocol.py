"""Discord's rules of the interaction protocol that the stand-in answers by: its error answers, its windows, and
what may answer a request in the stand-in's place (the tests' fault injection)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web

Result = tuple[int, object]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CALLBACK_WINDOW = 3.0
"""Seconds Discord waits for an interaction's first callback."""
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction's token may be used for followups and edits."""


class Fault(Protocol):
    """Something that answers a request instead of the stand-in (the tests' fault injection: tests/fakediscord)."""

    def matches(self, method: str, template: str | None, body: object = None) -> bool: ...

    async def answer(self, request: web.Request, handler: Handler) -> web.StreamResponse: ...


def error(status: int, code: int, message: str) -> Result:
    """A Discord JSON error body."""
    return status, {"code": code, "message": message}


UNKNOWN_INTERACTION = error(404, 10062, "Unknown interaction")
UNKNOWN_WEBHOOK = error(404, 10015, "Unknown Webhook")
UNKNOWN_MESSAGE = error(404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = error(404, 10003, "Unknown Channel")
ALREADY_ACKNOWLEDGED = error(400, 40060, "Interaction has already been acknowledged.")
NOT_FOR_THIS_INTERACTION = error(400, 50035, "Invalid interaction response type for this interaction")
INVALID_WEBHOOK_TOKEN = error(401, 50027, "Invalid Webhook Token")
