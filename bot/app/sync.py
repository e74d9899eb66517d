"""Command sync: what the start-up does about Discord's copy of the slash commands.

To GUILD_ID when set (instant); else globally, and only when the definitions changed since the last sync (their
hash is kept in the database's meta table). Only one process syncs: by default the one running shard 0."""

from __future__ import annotations

import hashlib
import json
import logging
from enum import StrEnum
from typing import Any

import discord
from discord import app_commands

from bot.settings import Settings
from bot.storage.database import Storage

Tree = app_commands.CommandTree[Any]

_log = logging.getLogger(__name__)


class CommandSync(StrEnum):
    """What the start-up did about Discord's copy of the commands."""

    GUILD = "guild"
    GLOBAL = "global"
    UNCHANGED = "unchanged"
    NOT_THIS_PROCESS = "not this process"
    FAILED = "failed"


async def command_definitions_hash(tree: Tree) -> str:
    """SHA-256 of the global command definitions as Discord receives them (with their localizations when the tree
    has a translator: a changed translation is a change), independent of order."""
    translator = tree.translator
    if translator is None:
        definitions = [command.to_dict(tree) for command in tree.get_commands()]
    else:  # DEP: get_translated_payload is what CommandTree.sync sends (tests/bot/app/test_translator.py pins it)
        definitions = [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
    definitions.sort(key=lambda definition: (definition.get("type", 1), definition["name"]))
    text = json.dumps(definitions, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def sync_commands(tree: Tree, settings: Settings, db: Storage, application_id: int | None) -> CommandSync:
    """Sync tree's commands to GUILD_ID when set (instant); else globally, only if the definitions changed since
    (their hash kept in db's meta, per application_id).

    Only one process syncs: by default the one running shard 0 (SYNC_COMMANDS says otherwise)."""
    plan = settings.shards
    if not plan.syncs_commands:
        why = "SYNC_COMMANDS is false" if plan.sync_commands is False else "the process running shard 0 does"
        _log.info("Not syncing the slash commands: %s", why)
        return CommandSync.NOT_THIS_PROCESS
    try:
        if settings.guild_id is not None:
            return await _sync_guild(tree, settings.guild_id)
        return await _sync_global(tree, db, application_id)
    except discord.HTTPException as error:
        _log.error("Could not sync the slash commands with Discord: %s", error)
        return CommandSync.FAILED


async def _sync_guild(tree: Tree, guild_id: int) -> CommandSync:
    guild = discord.Object(id=guild_id)
    tree.copy_global_to(guild=guild)
    synced = await tree.sync(guild=guild)
    _log.info("Synced %d commands to server %d (GUILD_ID)", len(synced), guild_id)
    return CommandSync.GUILD


def synced_hash_key(application_id: int | None) -> str:
    """The meta key under which the hash of the definitions last synced globally for that application is kept."""
    return f"commands_hash:{application_id}"


async def _sync_global(tree: Tree, db: Storage, application_id: int | None) -> CommandSync:
    digest = await command_definitions_hash(tree)
    key = synced_hash_key(application_id)
    if await db.meta.get(key) == digest:
        _log.info("Slash commands unchanged since the last sync; not syncing")
        return CommandSync.UNCHANGED
    synced = await tree.sync()
    await db.meta.set(key, digest)
    _log.info("Synced %d commands globally (Discord may take a while to show changes)", len(synced))
    return CommandSync.GLOBAL
