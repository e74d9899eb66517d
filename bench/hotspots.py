"""Where rollkeeper's time goes on `/yz`, next to the bare bot's: profiles summed by area, and CPU per thread.

Run by bench.interactions when its target is missed. Each bot gets one more process: after a warm-up, a batch
without profiler for the CPU of each thread (from /proc), then a batch under cProfile. cProfile sees only the
event loop's thread and slows pure Python more than C code, so its milliseconds are inflated; compare them
between the two bots, not with the wall times. Hops to aiosqlite's worker thread are counted exactly: each is
one `SimpleQueue.put_nowait`, answered by a wake-up of the event loop.
"""

from __future__ import annotations

import asyncio
import pstats
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.fake import CLOCK_TICKS, ROOT, running, send_windowed

IDLE = "<method 'poll' of 'select.epoll' objects>"
HOP = "<method 'put_nowait' of '_queue.SimpleQueue' objects>"
OURS = tuple(str(ROOT / part) + "/" for part in ("bot", "cogs", "rules"))
"""Where rollkeeper's own code lives (a virtual environment inside the clone holds discord.py's: not ours)."""
AREAS = (
    ("rollkeeper (bot/, cogs/, rules/)", OURS),
    ("discord.py", ("/discord/",)),
    ("aiohttp, yarl, multidict", ("/aiohttp/", "/yarl/", "/multidict/")),
    ("aiosqlite, event-loop side", ("/aiosqlite/", HOP)),
    ("asyncio event loop, selectors, sockets", ("/asyncio/", "selectors.py", "'_socket.socket'")),
    ("json", ("/json/", "_json")),
)
OTHER = "other (stdlib: random, contextlib, ...)"

Key = tuple[str, int, str]


