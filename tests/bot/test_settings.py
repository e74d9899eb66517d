"""Settings: read once from the environment over a .env file, every bad value a clear one-line error."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_DATABASE_NAME,
    MissingToken,
    Settings,
    SettingsError,
    load_settings,
)

TOKEN = "MTIz.fake-token.for-tests-only"


def load(tmp_path: Path, env_file: str | None = None, **environ: str) -> Settings:
    if env_file is not None:
        (tmp_path / ".env").write_text(env_file)
    return load_settings(environ, cwd=tmp_path)


def refusal(tmp_path: Path, **environ: str) -> str:
    with pytest.raises(SettingsError) as caught:
        load(tmp_path, **({"DISCORD_TOKEN": TOKEN} | environ))
    message = str(caught.value)
    assert "\n" not in message and TOKEN not in message
    return message


def test_defaults_with_only_a_token(tmp_path: Path):
    settings = load(tmp_path, DISCORD_TOKEN=TOKEN)
    assert settings.discord_token == TOKEN
    assert settings.database_path == tmp_path / DEFAULT_DATABASE_NAME
    assert settings.database_path.is_absolute()
    assert (settings.guild_id, settings.log_level, settings.push_lifetime) == (
        None,
        "INFO",
        timedelta(hours=24),
    )


def test_values_from_a_dotenv_file(tmp_path: Path):
    settings = load(
        tmp_path,
        env_file=(
            "# comment\n"
            f"DISCORD_TOKEN={TOKEN}\n"
            "DATABASE_PATH=data/dice.sqlite3\n"
            "GUILD_ID=123456789012345678\n"
            "LOG_LEVEL=debug\n"
            "PUSH_LIFETIME_HOURS=0.5\n"
        ),
    )
    assert settings.discord_token == TOKEN
    assert settings.database_path == tmp_path / "data" / "dice.sqlite3"
    assert settings.guild_id == 123456789012345678
    assert settings.log_level == "DEBUG" and settings.log_level_number == 10
    assert settings.push_lifetime == timedelta(minutes=30)


def test_real_environment_wins_over_dotenv(tmp_path: Path):
    settings = load(
        tmp_path,
        env_file="DISCORD_TOKEN=from-file\nLOG_LEVEL=ERROR\nGUILD_ID=42\n",
        DISCORD_TOKEN=TOKEN,
        GUILD_ID="",
    )
    assert settings.discord_token == TOKEN
    assert settings.log_level == "ERROR"
    assert settings.guild_id is None  # set but empty in the environment: not overridden by the file


def test_empty_values_mean_defaults(tmp_path: Path):
    settings = load(
        tmp_path,
        env_file="DATABASE_PATH=\nGUILD_ID=\nLOG_LEVEL=\nPUSH_LIFETIME_HOURS=\nKEY_ONLY\n",
        DISCORD_TOKEN=TOKEN,
    )
    assert settings.database_path == tmp_path / DEFAULT_DATABASE_NAME
    assert (settings.guild_id, settings.log_level, settings.push_lifetime_hours) == (None, "INFO", 24.0)


def test_absolute_and_home_database_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert load(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH="/srv/x.sqlite3").database_path == Path(
        "/srv/x.sqlite3"
    )
    home = load(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH="~/x.sqlite3").database_path
    assert home == tmp_path / "home" / "x.sqlite3"
    dotted = load(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH="a/../b.sqlite3").database_path
    assert dotted == tmp_path / "b.sqlite3"


@pytest.mark.parametrize("token", [None, "", "   "])
def test_missing_token_explains_how_to_get_one(tmp_path: Path, token: str | None):
    environ = {} if token is None else {"DISCORD_TOKEN": token}
    with pytest.raises(MissingToken) as caught:
        load_settings(environ, cwd=tmp_path)
    message = str(caught.value)
    for words in (
        "developer portal",
        "Bot",
        "Reset Token",
        "DISCORD_TOKEN=",
        str(tmp_path / ".env"),
        "README",
    ):
        assert words in message
    assert "\n" not in message


def test_token_with_spaces_is_refused_without_echoing_it(tmp_path: Path):
    with pytest.raises(SettingsError, match="spaces") as caught:
        load(tmp_path, DISCORD_TOKEN=f"Bot {TOKEN}")
    assert TOKEN not in str(caught.value)


@pytest.mark.parametrize("value", ["abc", "-5", "0", "1.5", "12 34", "99999999999999999999999", "１２３"])
def test_bad_guild_id(tmp_path: Path, value: str):
    message = refusal(tmp_path, GUILD_ID=value)
    assert message.startswith("GUILD_ID must be a server ID") and "Copy Server ID" in message


def test_long_bad_values_are_cut_short(tmp_path: Path):
    assert len(refusal(tmp_path, GUILD_ID="x" * 5000)) < 300


@pytest.mark.parametrize("value", ["LOUD", "verbose", "10"])
def test_bad_log_level(tmp_path: Path, value: str):
    assert refusal(tmp_path, LOG_LEVEL=value).startswith("LOG_LEVEL must be one of DEBUG, INFO, WARNING")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "a day", "100000"])
def test_bad_push_lifetime(tmp_path: Path, value: str):
    assert refusal(tmp_path, PUSH_LIFETIME_HOURS=value).startswith(
        "PUSH_LIFETIME_HOURS must be a number of hours"
    )


def test_settings_are_frozen_and_hide_the_token(tmp_path: Path):
    settings = load(tmp_path, DISCORD_TOKEN=TOKEN)
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.guild_id = 1  # type: ignore[misc]


def test_the_example_env_file_documents_every_setting():
    example = (Path(__file__).parents[2] / ".env.example").read_text()
    fields = [field.name.upper() for field in dataclasses.fields(Settings) if field.name != "shards"]
    fields += ["SHARD_COUNT", "SHARD_IDS", "SYNC_COMMANDS"]  # the three settings behind Settings.shards
    assert "PUSH_LIFETIME_HOURS" in fields
    for name in fields:
        # DATABASE_PATH is there commented out, so that the image's and the unit's own path hold
        line = f"\n# {name}=" if name == "DATABASE_PATH" else f"\n{name}="
        assert line in example
        comment = example.split(line)[0].rsplit("\n\n", 1)[-1]
        assert comment.strip().startswith("#")


@pytest.mark.parametrize("odd", ["\x07", "\x00", "\x1b[31m", "é", "\u200b"])
def test_a_token_with_characters_no_token_has_is_a_settings_error(tmp_path: Path, odd: str):
    """Such a token used to end in a traceback and exit 1 (aiohttp refuses it in a header); now it is the
    settings paragraph, exit 2, without echoing the token."""
    with pytest.raises(SettingsError, match="characters a Discord token never has") as caught:
        load(tmp_path, DISCORD_TOKEN=f"{TOKEN[:10]}{odd}{TOKEN[10:]}")
    assert TOKEN[:10] not in str(caught.value)


def test_the_lease_settings(tmp_path: Path):
    defaults = load(tmp_path, DISCORD_TOKEN=TOKEN)
    assert (defaults.lease_ttl_seconds, defaults.lease_renew_seconds) == (30.0, 10.0)
    quick = load(tmp_path, DISCORD_TOKEN=TOKEN, LEASE_TTL_SECONDS="2", LEASE_RENEW_SECONDS="0.5")
    assert (quick.lease_ttl_seconds, quick.lease_renew_seconds) == (2.0, 0.5)


@pytest.mark.parametrize(
    ("environ", "start"),
    [
        ({"LEASE_TTL_SECONDS": "0"}, "LEASE_TTL_SECONDS must be a number of seconds"),
        ({"LEASE_RENEW_SECONDS": "nan"}, "LEASE_RENEW_SECONDS must be a number of seconds"),
        ({"LEASE_TTL_SECONDS": "10", "LEASE_RENEW_SECONDS": "6"}, "LEASE_RENEW_SECONDS must be at most half"),
    ],
)
def test_bad_lease_settings(tmp_path: Path, environ: dict, start: str):
    assert refusal(tmp_path, **environ).startswith(start)
