"""Push storm: 50 concurrent clicks on one roll plus 500 pushes of distinct rolls, all at once.

501 players each roll `/yz` (not timed); then player 0 clicks Push on their roll 50 times while players 1-500
click Push on theirs once, the 550 clicks sent back to back in a shuffled order to one rollkeeper process (its
SQLite file in a temporary directory, or a PostgreSQL database from bench.postgres). Printed: throughput (clicks
answered per second, first click sent to last final answer) and the p50/p99 latency of a click. A click is
acknowledged first (callback 6) and then answered by editing the clicked message into the pushed card; what is
timed is that final answer, not the acknowledgement. Checked, from the answers: every click on a roll that was
shown a push shows the same pushed dice (the roller's clicks that lost the race are shown the push that won), or
was refused privately (at once, or as a follow-up after the acknowledgement); from the database: each roll is
pushed, and each player's Willpower grew by exactly the gain of one push (clamped at 10). A roll whose every
click was answered "busy, try again" (the store's wait ran out, as on a loaded machine it can) must be still
pending with its roller's Willpower untouched; such rolls are counted and shown, never a double push.

    python -m bench.pushes [--runs 3] [--players 500] [--clicks 50]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench.fake import (
    TABLES,
    Answered,
    click_payload,
    fake_discord,
    forget,
    players,
    running,
    send_at_once,
    send_windowed,
    slash_payload,
    table_of,
)
from bench.figures import percentile, verdict
from bot.app.opening import open_sqlite
from bot.storage.database import Storage
from bot.storage.errors import StorageBusy
from bot.storage.roll_records import RollState
from cogs.yearzero.card import PUSHED_DICE
from rules.yearzero.roll import YzRoll
from tests.fakediscord import FakeUser, Reply, message_text

ROLL = ("yz", {"attribute": 4, "skill": 3, "gear": 2, "artifact": "d12"})
PUSH_ID = re.compile(r"rk:yz:push:([0-9]+)")
MAX_WILLPOWER = 10
EPHEMERAL = 64


@dataclass(frozen=True)
class Storm:
    clicks: int
    rolls: int
    wall: float
    latencies: list[float]
    cpu: float | None
    busy: int = 0
    """Rolls whose every click was answered "busy, try again" (still pending, nothing written)."""

    @property
    def throughput(self) -> float:
        return self.clicks / self.wall


@dataclass(frozen=True)
class Rolled:
    """A player's pushable roll: its stored id and the message showing it (as it was before any push)."""

    roll_id: int
    message: dict


async def roll_for(fake, people: list[FakeUser]) -> dict[FakeUser, Rolled]:
    """Each player rolls until the roll has a Push button (a roll of only 1s and 6s has none)."""
    rolled: dict[FakeUser, Rolled] = {}
    by_id = {str(user.id): user for user in people}
    waiting = list(people)
    while waiting:
        batch = [slash_payload(fake, *ROLL, user, table_of(number)) for number, user in enumerate(waiting)]
        for item in await send_windowed(fake, batch, concurrency=32):
            user = by_id[item.reply.interaction["member"]["user"]["id"]]
            reply = item.reply  # its final answer: the card (4), or "thinking..." (5) filled in with it
            found = PUSH_ID.search(json.dumps(reply.components)) if reply.type in (4, 5) and not reply.loading else None
            if found:
                rolled[user] = Rolled(int(found[1]), copy.deepcopy(item.reply.message))
        waiting = [user for user in waiting if user not in rolled]
    return rolled


def clicks(fake, rolled: dict[FakeUser, Rolled], on_one: int, seed: int) -> list[dict]:
    """`on_one` clicks by the first player on their roll, one click by every other player on theirs, shuffled."""
    first, *others = rolled
    payloads = [click_payload(fake, rolled[first].message, "Push", first) for _ in range(on_one)]
    payloads += [click_payload(fake, rolled[user].message, "Push", user) for user in others]
    random.Random(seed).shuffle(payloads)
    return payloads


