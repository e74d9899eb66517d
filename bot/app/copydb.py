"""``python -m bot copy-db --from sqlite:///rollkeeper.sqlite3 --to postgresql://user:pass@host/db``.

Copies everything the bot keeps from its SQLite file into PostgreSQL (migrating PostgreSQL first), idempotently:
run it again at any time, for instance once more right after stopping the bot, and PostgreSQL holds the file's
rows. Exit codes: 0 copied, 2 a database that cannot be used (one line naming it, never a password).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.app.opening import open_sqlite, probe_database
from bot.storage.errors import StorageError

SQLITE_PREFIX = "sqlite:///"


def sqlite_path(text: str) -> Path:
    """The file a ``sqlite:///path`` URL (or a plain path) names; relative paths from the working directory."""
    return Path(text.removeprefix(SQLITE_PREFIX)).expanduser().absolute()


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(
        prog="python -m bot copy-db", description="Copy rollkeeper's SQLite database into PostgreSQL."
    )
    command.add_argument("--from", dest="source", required=True, help="sqlite:///path/to/rollkeeper.sqlite3")
    command.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host/database")
    return command


NEEDS_ASYNCPG = 'copy-db needs asyncpg: pip install -e ".[postgres]"'


async def copy(source: Path, target: str) -> dict[str, int]:
    try:
        from bot.app.copying import copy_database
        from bot.storage.postgres import PostgresDatabase
    except ImportError as error:
        raise StorageError(NEEDS_ASYNCPG) from error

    async with await open_sqlite(source) as sqlite, await PostgresDatabase.open(target) as postgres:
        return await copy_database(sqlite, postgres)


def refusal(source: Path, target: str) -> str | None:
    """Why the command line cannot be copied, before either database is touched; None when it can."""
    if not target.startswith(("postgresql://", "postgres://")):
        return "--to must be a PostgreSQL URL like postgresql://user:password@host/database"
    if not source.is_file():
        return f"--from names no SQLite database: {source} is not a file"
    return None


def main(argv: list[str]) -> int:
    arguments = parser().parse_args(argv)
    source = sqlite_path(arguments.source)
    problem = refusal(source, arguments.target)
    try:
        if problem is not None:
            raise StorageError(problem)
        probe_database(source)
        copied = asyncio.run(copy(source, arguments.target))
    except StorageError as error:
        print(str(error), file=sys.stderr)
        return 2
    for table, count in copied.items():
        print(f"{table}: {count} rows copied")
    return 0
