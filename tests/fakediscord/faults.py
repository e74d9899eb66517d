"""Faults the fake Discord can inject, as Discord does produce them: a status code on a route, a 429 with
retry_after, a delay, a reset connection, a request taken but its answer lost, a callback that hangs.

    fake.inject("POST", CALLBACK, status=503, times=2)          # two 503s, then normal answers
    fake.inject("POST", CALLBACK, status=429, retry_after=4)    # a rate limit: discord.py waits 4 s, retries
    fake.inject("PATCH", EDIT_ORIGINAL, reset=True)             # the connection drops before any answer
    fake.inject("POST", CALLBACK, reset=True, taken=True)       # Discord took it; the answer was lost
    fake.inject("POST", CALLBACK, hang=4.0)                     # answered after 4 s: too late (10062)

`route` is the OpenAPI path template (as in `fake.requests_to`). Each fault hits the next `times` matching
requests (those whose body `when` accepts, if given: a fault can strike "the answer that shows the push" on
whichever route the bot sends it), then is spent (`fault.hits` counts them). Gateway faults (duplicate
delivery, replay on RESUME) are on FakeDiscord itself: `deliver_twice`, `reconnect`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
EDIT_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
EDIT_CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"
UNKNOWN_INTERACTION = {"code": 10062, "message": "Unknown interaction"}


@dataclass(eq=False)
class Fault:
    """One injected fault; see the module's docstring."""

    method: str
    route: str
    status: int | None = None
    retry_after: float | None = None
    delay: float = 0.0
    reset: bool = False
    taken: bool = False
    hang: float | None = None
    times: int = 1
    when: Callable[[object], bool] | None = None
    """Strike only requests whose JSON body this says yes to (e.g. an answer that shows a pushed roll)."""
    hits: int = 0

    def matches(self, method: str, template: str | None, body: object = None) -> bool:
        if self.hits >= self.times or self.method != method or self.route != template:
            return False
        return self.when is None or self.when(body)

    async def answer(self, request: web.Request, handler) -> web.StreamResponse:
        """The stand-in's middleware hands the matched request over (bot.playground.backend.Fault)."""
        return await faulted(self, request, handler)

    def error(self) -> web.Response:
        """The error answer: Discord's 429 body and the Via header discord.py looks for, or a JSON error."""
        status = self.status or 500
        if status == 429:
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after or 1.0, "global": False}
            headers = {"Via": "1.1 google", "Retry-After": str(self.retry_after or 1.0)}
        else:
            body, headers = {"code": 0, "message": f"{status}: injected fault"}, {}
        headers["Content-Type"] = "application/json"
        return web.Response(status=status, body=json.dumps(body).encode(), headers=headers)


async def faulted(fault: Fault, request: web.Request, handler) -> web.StreamResponse:
    """Answer request as fault says: handle it first when Discord took it, else fail before touching state."""
    fault.hits += 1
    if fault.delay:
        await asyncio.sleep(fault.delay)
    if fault.hang is not None:  # answered after the interaction's 3 s window: Discord no longer knows it
        await asyncio.sleep(fault.hang)
        return web.Response(status=404, body=json.dumps(UNKNOWN_INTERACTION).encode(),
                            headers={"Content-Type": "application/json"})
    response = await handler(request) if fault.taken else None
    if fault.reset:
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=599)  # never arrives: the connection is gone
    if fault.status is not None:
        return fault.error()
    return response if response is not None else await handler(request)


def shows(text: str) -> Callable[[object], bool]:
    """A `when` for bodies carrying an embed that holds text anywhere (title, description, fields, footer),
    whatever its case; a callback's embeds are under "data"."""

    def carries(body: object) -> bool:
        if not isinstance(body, dict):
            return False
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        embeds = json.dumps(data.get("embeds") or [], ensure_ascii=False)
        return text.lower() in embeds.lower()

    return carries


def says(text: str) -> Callable[[object], bool]:
    """A `when` for bodies whose message content holds text (a callback's under "data")."""

    def carries(body: object) -> bool:
        if not isinstance(body, dict):
            return False
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        return text in str(data.get("content") or "")

    return carries
