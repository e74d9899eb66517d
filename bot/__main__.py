"""Run the bot: ``python -m bot``, or the ``rollkeeper`` command.

Exit codes: 0 after a clean stop (SIGINT or SIGTERM), 2 for a setting to fix (no token, a token Discord
refuses, a database path that cannot be used), 1 for anything else. Problems with the settings are one
paragraph on stderr, without a traceback; the token never appears in a message or a log line.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TextIO

from bot.settings import Settings, SettingsError, load_settings
from bot.storage import StorageError, check_database_path, probe_database

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_SETTINGS = 2

HIDDEN = "[token hidden]"
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

_log = logging.getLogger("bot")


class RedactingFormatter(logging.Formatter):
    """A formatter that replaces each secret with HIDDEN in the finished line, traceback included."""

    def __init__(self, secrets: tuple[str, ...], fmt: str = LOG_FORMAT) -> None:
        super().__init__(fmt)
        self._secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self._secrets)


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """text with every non-empty secret replaced by HIDDEN."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, HIDDEN)
    return text


def configure_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Send every log line to stream (default stderr) at LOG_LEVEL, with the token hidden."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter((settings.discord_token,)))
    logging.basicConfig(level=settings.log_level_number, handlers=[handler], force=True)
    return handler


def _fail(message: str, code: int, secrets: tuple[str, ...] = ()) -> int:
    print(redact(message, secrets), file=sys.stderr)
    return code


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform: Ctrl+C still cancels the run
            return


async def serve(settings: Settings) -> None:
    """Run the bot until Discord closes it or a SIGINT/SIGTERM arrives; close bot and database either way."""
    from bot.client import RollkeeperBot  # here, not at the top: settings errors answer before discord loads

    bot = RollkeeperBot(settings)
    stop = asyncio.Event()
    _stop_on_signals(stop)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token), name="rollkeeper")
        stopper = asyncio.create_task(stop.wait(), name="rollkeeper-signals")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if not runner.done():
            _log.info("Shutting down")
            await bot.close()
        stopper.cancel()
        await runner


def _run(settings: Settings) -> int:
    import discord  # loaded by serve() already; imported here for its exception types

    secrets = (settings.discord_token,)
    try:
        asyncio.run(serve(settings))
    except discord.LoginFailure:
        return _fail(
            "Discord refused the token in DISCORD_TOKEN. Reset it in the developer portal (your application "
            "-> Bot -> Reset Token) and put the new one in .env as DISCORD_TOKEN=...",
            EXIT_SETTINGS,
        )
    except StorageError as error:
        return _fail(str(error), EXIT_SETTINGS, secrets)
    except (OSError, discord.GatewayNotFound) as error:
        return _fail(f"Could not reach Discord: {error}", EXIT_FAILED, secrets)
    except KeyboardInterrupt:
        return EXIT_OK
    except Exception:
        _log.exception("rollkeeper stopped on an unexpected error")
        return EXIT_FAILED
    return EXIT_OK


def main() -> int:
    """Check the settings and the database path, then run the bot; return the exit code."""
    try:
        settings = load_settings()
    except SettingsError as error:
        return _fail(str(error), EXIT_SETTINGS)
    configure_logging(settings)
    try:
        probe_database(check_database_path(settings.database_path))
    except StorageError as error:
        return _fail(str(error), EXIT_SETTINGS)
    return _run(settings)


if __name__ == "__main__":
    sys.exit(main())
