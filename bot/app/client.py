"""The bot itself: start-up in `setup_hook`, the interactions in hand, shards and their lease, a clean close.

Command sync lives in bot.app.sync and the periodic chores (purge, database-file watch) in bot.app.chores, with
their timings. The features (cogs/<feature>/, loaded by name from EXTENSIONS) see the bot as
bot.interactions.rollkeeper.Rollkeeper and never import this module."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from bot.app.chores import Chores, purge_expired_rolls
from bot.app.install_links import account_install_url, server_install_url
from bot.app.opening import DEFAULT_BUSY_TIMEOUT_MS, open_storage
from bot.app.shard_lease import LeaseHeld, ShardLease
from bot.app.sync import CommandSync, sync_commands
from bot.app.translator import CatalogueTranslator
from bot.interactions.acknowledging import IN_HAND_SINCE
from bot.interactions.gateway import drop_malformed_interactions
from bot.interactions.language import player_speech
from bot.interactions.rollkeeper import PurgeHook, Rollkeeper
from bot.interactions.tree import RollkeeperTree, send_private
from bot.interactions.webhook_edits import InteractionWebhooks
from bot.settings import Settings
from bot.shards import running_shards
from bot.storage.database import Storage
from bot.storage.errors import StorageBusy, StorageUnavailable
from bot.storage.sqlite import Database
from rules.language import N_

_log = logging.getLogger(__name__)

EXTENSIONS = tuple(
    f"cogs.{feature}.cog"
    for feature in ("hex", "yearzero", "heroic", "sevenkingdoms", "willpower", "resources", "help", "log", "settings")
)
"""The features loaded at start-up, in this order: each cogs/<feature>/cog.py's ``setup``; a missing one stops
the start."""

INTERACTION_GRACE = 10.0
"""Seconds a closing bot waits for the interactions it is handling: a deferred answer may take a few retries
(Discord gives it 15 minutes; systemd waits 90 s for a stop)."""
RESTARTING = N_("rollkeeper is restarting: nothing was done. Try again in a few seconds.")
IDENTIFY_SPACING = 5.0
"""Seconds between two shards' IDENTIFYs (Discord allows one IDENTIFY per 5 s to bots of max_concurrency 1)."""
STALE_BUTTON = N_("This button no longer works: it may be from an older roll. Roll again.")