@dataclass(frozen=True)
class Profile:
    """One bot's profiled batch, and its CPU per event by thread measured without the profiler."""

    kind: str
    events: int
    entries: dict[Key, tuple]  # pstats: (primitive calls, calls, own time, cumulative time, callers)
    loop_cpu: float
    other_threads_cpu: float

    def per_event_ms(self, seconds: float) -> float:
        return 1e3 * seconds / self.events

    def areas(self) -> dict[str, float]:
        found: dict[str, float] = {}
        for key, values in self.entries.items():
            if _where(key) != IDLE:
                area = area_of(_where(key))
                found[area] = found.get(area, 0.0) + values[2]
        return found

    def hops(self) -> float:
        return sum(values[1] for key, values in self.entries.items() if _where(key) == HOP) / self.events

    def postgres_trips(self) -> Counter[str]:
        """Trips to PostgreSQL per event, by the asyncpg function that sent them: each is one write of asyncpg's
        to its socket (its protocol sends a request's messages in one write, then waits for the answer)."""
        trips: Counter[str] = Counter()
        for key, values in self.entries.items():
            if key[0].endswith("/asyncio/selector_events.py") and key[2] == "write":
                for caller, edge in values[4].items():
                    if "/asyncpg/" in caller[0]:
                        trips[caller[2]] += edge[1] / self.events
        return trips


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of a process (Linux /proc; empty elsewhere)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(task.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return found


def area_of(where: str) -> str:
    for name, markers in AREAS:
        if any(marker in where for marker in markers):
            return name
    return OTHER


def _where(key: Key) -> str:
    filename, line, function = key
    return function if filename == "~" else f"{filename}:{line}({function})"


async def profile(
    fake, kind: str, make_payloads: Callable[[int], list[dict]], events: int, concurrency: int, workdir: Path,
    database_url: str | None = None,
) -> Profile:
    """One more process of this bot (ours on its SQLite file, or on PostgreSQL at database_url): warm-up, a batch
    for the threads' CPU, a profiled batch."""
    path = workdir / f"{kind}.prof"
    options: dict[str, object] = {"sync": True}
    if kind == "ours":
        options = {"db": workdir / "profiled.sqlite3", "database_url": database_url}
    async with running(fake, kind, profile=path, **options) as bot:
        await send_windowed(fake, make_payloads(max(events // 5, 50)), concurrency)
        before = thread_cpu(bot.process.pid)
        await send_windowed(fake, make_payloads(events), concurrency)
        await asyncio.sleep(0.2)
        after = thread_cpu(bot.process.pid)
        bot.profile(True)
        await send_windowed(fake, make_payloads(events), concurrency)
        await asyncio.sleep(0.2)
        bot.profile(False)
        await bot.profiled()
    used = {tid: after[tid] - before.get(tid, 0.0) for tid in after}
    loop = used.pop(bot.process.pid, 0.0)
    entries = pstats.Stats(str(path)).stats  # type: ignore[attr-defined]
    return Profile(kind, events, entries, loop / events, sum(used.values()) / events)


def show(ours: Profile, bare: Profile) -> None:
    print(
        f"  CPU per interaction by thread (no profiler, {ours.events} events): ours: event loop"
        f" {1e3 * ours.loop_cpu:.3f} ms + other threads (aiosqlite's worker) {1e3 * ours.other_threads_cpu:.3f} ms;"
        f" bare: event loop {1e3 * bare.loop_cpu:.3f} ms + other threads {1e3 * bare.other_threads_cpu:.3f} ms"
    )
    print(f"  hops to aiosqlite's worker thread per /yz: {ours.hops():.1f}")
    print("  the event loop's thread under cProfile, profiled ms per interaction by area (ours, bare, difference):")
    mine, theirs = ours.areas(), bare.areas()
    for area in sorted(set(mine) | set(theirs), key=lambda a: theirs.get(a, 0.0) - mine.get(a, 0.0)):
        a, b = ours.per_event_ms(mine.get(area, 0.0)), bare.per_event_ms(theirs.get(area, 0.0))
        print(f"    {a:6.3f} {b:6.3f} {a - b:+7.3f}  {area}")
    a, b = ours.per_event_ms(sum(mine.values())), bare.per_event_ms(sum(theirs.values()))
    print(f"    {a:6.3f} {b:6.3f} {a - b:+7.3f}  in all")
    show_stages(ours, YZ_STAGES, "/yz")
    show_stages(bare, BARE_STAGES, "bare /yz")
    print("  rollkeeper's functions by cumulative time (profiled ms per /yz; a coroutine's own running time):")
    show_functions(ours, CUMULATIVE)
    print("  rollkeeper's functions by their own time, callees left out (profiled ms per /yz):")
    show_functions(ours, OWN, count=8)


@dataclass(frozen=True)
class Stage:
    """A step of the path, timed as the cumulative profiled time of the functions named "file:function" (each a
    step of its own: none calls another), less that of the functions in `less` (steps it calls)."""

    name: str
    functions: tuple[str, ...]
    less: tuple[str, ...] = ()


YZ_STAGES = (
    Stage("gateway event read and parsed (discord.py)", ("discord/gateway.py:received_message",)),
    Stage(
        "command found, options converted (discord.py)",
        ("discord/app_commands/tree.py:_call",),
        less=("cogs/yearzero/cog.py:yz", "bot/interactions/tree.py:interaction_check"),
    ),
    Stage("option guard", ("bot/interactions/tree.py:interaction_check",)),
    Stage("language chosen", ("bot/interactions/language.py:answer_speech",)),
    Stage("rules: the dice rolled", ("rules/dice.py:rolled_with",)),
    Stage("odds", ("rules/yearzero/odds.py:pool_odds", "rules/yearzero/odds.py:odds_after_first")),
    Stage("card (embed, its numbers)", ("cogs/yearzero/card.py:render_first",)),
    Stage("view (Push and Keep buttons)", ("bot/interactions/private_rolls.py:roll_view",)),
    Stage(
        "stored payload and log entry",
        ("cogs/yearzero/endings.py:stored_payload", "cogs/yearzero/cog.py:yearzero_rolled",
         "bot/interactions/logbook.py:new_entry"),
    ),
    Stage("store (its event-loop side; one hop on SQLite)", ("bot/storage/rolls.py:create_superseding",)),
    Stage("answer: callback sent, its reply read (discord.py, aiohttp)", ("discord/interactions.py:send_message",)),
)
"""The steps of a /yz, in order."""

BARE_STAGES = (
    YZ_STAGES[0],
    Stage(
        "command found, options converted, its callback (discord.py)",
        ("discord/app_commands/tree.py:_call",),
        less=("discord/interactions.py:send_message",),
    ),
    YZ_STAGES[-1],
)
"""The same steps of the bare bot's /yz (bench.barebot: a constant embed, no buttons, nothing stored)."""

PUSH_STAGES = (
    YZ_STAGES[0],  # the gateway event read and parsed
    Stage(
        "click routed to its button (discord.py)",
        ("discord/ui/view.py:schedule_dynamic_item_call",),
        less=("cogs/yearzero/cog.py:interaction_check", "cogs/yearzero/cog.py:callback"),
    ),
    Stage("roller check: the roll read", ("cogs/yearzero/cog.py:interaction_check",)),
    Stage(
        "the roll read from its stored payload",
        ("cogs/yearzero/endings.py:read_payload<cogs/yearzero/pushing.py:push",),
    ),
    Stage("rules: the push rolled", ("rules/dice.py:rolled_with",)),
    Stage("claim: the push stored", ("cogs/yearzero/pushing.py:_claim",)),
    Stage("card: the stored push read back, odds, embed", ("cogs/yearzero/pushing.py:pushed_answer",)),
    Stage("view (buttons)", ("bot/interactions/private_rolls.py:roll_view",)),
    Stage("answer: callback 7 sent, its reply read (discord.py, aiohttp)", ("discord/interactions.py:edit_message",)),
    Stage(
        "acknowledged, then edited (not answered within DEFER_BUDGET)",
        ("bot/interactions/acknowledging.py:_acknowledge_late", "bot/interactions/answers.py:_fill"),
    ),
    Stage(
        "log entry (after the answer)",
        ("bot/interactions/logbook.py:record_push", "cogs/yearzero/pushing.py:yearzero_push_rolled"),
    ),
)
"""The steps of a click on Push, in order."""


def stage_time(profile: Profile, stage: Stage) -> float:
    """Profiled seconds of a stage, in all."""
    return sum(cumulative(profile, name) for name in stage.functions) - sum(cumulative(profile, n) for n in stage.less)


def cumulative(profile: Profile, name: str) -> float:
    """Cumulative profiled seconds of the function named "file:function" (a file ending, e.g. "rules/dice.py"), or
    "file:function<file:caller" for its calls from that caller only."""
    callee, _, caller = name.partition("<")
    found = [values for key, values in profile.entries.items() if _named(key, callee)]
    if not caller:
        return sum(values[CUMULATIVE] for values in found)
    return sum(edge[CUMULATIVE] for values in found for key, edge in values[4].items() if _named(key, caller))


def _named(key: Key, name: str) -> bool:
    file, _, function = name.partition(":")
    return key[2] == function and key[0].endswith("/" + file)


def show_stages(profile: Profile, stages: tuple[Stage, ...], per: str) -> None:
    """A table of the stages' profiled ms per event, then the rest (the event loop, sockets, tasks, the glue)."""
    total = sum(profile.areas().values())
    print(f"  where a {per}'s time goes, by step (profiled ms per {per} on the event loop's thread, its share):")
    counted = 0.0
    for stage in stages:
        seconds = stage_time(profile, stage)
        counted += seconds
        print(f"    {profile.per_event_ms(seconds):6.3f} ms {seconds / total:4.0%}  {stage.name}")
    rest = total - counted
    print(f"    {profile.per_event_ms(rest):6.3f} ms {rest / total:4.0%}  the rest: event loop, sockets, tasks, glue")
    print(f"    {profile.per_event_ms(total):6.3f} ms 100%  in all")


OWN, CUMULATIVE = 2, 3
"""Which of a pstats entry's times to rank by."""


def show_functions(profile: Profile, time: int, count: int = 12) -> None:
    """rollkeeper's own functions (not its dependencies') with the most profiled time of this kind."""
    own = [(values[time], key) for key, values in profile.entries.items() if key[0].startswith(OURS)]
    for seconds, (filename, line, function) in sorted(own, reverse=True)[:count]:
        calls = profile.entries[(filename, line, function)][1] / profile.events
        where = f"{Path(filename).relative_to(ROOT)}:{line} {function}"
        print(f"    {profile.per_event_ms(seconds):6.3f} ms  {where} ({calls:.1f} calls or resumptions)")


async def explain(
    fake, make_payloads: Callable[[int], list[dict]], events: int, concurrency: int, workdir: Path
) -> None:
    """Profile both bots and print where rollkeeper spends more than the bare bot."""
    ours = await profile(fake, "ours", make_payloads, events, concurrency, workdir)
    bare = await profile(fake, "bare", make_payloads, events, concurrency, workdir)
    show(ours, bare)
