"""Sub-commands for whoever runs the bot: ``python -m bot healthcheck`` and ``clear-guild-commands``.

``healthcheck`` exits 0 when the database opens and the bot has migrated it (Docker's HEALTHCHECK runs it),
1 with a one-line reason otherwise. ``clear-guild-commands GUILD_ID`` removes the commands an earlier run
synced to that server with ``GUILD_ID`` set: once ``GUILD_ID`` is off, the server would otherwise show every
command twice, its own copy beside the global one.
"""

from __future__ import annotations

import sys

import discord
from discord import app_commands

from bot.app.opening import check_database_path, database_health, postgres_health
from bot.settings import Settings, SettingsError, guild_id_setting
from bot.storage.errors import StorageError

EXIT_OK, EXIT_UNHEALTHY = 0, 1


def healthcheck(settings: Settings) -> int:
    """0 and "healthy" when the database (DATABASE_URL's, else DATABASE_PATH's) is usable and migrated; else 1
    and the reason."""
    try:
        if settings.database_url is not None:
            problem = postgres_health(settings.database_url)
        else:
            problem = database_health(check_database_path(settings.database_path))
    except StorageError as error:
        problem = str(error)
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return EXIT_UNHEALTHY
    print("healthy")
    return EXIT_OK


async def clear_guild_commands(token: str, guild_id: int) -> int:
    """Remove every command of this application synced to the server guild_id; return how many there were.

    Logs in over HTTP only (no gateway): an empty bulk overwrite of the server's commands, which leaves the
    global commands as they are.
    """
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    guild = discord.Object(id=guild_id)
    async with client:
        await client.login(token)
        present = await tree.fetch_commands(guild=guild)
        tree.clear_commands(guild=guild)
        await tree.sync(guild=guild)
    return len(present)


def parse_guild_id(text: str) -> int:
    """The server ID given on the command line, checked as GUILD_ID is."""
    guild_id = guild_id_setting(text)
    if guild_id is None:
        raise SettingsError("clear-guild-commands needs the server ID, e.g. clear-guild-commands 123456789012345678")
    return guild_id
