"""Push storm across shards: the same storm served by one bot process running both shards, then by two processes
running one shard each, on one PostgreSQL database.

The fake Discord has two shards. 501 players each roll `/yz` (not timed); then player 0 clicks Push on their roll
50 times while players 1-500 click Push on theirs once, the 550 clicks sent back to back in a shuffled order, every
other click through the other shard. With one process both shards end in it; with two, each process gets half the
clicks, and the rolls they push are in the store they share. Printed for each: throughput (clicks answered per
second, first click sent to last final answer: the pushed card edited in after the acknowledgement), the p50/p99
latency of a click, and each process's CPU per click. Checked, as in bench.pushes: every roll shown one push, in
the answers and the store, each push's Willpower gained once; a roll whose every click was answered "busy, try
again" (the store's wait ran out, as under this machine's load it can) is still pending with its player's
Willpower untouched, and their number is printed.

PostgreSQL is a real server from the pgserver wheel (tests/postgres.py), a fresh database for each storm. On this
2-core machine a second process cannot double the throughput: the fake Discord, the two bots and PostgreSQL share
the cores.

    python -m bench.shardstorm [--runs 3] [--players 500] [--clicks 50]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

from bench.fake import Answered, BotProcess, answer_one, fake_discord, forget, players
from bench.figures import percentile, verdict
from bench.pushes import Storm, check_answers, check_database, clicks, open_store, roll_for, willpower
from bot.storage.database import Storage

STORE_TIMEOUT = re.compile(r"^WARNING bot\.storage\.postgres: Lost the database at .*: TimeoutError$")
"""What the PostgreSQL store logs when a statement's wait runs out (the player is told "busy, try again")."""

LAYOUTS = {"one process, shards 0 and 1": ("0,1/2",), "two processes, one shard each": ("0/2", "1/2")}


@contextlib.asynccontextmanager
async def processes(fake, db: Path, url: str, shards: tuple[str, ...]) -> AsyncIterator[list[BotProcess]]:
    """The bots of one layout, started in turn (the first runs shard 0 and syncs the commands)."""
    bots: list[BotProcess] = []
    try:
        for shard in shards:
            started = await BotProcess.start(fake, "ours", db=db, database_url=url, options=("--shards", shard))
            bots.append(started)
        yield bots
    finally:
        for bot in bots:
            await bot.stop()
            bot.remove_log()


async def send_through_both(fake, payloads: list[dict]) -> list[Answered]:
    """Every payload sent back to back, alternately through shard 0 and shard 1; then all the answers."""
    sent = (answer_one(fake, payload, 60.0, shard=number % 2) for number, payload in enumerate(payloads))
    return list(await asyncio.gather(*sent))


async def storm(
    fake, bots: list[BotProcess], db: Storage, people, on_one: int, seed: int
) -> tuple[Storm, list, int]:
    rolled = await roll_for(fake, people)
    payloads = clicks(fake, rolled, on_one, seed)
    before = await willpower(db, people)
    await asyncio.sleep(0.1)  # the rolls' last writes (message ids) are done
    cpu_before, started = [bot.cpu() for bot in bots], time.perf_counter()
    answered = await send_through_both(fake, payloads)
    wall = max(item.answered for item in answered) - started
    cpu_after = [bot.cpu() for bot in bots]
    per_bot = [None if b is None or a is None else a - b for a, b in zip(cpu_after, cpu_before, strict=True)]
    busy = await check_once(answered, db, rolled, before)
    forget(fake)
    spent = None if None in per_bot else sum(per_bot)  # type: ignore[arg-type]
    return Storm(len(payloads), len(rolled), wall, [item.latency for item in answered], spent), per_bot, busy


async def check_once(answered: list[Answered], db: Storage, rolled: dict, before: dict) -> int:
    """bench.pushes' checks, the answers and the store: every roll shown one push or only "busy, try again" (then
    still pending, its player's Willpower untouched); each pushed roll's player gained its gain once. Returns the
    rolls left pending so."""
    busy = check_answers(answered)
    await check_database(db, rolled, before, busy)
    return len(busy)


