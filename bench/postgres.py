"""rollkeeper on PostgreSQL beside rollkeeper on SQLite: the interaction cost and the push storm.

A real PostgreSQL server (the test extra's pgserver wheel, on a Unix socket in a temporary directory) is started
for the section, at PostgreSQL's default settings: each commit waits for the disk, which is stricter than the
SQLite store's WAL with synchronous=NORMAL. Interactions: the same ``/yz`` events as bench.interactions, sent to
rollkeeper on its SQLite file and to rollkeeper on PostgreSQL (a fresh database per run), the two alternating run
after run, each bot a fresh process; the figure is the ratio of the median per-interaction times. Then the trips
to PostgreSQL per /yz, counted in one more process under cProfile (issue 19's target: one). Then
bench.pushes' storm against rollkeeper on PostgreSQL, with the same checks (exactly one push per roll, in the
answers and in the database).

    python -m bench.postgres [--events 2000] [--runs 5] [--storms 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bench import pushes
from bench.fake import fake_discord, forget, running, send_windowed
from bench.figures import median_ratio, percentile, ratio_spread, spread, verdict
from bench.hotspots import Profile, profile
from bench.interactions import Batch, check_answers, fresh_payloads, payloads

STORES = ("sqlite", "postgres")
TRIPS_TARGET = 1.0
"""Issue 19: one trip to the database per interaction on the common path (a chore, e.g. the lease's renewal, may
add a few hundredths)."""


async def measure(fake, store: str, events: int, warmup: int, concurrency: int, database: str | Path) -> Batch:
    """One fresh rollkeeper process on this store: warm up, time one batch, check every answer."""
    options = {"database_url": database} if store == "postgres" else {"db": database}
    async with running(fake, "ours", **options) as bot:
        check_answers(store, await send_windowed(fake, payloads(fake, warmup), concurrency))
        forget(fake)
        batch = payloads(fake, events, start=warmup)
        await asyncio.sleep(0.1)
        cpu_before, started = bot.cpu(), time.perf_counter()
        answered = await send_windowed(fake, batch, concurrency)
        wall = time.perf_counter() - started
        await asyncio.sleep(0.2)  # the message ids written after the answers count too
        cpu_after = bot.cpu()
        check_answers(store, answered)
        if bot.problems():
            raise AssertionError(f"rollkeeper on {store} logged problems:\n" + "\n".join(bot.problems()[:20]))
    forget(fake)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Batch(store, events, wall, cpu, [item.latency for item in answered], 0.0)


async def compare(server, events: int, runs: int, concurrency: int, warmup: int) -> tuple[float, float]:
    print(
        f"Interaction cost on PostgreSQL: the /yz events of bench.interactions, {events:,} per run after {warmup:,}"
        f" warm-up, {concurrency} in flight, {runs} runs alternating rollkeeper on SQLite and on PostgreSQL"
    )
    results: dict[str, list[Batch]] = {store: [] for store in STORES}
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as workdir:
        async with fake_discord() as fake:
            for run in range(1, runs + 1):
                for store in STORES if run % 2 else reversed(STORES):
                    where = server.fresh_url("bench") if store == "postgres" else Path(workdir) / f"run{run}.sqlite3"
                    results[store].append(await measure(fake, store, events, warmup, concurrency, where))
                sqlite, postgres = (results[store][-1].per_interaction for store in STORES)
                print(f"  run {run}: SQLite {1e3 * sqlite:.3f} ms, PostgreSQL {1e3 * postgres:.3f} ms per interaction")
            ratio = summarise(results)
            url = server.fresh_url("trips")
            profiled = await profile(fake, "ours", fresh_payloads(fake), events, concurrency, Path(workdir), url)
    return ratio, show_trips(profiled, events)


SENT_BY = {
    "_do_execute": "statements with parameters",
    "execute": "without (BEGIN, COMMIT, the pool's reset of a connection it takes back)",
    "_get_statement": "statements prepared",
}
"""What the asyncpg functions that write to PostgreSQL's socket send (asyncpg/connection.py)."""


def show_trips(profiled: Profile, events: int) -> float:
    """Print the trips to PostgreSQL per /yz (from players with no pending roll), by kind; their number."""
    trips = profiled.postgres_trips()
    kinds = ", ".join(f"{count:.2f} {SENT_BY.get(sender, sender)}" for sender, count in trips.most_common())
    total = sum(trips.values())
    print(
        f"  trips to PostgreSQL per /yz, counted in one more process under cProfile ({events:,} /yz from players"
        f" with no pending roll; each trip is one write of asyncpg's to its socket): {total:.2f} ({kinds})"
    )
    print(f"    {total:.2f} trips per /yz: target 1.0: {'met' if total <= TRIPS_TARGET + 0.05 else 'missed'}")
    return total


def summarise(results: dict[str, list[Batch]]) -> float:
    for store in STORES:
        batches = results[store]
        latencies = [latency for batch in batches for latency in batch.latencies]
        print(f"  {store:8}  wall per interaction {spread([b.per_interaction for b in batches])}")
        if all(b.cpu_per_interaction is not None for b in batches):
            print(f"            bot CPU per interaction {spread([b.cpu_per_interaction for b in batches])}")
        p50, p99 = (1e3 * percentile(latencies, fraction) for fraction in (0.5, 0.99))
        print(f"            latency p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    postgres, sqlite = ([b.per_interaction for b in results[store]] for store in ("postgres", "sqlite"))
    ratio = median_ratio(postgres, sqlite)
    paired = [p / s for p, s in zip(postgres, sqlite, strict=True)]
    print(f"  ratio PostgreSQL/SQLite (wall, medians): {ratio:.2f} ({ratio_spread(paired)})")
    return ratio


def run(events: int = 2000, runs: int = 5, storms: int = 3, concurrency: int = 16, warmup: int | None = None) -> bool:
    """Print both sections' figures; True when every check held and the trips per /yz met their target (there is
    no speed target for PostgreSQL)."""
    from tests.postgres import PostgresServer

    server = PostgresServer.start(durable=True)
    try:
        warmup = warmup if warmup is not None else max(events // 10, 50)
        _, trips = asyncio.run(compare(server, events, runs, concurrency, warmup))
        stormed = pushes.run(storms, database_url=server.fresh_url("storm"))
    finally:
        server.close()
    met = trips <= TRIPS_TARGET + 0.05
    said = "exactly one push per roll" if stormed else "the push storm failed (above)"
    print(f"postgres verdict: {verdict(met and stormed)} ({trips:.2f} trips per /yz, target 1.0; {said})")
    return met and stormed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000, help="measured events per run and store")
    parser.add_argument("--runs", type=int, default=5, help="runs, each one fresh process per store")
    parser.add_argument("--storms", type=int, default=3, help="push storms on PostgreSQL")
    args = parser.parse_args(argv)
    return 0 if run(args.events, args.runs, args.storms) else 1


if __name__ == "__main__":
    sys.exit(main())
