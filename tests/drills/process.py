"""A rollkeeper bot in its own OS process (tests.drills.launcher), connected to the test's fake Discord.

The fake runs in the test's process and records what the bot does over HTTP and the gateway websocket, so it
serves a bot in another process as it serves one in its own; only `FakeDiscord.run`/`settle` are for in-process
bots. Send interactions with ``send_interaction(payload, wait=False)`` and wait for `Reply.answered`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import discord

from tests.fakediscord import FakeDiscord, Reply

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


PASSED_ON = ("PATH", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
"""What the bot inherits from the test's environment: nothing of the bot's own settings, no token."""


def bot_environment(home: Path, **environ: str) -> dict[str, str]:
    """A clean environment (PATH, bytecode settings, HOME, the project on PYTHONPATH) plus the bot's settings."""
    inherited = {name: os.environ[name] for name in PASSED_ON if name in os.environ}
    return inherited | {"HOME": str(home), "PYTHONPATH": str(ROOT), **environ}


@dataclass
class BotProcess:
    """`python -m tests.drills.launcher` running the real `bot.__main__.main()`; its stderr goes to `log_path`."""

    process: asyncio.subprocess.Process
    log_path: Path

    @classmethod
    async def spawn(cls, fake: FakeDiscord, workdir: Path, log_path: Path, **environ: str) -> BotProcess:
        """Start the bot in workdir with these settings (stdout and stderr to log_path); do not wait for it."""
        command = [sys.executable, "-m", "tests.drills.launcher", discord.http.Route.BASE, fake.backend.gateway_url]
        with log_path.open("ab") as sink:
            process = await asyncio.create_subprocess_exec(
                *command, cwd=workdir, env=bot_environment(workdir, **environ),
                stdin=asyncio.subprocess.DEVNULL, stdout=sink, stderr=sink,
            )
        return cls(process, log_path)

    @classmethod
    async def start(cls, fake: FakeDiscord, workdir: Path, log_path: Path, **environ: str) -> BotProcess:
        """Spawn the bot; return once it has identified on the fake's gateway (its commands synced before)."""
        fake.gateway.identified.clear()
        bot = await cls.spawn(fake, workdir, log_path, **environ)
        identified = asyncio.ensure_future(fake.gateway.identified.wait())
        exited = asyncio.ensure_future(bot.process.wait())
        done, _ = await asyncio.wait({identified, exited}, timeout=START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        identified.cancel()
        exited.cancel()
        if identified not in done:
            await bot.kill()
            raise RuntimeError(f"the bot process did not connect (exit code {bot.process.returncode}):\n{bot.log()}")
        return bot

    @classmethod
    async def run_to_exit(cls, fake: FakeDiscord, workdir: Path, log_path: Path, **environ: str) -> int:
        """Run the bot until it exits by itself (it could not start); return its exit code."""
        bot = await cls.spawn(fake, workdir, log_path, **environ)
        try:
            return await asyncio.wait_for(bot.process.wait(), START_TIMEOUT)
        finally:
            await bot.kill()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def until_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait for the bot's "Ready as ..." line (on_ready ran), which comes a moment after it identified.

        A run meant to end with a clean stop waits for it: a SIGTERM between IDENTIFY and on_ready races
        discord.py's own ready task, which then dispatches into a closed client and logs a traceback.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while "Ready as " not in self.log():
            if self.process.returncode is not None or loop.time() > deadline:
                raise RuntimeError(f"the bot process never became ready:\n{self.log()}")
            await asyncio.sleep(0.01)

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when the machine's OOM killer or `kill -9` strikes."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> int:
        """SIGTERM, as systemd stops a service; return the exit code (0 for a clean stop)."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            await self.kill()
            raise


async def answer_of(fake: FakeDiscord, payload: dict, timeout: float = 30.0) -> Reply:
    """Send one interaction to the bot process and wait for its answer (past any "thinking...")."""
    reply = await fake.send_interaction(payload, wait=False)
    await asyncio.wait_for(reply.final.wait(), timeout)
    return reply