async def measure_layout(
    server, name: str, shards: tuple[str, ...], run: int, people, on_one: int
) -> list[Storm]:
    """Start the layout's processes on a fresh database, warm them up, and measure one storm."""
    storms: list[Storm] = []
    url = server.fresh_url("shards")
    with tempfile.TemporaryDirectory(prefix="rk-bench-shards-") as workdir:
        path = Path(workdir) / "unused.sqlite3"  # DATABASE_URL wins: the file is never made
        async with fake_discord(shard_count=2) as fake, processes(fake, path, url, shards) as bots:
            async with await open_store(path, url) as db:
                await storm(fake, bots, db, people[:21], 5, seed=0)  # warm-up, checked but not reported
                result, per_bot, busy = await storm(fake, bots, db, people, on_one, seed=run)
                storms.append(result)
                spent = ", ".join("?" if s is None else f"{1e3 * s / result.clicks:.2f}" for s in per_bot)
                print(
                    f"  {name}, storm {run}: {result.throughput:,.0f} clicks/s ({result.clicks} in"
                    f" {result.wall:.2f} s), p50 {1e3 * percentile(result.latencies, 0.5):.0f} ms,"
                    f" p99 {1e3 * percentile(result.latencies, 0.99):.0f} ms; CPU ms per click by process:"
                    f" {spent} · pushed twice: none ({result.rolls} rolls; {busy} left pending with 'busy, try again')"
                )
            problems = [line for bot in bots for line in bot.problems()]
    timeouts = [line for line in problems if STORE_TIMEOUT.search(line)]
    if timeouts:  # the store's side of the "busy, try again" answers counted above
        print(f"    the bots logged {len(timeouts)} store time-outs: {timeouts[0].strip()}")
    if len(timeouts) < len(problems):
        raise AssertionError("a bot logged:\n    " + "\n    ".join(set(problems) - set(timeouts)))
    return storms


def summary(name: str, storms: list[Storm]) -> str:
    latencies = [latency for result in storms for latency in result.latencies]
    return (
        f"  {name}: median {statistics.median(s.throughput for s in storms):,.0f} clicks/s"
        f" (min {min(s.throughput for s in storms):,.0f}, max {max(s.throughput for s in storms):,.0f}),"
        f" p50 {1e3 * percentile(latencies, 0.5):.0f} ms, p99 {1e3 * percentile(latencies, 0.99):.0f} ms"
    )


async def measure_all(server, runs: int, distinct: int, on_one: int) -> bool:
    people = players(distinct + 1)
    print(
        f"Push storm across two shards: {on_one} clicks on one roll + {distinct} pushes of distinct rolls, sent at"
        f" once alternately through shard 0 and 1, {runs} storms per layout (the layouts taking turns, each on fresh"
        " processes after a warm-up); one PostgreSQL database"
    )
    results: dict[str, list[Storm]] = {name: [] for name in LAYOUTS}
    for run in range(1, runs + 1):  # the layouts take turns, so that the machine's load moves both alike
        for name, shards in LAYOUTS.items():
            results[name] += await measure_layout(server, name, shards, run, people, on_one)
    for name, storms in results.items():
        print(summary(name, storms))
    one, two = (statistics.median(s.throughput for s in storms) for storms in results.values())
    print(f"  a second process: {two / one:.2f}x the throughput of one (2 cores shared with the fake Discord)")
    quiet = "no log but store time-outs"
    print(f"shard storm verdict: {verdict(True)} (no roll pushed twice in either layout; {quiet})")
    return True


def run(runs: int = 3, distinct: int = 500, on_one: int = 50) -> bool:
    """Print the figures; True when every check held. An AssertionError names what did not."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start()
    try:
        return asyncio.run(measure_all(server, runs, distinct, on_one))
    finally:
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="storms per layout, each on new rolls")
    parser.add_argument("--players", type=int, default=500, help="players pushing their own roll once")
    parser.add_argument("--clicks", type=int, default=50, help="concurrent clicks on the one other roll")
    args = parser.parse_args(argv)
    return 0 if run(args.runs, args.players, args.clicks) else 1


if __name__ == "__main__":
    sys.exit(main())
