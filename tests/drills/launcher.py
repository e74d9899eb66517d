"""Run rollkeeper's real entry point, ``bot.__main__.main``, pointed at a test's fake Discord.

    python -m tests.drills.launcher API_BASE GATEWAY_URL

Everything else is `python -m bot` as a self-hoster runs it: the settings from the environment (DISCORD_TOKEN,
DATABASE_PATH, LOG_LEVEL, ...), logging with the token hidden, the database checks, SIGINT/SIGTERM handling and
the exit codes. Only three things differ, all test-side: discord.py's REST base and gateway URL point at the
fake (as the in-process harness does), the bot does not wait 2 s for more servers after GUILD_CREATE, and, when
ROLLKEEPER_RAW_LOG names a file, every log record is also written there *unredacted*, so a test can check that
the token never reaches a record at all (not only that the formatter hid it).
"""

from __future__ import annotations

import logging
import os
import sys

RAW_LOG = "ROLLKEEPER_RAW_LOG"
RAW_FORMAT = "%(levelname)s %(name)s: %(message)s"


def point_at_fake(api: str, gateway: str) -> None:
    from bot.playground.standin import point_discord_py_at

    point_discord_py_at(api, gateway)


def no_guild_wait() -> None:
    """The fake sends every GUILD_CREATE at once: on_ready need not wait discord.py's 2 s for more."""
    from bot.app.client import RollkeeperBot

    original = RollkeeperBot.__init__

    def init(self, *args, **options) -> None:
        options.setdefault("guild_ready_timeout", 0.01)  # a discord.Client option
        original(self, *args, **options)

    RollkeeperBot.__init__ = init


def keep_raw_log(path: str) -> None:
    """After main() configures logging, add a handler that writes every record as it is (no redaction)."""
    import bot.__main__ as entry

    configure = entry.configure_logging

    def configure_and_keep(settings, stream=None):
        handler = configure(settings, stream)
        raw = logging.FileHandler(path, encoding="utf-8")
        raw.setFormatter(logging.Formatter(RAW_FORMAT))
        logging.getLogger().addHandler(raw)
        return handler

    entry.configure_logging = configure_and_keep


def main(argv: list[str]) -> int:
    api, gateway = argv
    point_at_fake(api, gateway)
    no_guild_wait()
    if os.environ.get(RAW_LOG):
        keep_raw_log(os.environ[RAW_LOG])
    from bot.__main__ import main as run_bot

    return run_bot([])  # python -m bot, no sub-command (this launcher's own arguments are not the bot's)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
