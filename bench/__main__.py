"""rollkeeper's benchmarks: interactions, push storm, start-up, odds, purge, cold bursts, the first two on
PostgreSQL, and a push storm across shards (one and two processes on PostgreSQL); the last line is the verdict.

    python -m bench                  # everything, at the sizes of issue 4 (a few minutes)
    python -m bench --quick          # smaller and fewer runs (about two minutes here): a smoke check of the figures
    python -m bench --only shards    # one section (interactions, pushes, startup, odds, purge, bursts, postgres,
                                     # shards); repeatable
    python -m bench --quick --save   # and keep its results file too

Everything runs on 127.0.0.1: the fake Discord of the test suite (tests/fakediscord) in this process, with its
spec validation off, and every bot in a process of its own. Run it from the repository's root.

A full run (neither --quick nor --only) ends by writing a dated results file in bench/results/ (bench.record):
what it printed, the commit, the machine's load and the options. --save writes one for any run, --no-save none.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bench import bursts, interactions, odds, postgres, purge, pushes, record, shardstorm, startup
from bench.figures import verdict

SECTIONS = ("interactions", "pushes", "startup", "odds", "purge", "bursts", "postgres", "shards")


@dataclass(frozen=True)
class Sizes:
    events: int
    warmup: int
    interaction_runs: int
    concurrency: int
    storms: int
    startup_runs: int
    odds_runs: int
    purged_rows: int = 1_000_000
    busy_player_rows: int = 300_000
    bursts: tuple[int, ...] = (1000, 2000)


FULL = Sizes(events=2000, warmup=200, interaction_runs=5, concurrency=16, storms=3, startup_runs=9, odds_runs=7)
QUICK = Sizes(
    events=300, warmup=50, interaction_runs=3, concurrency=16, storms=1, startup_runs=3, odds_runs=3,
    purged_rows=100_000, busy_player_rows=100_000, bursts=(250, 500),
)


def sizes_from(args: argparse.Namespace) -> Sizes:
    base = QUICK if args.quick else FULL
    return Sizes(
        events=args.events or base.events,
        warmup=base.warmup if args.events is None else max(args.events // 10, 50),
        interaction_runs=args.runs or base.interaction_runs,
        concurrency=args.concurrency or base.concurrency,
        storms=args.storms or base.storms,
        startup_runs=args.runs or base.startup_runs,
        odds_runs=args.runs or base.odds_runs,
        purged_rows=base.purged_rows,
        busy_player_rows=base.busy_player_rows,
        bursts=base.bursts,
    )


def sections(sizes: Sizes) -> dict[str, Callable[[], bool]]:
    return {
        "interactions": lambda: interactions.run(sizes.events, sizes.interaction_runs, sizes.concurrency, sizes.warmup),
        "pushes": lambda: pushes.run(sizes.storms),
        "shards": lambda: shardstorm.run(sizes.storms),
        "startup": lambda: startup.run(sizes.startup_runs),
        "odds": lambda: odds.run(sizes.odds_runs),
        "purge": lambda: purge.run_both(sizes.purged_rows, sizes.busy_player_rows),
        "bursts": lambda: bursts.run(sizes.bursts),
        "postgres": lambda: postgres.run(
            sizes.events, sizes.interaction_runs, sizes.storms, sizes.concurrency, sizes.warmup
        ),
    }


def run_section(name: str, measure: Callable[[], bool]) -> tuple[bool, float]:
    """Run one section; a failed check (AssertionError, RuntimeError) is printed and counts as FAIL.

    Returns whether it passed and how many seconds it took."""
    started = time.perf_counter()
    try:
        ok = measure()
    except (AssertionError, RuntimeError, TimeoutError) as failure:
        print(f"{name} verdict: FAIL ({type(failure).__name__}: {failure})")
        ok = False
    except subprocess.CalledProcessError as failure:
        tail = "\n".join(f"    {line}" for line in (failure.stderr or "").splitlines()[-8:])
        print(f"{name} verdict: FAIL (a measured process exited with code {failure.returncode}:\n{tail})")
        ok = False
    took = time.perf_counter() - started
    print(f"  ({name}: {took:.1f} s)\n", flush=True)
    return ok, took


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(given)
    sizes = sizes_from(args)
    commit, load_before = record.current_commit(), record.load_average()  # what is measured, as it starts
    results, printed = run_sections(sections(sizes), args.only or SECTIONS)
    if saves(args):
        run = record.Run(
            ended=datetime.now(UTC),
            commit=commit,
            machine=record.machine(load_before),
            options={"command": " ".join(["python -m bench", *given]), **dataclasses.asdict(sizes)},
            sections=results,
            output=printed,
        )
        print(f"results: {record.write(run)}")
    return 0 if all(result.ok for result in results) else 1


def run_sections(chosen: dict[str, Callable[[], bool]], names: Sequence[str]) -> tuple[list[record.SectionResult], str]:
    """Run the named sections in SECTIONS' order and print the verdict; their results and everything printed."""
    results: list[record.SectionResult] = []
    with record.captured_output() as printed:
        for name in (name for name in SECTIONS if name in names):
            start = printed.tell()
            ok, took = run_section(name, chosen[name])
            results.append(record.SectionResult(name, ok, took, record.verdict_line(printed.getvalue()[start:])))
        summary = ", ".join(f"{result.name} {verdict(result.ok)}" for result in results)
        print(f"VERDICT: {verdict(all(result.ok for result in results))} ({summary})")
    return results, printed.getvalue()


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes and 3 runs: about two minutes here")
    parser.add_argument("--events", type=int, help="measured /yz events per run and bot (default 2000)")
    parser.add_argument("--runs", type=int, help="runs of the interaction, start-up and odds sections")
    parser.add_argument("--concurrency", type=int, help="interactions in flight (default 16)")
    parser.add_argument("--storms", type=int, help="push storms (default 3)")
    parser.add_argument("--only", action="append", choices=SECTIONS, help="run only this section (repeatable)")
    parser.add_argument(
        "--save",
        action=argparse.BooleanOptionalAction,
        help="write a results file in bench/results/ (default: only for a full run, without --quick or --only)",
    )
    return parser


def saves(args: argparse.Namespace) -> bool:
    """Whether the run writes its results file: --save or --no-save if given, else only a full run does."""
    if args.save is not None:
        return bool(args.save)
    return not args.quick and not args.only


if __name__ == "__main__":
    sys.exit(main())
