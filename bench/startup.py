"""Start-up: from `python` starting to rollkeeper's setup_hook done, against the bare `import discord` floor.

Each measurement is a fresh process (bench.botproc), timed by this process from spawning it to the bot's
report that its setup_hook returned; the fake Discord on 127.0.0.1 answers the login. Three kinds alternate:

- floor: Python starts, imports discord.py (and discord.ext.commands), builds a bare commands.Bot with one slash
  command, logs in, runs its empty setup_hook. Nothing rollkeeper could do costs less.
- ours, restart: Python starts, imports the bot package, builds RollkeeperBot, logs in, and its setup_hook opens
  and migrates the SQLite file, purges expired rolls, imports and loads every cog, registers the Push button and
  finds the commands unchanged since the last sync. This is the usual start, and the figure of the target.
- ours, first start: the same on a new database file (schema created, commands synced): shown, not judged.

For ours, two steps inside setup_hook are timed too (bench.botproc): loading the cogs (which imports them) and the
command sync's check (the definitions translated into every locale and hashed); the rest is the login, the
database, the lease. The ratio is median(ours, restart) / median(floor). Both kinds run with their bytecode
cached, as a deployed bot does (see bench.fake.child_environment); a warm-up start of each comes first.
`python -X importtime` then names the imports that rollkeeper adds to the floor's, biggest first.

    python -m bench.startup [--runs 7]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench.fake import ROOT, BotProcess, child_environment, fake_discord
from bench.figures import median_ratio, ratio_spread, spread, verdict
from bot.app.client import EXTENSIONS

TARGET = 1.3
KINDS = ("floor", "ours, restart", "ours, first start")
PHASES = {"started": "python up", "imported": "imports done", "built": "bot built", "setup_done": "setup_hook done"}
STEPS = {"cogs_loaded": "cogs imported and loaded", "sync_checked": "command sync checked (translated, hashed)"}
"""Two steps inside setup_hook that bench.botproc times (seconds, ours only)."""


async def start_once(fake, kind: str, db: Path) -> dict[str, float]:
    """One fresh process of this kind (ours on the database `db`); its milestones in seconds since spawn."""
    options = {} if kind == "floor" else {"db": db}
    bot = await BotProcess.start(fake, "bare" if kind == "floor" else "ours", **options)
    try:
        await bot.stop()
        problems = bot.problems()
    finally:
        bot.remove_log()
    if problems:
        raise AssertionError(f"the {kind} bot logged problems:\n" + "\n".join(problems[:20]))
    steps = {step: float(bot.details.get(step, 0.0)) for step in STEPS}
    return bot.milestones | steps


async def measure(runs: int) -> dict[str, list[dict[str, float]]]:
    results: dict[str, list[dict[str, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as workdir:
        restart = Path(workdir) / "restart.sqlite3"
        async with fake_discord() as fake:
            await start_once(fake, "ours, first start", restart)  # the database every restart finds
            await start_once(fake, "floor", restart)  # both kinds' bytecode is cached from now on
            for run in range(1, runs + 1):
                order = KINDS[run % len(KINDS) :] + KINDS[: run % len(KINDS)]
                for kind in order:
                    db = Path(workdir) / f"first-{run}.sqlite3" if kind == "ours, first start" else restart
                    results[kind].append(await start_once(fake, kind, db))
    return results


def show_phases(kind: str, runs: list[dict[str, float]]) -> None:
    medians = {phase: statistics.median(run[phase] for run in runs) for phase in PHASES}
    steps = [f"{label} {1e3 * medians[phase]:.0f}" for phase, label in PHASES.items()]
    print(f"  {kind:18} setup_hook done {spread([run['setup_done'] for run in runs], digits=0)}")
    print(f"  {'':18} milestones (median ms since spawn): {', '.join(steps)}")
    if kind != "floor":
        inside = {step: statistics.median(run[step] for run in runs) for step in STEPS}
        rest = medians["setup_done"] - medians["built"] - sum(inside.values())
        parts = [f"{label} {1e3 * inside[step]:.0f}" for step, label in STEPS.items()]
        print(f"  {'':18} from built to done (median ms): {', '.join(parts)}, login and the rest {1e3 * rest:.0f}")


@dataclass(frozen=True, slots=True)
class Imported:
    """One line of `python -X importtime`: a module, its own and cumulative time, and who imported it."""

    name: str
    own_us: int
    total_us: int
    importer: str | None


FULL_COLLECTIONS = "; import gc; print(gc.get_stats()[2]['collections'])"


def import_times(code: str) -> tuple[dict[str, Imported], int]:
    """Each module imported by `python -X importtime -c code`, with its importer (None at the top), and how many
    full (generation 2) garbage collections ran meanwhile."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code + FULL_COLLECTIONS],
        cwd=ROOT,
        env=child_environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    lines = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2 and "self [us]" not in line:
            own, total, name = line[len("import time:") :].split("|")
            lines.append((name.strip(), int(own), int(total), len(name) - len(name.lstrip(" "))))
    found: dict[str, Imported] = {}
    ancestors: list[tuple[str, int]] = []  # importtime prints an importer after what it imported: read backwards
    for name, own, total, depth in reversed(lines):
        while ancestors and ancestors[-1][1] >= depth:
            ancestors.pop()
        found[name] = Imported(name, own, total, ancestors[-1][0] if ancestors else None)
        ancestors.append((name, depth))
    return found, int(done.stdout.split()[-1])


