"""This tree against another commit, side by side in one run: what a change saves, as ratios.

    python -m bench.against main [--events 1000] [--runs 3] [--storms 1]

The other commit's files are exported (git archive) to a temporary directory and its bots run from there; this
tree's run from here. Both get the same fake Discord, the runs alternating which goes first: the /yz of players with
no pending roll (bench.interactions' ours-fresh), the push storm (bench.pushes, on SQLite), and the Year Zero cards
rendered alone in a process of each tree (no Discord: the steady part of what a change to them saves). Printed: each
run's figures and the medians' ratios, this tree over the other (below 1: this tree spends less). No target: it
measures a change, not the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from bench.fake import ROOT, fake_discord, players, running
from bench.interactions import Batch, measure
from bench.pushes import Storm, open_store, storm


def export(commit: str, into: Path) -> str:
    """Write the commit's files into `into`; its short hash."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as files:
        files.extractall(into, filter="data")
    named = ["git", "rev-parse", "--short", commit]
    return subprocess.run(named, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


async def push_storm(fake, root: Path, workdir: Path, run: int) -> Storm:
    """One push storm (550 clicks, as bench.pushes) on a fresh bot from `root`, after a small warm-up storm."""
    path = workdir / f"storm-{root.name}-{run}.sqlite3"
    people = players(501)
    async with running(fake, "ours", db=path, root=root) as bot, await open_store(path, None) as db:
        await storm(fake, bot, db, people[:21], 5, seed=0)
        return await storm(fake, bot, db, people, 50, seed=run)


async def compare(other: Path, name: str, events: int, runs: int, storms: int) -> None:
    trees = {"this tree": ROOT, name: other}
    yz: dict[str, list[Batch]] = {tree: [] for tree in trees}
    stormed: dict[str, list[Storm]] = {tree: [] for tree in trees}
    cards: dict[str, list[tuple[float, float]]] = {tree: [] for tree in trees}
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as workdir:
        async with fake_discord() as fake:
            for run in range(1, runs + 1):
                order = list(trees) if run % 2 else list(reversed(trees))
                for tree in order:
                    batch = await measure(fake, "ours-fresh", events, max(events // 10, 50), 16, Path(workdir), run,
                                          root=trees[tree])
                    yz[tree].append(batch)
                for tree in order if run <= storms else ():
                    stormed[tree].append(await push_storm(fake, trees[tree], Path(workdir), run))
                for tree in order:
                    cards[tree].append(card_times(trees[tree]))
                shown = [run_text(tree, yz[tree][-1], stormed[tree][-1:] if run <= storms else []) for tree in trees]
                print(f"  run {run}: " + "; ".join(shown))
    show_ratio("/yz bot CPU per interaction", *([b.cpu / b.events for b in yz[t] if b.cpu] for t in trees))
    show_ratio("/yz wall per interaction", *([b.per_interaction for b in yz[t]] for t in trees))
    show_ratio("a first roll's card, rendered alone", *([first for first, _ in cards[t]] for t in trees))
    show_ratio("a pushed roll's card, rendered alone", *([pushed for _, pushed in cards[t]] for t in trees))
    if storms:
        show_ratio("push storm bot CPU per click", *([(s.cpu or 0.0) / s.clicks for s in stormed[t]] for t in trees))
        throughputs = ([s.throughput for s in stormed[t]] for t in trees)
        show_ratio("push storm throughput", *throughputs, unit="clicks/s", scale=1)


CARDS = """
import json, timeit
from rules.dice import SeededDice
from rules.language import speak
from rules.yearzero.odds import odds_after_first, pool_odds
from rules.yearzero.roll import push, roll_yz
from cogs.yearzero.card import FirstRollOdds, PushedRoll, render_first, render_pushed
speech, dice = speak("en"), SeededDice(7)
rolls = [roll for roll in (roll_yz(4, 3, 2, ("d12",), dice) for _ in range(100)) if roll.can_push][:50]
pushed = [push(roll, dice) for roll in rolls]
def first():
    for roll in rolls:
        render_first(roll, FirstRollOdds(pool_odds(roll), odds_after_first(roll)), speech=speech)
def again():
    for roll in pushed:
        render_pushed(PushedRoll(roll, 3, 0), pool_odds(roll), speech=speech)
print(json.dumps([min(timeit.repeat(work, number=5, repeat=15)) / (5 * len(rolls)) for work in (first, again)]))
"""
"""Times the /yz card and the pushed card of the same 50 rolls (after a first round), each the best of 15 rounds."""


def card_times(root: Path) -> tuple[float, float]:
    """Seconds per card, a first roll's and a pushed roll's, rendered in a process of the tree at root."""
    done = subprocess.run([sys.executable, "-c", CARDS], cwd=root, capture_output=True, text=True, check=True)
    first, pushed = json.loads(done.stdout)
    return first, pushed


def run_text(tree: str, batch: Batch, storms: list[Storm]) -> str:
    text = f"{tree} /yz CPU {1e3 * (batch.cpu or 0.0) / batch.events:.3f} ms, wall {1e3 * batch.per_interaction:.3f} ms"
    return text + (f", storm {storms[-1].throughput:,.0f} clicks/s" if storms else "")


def show_ratio(what: str, ours: list[float], theirs: list[float], unit: str = "ms", scale: float = 1e3) -> None:
    mine, other = statistics.median(ours), statistics.median(theirs)
    digits = 3 if unit == "ms" else 0
    figures = f"this tree {scale * mine:,.{digits}f} {unit}, the other {scale * other:,.{digits}f} {unit}"
    print(f"  {what} (medians): {figures}: ratio {mine / other:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commit", help="the commit to compare this tree with (e.g. main)")
    parser.add_argument("--events", type=int, default=1000, help="measured /yz per run and tree")
    parser.add_argument("--runs", type=int, default=3, help="runs, the trees alternating")
    parser.add_argument("--storms", type=int, default=1, help="of the runs, how many also storm (550 clicks)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rk-bench-other-") as directory:
        name = export(args.commit, Path(directory))
        print(f"This tree against {name} ({args.commit}): {args.events} /yz per run, {args.runs} runs alternating")
        asyncio.run(compare(Path(directory), name, args.events, args.runs, args.storms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
