"""Purge of a million expired Year Zero rolls while the bot keeps rolling: loop stalls and database waits.

A real SQLite file gets `rows` expired rolls (and 1,000 fresh ones), written with plain sqlite3 (not timed); in
the second shape, `busy_rows` expired rolls of ONE player in one channel, each with its message. Then, in one
event loop, the purge runs as the bot's chore runs it - the lookup of the rolls about to expire whose messages
still show buttons (`rolls.expiring`), then `bot.app.chores.purge_store` - while two probes run beside it:
- a loop-lag probe: `asyncio.sleep(1 ms)` in a loop; a stall is how much later than asked it woke;
- a player: one `/yz`-sized roll stored every 10 ms as the bot stores one (`rolls.create_superseding`, one
  trip); its wait is how long that took (it queues behind whatever statement of the purge holds the database).
Printed: the purge's duration, the longest loop stall, the player's p99 and longest wait (a /yz behind the
purge), and the file and WAL sizes before, at their peak and after. Targets: no loop stall over 50 ms; in the
one-player shape, no /yz waits over 50 ms behind the purge.

    python -m bench.purge [--rows 1000000] [--busy-rows 300000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.figures import percentile, verdict
from bot.app.chores import purge_store
from bot.app.opening import open_sqlite

STALL_TARGET = 0.050
WAIT_TARGET = 0.050
"""The longest a /yz may wait behind the purge (its lookup included) in the one-player shape."""
EXPIRING_EDITS = 25
"""Rolls whose messages the chore looks up before each purge (cogs.yearzero.endings.EXPIRING_EDITS)."""
NOW = datetime(2030, 1, 1, tzinfo=UTC)
LIFETIME = timedelta(hours=24)
PAYLOAD = json.dumps({"base": [6, 3, 2, 1, 4], "gear": [5, 2], "artifacts": [], "pushes": 0, "note": "x" * 40})


async def fill(path: Path, rows: int, now: datetime = NOW) -> None:
    """rows rolls two days before now and 1,000 from the hour before, in a database the bot made (then plain
    sqlite3: this part is not timed, and blocks whatever loop runs it)."""
    async with await open_sqlite(path):
        pass
    old, fresh = (now - 2 * LIFETIME).timestamp(), (now - timedelta(hours=1)).timestamp()
    insert = "INSERT INTO yz_rolls (guild_id, channel_id, user_id, payload, created_at) VALUES (1, ?, ?, ?, ?)"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
        for start in range(0, rows, 100_000):
            batch = range(start, min(rows, start + 100_000))
            connection.executemany(insert, ((n % 20, n % 500, PAYLOAD, old + n * 1e-3) for n in batch))
            connection.commit()
        connection.executemany(insert, ((n % 20, 9000 + n, PAYLOAD, fresh) for n in range(1000)))
        connection.commit()
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def fill_one_player(path: Path, rows: int, now: datetime = NOW) -> None:
    """rows rolls of one player in one channel, two days before now, each with its message (the newest is still
    pending: its buttons show), in one statement (a recursive CTE)."""
    async with await open_sqlite(path):
        pass
    insert = """
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :rows)
INSERT INTO yz_rolls (guild_id, channel_id, user_id, message_id, payload, created_at)
SELECT 1, 2, 3, 10000 + i, :payload, :old + i * 1e-3 FROM n
"""
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(insert, {"rows": rows, "payload": PAYLOAD, "old": (now - 2 * LIFETIME).timestamp()})
        connection.commit()


def sizes(path: Path) -> tuple[int, int]:
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


async def measure(path: Path) -> dict[str, float]:
    db = await open_sqlite(path)
    stalls: list[float] = []
    waits: list[float] = []
    peak = [0, 0]
    done = asyncio.Event()

    async def lag_probe() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(time.perf_counter() - asked - 0.001)

    async def player() -> None:
        n = 0
        while not done.is_set():
            started = time.perf_counter()
            await db.rolls.create_superseding(None, 2, n % 20, n % 50, PAYLOAD, NOW)
            waits.append(time.perf_counter() - started)
            peak[:] = [max(a, b) for a, b in zip(peak, sizes(path), strict=True)]
            n += 1
            await asyncio.sleep(0.01)

    probes = [asyncio.create_task(lag_probe()), asyncio.create_task(player())]
    started = time.perf_counter()
    await db.rolls.expiring(NOW, LIFETIME, EXPIRING_EDITS)
    purged = await purge_store(db, NOW, LIFETIME)
    took = time.perf_counter() - started
    done.set()
    await asyncio.gather(*probes)
    await db.close()
    return {"purged": purged, "took": took, "stall": max(stalls), "wait_p99": percentile(waits, 0.99),
            "wait_max": max(waits), "file_peak": peak[0], "wal_peak": peak[1], "rolls_stored": len(waits)}


def run(rows: int) -> bool:
    with tempfile.TemporaryDirectory(prefix="rollkeeper-purge-") as directory:
        path = Path(directory) / "rollkeeper.sqlite3"
        asyncio.run(fill(path, rows))
        before = sizes(path)
        figures = asyncio.run(measure(path))
        after = sizes(path)
    mb = 1 / 2**20
    print(f"purge of {rows:,} expired rolls (1,000 fresh kept), a roll stored every 10 ms beside it")
    print(f"  purged {figures['purged']:,.0f} in {figures['took']:.1f} s; {figures['rolls_stored']:.0f} rolls stored")
    print(f"  longest loop stall {figures['stall'] * 1e3:.1f} ms (target <= {STALL_TARGET * 1e3:.0f} ms)")
    print(f"  a roll's wait for the database: p99 {figures['wait_p99'] * 1e3:.1f} ms, "
          f"longest {figures['wait_max'] * 1e3:.1f} ms")
    print(f"  file {before[0] * mb:.1f} MB before, {after[0] * mb:.1f} MB after; "
          f"WAL peak {figures['wal_peak'] * mb:.1f} MB, {after[1] * mb:.1f} MB after")
    ok = figures["stall"] <= STALL_TARGET and figures["purged"] == rows and after[0] < before[0] / 2
    print(f"purge verdict: {verdict(ok)}")
    return ok


def run_one_player(rows: int) -> bool:
    with tempfile.TemporaryDirectory(prefix="rollkeeper-purge-") as directory:
        path = Path(directory) / "rollkeeper.sqlite3"
        asyncio.run(fill_one_player(path, rows))
        figures = asyncio.run(measure(path))
    print(f"purge of {rows:,} expired rolls of one player in one channel, each with its message")
    print(f"  looked up and purged {figures['purged']:,.0f} in {figures['took']:.1f} s; "
          f"longest loop stall {figures['stall'] * 1e3:.1f} ms")
    print(f"  longest wait of a /yz behind the purge {figures['wait_max'] * 1e3:.1f} ms "
          f"(p99 {figures['wait_p99'] * 1e3:.1f} ms; target <= {WAIT_TARGET * 1e3:.0f} ms)")
    ok = figures["wait_max"] <= WAIT_TARGET and figures["purged"] == rows
    print(f"one-player purge verdict: {verdict(ok)}")
    return ok


def run_both(rows: int, busy_rows: int) -> bool:
    """Both shapes, each printed whatever the other's verdict."""
    spread = run(rows)
    return run_one_player(busy_rows) and spread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.purge", description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--busy-rows", type=int, default=300_000)
    args = parser.parse_args(argv)
    return 0 if run_both(args.rows, args.busy_rows) else 1


if __name__ == "__main__":
    sys.exit(main())