BUSY = StorageBusy().message
"""The answer when the store's wait ran out inside Discord's 3 s (it can, on a loaded machine): nothing written."""
STORE_TIMEOUT = re.compile(r"^WARNING bot\.storage\.postgres: Lost the database at .*: TimeoutError$")
"""What the PostgreSQL store logs with each such answer: expected under load, not a problem of the bot."""


def shown(reply: Reply) -> str | None:
    """The pushed dice a click's final answer showed on the clicked message (acknowledged, then edited), or None."""
    if reply.type not in (6, 7) or not reply.edits:
        return None
    embeds = reply.edits[-1]["body"].get("embeds") or []
    dice = [item["value"] for embed in embeds for item in embed.get("fields", []) if item["name"] == PUSHED_DICE]
    return dice[0] if len(dice) == 1 else None


def told_privately(reply: Reply) -> str | None:
    """The text of a private refusal: the answer itself, or the one follow-up after the acknowledgement."""
    if reply.type == 4:
        return reply.content if reply.ephemeral else None
    if reply.type in (5, 6) and len(reply.followups) == 1 and reply.followups[0]["flags"] & EPHEMERAL:
        return message_text(reply.followups[0])
    return None


def answer_kind(reply: Reply) -> tuple[str, str]:
    """("pushed", the dice shown) or ("refused"/"busy", the text), or ("other", a description) for anything else."""
    dice, text = shown(reply), told_privately(reply)
    if reply.rejected or (dice is None) == (text is None):
        return "other", reply.describe()
    if dice is not None:
        return "pushed", dice
    return ("busy" if text == BUSY else "refused"), text or ""


def check_answers(answered: list[Answered]) -> set[int]:
    """Every click on a roll shown a push shows the same pushed dice (one push per roll, as the players see it) or
    was refused privately; none rejected; or, for a roll, only "busy, try again" refusals (returned: the database
    must show it untouched)."""
    by_roll: dict[int, Counter] = defaultdict(Counter)
    for item in answered:
        kind, what = answer_kind(item.reply)
        if kind == "other":
            raise AssertionError(f"a click answered neither with a push nor a private refusal:\n{what}")
        by_roll[int(PUSH_ID.fullmatch(item.reply.interaction["data"]["custom_id"])[1])][kind, what] += 1
    busy = {roll for roll, counts in by_roll.items() if {kind for kind, _ in counts} == {"busy"}}
    wrong = {
        roll: dict(counts)
        for roll, counts in by_roll.items()
        if roll not in busy and len({what for kind, what in counts if kind == "pushed"}) != 1
    }
    if wrong:
        raise AssertionError(f"rolls not shown exactly one push: {dict(list(wrong.items())[:10])}")
    return busy


async def willpower(db: Storage, people) -> dict[FakeUser, int]:
    return {user: await db.willpower.get(TABLES.id, user.id) for user in people}


async def check_database(
    db: Storage, rolled: dict[FakeUser, Rolled], before: dict[FakeUser, int], busy: set[int]
) -> None:
    """Every roll pushed, once: each player's Willpower rose by one push's gain, clamped at 10; a roll whose
    clicks were all answered "busy" is still pending, its roller's Willpower untouched."""
    after = await willpower(db, rolled)
    for user, roll in rolled.items():
        stored = await db.rolls.get(roll.roll_id)
        if roll.roll_id in busy:
            if stored is None or stored.state is not RollState.PENDING or after[user] != before[user]:
                raise AssertionError(f"roll {roll.roll_id} was answered 'busy' but changed: {stored}")
            continue
        if stored is None or stored.state is not RollState.PUSHED or stored.pushed_payload is None:
            raise AssertionError(f"roll {roll.roll_id} of {user.name} is not pushed in the database: {stored}")
        gain = YzRoll.from_dict(json.loads(stored.pushed_payload)).willpower_gained
        if after[user] != min(MAX_WILLPOWER, before[user] + gain):
            raise AssertionError(f"{user.name}: Willpower {before[user]} -> {after[user]}, but one push gained {gain}")


