"""Run the bot: ``python -m bot``, or the ``rollkeeper`` command.

``python -m bot healthcheck`` checks the database (for Docker's HEALTHCHECK); ``python -m bot
clear-guild-commands GUILD_ID`` removes the commands synced to one server (see bot/app/admin.py); ``python -m bot
copy-db --from sqlite:///path --to postgresql://...`` copies the SQLite data into PostgreSQL (bot/app/copydb.py).

Exit codes: 0 after a clean stop (SIGINT or SIGTERM), 2 for a setting to fix (no token, a token Discord
refuses, a database path or DATABASE_URL that cannot be used, another process already serving this bot on that
database), 1 for anything else. Problems with the settings are one paragraph on stderr, without a traceback; the
token never appears in a message or a log line.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.app.logs import configure_logging, redact
from bot.app.opening import check_database_path, probe_database, probe_postgres
from bot.app.serving import serve
from bot.app.shard_lease import LeaseHeld
from bot.settings import MissingToken, Settings, SettingsError, load_settings
from bot.storage.errors import StorageError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_SETTINGS = 2

TOKEN_REFUSED = (
    "Discord refused the token in DISCORD_TOKEN. Reset it in the developer portal (your application "
    "-> Bot -> Reset Token) and put the new one in .env as DISCORD_TOKEN=..."
)
PLAYGROUND_HINT = " To try rollkeeper first without a token: python -m bot playground"

_log = logging.getLogger("bot")


def _fail(message: str, code: int, secrets: tuple[str, ...] = ()) -> int:
    print(redact(message, secrets), file=sys.stderr)
    return code


async def _serve_the_bot(settings: Settings) -> None:
    # Imported here, not at the top: a settings error is answered before discord.py loads.
    from bot.app.client import RollkeeperBot
    from bot.app.connections import discord_connector

    await serve(settings, RollkeeperBot(settings, connector=discord_connector()))  # in the loop: its connector


def _run(settings: Settings) -> int:
    import discord  # for its exception types; only now, once the settings are known to be good

    secrets = (settings.discord_token,)
    try:
        asyncio.run(_serve_the_bot(settings))
    except discord.LoginFailure:
        return _fail(TOKEN_REFUSED, EXIT_SETTINGS)
    except (StorageError, LeaseHeld) as error:
        return _fail(str(error), EXIT_SETTINGS, secrets)
    except (OSError, discord.GatewayNotFound) as error:
        return _fail(f"Could not reach Discord: {error}", EXIT_FAILED, secrets)
    except KeyboardInterrupt:
        return EXIT_OK
    except Exception:
        _log.exception("rollkeeper stopped on an unexpected error")
        return EXIT_FAILED
    return EXIT_OK


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run rollkeeper, or look after it.")
    commands = parser.add_subparsers(
        dest="command", metavar="[healthcheck | clear-guild-commands GUILD_ID | copy-db --from ... --to ...]"
    )
    commands.add_parser("healthcheck", help="exit 0 if the database opens and is migrated, else 1")
    clear = commands.add_parser("clear-guild-commands", help="remove the commands synced to one server")
    clear.add_argument("guild_id", metavar="GUILD_ID", help="the server whose copy of the commands to remove")
    commands.add_parser("copy-db", help="copy the SQLite database into PostgreSQL (python -m bot copy-db --help)")
    return parser.parse_args(argv)


def _clear_guild_commands(settings: Settings, text: str) -> int:
    from bot.app.admin import clear_guild_commands, parse_guild_id

    try:
        guild_id = parse_guild_id(text)
    except SettingsError as error:
        return _fail(str(error), EXIT_SETTINGS)
    import discord

    try:
        removed = asyncio.run(clear_guild_commands(settings.discord_token, guild_id))
    except discord.LoginFailure:
        return _fail(TOKEN_REFUSED, EXIT_SETTINGS)
    except (OSError, discord.HTTPException) as error:
        return _fail(f"Could not remove the commands: {error}", EXIT_FAILED, (settings.discord_token,))
    print(f"Removed {removed} commands from server {guild_id}; the global ones stay.")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Check the settings and the database path, then run the bot (or a sub-command); return the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["playground"]:  # no token: the real bot against a local stand-in (bot/playground/)
        from bot.playground.cli import main as playground

        return playground(argv[1:])
    if argv[:1] == ["copy-db"]:  # its own options, and no settings needed (bot/app/copydb.py)
        from bot.app.copydb import main as copy_db

        return copy_db(argv[1:])
    arguments = _arguments(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(str(error) + (PLAYGROUND_HINT if isinstance(error, MissingToken) else ""), EXIT_SETTINGS)
    configure_logging(settings)
    if arguments.command == "healthcheck":
        from bot.app.admin import healthcheck

        return healthcheck(settings)
    if arguments.command == "clear-guild-commands":
        return _clear_guild_commands(settings, arguments.guild_id)
    try:
        if settings.database_url is None:
            probe_database(check_database_path(settings.database_path))
        else:
            probe_postgres(settings.database_url)
    except StorageError as error:
        return _fail(str(error), EXIT_SETTINGS)
    return _run(settings)


if __name__ == "__main__":
    sys.exit(main())
