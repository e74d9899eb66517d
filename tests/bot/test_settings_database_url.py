"""DATABASE_URL: unset keeps SQLite; a PostgreSQL URL is kept and never shown; anything else is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings

TOKEN = "fake-token.for-settings.tests"
PASSWORD = "hunter2-never-shown"


def load(tmp_path: Path, **environ: str):
    return load_settings({"DISCORD_TOKEN": TOKEN, **environ}, cwd=tmp_path)


@pytest.mark.parametrize("unset", [{}, {"DATABASE_URL": ""}, {"DATABASE_URL": "   "}])
def test_without_database_url_the_bot_keeps_its_sqlite_file(tmp_path: Path, unset):
    settings = load(tmp_path, **unset)
    assert settings.database_url is None
    assert settings.database_path == tmp_path / "rollkeeper.sqlite3"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bot:{PASSWORD}@db.example:5432/rollkeeper",
        f"postgres://bot:{PASSWORD}@db.example/rollkeeper",
        "postgresql://bot@/rollkeeper?host=/run/postgresql",
    ],
)
def test_a_postgresql_url_is_kept_as_given_and_never_shown(tmp_path: Path, url):
    settings = load(tmp_path, DATABASE_URL=f" {url} ")
    assert settings.database_url == url
    assert PASSWORD not in repr(settings) and "db.example" not in repr(settings)


@pytest.mark.parametrize(
    "url",
    [
        f"mysql://bot:{PASSWORD}@db.example/rollkeeper",
        f"sqlite:///{PASSWORD}.sqlite3",
        f"postgresql://bot:{PASSWORD}@db.example:port/rollkeeper",
        f"bot:{PASSWORD}@db.example/rollkeeper",
    ],
)
def test_anything_else_is_refused_without_echoing_it(tmp_path: Path, url):
    with pytest.raises(SettingsError, match="DATABASE_URL must be a PostgreSQL URL") as refused:
        load(tmp_path, DATABASE_URL=url)
    assert PASSWORD not in str(refused.value)
