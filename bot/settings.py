"""The bot's settings, read once at start from the environment and a ``.env`` file, checked at once.

A ``.env`` file in the working directory supplies values the environment does not have (python-dotenv; a real
environment variable always wins). Every bad value is a `SettingsError` with a one-line message naming the
variable - never echoing the token.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from dotenv import dotenv_values

from bot.shards import ShardPlan, ShardSettingError, refuse_shared_sqlite, shard_plan

DEFAULT_DATABASE_NAME = "rollkeeper.sqlite3"
DEFAULT_PUSH_LIFETIME_HOURS = 24.0
MAX_PUSH_LIFETIME_HOURS = 24.0 * 366
DEFAULT_LEASE_TTL_SECONDS = 30.0
DEFAULT_LEASE_RENEW_SECONDS = 10.0
DEFAULT_ROLL_LOG_DAYS = 90
MAX_ROLL_LOG_DAYS = 3660
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_MAX_SNOWFLAKE = 2**63 - 1


class SettingsError(ValueError):
    """A setting is missing or invalid; the message says which and what would be right."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class MissingToken(SettingsError):
    """DISCORD_TOKEN is not set: the message explains how to get one."""

    def __init__(self, env_file: Path) -> None:
        super().__init__(
            "DISCORD_TOKEN is not set, so rollkeeper cannot log in to Discord. To get a token, open the "
            "Discord developer portal (https://discord.com/developers/applications), pick your application "
            "(or create one), open its Bot page and press Reset Token, then copy the token it shows. Put it "
            f"in {env_file} as a line DISCORD_TOKEN=... (or set DISCORD_TOKEN in the environment) and keep "
            "it secret. The README's section on setting up your own bot walks through every step."
        )


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    discord_token: str = field(repr=False)
    """The bot's token (DISCORD_TOKEN); never logged or shown."""
    database_path: Path
    """Absolute path of the SQLite file (DATABASE_PATH)."""
    guild_id: int | None = None
    """A server to sync the commands to at start-up, instantly (GUILD_ID); None syncs globally."""
    log_level: str = "INFO"
    """One of LOG_LEVELS (LOG_LEVEL)."""
    push_lifetime_hours: float = DEFAULT_PUSH_LIFETIME_HOURS
    """How long a Year Zero roll stays pushable (PUSH_LIFETIME_HOURS)."""
    lease_ttl_seconds: float = DEFAULT_LEASE_TTL_SECONDS
    """How long this process's lease on its shards lasts unrenewed (LEASE_TTL_SECONDS): a crashed process's
    shards can be taken over after it."""
    lease_renew_seconds: float = DEFAULT_LEASE_RENEW_SECONDS
    """How often the lease is renewed (LEASE_RENEW_SECONDS), below the TTL."""
    roll_log_days: int = DEFAULT_ROLL_LOG_DAYS
    """How many days the roll log keeps each roll (ROLL_LOG_DAYS)."""
    database_url: str | None = field(default=None, repr=False)
    """A PostgreSQL server to keep everything in instead of the SQLite file (DATABASE_URL); it may hold a
    password, so it is never shown."""
    shards: ShardPlan = ShardPlan()
    """The shards this process runs and whether it syncs the commands (SHARD_COUNT, SHARD_IDS, SYNC_COMMANDS)."""

    @property
    def push_lifetime(self) -> timedelta:
        return timedelta(hours=self.push_lifetime_hours)

    @property
    def roll_log_retention(self) -> timedelta:
        return timedelta(days=self.roll_log_days)

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]

    @classmethod
    def from_mapping(cls, values: Mapping[str, str | None], *, base_dir: Path, env_file: Path) -> Settings:
        """Build settings from variable -> text (empty text counts as unset); relative paths from base_dir."""
        return cls(
            discord_token=_token(values.get("DISCORD_TOKEN"), env_file),
            database_path=_database_path(values.get("DATABASE_PATH"), base_dir),
            guild_id=guild_id_setting(values.get("GUILD_ID")),
            log_level=_log_level(values.get("LOG_LEVEL")),
            push_lifetime_hours=_push_lifetime_hours(values.get("PUSH_LIFETIME_HOURS")),
            **_lease(values.get("LEASE_TTL_SECONDS"), values.get("LEASE_RENEW_SECONDS")),
            roll_log_days=_roll_log_days(values.get("ROLL_LOG_DAYS")),
            database_url=_database_url(values.get("DATABASE_URL")),
            shards=_shards(values, on_sqlite=not _text(values.get("DATABASE_URL"))),
        )


def load_settings(environ: Mapping[str, str] | None = None, cwd: Path | None = None) -> Settings:
    """Read the settings from environ (default os.environ) over ``.env`` in cwd (default the working dir)."""
    environ = os.environ if environ is None else environ
    cwd = Path.cwd() if cwd is None else cwd
    env_file = cwd / ".env"
    values: dict[str, str | None] = {}
    if env_file.is_file():
        values.update(dotenv_values(env_file))
    values.update(environ)
    return Settings.from_mapping(values, base_dir=cwd, env_file=env_file)


