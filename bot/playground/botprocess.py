"""The bot in a child process, so that the page can stop it (SIGTERM, or SIGKILL as a crash would) and start it
again on the same database while the stand-in and the page stay."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from bot.playground.gateway import Gateway

START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0


class BotProcess:
    """Starts, watches and stops `python -m bot.playground.child`; `state` is starting, online or stopped."""

    def __init__(
        self, api_url: str, gateway: Gateway, database: Path, on_state: Callable[[str], None] = lambda state: None
    ) -> None:
        self.api_url = api_url
        self.gateway = gateway
        self.database = database
        self.on_state = on_state
        self.state = "stopped"
        self.process: asyncio.subprocess.Process | None = None
        self._watch: asyncio.Task[None] | None = None

    def _set(self, state: str) -> None:
        self.state = state
        self.on_state(state)

    async def start(self) -> None:
        """Spawn the bot; return once it has IDENTIFYed (its commands are synced before that)."""
        self._set("starting")
        self.gateway.identified.clear()
        child = ["-m", "bot.playground.child", self.api_url, self.gateway.backend.gateway_url, str(self.database)]
        self.process = await asyncio.create_subprocess_exec(sys.executable, *child, stdin=asyncio.subprocess.DEVNULL)
        self._watch = asyncio.create_task(self._watch_exit(self.process))
        identified = asyncio.create_task(self.gateway.identified.wait())
        await asyncio.wait({identified, self._watch}, timeout=START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        if not identified.done():
            identified.cancel()
            raise RuntimeError("the bot did not connect to the stand-in (see its log above)")
        self._set("online")

    async def _watch_exit(self, process: asyncio.subprocess.Process) -> None:
        await process.wait()
        if process is self.process:
            self._set("stopped")

    async def stop(self, *, kill: bool = False) -> None:
        """SIGTERM (the bot finishes what it is answering, then closes) or SIGKILL; wait for the exit."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            process.kill()
            await process.wait()
        if self._watch is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch

    async def restart(self, *, kill: bool = False) -> None:
        await self.stop(kill=kill)
        await self.start()
