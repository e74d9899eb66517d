"""The bot itself: start-up in `setup_hook`, command sync only when the commands changed, clean close."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.settings import Settings
from bot.storage import DEFAULT_BUSY_TIMEOUT_MS, Database, StorageBusy, StorageUnavailable
from bot.tree import RollkeeperTree, send_private

_log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.hex", "cogs.yearzero", "cogs.heroic", "cogs.sevenkingdoms", "cogs.willpower")
"""The cogs loaded at start-up, in this order; a missing one stops the start."""

INVITE_PERMISSIONS = discord.Permissions(send_messages=True, embed_links=True)
INVITE_SCOPES = ("bot", "applications.commands")
PURGE_INTERVAL = timedelta(hours=1)
INTERACTION_GRACE = 3.0
"""Seconds a closing bot waits for the interactions it is handling (Discord's own window is 3 s)."""
INTERACTION_TASK_PREFIXES = (
    "CommandTree-invoker", "discord-ui-dynamic-item", "discord-ui-view-dispatch", "discord-ui-modal-dispatch",
    "rollkeeper-stale-button",
)
"""The names of the tasks that run slash commands and component callbacks (discord.py's), and of ours that
answer a stale click."""
STALE_BUTTON = "This button no longer works: it may be from an older roll. Roll again."


GC_THRESHOLDS = (20_000, 20, 20)
"""The collector's thresholds once the bot is up (Python's are 700, 10, 10). Every interaction leaves a few
reference cycles that only the collector frees, and with 16 interactions in flight a young-generation pass
walks thousands of live objects: the interaction benchmark measured ~230 such passes per 2,000 rolls at 700,
about 30 us per roll in all. Collecting after 20,000 new objects instead keeps at most a few MB of garbage
waiting and cuts that time by more than half."""


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a full collection in the middle of the imports cost start-up ~20 ms
    (bench/startup) for nothing to collect. It runs again right after, without the objects made so far: the
    modules, classes and tables loaded at start-up live as long as the bot, and every full collection would
    walk them all again (gc.freeze moves them out of its sight). From then on it runs at GC_THRESHOLDS."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if was_enabled:
            gc.enable()


class CommandSync(StrEnum):
    """What the start-up did about Discord's copy of the commands."""

    GUILD = "guild"
    GLOBAL = "global"
    UNCHANGED = "unchanged"
    FAILED = "failed"


def command_definitions_hash(tree: app_commands.CommandTree) -> str:
    """SHA-256 of the global command definitions as Discord receives them, independent of order."""
    definitions = [command.to_dict(tree) for command in tree.get_commands()]
    definitions.sort(key=lambda definition: (definition.get("type", 1), definition["name"]))
    text = json.dumps(definitions, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class RollkeeperBot(commands.Bot):
    """rollkeeper: slash commands only (no privileged intents), settings and database on the bot."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        dynamic_items: Sequence[type[discord.ui.DynamicItem[Any]]] = (),
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        **options: Any,
    ) -> None:
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=discord.Intents.default(),
            tree_cls=RollkeeperTree,
            **options,
        )
        self.settings = settings
        self.extension_names = tuple(extensions)
        self.dynamic_item_types = tuple(dynamic_items)
        self._busy_timeout_ms = busy_timeout_ms
        self._clock = clock
        self._dynamic_templates: dict[re.Pattern[str], type[discord.ui.DynamicItem[Any]]] = {}
        self._db: Database | None = None
        self._purge_task: asyncio.Task[None] | None = None
        self._invite_logged = False
        self._answering: set[asyncio.Task[None]] = set()
        """Answers to stale clicks in flight (a reference keeps a task alive until it is done)."""

    @property
    def db(self) -> Database:
        """The open database (from setup_hook until close)."""
        if self._db is None:
            raise RuntimeError("The database is not open: setup_hook has not run, or the bot was closed.")
        return self._db

    def now(self) -> datetime:
        """The current time (UTC); tests may give the bot another clock."""
        return self._clock()

    def invite_url(self) -> str:
        """The link that adds the bot to a server with exactly the permissions it needs."""
        client_id = self.application_id or (self.user.id if self.user else 0)
        return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self._dynamic_templates.update({item.__discord_ui_compiled_template__: item for item in items})

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        for item in items:
            self._dynamic_templates.pop(item.__discord_ui_compiled_template__, None)

    def listens_for(self, custom_id: str) -> bool:
        """True when a registered DynamicItem or a persistent view takes clicks on this custom_id."""
        if any(template.fullmatch(custom_id) for template in self._dynamic_templates):
            return True
        return any(
            getattr(item, "custom_id", None) == custom_id
            for view in self.persistent_views
            for item in view.walk_children()
        )

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's dispatch, and a click nothing listens for (a malformed or foreign custom_id) answered.

        Not an ``on_interaction`` listener: discord.py would start a task for it on every interaction, slash
        commands included, and only clicks need it. Buttons of in-memory views are not seen here: rollkeeper's
        buttons are DynamicItems.
        """
        super().dispatch(event_name, *args, **kwargs)
        if event_name == "interaction" and args[0].type is discord.InteractionType.component:
            custom_id = (args[0].data or {}).get("custom_id")
            if not isinstance(custom_id, str) or not self.listens_for(custom_id):
                task = asyncio.create_task(send_private(args[0], STALE_BUTTON), name="rollkeeper-stale-button")
                self._answering.add(task)
                task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[None]) -> None:
        self._answering.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.error("Could not answer a stale click", exc_info=task.exception())

    async def setup_hook(self) -> None:
        """Open and migrate the database, purge old rolls, load the cogs and buttons, sync the commands."""
        self._db = await Database.open(self.settings.database_path, busy_timeout_ms=self._busy_timeout_ms)
        try:
            await self.purge_expired_rolls()
            with _collector_paused():  # importing the cogs makes thousands of objects, none of them garbage
                for name in self.extension_names:
                    await self.load_extension(name)
            if self.dynamic_item_types:
                self.add_dynamic_items(*self.dynamic_item_types)
            await self.sync_commands()
        except StorageBusy as error:  # for whoever runs the bot, not the players' "try again": which file, why
            raise StorageUnavailable(self.db.path, "another program kept it locked past the busy timeout") from error
        self._purge_task = asyncio.create_task(self._purge_periodically(), name="rollkeeper-purge")

    async def purge_expired_rolls(self) -> int:
        """Delete the Year Zero rolls past their lifetime; return how many."""
        purged = await self.db.rolls.purge_expired(self.now(), self.settings.push_lifetime)
        _log.debug("Purged %d expired Year Zero rolls", purged)
        return purged

    async def _purge_periodically(self) -> None:
        while True:
            await asyncio.sleep(PURGE_INTERVAL.total_seconds())
            try:
                await self.purge_expired_rolls()
            except StorageBusy:
                _log.warning("Skipped purging expired rolls: the database was busy")
            except Exception:
                _log.exception("Purging expired rolls failed")

    async def sync_commands(self) -> CommandSync:
        """Sync to GUILD_ID when set (instant); else globally, only if the definitions changed since."""
        try:
            if self.settings.guild_id is not None:
                return await self._sync_guild(self.settings.guild_id)
            return await self._sync_global()
        except discord.HTTPException as error:
            _log.error("Could not sync the slash commands with Discord: %s", error)
            return CommandSync.FAILED

    async def _sync_guild(self, guild_id: int) -> CommandSync:
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        _log.info("Synced %d commands to server %d (GUILD_ID)", len(synced), guild_id)
        return CommandSync.GUILD

    async def _sync_global(self) -> CommandSync:
        digest = command_definitions_hash(self.tree)
        key = f"commands_hash:{self.application_id}"
        if await self.db.meta.get(key) == digest:
            _log.info("Slash commands unchanged since the last sync; not syncing")
            return CommandSync.UNCHANGED
        synced = await self.tree.sync()
        await self.db.meta.set(key, digest)
        _log.info("Synced %d commands globally (Discord may take a while to show changes)", len(synced))
        return CommandSync.GLOBAL

    async def on_ready(self) -> None:
        if not self._invite_logged:
            self._invite_logged = True
            _log.info("Invite the bot to a server with: %s", self.invite_url())
        _log.info("Ready as %s, in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Let the interactions in hand finish, stop the purge, disconnect from Discord, close the database."""
        await self._finish_interactions()
        if self._purge_task is not None:
            self._purge_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._purge_task
            self._purge_task = None
        await super().close()
        if self._db is not None:
            database, self._db = self._db, None
            await database.close()

    async def _finish_interactions(self, grace: float = INTERACTION_GRACE) -> None:
        """Wait (up to grace seconds) for commands and buttons being handled: a player whose roll was in flight at
        SIGTERM gets their answer, instead of "This interaction failed" and an error in the log."""
        deadline = asyncio.get_running_loop().time() + grace
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            current = asyncio.current_task()
            busy = [
                task for task in asyncio.all_tasks()
                if task is not current and task.get_name().startswith(INTERACTION_TASK_PREFIXES) and not task.done()
            ]
            if not busy:
                return
            await asyncio.wait(busy, timeout=left)
