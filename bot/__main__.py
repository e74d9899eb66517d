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
import contextlib
import logging
import re
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from bot.app.opening import probe_postgres
from bot.app.shard_lease import LeaseHeld
from bot.settings import Settings, SettingsError, load_settings
from bot.storage.errors import StorageError
from bot.storage.files import check_database_path, probe_database

if TYPE_CHECKING:
    from bot.app.client import RollkeeperBot

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_SETTINGS = 2
START_GRACE = 2.0
"""Seconds the closed bot's start may take to return before it is cancelled (see _ended)."""

HIDDEN = "[token hidden]"
INTERACTION_HIDDEN = "[interaction token hidden]"
TOKEN_REFUSED = (
    "Discord refused the token in DISCORD_TOKEN. Reset it in the developer portal (your application "
    "-> Bot -> Reset Token) and put the new one in .env as DISCORD_TOKEN=..."
)
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

_log = logging.getLogger("bot")

VOICE_UNUSED = "voice will NOT be supported"
"""The end of discord.py's start-up warnings that PyNaCl or davey is missing (logger ``discord.client``)."""


class WithoutVoiceWarnings(logging.Filter):
    """Drops discord.py's warnings about missing voice libraries: rollkeeper never joins a voice channel."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.WARNING and record.getMessage().endswith(VOICE_UNUSED))


_WITHOUT_VOICE = WithoutVoiceWarnings()


class RedactingFormatter(logging.Formatter):
    """A formatter that replaces each secret with HIDDEN in the finished line, traceback included."""

    def __init__(self, secrets: tuple[str, ...], fmt: str = LOG_FORMAT) -> None:
        super().__init__(fmt)
        self._secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self._secrets)


INTERACTION_TOKEN = re.compile(r"(/(?:interactions/[0-9]+|webhooks/[0-9]+)/)([A-Za-z0-9_.\-]{20,})")
"""An interaction's or a webhook's token in a callback or webhook URL (discord.py logs those URLs at DEBUG, and
an aiohttp error names its URL): a credential that answers as the bot for 15 minutes."""
TOKEN_VALUE = re.compile(r"""(["']token["']\s*:\s*)(["'])(?:(?!\2).)*\2""", re.IGNORECASE)
"""A ``token`` key and its string value, as a payload prints in Python or JSON: discord.py logs every gateway
event at DEBUG, and an INTERACTION_CREATE carries the interaction's token."""


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """text with every non-empty secret replaced by HIDDEN, and every interaction or webhook token (in a URL or
    as a payload's ``token`` value) by INTERACTION_HIDDEN."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, HIDDEN)
    text = TOKEN_VALUE.sub(lambda match: f"{match[1]}{match[2]}{INTERACTION_HIDDEN}{match[2]}", text)
    return INTERACTION_TOKEN.sub(lambda match: match[1] + INTERACTION_HIDDEN, text)


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Send every log line to stream (default stderr) at LOG_LEVEL, with the token hidden."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter((settings.discord_token,)))
    logging.basicConfig(level=settings.log_level_number, handlers=[handler], force=True)
    # aiosqlite logs every statement with its parameters at DEBUG: players' notes, hundreds of lines a minute.
    logging.getLogger("aiosqlite").setLevel(max(settings.log_level_number, logging.INFO))
    logging.getLogger("discord.client").addFilter(_WITHOUT_VOICE)  # discord.py's documented logger names
    return handler


def _fail(message: str, code: int, secrets: tuple[str, ...] = ()) -> int:
    print(redact(message, secrets), file=sys.stderr)
    return code


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


async def serve(settings: Settings, bot: RollkeeperBot | None = None) -> None:
    """Run the bot until Discord closes it or a SIGINT/SIGTERM arrives; close bot and database either way."""
    if bot is None:
        # Imported here, not at the top: a settings error is answered before discord.py loads.
        from bot.app.client import RollkeeperBot
        from bot.app.connections import discord_connector

        bot = RollkeeperBot(settings, connector=discord_connector())
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


def _run(settings: Settings) -> int:
    import discord  # for its exception types; only now, once the settings are known to be good

    secrets = (settings.discord_token,)
    try:
        asyncio.run(serve(settings))
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
    if argv[:1] == ["copy-db"]:  # its own options, and no settings needed (bot/app/copydb.py)
        from bot.app.copydb import main as copy_db

        return copy_db(argv[1:])
    arguments = _arguments(argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(str(error), EXIT_SETTINGS)
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