def _text(value: str | None) -> str:
    return (value or "").strip()


def _shown(value: str) -> str:
    """A bad value quoted for a message, cut short if long."""
    return repr(value if len(value) <= 40 else value[:40] + "...")


def _token(value: str | None, env_file: Path) -> str:
    token = _text(value)
    if not token:
        raise MissingToken(env_file)
    if any(character.isspace() for character in token):
        raise SettingsError(
            "DISCORD_TOKEN contains spaces or line breaks: put only the token itself after DISCORD_TOKEN="
        )
    if not (token.isascii() and token.isprintable()):  # a token is letters, digits, '.', '-' and '_'
        raise SettingsError(
            "DISCORD_TOKEN contains characters a Discord token never has (a control character, or one outside "
            "ASCII): copy the token again from the developer portal and put only it after DISCORD_TOKEN="
        )
    return token


def _database_path(value: str | None, base_dir: Path) -> Path:
    text = _text(value) or DEFAULT_DATABASE_NAME
    path = Path(text).expanduser()
    return Path(os.path.abspath(base_dir / path))


def guild_id_setting(value: str | None) -> int | None:
    """A server ID as GUILD_ID takes it (None when empty); SettingsError naming how to find one otherwise."""
    text = _text(value)
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or not 0 < int(text) <= _MAX_SNOWFLAKE:
        raise SettingsError(
            f"GUILD_ID must be a server ID, a whole number like 123456789012345678 (in Discord: Developer "
            f"Mode on, right-click the server, Copy Server ID), not {_shown(text)}"
        )
    return int(text)


def _log_level(value: str | None) -> str:
    text = _text(value).upper() or "INFO"
    if text not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {_shown(text)}")
    return text


def _shards(values: Mapping[str, str | None], *, on_sqlite: bool) -> ShardPlan:
    try:
        plan = shard_plan(values)
        if on_sqlite:  # PostgreSQL is shared by processes on any machine; a SQLite file is not
            refuse_shared_sqlite(plan)
    except ShardSettingError as error:
        raise SettingsError(str(error)) from None
    return plan


def _push_lifetime_hours(value: str | None) -> float:
    text = _text(value)
    if not text:
        return DEFAULT_PUSH_LIFETIME_HOURS
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    if not 0 < hours <= MAX_PUSH_LIFETIME_HOURS:
        raise SettingsError(
            f"PUSH_LIFETIME_HOURS must be a number of hours above 0 and at most {MAX_PUSH_LIFETIME_HOURS:g} "
            f"(e.g. 24), not {_shown(text)}"
        )
    return hours


def _seconds(name: str, value: str | None, default: float) -> float:
    text = _text(value)
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds <= 3600:
        raise SettingsError(f"{name} must be a number of seconds above 0 and at most 3600, not {_shown(text)}")
    return seconds


def _lease(ttl: str | None, renew: str | None) -> dict[str, float]:
    """LEASE_TTL_SECONDS and LEASE_RENEW_SECONDS; the lease must be renewed well before it expires."""
    lease = {
        "lease_ttl_seconds": _seconds("LEASE_TTL_SECONDS", ttl, DEFAULT_LEASE_TTL_SECONDS),
        "lease_renew_seconds": _seconds("LEASE_RENEW_SECONDS", renew, DEFAULT_LEASE_RENEW_SECONDS),
    }
    if lease["lease_renew_seconds"] * 2 > lease["lease_ttl_seconds"]:
        raise SettingsError("LEASE_RENEW_SECONDS must be at most half of LEASE_TTL_SECONDS, so a renewal can fail once")
    return lease


def _roll_log_days(value: str | None) -> int:
    text = _text(value)
    if not text:
        return DEFAULT_ROLL_LOG_DAYS
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_ROLL_LOG_DAYS:
        raise SettingsError(
            f"ROLL_LOG_DAYS must be a whole number of days from 1 to {MAX_ROLL_LOG_DAYS} (e.g. 90), not {_shown(text)}"
        )
    return int(text)


POSTGRES_SCHEMES = ("postgresql", "postgres")


def _database_url(value: str | None) -> str | None:
    """A postgresql:// URL, or None (SQLite). A bad one is named by its scheme only: it may hold a password."""
    text = _text(value)
    if not text:
        return None
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in POSTGRES_SCHEMES:
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL like postgresql://user:password@host:5432/rollkeeper "
            "(or be left unset to keep everything in the SQLite file at DATABASE_PATH)"
        )
    return text


def database_location(url: str) -> str:
    """The database a URL names, without its user and password (for a Unix socket: ``postgresql:///name?host=``)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    name = parts.path.lstrip("/")
    if parts.hostname is None and query.get("host"):
        return f"postgresql:///{name}?host={query['host'][0]}"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"postgresql://{parts.hostname or 'localhost'}{port}/{name}"
