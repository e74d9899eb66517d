"""One bot in its own process, pointed at the benchmark's fake Discord on 127.0.0.1.

    python -m bench.botproc ours --api URL --gateway URL --db PATH [--profile PATH] [--shards IDS/COUNT]
    python -m bench.botproc bare --api URL --gateway URL [--sync] [--defer] [--profile PATH]

`ours` is rollkeeper's RollkeeperBot with the cogs of bot.app.client.EXTENSIONS that exist; `bare` is
bench.barebot.BareBot. Prints one JSON line on stdout per milestone - ``imported`` (discord.py, and for ours
the bot package), ``built`` (the bot object exists), ``setup_done`` (its setup_hook returned, so for ours the
database is open and migrated, the cogs and buttons are loaded and the commands synced if they changed),
``ready`` - each with ``time.time()``, which the parent compares with its own clock. Then runs until stdin
closes, closes the bot and exits. Only the standard library is imported before the first milestone (``started``).
"""

import argparse
import asyncio
import importlib.util
import json
import logging
import sys
import time
from pathlib import Path

TOKEN = "fake-token.for-benchmarks.only"
GUILD_READY_TIMEOUT = 0.01
"""The fake sends every GUILD_CREATE at once: no 2 s wait for more before on_ready (a discord.Client option)."""


def say(milestone: str, **details: object) -> None:
    print(json.dumps({"at": milestone, "t": time.time(), **details}), flush=True)


async def build_ours(
    db: Path,
    default_connector: bool = False,
    connections: int | None = None,
    database_url: str | None = None,
    shards: str | None = None,
):
    """Import rollkeeper and build its bot (the cogs are imported by setup_hook, as in production), with the
    connection pool `python -m bot` gives it unless default_connector (discord.py's own, for comparison), on
    PostgreSQL when database_url is given; shards "0/2" runs shard 0 of 2, "0,1/2" both (the fake has no
    IDENTIFY rate limit to wait for)."""
    from bot.app.client import EXTENSIONS, RollkeeperBot
    from bot.app.connections import discord_connector
    from bot.settings import Settings
    from bot.shards import shard_plan

    say("imported")
    present = tuple(name for name in EXTENSIONS if importlib.util.find_spec(name) is not None)
    ids, _, count = (shards or "").partition("/")
    plan = shard_plan({"SHARD_IDS": ids, "SHARD_COUNT": count})
    settings = Settings(discord_token=TOKEN, database_path=db, database_url=database_url, shards=plan)
    pool = discord_connector() if connections is None else discord_connector(connections)
    options = {} if default_connector else {"connector": pool}
    bot = RollkeeperBot(
        settings, extensions=present, guild_ready_timeout=GUILD_READY_TIMEOUT, identify_spacing=0, **options
    )
    say("built", extensions=list(present), missing=[name for name in EXTENSIONS if name not in present])
    return bot


def build_bare(sync: bool, defer: bool):
    from bench.barebot import BareBot

    say("imported")
    bot = BareBot(sync=sync, defer=defer, guild_ready_timeout=GUILD_READY_TIMEOUT)
    say("built")
    return bot


def point_at_fake(api: str, gateway: str) -> None:
    """What the test harness does in-process: discord.py's REST base and gateway URL, on loopback."""
    from bot.playground.standin import point_discord_py_at

    point_discord_py_at(api, gateway)


def time_setup_hook(bot) -> None:
    """Say when setup_hook is done, with the seconds it spent in two of its steps when the bot has them (ours):
    loading the cogs (importing them) and the command sync (for a restart: hashing the translated definitions)."""
    original = bot.setup_hook
    spent = {"cogs_loaded": 0.0, "sync_checked": 0.0}

    def timing(step: str, method):
        async def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                spent[step] += time.perf_counter() - started

        return timed

    bot.load_extension = timing("cogs_loaded", bot.load_extension)
    if hasattr(bot, "sync_commands"):
        bot.sync_commands = timing("sync_checked", bot.sync_commands)

    async def timed() -> None:
        await original()
        say("setup_done", **spent)

    bot.setup_hook = timed


def profile_on_signals(path: Path) -> None:
    """SIGUSR1 starts cProfile, SIGUSR2 stops it and writes its stats to path (for bench's hot-spot report)."""
    import cProfile
    import signal

    profiler = cProfile.Profile()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, profiler.enable)

    def stop() -> None:
        profiler.disable()
        profiler.dump_stats(path)
        say("profiled")

    loop.add_signal_handler(signal.SIGUSR2, stop)


async def build_and_serve(args: argparse.Namespace) -> None:
    """Build the bot in the event loop (a connection pool needs one), then serve it."""
    if args.kind == "ours":
        bot = await build_ours(args.db, args.default_connector, args.connections, args.database_url, args.shards)
    else:
        bot = build_bare(args.sync, args.defer)
    point_at_fake(args.api, args.gateway)
    time_setup_hook(bot)
    await serve(bot, args.profile)


async def serve(bot, profile: Path | None) -> None:
    """Run until stdin closes (the parent is done with us) or the bot stops, then close the bot."""
    if profile is not None:
        profile_on_signals(profile)
    async with bot:
        runner = asyncio.create_task(bot.start(TOKEN))
        ready = asyncio.ensure_future(bot.wait_until_ready())
        await asyncio.wait({runner, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready.done():
            say("ready")
            stdin_closed = asyncio.ensure_future(asyncio.to_thread(sys.stdin.buffer.read))
            await asyncio.wait({runner, stdin_closed}, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        await bot.close()
        await runner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("ours", "bare"))
    parser.add_argument("--api", required=True, help="discord.http.Route.BASE of the fake")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL")
    parser.add_argument("--db", type=Path, help="the SQLite file (ours)")
    parser.add_argument("--database-url", help="ours: a PostgreSQL database instead of the SQLite file")
    parser.add_argument("--sync", action="store_true", help="bare: sync its command in setup_hook")
    parser.add_argument("--defer", action="store_true", help="bare: acknowledge, then edit in the answer")
    parser.add_argument("--profile", type=Path, help="cProfile between SIGUSR1 and SIGUSR2, stats to this file")
    parser.add_argument("--default-connector", action="store_true", help="ours: discord.py's connector, unbounded")
    parser.add_argument("--connections", type=int, help="ours: this many connections at most, not the pool's own")
    parser.add_argument("--shards", help="ours: the shards to run and their count, e.g. 0/2 or 0,1/2")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    say("started")
    asyncio.run(build_and_serve(args))
    say("closed")


if __name__ == "__main__":
    main()
