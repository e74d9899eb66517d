"""The benchmarks' Discord: the test suite's fake on 127.0.0.1, with its spec validation off, and bots run in
child processes (bench.botproc) so that the fake's own work is never counted as the bot's.

Spec validation: `FakeDiscord(validator=None)` does NOT turn it off - None means "the shared validator". The
harness has no off switch, so a `NoValidation` object stands in: it knows no path template, and the fake's
middleware skips the OpenAPI check, the limits check and the response check for a request without one.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import copy
import functools
import json
import os
import re
import shutil
import signal
import ssl
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import discord

from bot.playground.invoke import Place, command_data, find_component
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Reply

ROOT = Path(__file__).resolve().parents[1]
APPLICATION_COMMAND, COMPONENT = 2, 3
VOICE_WARNING = re.compile(r"(PyNaCl|davey) is not installed, voice will NOT be supported")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

TABLES = FakeGuild(name="Game Night", channels=tuple(FakeChannel(f"table-{number:02}") for number in range(1, 21)))
"""One server, twenty tables (channels)."""


def players(count: int) -> list[FakeUser]:
    return [FakeUser(f"player-{number:03}") for number in range(count)]


def table_of(number: int) -> FakeChannel:
    return TABLES.channels[number % len(TABLES.channels)]


class NoValidation:
    """Stands in for SpecValidator: no request has a template, so nothing is validated (test-side cost)."""

    def template_for(self, path: str) -> None:
        return None

    def check(self, method: str, template: str, body: object) -> list[str]:
        return []

    def check_response(self, method: str, template: str, status: int, body: object) -> list[str]:
        return []


@contextlib.asynccontextmanager
async def fake_discord(tls: ssl.SSLContext | None = None, shard_count: int = 1) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord(guilds=[TABLES], validator=NoValidation(), timeout=30.0, tls=tls, shard_count=shard_count)
    async with fake:
        yield fake


def forget(fake: FakeDiscord) -> None:
    """Drop what the fake remembers of past interactions (keeps its memory, and so its speed, steady)."""
    backend = fake.backend
    backend.requests.clear()
    backend.replies.clear()
    backend.owners.clear()
    backend.store.messages.clear()


# -- the bot's process --------------------------------------------------------------------------------------


@functools.cache
def child_environment() -> dict[str, str]:
    """The bots' environment: bytecode cached, as a deployed bot has it (pip compiles it at install).

    This sandbox sets PYTHONDONTWRITEBYTECODE, which would make every child compile rollkeeper from source while
    discord.py's bytecode comes precompiled; the children write theirs to a temporary PYTHONPYCACHEPREFIX
    instead (removed at exit), so nothing is written into the source tree.
    """
    cache = tempfile.mkdtemp(prefix="rk-bench-bytecode-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return environment | {"PYTHONPYCACHEPREFIX": cache}


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and all its threads so far (Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass
class BotProcess:
    """A bot started with `python -m bench.botproc`; `milestones` maps each milestone to seconds since spawn."""

    kind: str
    process: asyncio.subprocess.Process
    spawned: float
    stderr: Path
    milestones: dict[str, float] = field(default_factory=dict)
    details: dict[str, object] = field(default_factory=dict)

    @classmethod
    async def start(
        cls,
        fake: FakeDiscord,
        kind: str,
        *,
        db: Path | None = None,
        database_url: str | None = None,
        sync: bool = False,
        profile: Path | None = None,
        env: dict[str, str] | None = None,
        options: tuple[str, ...] = (),
        root: Path = ROOT,
    ) -> BotProcess:
        """Spawn the bot and return once it is connected and ready (its start-up milestones recorded); `root`: the
        source tree it runs from (bench.against runs another commit's)."""
        api = discord.http.Route.BASE  # the fake's, while it is active
        command = [sys.executable, "-m", "bench.botproc", kind, "--api", api, "--gateway", fake.backend.gateway_url]
        command += ["--db", str(db)] if db is not None else []
        command += ["--database-url", database_url] if database_url is not None else []
        command += ["--sync"] if sync else []
        command += ["--profile", str(profile)] if profile is not None else []
        command += list(options)
        stderr = Path(tempfile.mkstemp(prefix=f"rk-bench-{kind}-", suffix=".log")[1])
        spawned = time.time()
        with stderr.open("wb") as sink:
            process = await asyncio.create_subprocess_exec(
                *command,
                cwd=root,
                env=child_environment() | (env or {}),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=sink,
            )
        bot = cls(kind, process, spawned, stderr)
        try:
            await asyncio.wait_for(bot._until("ready"), 60)
        except BaseException:
            if process.returncode is None:
                process.kill()
                await process.wait()
            bot.remove_log()
            raise
        return bot

    async def _until(self, wanted: str) -> None:
        while wanted not in self.milestones:
            line = await self.process.stdout.readline()
            if not line:
                await self.process.wait()
                raise RuntimeError(f"the {self.kind} bot exited before '{wanted}':\n{self.log_tail()}")
            event = json.loads(line)
            self.milestones[event.pop("at")] = event.pop("t") - self.spawned
            self.details.update(event)

    def profile(self, on: bool) -> None:
        """Start (on) or stop and write the bot's cProfile (when started with profile=PATH)."""
        self.process.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)

    async def profiled(self) -> None:
        """Wait until the bot has written its profile."""
        await asyncio.wait_for(self._until("profiled"), 30)

    def cpu(self) -> float | None:
        return cpu_seconds(self.process.pid)

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")

    def log_tail(self, lines: int = 12) -> str:
        """The end of the bot's log (a traceback's last frames and its message)."""
        return "\n".join(f"    {line}" for line in self.log().splitlines()[-lines:])

    def problems(self) -> list[str]:
        """Warnings, errors and tracebacks the bot logged (its log level is WARNING), but voice's absence."""
        return [line for line in self.log().splitlines() if line.strip() and not VOICE_WARNING.search(line)]

    async def stop(self) -> None:
        """Close stdin (the bot closes itself), wait for the exit; fail if it did not exit cleanly."""
        self.process.stdin.close()
        try:
            code = await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            raise RuntimeError(f"the {self.kind} bot did not close within 30 s") from None
        finally:
            await self.process.stdout.read()
        if code != 0:
            raise RuntimeError(f"the {self.kind} bot exited with code {code}:\n{self.log_tail()}")

    def remove_log(self) -> None:
        self.stderr.unlink(missing_ok=True)


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, kind: str, **options) -> AsyncIterator[BotProcess]:
    bot = await BotProcess.start(fake, kind, **options)
    try:
        yield bot
    finally:
        await bot.stop()
        bot.remove_log()


