"""Serving: run the bot until Discord closes it or a SIGINT/SIGTERM arrives, then close it cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterator
from types import TracebackType
from typing import Any, Protocol

from bot.settings import Settings

START_GRACE = 2.0
"""Seconds the closed bot's start may take to return before it is cancelled (see _ended)."""

_log = logging.getLogger("bot")


class Served(Protocol):
    """What serve() needs of the bot (RollkeeperBot is one): started with the token, closed, and why it stopped on
    its own, if it did."""

    @property
    def closed(self) -> asyncio.Event: ...

    @property
    def lost_database(self) -> Exception | None: ...

    @property
    def lease_refused(self) -> Exception | None: ...

    async def start(self, token: str) -> None: ...

    async def close(self) -> None: ...

    async def __aenter__(self) -> Any: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None: ...


@contextlib.contextmanager
def _signals_set(stop: asyncio.Event) -> Iterator[None]:
    """While inside, SIGINT and SIGTERM set stop (where the platform allows; else Ctrl+C cancels the run)."""
    loop = asyncio.get_running_loop()
    installed = []
    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, stop.set)
        except (NotImplementedError, RuntimeError):
            break
        installed.append(number)
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


async def serve(settings: Settings, bot: Served) -> None:
    """Run the bot until Discord closes it or a SIGINT/SIGTERM arrives; close bot and database either way."""
    stop = asyncio.Event()
    with _signals_set(stop):
        async with bot:
            runner = asyncio.create_task(bot.start(settings.discord_token), name="rollkeeper")
            stoppers = {asyncio.create_task(stop.wait()), asyncio.create_task(bot.closed.wait())}
            await asyncio.wait({runner, *stoppers}, return_when=asyncio.FIRST_COMPLETED)
            if not runner.done():
                _log.info("Shutting down")
                await bot.close()
            for stopper in stoppers:
                stopper.cancel()
            await _ended(runner)
    if bot.lost_database is not None:
        raise bot.lost_database
    if bot.lease_refused is not None:
        raise bot.lease_refused


async def _ended(runner: asyncio.Task[None]) -> None:
    """Wait for the closed bot's start to return. A shard still connecting when the bot closed would be retried
    by discord.py for ever (and the bot holds it back: before_identify_hook), so after START_GRACE seconds the
    start is cancelled."""
    await asyncio.wait({runner}, timeout=START_GRACE)
    if not runner.done():
        runner.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await runner