async def storm(fake, bot, db: Storage, people: list[FakeUser], on_one: int, seed: int) -> Storm:
    rolled = await roll_for(fake, people)
    payloads = clicks(fake, rolled, on_one, seed)
    before = await willpower(db, people)
    await asyncio.sleep(0.1)  # the rolls' last writes (message ids) are done
    cpu_before, started = bot.cpu(), time.perf_counter()
    answered = await send_at_once(fake, payloads)
    wall = max(item.answered for item in answered) - started
    cpu_after = bot.cpu()
    busy = check_answers(answered)
    await check_database(db, rolled, before, busy)
    forget(fake)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Storm(len(payloads), len(rolled), wall, [item.latency for item in answered], cpu, len(busy))


def busy_text(result: Storm) -> str:
    return f"; {result.busy} answered 'busy, try again' and left pending" if result.busy else ""


def cpu_text(result: Storm) -> str:
    return "" if result.cpu is None else f", bot CPU {1e3 * result.cpu / result.clicks:.2f} ms per click"


async def open_store(path: Path, database_url: str | None) -> Storage:
    """The store the bot under test uses, opened a second time for the checks."""
    if database_url is None:
        return await open_sqlite(path)
    from bot.storage.postgres import PostgresDatabase

    return await PostgresDatabase.open(database_url)


async def measure_all(runs: int, distinct: int, on_one: int, database_url: str | None = None) -> bool:
    people = players(distinct + 1)
    store = "SQLite" if database_url is None else "PostgreSQL"
    print(
        f"Push storm: {on_one} concurrent clicks on one roll + {distinct} pushes of distinct rolls, all sent at"
        f" once ({on_one + distinct} clicks, {distinct + 1} rolls), {runs} storms after a warm-up; one rollkeeper"
        f" process on {store}, fake Discord without spec validation"
    )
    storms: list[Storm] = []
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as workdir:
        path = Path(workdir) / "storm.sqlite3"
        async with fake_discord() as fake, running(fake, "ours", db=path, database_url=database_url) as bot:
            async with await open_store(path, database_url) as db:
                await storm(fake, bot, db, people[:21], 5, seed=0)  # warm-up, checked but not reported
                for run in range(1, runs + 1):
                    result = await storm(fake, bot, db, people, on_one, seed=run)
                    storms.append(result)
                    print(
                        f"  storm {run}: {result.throughput:,.0f} clicks/s ({result.clicks} in {result.wall:.2f} s),"
                        f" latency p50 {1e3 * percentile(result.latencies, 0.5):.0f} ms,"
                        f" p99 {1e3 * percentile(result.latencies, 0.99):.0f} ms{cpu_text(result)}"
                        f" · exactly one push per roll: yes ({result.rolls} rolls; answers and database"
                        f"{busy_text(result)})"
                    )
            problems = [line for line in bot.problems() if not STORE_TIMEOUT.match(line)]
    if problems:
        print("  the bot logged:\n    " + "\n    ".join(problems[:20]))
    latencies = [latency for result in storms for latency in result.latencies]
    print(
        f"  median throughput {statistics.median(s.throughput for s in storms):,.0f} clicks/s"
        f" (min {min(s.throughput for s in storms):,.0f}, max {max(s.throughput for s in storms):,.0f});"
        f" latency over all storms p50 {1e3 * percentile(latencies, 0.5):.0f} ms,"
        f" p99 {1e3 * percentile(latencies, 0.99):.0f} ms"
    )
    ok = not problems
    print(f"push storm verdict: {verdict(ok)} (exactly one push per roll, nothing logged)")
    return ok


def run(runs: int = 3, distinct: int = 500, on_one: int = 50, database_url: str | None = None) -> bool:
    """Print the storms' figures; True when every check held. An AssertionError names what did not."""
    return asyncio.run(measure_all(runs, distinct, on_one, database_url))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="storms, each on new rolls")
    parser.add_argument("--players", type=int, default=500, help="players pushing their own roll once")
    parser.add_argument("--clicks", type=int, default=50, help="concurrent clicks on the one other roll")
    args = parser.parse_args(argv)
    return 0 if run(args.runs, args.players, args.clicks) else 1


if __name__ == "__main__":
    sys.exit(main())
