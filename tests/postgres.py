"""A real PostgreSQL server for the tests, from the ``pgserver`` wheel (PostgreSQL's own binaries, no install).

``PostgresServer.start()`` runs initdb and the server in a new temporary directory, listening on a Unix socket in it
only (no TCP port, nothing beyond this machine). As root, pgserver creates a system user ``pgserver`` (useradd)
and runs initdb and the server as that user, since PostgreSQL refuses to run as root; it also opens the
directory's parents for that user to traverse (g+rx, o+rx). `fresh_url()` creates an empty database per test.
`stop()` and `resume()` take the server away and bring it back on the same socket, for the reconnection tests
and drills.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

TEST_SETTINGS = """
ALTER SYSTEM SET fsync = off;
ALTER SYSTEM SET synchronous_commit = off;
ALTER SYSTEM SET full_page_writes = off;
SELECT pg_reload_conf();
"""
"""A throwaway server needs no durability: without these, every test's CREATE DATABASE and commit waits for the
disk, and the shutdown checkpoint of a whole run took half a minute on this shared machine."""


class PostgresServer:
    """One running PostgreSQL server in a directory of its own."""

    def __init__(self, server: Any) -> None:
        self._server = server
        self.directory = Path(server.pgdata)
        self.admin_url = server.get_uri()
        self.socket_dir = parse_qs(urlsplit(self.admin_url).query)["host"][0]
        self._numbers = itertools.count(1)

    @classmethod
    def start(cls, *, durable: bool = False) -> PostgresServer:
        """A new server in a new temporary directory of its own (not pytest's tmp_path: pytest deletes old ones
        of those, which another pytest on the machine may do while this server runs). Without durable, it runs
        with TEST_SETTINGS; durable keeps PostgreSQL's defaults (the benchmark's)."""
        directory = Path(tempfile.mkdtemp(prefix="rollkeeper-pg-"))
        # pgserver keeps its lock file in the user's runtime directory, read once when it is imported: one that
        # outlives every server (without XDG_RUNTIME_DIR it warns and falls back to /tmp/runtime-<uid>).
        runtime = Path(tempfile.gettempdir()) / f"rollkeeper-pg-runtime-{os.getuid()}"
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.environ.setdefault("XDG_RUNTIME_DIR", str(runtime))
        import pgserver

        server = cls(pgserver.get_server(directory / "pgdata", cleanup_mode="delete"))
        if not durable:
            server.psql(TEST_SETTINGS)
        return server

    def url(self, database: str) -> str:
        """A DATABASE_URL for database on this server (user postgres, no password: trust on the socket)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def fresh_url(self, prefix: str = "test") -> str:
        """Create a new empty database and return its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._numbers)}"
        self.psql(f'CREATE DATABASE "{name}";')
        return self.url(name)

    def drop(self, url: str) -> None:
        """Delete the database a URL of fresh_url() names, even if a connection was left open."""
        name = urlsplit(url).path.lstrip("/")
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE);')

    def psql(self, sql: str) -> str:
        """Run sql through psql as the superuser; return what it printed."""
        return self._server.psql(sql)

    def stop(self) -> None:
        """Stop the server now (fast shutdown: open connections are cut, as when a server goes away)."""
        self._pg_ctl(["-w", "-m", "fast", "stop"])

    def resume(self) -> None:
        """Start the stopped server again on the same socket."""
        log = str(self.directory / "log")
        self._pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", log, "start"])

    def _pg_ctl(self, args: list[str]) -> None:
        import pgserver

        pgserver.pg_ctl(args, pgdata=self.directory, user=self._server.system_user, timeout=60)

    def close(self) -> None:
        """Stop the server and delete its directory."""
        self._server.cleanup()
        shutil.rmtree(self.directory.parent, ignore_errors=True)