# -- what players send --------------------------------------------------------------------------------------


def slash_payload(fake: FakeDiscord, name: str, options: dict, user: FakeUser, channel: FakeChannel) -> dict:
    """An INTERACTION_CREATE for `/name options`, typed as the connected bot registered the command."""
    registered = fake.backend.commands.find(name, TABLES.id)
    if registered is None:
        raise RuntimeError(f"/{name} is not registered with the fake Discord")
    data = command_data(registered, [], options, Place(user, TABLES, channel))
    return fake.payload(APPLICATION_COMMAND, data, user=user, channel=channel)


def click_payload(fake: FakeDiscord, message: dict, label: str, user: FakeUser) -> dict:
    """An INTERACTION_CREATE for `user` clicking the button `label` of a stored message."""
    component = find_component(message, None, label)
    data = {"custom_id": component["custom_id"], "component_type": component["type"]}
    channel = TABLES.find_channel(int(message["channel_id"]))
    payload = fake.payload(COMPONENT, data, user=user, channel=channel)
    return payload | {"message": copy.deepcopy(message)}


@dataclass(frozen=True, slots=True)
class Answered:
    """An interaction, when it was sent and when the player saw its final answer (time.perf_counter).

    Final: an answer given at once (callback 4 or 7), or, after an acknowledgement (5 or 6, which the player sees
    as "thinking..." or nothing), the edit of the original response or the follow-up that fills it in.
    """

    reply: Reply
    sent: float
    answered: float
    acknowledged: float
    """When the first callback was accepted: Discord's 3-second window closes on it."""

    @property
    def latency(self) -> float:
        """Seconds from sending to the final answer."""
        return self.answered - self.sent

    @property
    def acknowledgement(self) -> float:
        """Seconds from sending to the first callback (the same as `latency` for an answer given at once)."""
        return self.acknowledged - self.sent


async def answer_one(fake: FakeDiscord, payload: dict, timeout: float, shard: int | None = None) -> Answered:
    sent = time.perf_counter()
    reply = await fake.send_interaction(payload, wait=False, shard=shard)
    await asyncio.wait_for(reply.answered.wait(), timeout)
    acknowledged = time.perf_counter()
    await asyncio.wait_for(reply.final.wait(), timeout)  # not only the acknowledgement: what the player sees
    return Answered(reply, sent, time.perf_counter(), acknowledged)


async def send_windowed(
    fake: FakeDiscord, payloads: Iterable[dict], concurrency: int, timeout: float = 30.0
) -> list[Answered]:
    """Send each payload and wait for its answer, keeping `concurrency` interactions in flight at all times."""
    queue = iter(list(payloads))
    done: list[Answered] = []

    async def player() -> None:
        for payload in queue:
            done.append(await answer_one(fake, payload, timeout))

    await asyncio.gather(*(player() for _ in range(concurrency)))
    return done


async def send_at_once(fake: FakeDiscord, payloads: Iterable[dict], timeout: float = 60.0) -> list[Answered]:
    """Send every payload back to back (a storm), then wait for all the answers."""
    return list(await asyncio.gather(*(answer_one(fake, payload, timeout) for payload in payloads)))
