"""Interaction cost: rollkeeper's `/yz` against a bare discord.py command, through the same fake Discord.

The bots get the same INTERACTION_CREATE events for ``/yz attribute:4 skill:3 gear:2 artifact:d12`` with the same
number in flight, each bot in its own process on 127.0.0.1. rollkeeper rolls, computes the exact odds, stores the
roll in SQLite (a real file in a temporary directory) and answers its card with the Push button in the first
callback (4). Two cases: `ours-fresh`, each /yz from a player with no pending roll in the channel (one request),
and `ours`, 200 players at 20 tables rolling again, so most /yz supersede the player's previous roll, whose card
is then edited too (two requests). The bare bot answers a constant embed, once at once (callback 4, one request:
the floor of the fresh case) and once acknowledged first (5, then the edit: the floor for two requests). What is
timed is the final answer the player sees, and each is checked (public, an embed, for rollkeeper its Push
button). A run is one fresh
process per bot: a warm-up batch (not timed), then the measured batch, timed from sending the first event to the
last final answer arriving. The bots alternate, run after run, and the figures are the ratios of the median
per-interaction times. The bots' own CPU time per interaction (from /proc) is shown beside it: it leaves out the
fake's share of the wall time.

    python -m bench.interactions [--events 2000] [--runs 5] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.fake import ROOT, Answered, fake_discord, forget, players, running, send_windowed, slash_payload, table_of
from bench.figures import median_ratio, percentile, ratio_spread, spread, verdict
from bench.hotspots import explain
from cogs.yearzero.card import NOTHING_TO_PUSH
from tests.fakediscord import FakeUser, Reply

TARGET = 1.5
COMMAND = ("yz", {"attribute": 4, "skill": 3, "gear": 2, "artifact": "d12"})
PLAYERS = players(200)
VARIANTS: dict[str, tuple[str, dict]] = {
    "ours-fresh": ("ours", {}),
    "ours": ("ours", {}),
    "bare": ("bare", {"sync": True}),
    "bare-deferred": ("bare", {"sync": True, "options": ("--defer",)}),
}
"""Each bot measured: the process kind (bench.botproc) and how it is started."""
KINDS = tuple(VARIANTS)
OURS = ("ours-fresh", "ours")
FLOORS = ("bare", "bare-deferred")


@dataclass(frozen=True)
class Target:
    """Issue 19's target for one of our cases: at most `ratio` times its floor's bot CPU and wall per interaction,
    and `requests` HTTP requests per /yz."""

    case: str
    floor: str
    requests: float
    ratio: float = TARGET


TARGETS = (Target("ours-fresh", "bare", 1.0), Target("ours", "bare-deferred", 2.0))


@dataclass(frozen=True)
class Batch:
    """One measured batch of one bot."""

    kind: str
    events: int
    wall: float
    cpu: float | None
    latencies: list[float]
    fake_cpu: float
    requests: Counter[str] = field(default_factory=Counter)
    """The HTTP requests the bot sent the fake Discord during the batch, by kind."""

    @property
    def per_interaction(self) -> float:
        return self.wall / self.events

    @property
    def cpu_per_interaction(self) -> float | None:
        return None if self.cpu is None else self.cpu / self.events


def payloads(fake, count: int, start: int = 0, kind: str = "ours") -> list[dict]:
    """`count` /yz events: from the 200 players in turn, or for ours-fresh each from a player of its own (who has no
    pending roll in the channel: nothing to supersede)."""
    name, options = COMMAND
    if kind == "ours-fresh":
        newcomers = [FakeUser(f"newcomer-{number:06}") for number in range(start, start + count)]
        return [slash_payload(fake, name, options, user, table_of(n)) for n, user in enumerate(newcomers, start)]
    chosen = [PLAYERS[(start + i) % len(PLAYERS)] for i in range(count)]
    return [slash_payload(fake, name, options, user, table_of(PLAYERS.index(user))) for user in chosen]


def check_answers(kind: str, answered: list[Answered]) -> None:
    """Every event's final answer is one public message with an embed (rollkeeper's: its card with a Push button,
    unless every die shows 6 or 1), filled in if it was deferred, and nothing was refused by the fake."""
    for item in answered:
        reply, card = item.reply, final_card(item.reply)
        wrong = reply.type not in (4, 5) or reply.ephemeral or reply.rejected or not card.get("embeds")
        if wrong or (kind in (*OURS, "sqlite", "postgres") and not has_push_button(card)):
            raise AssertionError(f"the {kind} bot answered wrongly:\n{reply.describe()}\n  shown: {card}")


def final_card(reply: Reply) -> dict:
    """What the player was shown first: the callback's message, or after "thinking..." the edit that filled it in.
    (The stored message is live: a later roll by the same player edits this one to say it was superseded.)"""
    if reply.type == 4:
        return reply.data
    return reply.edits[0]["body"] if reply.edits else {}


def has_push_button(card: dict) -> bool:
    """A /yz card offers its Push button, or says why there is nothing to push."""
    buttons = [item.get("label") for row in card.get("components") or [] for item in row.get("components", [])]
    return "Push" in buttons or NOTHING_TO_PUSH in json.dumps(card.get("embeds"), ensure_ascii=False)


async def measure(
    fake, kind: str, events: int, warmup: int, concurrency: int, workdir: Path, run: int, root: Path = ROOT
) -> Batch:
    """Start the bot (from the source tree `root`), warm it up, time one batch, stop it; fail if it answered wrongly
    or logged anything."""
    process, options = VARIANTS[kind]
    options = options | {"root": root} | ({"db": workdir / f"{kind}-run{run}.sqlite3"} if kind in OURS else {})
    async with running(fake, process, **options) as bot:
        check_answers(kind, await send_windowed(fake, payloads(fake, warmup, kind=kind), concurrency))
        batch = payloads(fake, events, start=warmup, kind=kind)
        await asyncio.sleep(0.1)  # let the warm-up's last writes finish before the clocks start
        forget(fake)
        cpu_before, fake_before, started = bot.cpu(), time.process_time(), time.perf_counter()
        answered = await send_windowed(fake, batch, concurrency)
        wall, fake_cpu = time.perf_counter() - started, time.process_time() - fake_before
        await asyncio.sleep(0.2)  # work the bot does after answering (e.g. storing the message id) counts
        cpu_after = bot.cpu()
        sent = Counter(request_kind(request.method, request.path) for request in fake.backend.requests)
        check_answers(kind, answered)
        if bot.problems():
            raise AssertionError(f"the {kind} bot logged problems:\n" + "\n".join(bot.problems()[:20]))
    forget(fake)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Batch(kind, events, wall, cpu, [item.latency for item in answered], fake_cpu, sent)


def request_kind(method: str, path: str) -> str:
    """A request to the fake Discord named by what it does (ids and tokens left out)."""
    if path.endswith("/callback"):
        return "interaction callback"
    if path.startswith("/webhooks/"):
        return f"{method} {'original response' if '@original' in path else 'follow-up'}"
    if "/messages" in path:
        return f"{method} channel message"
    return f"{method} other"


def show_run(run: int, batches: dict[str, Batch]) -> None:
    times = ", ".join(f"{kind} {1e3 * batches[kind].per_interaction:.3f} ms" for kind in KINDS)
    ratios = ", ".join(
        f"{t.case}/{t.floor} {batches[t.case].per_interaction / batches[t.floor].per_interaction:.2f}" for t in TARGETS
    )
    cpu = ""
    if all(batch.cpu for batch in batches.values()):
        cpu = " · bot CPU " + ", ".join(f"{k} {1e3 * b.cpu_per_interaction:.3f} ms" for k, b in batches.items())
    print(f"  run {run}: {times} per interaction; ratio {ratios}{cpu}")


def show_kind(kind: str, batches: list[Batch]) -> None:
    latencies = [latency for batch in batches for latency in batch.latencies]
    print(f"  {kind:13}  wall per interaction {spread([b.per_interaction for b in batches])}")
    cpu = [b.cpu_per_interaction for b in batches]
    if all(value is not None for value in cpu):
        print(f"                 bot CPU per interaction {spread(cpu)}")
    print(f"                 the fake Discord's CPU per interaction {spread([b.fake_cpu / b.events for b in batches])}")
    sent = sum((b.requests for b in batches), Counter())
    events = sum(b.events for b in batches)
    per = ", ".join(f"{count / events:.2f} {name}" for name, count in sorted(sent.items()))
    print(f"                 HTTP requests per interaction {sum(sent.values()) / events:.2f} ({per})")
    p50, p99 = (1e3 * percentile(latencies, fraction) for fraction in (0.5, 0.99))
    print(
        f"                 latency to the final answer p50 {p50:.2f} ms, p99 {p99:.2f} ms"
        f" · throughput {1 / min(b.per_interaction for b in batches):.0f}/s at best"
    )


def show_target(target: Target, results: dict[str, list[Batch]]) -> tuple[bool, str]:
    """Print the case's figures against its target, each with met or missed; whether every one is met, and the
    figures in short for the verdict line."""
    ours, floors = results[target.case], results[target.floor]
    wall = median_ratio([b.per_interaction for b in ours], [b.per_interaction for b in floors])
    paired = [o.per_interaction / b.per_interaction for o, b in zip(ours, floors, strict=True)]
    requests = requests_per_interaction(ours)
    checks = [
        (f"wall {wall:.2f}x {target.floor} ({ratio_spread(paired)})", f"<= {target.ratio}x", wall <= target.ratio),
        (f"{requests:.2f} requests per /yz", f"{target.requests:.1f}", requests <= target.requests + 0.005),
    ]
    if all(b.cpu for b in ours + floors):
        cpu = median_ratio([b.cpu for b in ours], [b.cpu for b in floors])
        cpu_paired = [o.cpu / b.cpu for o, b in zip(ours, floors, strict=True)]
        cpu_text = f"bot CPU {cpu:.2f}x {target.floor} ({ratio_spread(cpu_paired)})"
        checks.insert(0, (cpu_text, f"<= {target.ratio}x", cpu <= target.ratio))
    print(f"  target, {target.case} against {target.floor} (medians):")
    for figure, wanted, met in checks:
        print(f"    {figure}: target {wanted}: {'met' if met else 'missed'}")
    print(f"    latency to the card {latency(results[target.case])} (bare: {latency(results['bare'])})")
    cpu_short = f"CPU {cpu:.2f}x, " if all(b.cpu for b in ours + floors) else ""
    short = f"{target.case}: {cpu_short}wall {wall:.2f}x {target.floor}, {requests:.2f} requests"
    return all(met for _, _, met in checks), short


def latency(batches: list[Batch]) -> str:
    latencies = [latency for batch in batches for latency in batch.latencies]
    p50, p99 = (1e3 * percentile(latencies, fraction) for fraction in (0.5, 0.99))
    return f"p50 {p50:.2f} ms, p99 {p99:.2f} ms"


def requests_per_interaction(batches: list[Batch]) -> float:
    return sum(sum(b.requests.values()) for b in batches) / sum(b.events for b in batches)


def show_summary(results: dict[str, list[Batch]]) -> tuple[bool, str]:
    """Print the medians, then each case against its target; whether every target is met, and the figures."""
    for kind in KINDS:
        show_kind(kind, results[kind])
    shown = [show_target(target, results) for target in TARGETS]
    return all(met for met, _ in shown), "; ".join(short for _, short in shown)


async def measure_all(events: int, runs: int, concurrency: int, warmup: int) -> bool:
    print(
        f"Interaction cost: /{COMMAND[0]} "
        + " ".join(f"{k}:{v}" for k, v in COMMAND[1].items())
        + f", {events:,} events per run after {warmup:,} warm-up, {concurrency} in flight,"
        f" {len(PLAYERS)} players at 20 tables, {runs} runs alternating the three bots"
    )
    print(
        "  timed: until the final answer the player sees (rollkeeper: its card with the Push button in callback 4,"
        " ours-fresh from players with no pending roll, ours superseding the player's last roll; bare: the"
        " constant embed at once, callback 4; bare-deferred: callback 5, then the embed edited in)"
    )
    print(
        "  each bot in its own process; the fake Discord (in this process) has its spec validation OFF:"
        " it is test-side cost that would dilute the ratio"
    )
    results: dict[str, list[Batch]] = {kind: [] for kind in KINDS}
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as workdir:
        async with fake_discord() as fake:
            for run in range(1, runs + 1):
                batches = {}
                for kind in KINDS if run % 2 else reversed(KINDS):
                    batches[kind] = await measure(fake, kind, events, warmup, concurrency, Path(workdir), run)
                    results[kind].append(batches[kind])
                show_run(run, batches)
            met, figures = show_summary(results)
            print("Where the time goes (ours-fresh against bare; DB trips are hops to aiosqlite's worker thread):")
            await explain(fake, fresh_payloads(fake), events, concurrency, Path(workdir))
    print(f"interactions verdict: {verdict(met)} ({figures}; targets <= {TARGET}x, 1.0 and 2.0 requests per /yz)")
    return met


def fresh_payloads(fake) -> Callable[[int], list[dict]]:
    """Batches of ours-fresh events, each from players not seen before in the profiled process."""
    sent = 0

    def make(count: int) -> list[dict]:
        nonlocal sent
        sent += count
        return payloads(fake, count, start=10_000_000 + sent - count, kind="ours-fresh")

    return make


def run(events: int = 2000, runs: int = 5, concurrency: int = 16, warmup: int | None = None) -> bool:
    return asyncio.run(measure_all(events, runs, concurrency, warmup if warmup is not None else max(events // 10, 50)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000, help="measured events per run and bot")
    parser.add_argument("--runs", type=int, default=5, help="runs, each one fresh process per bot")
    parser.add_argument("--concurrency", type=int, default=16, help="interactions in flight")
    args = parser.parse_args(argv)
    return 0 if run(args.events, args.runs, args.concurrency) else 1


if __name__ == "__main__":
    sys.exit(main())
