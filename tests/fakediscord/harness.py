"""FakeDiscord: run a real discord.py bot against a fake Discord on 127.0.0.1 and talk to it as users do.

    async with FakeDiscord() as fake:
        await fake.run(bot)
        reply = await fake.slash("roll", {"count": 3}, user=ALICE)
        again = await fake.click(reply, label="Push", user=ALICE)

discord.py is pointed at the fake by patching `discord.http.Route.BASE` and
`discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` for the lifetime of the context (restored on exit).
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Iterable

import discord
import yarl

from bot.playground.backend import Backend
from bot.playground.gateway import Gateway
from bot.playground.interactions import Interactions
from bot.playground.records import Reply, Request, Violation
from bot.playground.standin import StandIn, point_discord_py_at
from bot.playground.world import BOT_PERMISSIONS, FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.faults import Fault
from tests.fakediscord.spec import SpecValidator, WithoutSpec

INTERACTION_CREATE = "INTERACTION_CREATE"
GUILD_READY_TIMEOUT = 0.01
"""Seconds for a bot under test to wait for more GUILD_CREATEs (the fake sends them all at once)."""


class _ErrorLog(logging.Handler):
    """Collects ERROR records that discord.py logs (exceptions escaping commands, views, events)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FakeDiscord(Interactions):
    """A fake Discord (REST + gateway) on a random port of 127.0.0.1, and the controls to drive a bot."""

    def __init__(
        self,
        *,
        guilds: Iterable[FakeGuild] = (),
        bot_user: FakeUser | None = None,
        application_id: int | None = None,
        reject_invalid: bool = True,
        allowed_intents: int = 0,
        timeout: float = 5.0,
        validator: SpecValidator | WithoutSpec | None = None,
        tls: ssl.SSLContext | None = None,
        shard_count: int = 1,
    ) -> None:
        """tls: serve REST and the gateway over TLS with this server context (https://, wss://), as Discord
        does; the bot must then trust its certificate (e.g. SSL_CERT_FILE for a bot in another process)."""
        bot_user = bot_user or FakeUser("rollkeeper", bot=True)
        guilds = list(guilds) or [FakeGuild()]
        channel_ids = [channel.id for guild in guilds for channel in guild.channels]
        if len(set(channel_ids)) != len(channel_ids) or len({g.id for g in guilds}) != len(guilds):
            raise ValueError("guild and channel ids must be unique: give same-named channels explicit ids")
        self.backend = Backend(
            guilds=guilds,
            bot_user=bot_user,
            application_id=application_id or bot_user.id,
            validator=validator or SpecValidator.shared(),
            reject_invalid=reject_invalid,
            shard_count=shard_count,
        )
        self.gateway = Gateway(self.backend, allowed_intents=allowed_intents)
        self.timeout = timeout
        self.tls = tls
        self.bot_permissions = BOT_PERMISSIONS
        """app_permissions of every interaction (the bot's rights in the channel); tests may lower it."""
        self._running: dict[discord.Client, asyncio.Task] = {}
        """The bots connected now (several when each runs some of the shards), with their start() tasks."""
        self._standin = StandIn(self.backend, self.gateway, tls=tls)
        self._saved: tuple[str, yarl.URL] | None = None
        self._errors = _ErrorLog()

    # -- the world ------------------------------------------------------------------------------------

    @property
    def bot(self) -> discord.Client | None:
        """The first bot started (None when none runs)."""
        return next(iter(self._running), None)

    @property
    def bots(self) -> list[discord.Client]:
        """Every bot running, in the order they started."""
        return list(self._running)

    @property
    def _bot_task(self) -> asyncio.Task | None:
        return next(iter(self._running.values()), None)

    @property
    def guild(self) -> FakeGuild:
        """The first (by default the only) guild."""
        return next(iter(self.backend.guilds.values()))

    @property
    def channel(self) -> FakeChannel:
        return self.guild.channel

    @property
    def bot_user(self) -> FakeUser:
        return self.backend.bot_user

    @property
    def application_id(self) -> int:
        return self.backend.application_id

    @property
    def requests(self) -> list[Request]:
        """Every REST request the bot made, in order."""
        return self.backend.requests

    @property
    def violations(self) -> list[Violation]:
        return self.backend.violations

    @property
    def bot_errors(self) -> list[logging.LogRecord]:
        return self._errors.records

    @property
    def messages(self) -> dict[int, dict]:
        return self.backend.store.messages

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict]:
        """The registered commands: global ones, or those of a guild."""
        return self.backend.commands.list(guild.id if isinstance(guild, FakeGuild) else guild)

    def requests_to(self, method: str, template: str) -> list[Request]:
        """Requests matching a spec path template, e.g. ("PUT", "/applications/{application_id}/commands")."""
        return [r for r in self.requests if r.method == method.upper() and r.template == template]

    def take_violations(self) -> list[Violation]:
        """Return and forget the violations (for tests that provoke one on purpose)."""
        taken, self.backend.violations[:] = list(self.violations), []
        return taken

    def take_bot_errors(self) -> list[logging.LogRecord]:
        taken, self._errors.records[:] = list(self._errors.records), []
        return taken

    def assert_clean(self) -> None:
        """Fail, listing them, if the bot sent anything Discord would refuse or discord.py logged errors."""
        problems = [f"  {violation}" for violation in self.violations]
        problems += [
            f"  discord.py logged: {record.getMessage()} ({record.exc_info and record.exc_info[1]!r})"
            for record in self.bot_errors
        ]
        assert not problems, "the bot misbehaved towards Discord:\n" + "\n".join(problems)

    # -- faults (see faults.py) ----------------------------------------------------------------------------

    def inject(self, method: str, route: str, **fault: object) -> Fault:
        """Make the next matching requests fail: `status`, `retry_after` (429), `delay`, `reset`, `taken`,
        `hang`, `times` (see faults.py). Returns the Fault, whose `hits` says how often it struck."""
        injected = Fault(method.upper(), route, **fault)  # type: ignore[arg-type]
        self.backend.faults.append(injected)
        return injected

    async def deliver_twice(self, payload: dict, *, gap: float = 0.0) -> Reply:
        """Deliver one INTERACTION_CREATE twice (same id, same token), `gap` seconds apart, as a duplicate
        delivery does; settle both and return the one Reply they share."""
        reply = await self.send_interaction(payload, wait=False)
        if gap:
            await asyncio.sleep(gap)
        await self.gateway.session.dispatch("INTERACTION_CREATE", payload)  # type: ignore[union-attr]
        return await self.settle(reply, expect_answer=False)

    async def reconnect(self, *, replay: int = 0) -> None:
        """Drop the bot's gateway connection; its RESUME replays the last `replay` events it already had.
        Returns once the bot has resumed."""
        await self.gateway.reconnect(replay)
        if self.bot is None:
            raise RuntimeError("no bot is running")
        await self._until(self.gateway.resumed.wait(), "the bot to RESUME", self.bot)

    # -- lifecycle ------------------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        if isinstance(discord.http.Route.BASE, str) and discord.http.Route.BASE.startswith(
            ("http://127.0.0.1", "https://127.0.0.1")
        ):
            raise RuntimeError(
                "another FakeDiscord is active: they patch discord.py globally, use one at a time"
            )
        await self._standin.start()
        self._saved = point_discord_py_at(self._standin.api_url, self._standin.gateway_url)
        logging.getLogger("discord").addHandler(self._errors)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            await self.stop()
        finally:
            logging.getLogger("discord").removeHandler(self._errors)
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            await self._standin.close()

    async def run(self, bot: discord.Client, token: str = "fake-token") -> discord.Client:
        """Start `bot.start(token)` in a task; return once setup_hook ran and the guilds arrived.

        discord.py waits ``guild_ready_timeout`` (2 s by default) after the last GUILD_CREATE before on_ready:
        build the bot with ``guild_ready_timeout=GUILD_READY_TIMEOUT`` (a Client option) to skip that wait.
        With `shard_count` above 1, several bots may run at once, each on its own shards (as processes would).
        """
        if self._running and self.backend.shard_count == 1:
            raise RuntimeError("a bot is already running: await fake.stop() first")
        self._hook_interactions(bot)
        self.gateway.identified.clear()
        task = asyncio.create_task(bot.start(token), name="fakediscord-bot")
        self._running[bot] = task
        await self._until(self.gateway.identified.wait(), "the bot to IDENTIFY on the gateway", bot)
        await self._until(bot.wait_until_ready(), "the bot to become ready", bot)
        return bot

    async def stop(self) -> None:
        """Close the running bots (if any), last started first, and re-raise whatever made one crash."""
        for bot in reversed(self.bots):
            await self.stop_bot(bot)

    async def stop_bot(self, bot: discord.Client) -> None:
        """Close one running bot and re-raise whatever made it crash; the others keep running."""
        task = self._running.pop(bot, None)
        if task is None:
            return
        await bot.close()
        await asyncio.wait_for(task, self.timeout)

    async def _until(self, awaitable, what: str, bot: discord.Client) -> None:
        waiter, task = asyncio.ensure_future(awaitable), self._running[bot]
        done, _ = await asyncio.wait({waiter, task}, timeout=self.timeout, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            if task in done:
                del self._running[bot]
                await bot.close()
                task.result()
                raise RuntimeError(f"the bot stopped while waiting for {what}")
            raise TimeoutError(f"timed out waiting for {what}")
        waiter.result()

    def _hook_interactions(self, bot: discord.Client) -> None:
        """Note which tasks discord.py creates while parsing each INTERACTION_CREATE (its handlers).

        DEP: discord.py has no public hook for "this event was parsed and these tasks were started for it", which
        the fake needs to know when the bot is done with an interaction; it wraps the connection state's parser
        table (``bot._connection.parsers``, discord.py 2.7). This is test code only, and
        test_fakediscord.py::test_the_parser_hook_sees_every_interaction pins it: an upgrade that moves the
        table fails that test first.
        """
        parsers = bot._connection.parsers
        original = parsers[INTERACTION_CREATE]

        def parse_and_note(data: dict) -> None:
            before = asyncio.all_tasks()
            try:
                original(data)
            except Exception as exc:
                self._handled(data, set(), exc)
                raise
            self._handled(data, asyncio.all_tasks() - before, None)

        parsers[INTERACTION_CREATE] = parse_and_note

    def _handled(self, data: dict, tasks: set[asyncio.Task], exc: BaseException | None) -> None:
        reply = self.backend.replies.get(data.get("token", ""))
        if reply is not None and reply.handled is not None and not reply.handled.done():
            reply.parse_error = exc
            reply.handled.set_result(tasks)
