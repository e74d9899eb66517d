"""The bot's log: one handler at LOG_LEVEL whose lines never show a secret.

The bot token, and every interaction or webhook token (a credential that answers as the bot for 15 minutes, which
discord.py logs at DEBUG in each gateway event and each callback URL), are hidden from every line, traceback
included, whatever logger wrote it; discord.py's warnings about the voice libraries rollkeeper never uses are
dropped.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import TextIO

from bot.settings import Settings

HIDDEN = "[token hidden]"
INTERACTION_HIDDEN = "[interaction token hidden]"
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

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
