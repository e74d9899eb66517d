"""``python -m bot playground``: the real bot, a Discord stand-in on 127.0.0.1 and a page that shows the channel.

No token and no network beyond loopback: the stand-in listens on 127.0.0.1, the bot (a child process) talks to it
only, and the page is served on --host (a loopback address unless --public) and --port.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import signal
import socket
import sys
from pathlib import Path

from aiohttp import web

from bot.app.opening import check_database_path, probe_database
from bot.playground.botprocess import BotProcess
from bot.playground.session import Table
from bot.playground.standin import StandIn
from bot.playground.web import web_app
from bot.storage.errors import StorageError

DEFAULT_PORT = 8765
DEFAULT_DATABASE = "playground.sqlite3"
EXIT_OK, EXIT_SETTINGS = 0, 2


def is_loopback(host: str) -> bool:
    """Whether every address host names is a loopback one (127.0.0.0/8, ::1; "localhost")."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in found)


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot playground",
        description="Try rollkeeper in a browser tab: the real bot against a Discord stand-in, no token needed.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="where the page listens (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the page's port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--public", action="store_true", help="allow a --host that is not a loopback address (anyone who reaches it "
        "can play as anyone at the table)",
    )
    return parser.parse_args(argv)


def database_path() -> Path:
    """DATABASE_PATH if set, else playground.sqlite3 in the working directory."""
    return Path(os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE).resolve()


async def run(host: str, port: int, database: Path, ready: asyncio.Event | None = None) -> None:
    """Serve until SIGINT or SIGTERM: the stand-in, the bot's process, and the page."""
    table = Table()
    standin = StandIn(table.backend, table.gateway)
    await standin.start()
    bot = BotProcess(
        standin.api_url, table.gateway, database, lambda state: table.tell({"type": "bot", "state": state})
    )
    runner = web.AppRunner(web_app(table, bot), handle_signals=False, access_log=None)
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    try:
        await bot.start()
        site = web.TCPSite(runner, host, port)
        await site.start()
        shown = f"[{host}]" if ":" in host else host
        print(f"rollkeeper playground: http://{shown}:{port}  (database {database}; Ctrl+C stops)", flush=True)
        if ready is not None:
            ready.set()
        await stop.wait()
    finally:
        await bot.stop()
        await runner.cleanup()
        await standin.close()


def main(argv: list[str]) -> int:
    options = arguments(argv)
    if not options.public and not is_loopback(options.host):
        print(
            f"--host {options.host} is not a loopback address: anyone who can reach it could play as anyone at the "
            "table. Add --public if that is what you want.",
            file=sys.stderr,
        )
        return EXIT_SETTINGS
    try:
        database = check_database_path(database_path())
        probe_database(database)
    except StorageError as error:
        print(str(error), file=sys.stderr)
        return EXIT_SETTINGS
    try:
        asyncio.run(run(options.host, options.port, database))
    except OSError as error:
        print(f"The playground could not start: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    return EXIT_OK