class RollkeeperBot(commands.AutoShardedBot):
    """rollkeeper: slash commands only (no privileged intents), settings and database on the bot.

    It runs the shards settings.shards names (all of Discord's recommended count by default) in this process."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: Sequence[str] = EXTENSIONS,
        dynamic_items: Sequence[type[discord.ui.DynamicItem[Any]]] = (),
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        identify_spacing: float = IDENTIFY_SPACING,
        **options: Any,
    ) -> None:
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        for name, value in settings.shards.client_options().items():
            options.setdefault(name, value)
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
        self._identify_spacing = identify_spacing
        self._button_patterns: dict[type[discord.ui.DynamicItem[Any]], re.Pattern[str]] = {}
        self._db: Storage | None = None
        self._purge_hooks: list[PurgeHook] = []
        self._chores = Chores(self.purge_expired_rolls)
        self.first_purge_done = asyncio.Event()
        """Set once the purge that starts with the bot has run (it runs behind the start, not before it)."""
        self.lost_database: StorageUnavailable | None = None
        """Why the bot stopped on its own: its database file deleted, replaced or damaged while it ran."""
        self.lease_refused: LeaseHeld | None = None
        """Or: another process serves one of the shards of Discord's count (SHARD_COUNT unset)."""
        self._lease: ShardLease | None = None
        self._stopping: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        """Set when close() has finished: serve() ends the start then, even with a shard still connecting."""
        self._invite_logged = False
        self.draining = False
        """True once close() began: new interactions are refused (answered RESTARTING), those in hand finish."""
        self._in_hand: set[asyncio.Task[Any]] = set()
        """The tasks handling an interaction right now (slash commands, clicks), for close() to wait for."""
        self.webhooks = InteractionWebhooks(self.now)
        """Where the bot is absent, the interactions' tokens that may still edit their messages (memory only)."""

    @property
    def db(self) -> Storage:
        """The open database (from setup_hook until close)."""
        if self._db is None:
            raise RuntimeError("The database is not open: setup_hook has not run, or the bot was closed.")
        return self._db

    def now(self) -> datetime:
        """The current time (UTC); tests may give the bot another clock."""
        return self._clock()

    def invite_url(self) -> str:
        """The link that adds the bot to a server (install_links.py)."""
        return server_install_url(self._client_id())

    def account_install_url(self) -> str:
        """The link that adds the app to a player's own account (install_links.py)."""
        return account_install_url(self._client_id())

    def _client_id(self) -> int:
        """The application's id, which both install links name (the bot user's before Discord said it)."""
        return self.application_id or (self.user.id if self.user else 0)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register buttons whose custom_id says what they act on; each class names its template as
        ``pattern`` too, since discord.py offers a DynamicItem's template only on an instance."""
        for item in items:
            if not isinstance(getattr(item, "pattern", None), re.Pattern):
                raise TypeError(f"{item.__name__} must name its template as a compiled `pattern` class attribute")
        super().add_dynamic_items(*items)
        self._button_patterns.update({item: item.pattern for item in items})  # type: ignore[attr-defined]

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        for item in items:
            self._button_patterns.pop(item, None)

    def listens_for(self, custom_id: str) -> bool:
        """True when a registered DynamicItem or a persistent view takes clicks on this custom_id."""
        if any(pattern.fullmatch(custom_id) for pattern in self._button_patterns.values()):
            return True
        return any(
            getattr(item, "custom_id", None) == custom_id
            for view in self.persistent_views
            for item in view.walk_children()
        )

    @property
    def interactions_in_hand(self) -> int:
        """How many interactions the bot is handling right now (slash commands and clicks)."""
        return len(self._in_hand)

    def hold_interaction(self, interaction: discord.Interaction) -> None:
        """Count the running task as handling interaction until it ends: close() waits for it; the budget of its
        answer (acknowledging.in_time) counts from now.

        Called from the checks that run first in discord.py's task for a slash command (the tree's) or a click
        (the button's), so the bot knows its in-flight work by its own bookkeeping, not by discord.py's names
        for its tasks."""
        interaction.extras.setdefault(IN_HAND_SINCE, asyncio.get_running_loop().time())
        task = asyncio.current_task()
        if task is not None and task not in self._in_hand:
            self._in_hand.add(task)
            task.add_done_callback(self._in_hand.discard)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a click that nothing listens for (a malformed or foreign custom_id): without an answer, the
        player would see "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str) or not self.listens_for(custom_id):
            self.hold_interaction(interaction)
            await send_private(interaction, player_speech(interaction)._(STALE_BUTTON))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space the shards' IDENTIFYs as Discord's rate limit asks (the first one goes at once); before the
        first, lease every shard of Discord's count when SHARD_COUNT was unset."""
        if not initial:
            await asyncio.sleep(self._identify_spacing)
        await self._lease_discords_count()
        if self.draining or self.lease_refused is not None:  # stopping: no shard identifies any more
            await asyncio.Future()  # serve() cancels the start once the bot is closed

    async def _lease_discords_count(self) -> None:
        """With SHARD_COUNT unset, lease every shard of Discord's count (see served_shards), or stop (exit 2)."""
        if self._lease is None or self.settings.shards.count is not None or self.shard_count is None:
            return
        try:
            await self._lease.cover(self.shard_count)
        except LeaseHeld as refused:
            self.lease_refused = refused
            _log.critical("Stopping: %s", refused)
            self._stop_soon()

    async def setup_hook(self) -> None:
        """Open and migrate the database, load the cogs and buttons, sync the commands; old rolls are purged in
        the background (a large purge must not hold up the start)."""
        drop_malformed_interactions(self)
        self._db = await open_storage(self.settings, busy_timeout_ms=self._busy_timeout_ms)
        if isinstance(self._db, Database):  # a SQLite file can be deleted or replaced under the bot
            self._db.store.on_lost = self._database_lost
        try:
            await self._take_lease(self._db)
            await self.tree.set_translator(CatalogueTranslator())
            for name in self.extension_names:
                await self.load_extension(name)
            if self.dynamic_item_types:
                self.add_dynamic_items(*self.dynamic_item_types)
            await self.sync_commands()
        except StorageBusy as error:  # for whoever runs the bot, not the players' "try again": which file, why
            reason = "another program kept it locked past the busy timeout"
            raise StorageUnavailable(self.db.store.location, reason) from error
        self._chores.start(self._db, self.first_purge_done)

    def _database_lost(self, error: StorageUnavailable) -> None:
        """Stop the bot (once) when its database can no longer be used; serve() then exits with this error."""
        if self.lost_database is None:
            self.lost_database = error
            _log.critical("Stopping: %s", error)
            self._stop_soon()

    def _stop_soon(self) -> None:
        if self._stopping is None:
            self._stopping = asyncio.create_task(self.close(), name="rollkeeper-stop")

    def served_shards(self) -> tuple[int, ...]:
        """The shards this process leases before it connects: SHARD_IDS, else every shard of SHARD_COUNT; with
        neither, the count is Discord's, known only as the shards connect, so shard 0 stands for them all until
        then (every process that runs all the shards or shard 0 leases shard 0), and the others are leased
        before the first IDENTIFY (`before_identify_hook`)."""
        return self.settings.shards.leased_shards

    async def _take_lease(self, db: Storage) -> None:
        """Lease the shards in the database (LeaseHeld if another process serves them), renewed from now on."""
        settings = self.settings
        self._lease = ShardLease(
            db, self.served_shards(), ttl=settings.lease_ttl_seconds, renew_every=settings.lease_renew_seconds,
            clock=self.now, on_lost=self._stop_soon,
        )
        await self._lease.take()

    def add_purge_hook(self, hook: PurgeHook) -> None:
        """Run hook before each purge of expired rolls (a feature's chore: Year Zero marks expiring rolls ended)."""
        self._purge_hooks.append(hook)

    def remove_purge_hook(self, hook: PurgeHook) -> None:
        if hook in self._purge_hooks:
            self._purge_hooks.remove(hook)

    async def purge_expired_rolls(self) -> int:
        """Run the features' purge hooks, then purge the expired rolls, old applied interactions and roll log
        entries now (see bot.app.chores)."""
        return await purge_expired_rolls(self.db, self.settings, self.now(), tuple(self._purge_hooks))

    async def sync_commands(self) -> CommandSync:
        """Sync the commands as bot.app.sync says (to GUILD_ID, or globally when changed; one process only)."""
        return await sync_commands(self.tree, self.settings, self.db, self.application_id)

    async def on_ready(self) -> None:
        if not self._invite_logged:
            self._invite_logged = True
            _log.info("Invite the bot to a server with: %s", self.invite_url())
            _log.info("Add the app to your own account with: %s", self.account_install_url())
        _log.info("Ready as %s, in %d servers", self.user, len(self.guilds))
        _log.info("%s", self.shards_summary())

    def shards_summary(self) -> str:
        """Which shards this process runs and how many servers each has, e.g. "Running shards 0, 1 of 4: ..."."""
        return running_shards(sorted(self.shards), self.shard_count, [guild.shard_id for guild in self.guilds])

    async def refuse_if_draining(self, interaction: discord.Interaction) -> bool:
        """While closing, answer a new interaction that the bot is restarting (nothing is applied for it, so what
        the player is told is true) and return True; the checks of commands and buttons call this first."""
        if not self.draining:
            return False
        await send_private(interaction, player_speech(interaction)._(RESTARTING))
        return True

    async def close(self) -> None:
        """Drain: refuse new interactions, let those in hand finish; then stop the purge, give the shard lease
        back, disconnect from Discord and close the database."""
        self.draining = True
        await self._finish_interactions()
        await self._chores.stop()
        if self._lease is not None:  # before disconnecting: serve() may stop waiting once the client is closed
            lease, self._lease = self._lease, None
            await lease.release()
        await super().close()
        if self._db is not None:
            database, self._db = self._db, None
            await database.close()
        self.closed.set()

    async def _finish_interactions(self, grace: float = INTERACTION_GRACE) -> None:
        """Wait (up to grace seconds) for commands and buttons being handled: a player whose roll was in flight at
        SIGTERM gets their answer, instead of "This interaction failed" and an error in the log."""
        busy = self._in_hand - {asyncio.current_task()}
        if busy:
            await asyncio.wait(busy, timeout=grace)


def as_seen_by_features(bot: RollkeeperBot) -> Rollkeeper:
    """The bot as its features' ``setup`` receive it (the type checker proves the bot has all they use)."""
    return bot