def show_extra_imports(count: int = 8) -> None:
    """The imports rollkeeper adds to the floor's: the outermost of each chain, by the time of its extra imports."""
    cogs = [name for name in EXTENSIONS if importlib.util.find_spec(name) is not None]
    code = "import bot.app.client, bot.settings; " + "; ".join(f"import {name}" for name in cogs)
    import_times(code)  # the bytecode is cached from now on, as it is for discord.py
    (ours, collections), (floor, _) = import_times(code), import_times("import bench.barebot")
    extra = {name: module for name, module in ours.items() if name not in floor}
    inside: dict[str, int] = {name: module.own_us for name, module in extra.items()}
    for module in sorted(extra.values(), key=lambda m: -_depth(extra, m.name)):  # innermost first
        if module.importer in extra:
            inside[module.importer] += inside[module.name]
    outermost = sorted((name for name, module in extra.items() if module.importer not in extra), key=inside.get)
    print(
        f"  imports rollkeeper adds to the floor's (python -X importtime, one run): {len(extra)} modules,"
        f" {sum(module.own_us for module in extra.values()) / 1e3:.0f} ms in all; by where they start"
        " (each with the extra modules it pulls in):"
    )
    for name in reversed(outermost[-count:]):
        print(f"    {inside[name] / 1e3:6.1f} ms  {name}")
    biggest = sorted(extra.values(), key=lambda m: -m.own_us)[:count]
    print("  the slowest of them on their own: " + ", ".join(f"{m.name} {m.own_us / 1e3:.1f} ms" for m in biggest))
    if collections:
        show_collection(code, extra, collections)


def show_collection(code: str, extra: dict[str, Imported], collections: int) -> None:
    """A full garbage collection during the imports is billed to whichever module was importing: find it."""
    quiet, _ = import_times("import gc; gc.disable(); " + code)
    drops = sorted((module.own_us - quiet[name].own_us, name) for name, module in extra.items() if name in quiet)
    drop, name = drops[-1]
    print(
        f"  {collections} full garbage collection(s) ran during these imports; with the collector off,"
        f" {name} takes {quiet[name].own_us / 1e3:.1f} ms instead of {extra[name].own_us / 1e3:.1f} ms"
        f" (the collection, {drop / 1e3:.0f} ms, is billed to whichever module is importing when it runs)"
    )


def _depth(extra: dict[str, Imported], name: str) -> int:
    depth = 0
    while extra[name].importer in extra:
        name, depth = extra[name].importer, depth + 1
    return depth


def run(runs: int = 7) -> bool:
    print(
        f"Start-up: fresh processes, {runs} runs of each kind in rotation; time from spawning `python` to"
        " setup_hook done (login answered by the fake Discord)"
    )
    print(
        "  floor = python + import discord + a bare commands.Bot through its (empty) setup_hook;"
        " ours = python + import bot + RollkeeperBot through setup_hook (database, cogs, buttons, sync check);"
        " bytecode cached for both, as when deployed"
    )
    results = asyncio.run(measure(runs))
    for kind in KINDS:
        show_phases(kind, results[kind])
    ours = [r["setup_done"] for r in results["ours, restart"]]
    floor = [r["setup_done"] for r in results["floor"]]
    ratio = median_ratio(ours, floor)
    paired = [o / f for o, f in zip(ours, floor, strict=True)]
    first = median_ratio([r["setup_done"] for r in results["ours, first start"]], floor)
    print(f"  ratio ours (restart) / floor: {ratio:.2f} ({ratio_spread(paired)}); first start / floor: {first:.2f}")
    show_extra_imports()
    ok = ratio <= TARGET
    print(f"start-up verdict: {verdict(ok)} (ratio {ratio:.2f}, target <= {TARGET})")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per kind")
    args = parser.parse_args(argv)
    return 0 if run(args.runs) else 1


if __name__ == "__main__":
    sys.exit(main())
