"""Load: one bot, 200 players at 20 tables, every command and push at once, in waves.

Each wave, every player does one thing, all at the same moment: a roll of any system, a push (by button, by
/push, or a race of two clicks and /push on the same roll), a look at or a spend of Willpower, or a click on a
neighbour's button. Each player is followed by a model of what they should see; afterwards:
- every interaction was answered exactly once (one callback, nothing refused by Discord);
- no roll was pushed twice: each pushed roll was shown pushed once, and the database's pushed rolls are exactly
  those shown, with the Willpower gain each showed;
- each player's Willpower, as every push, /willpower show and spend reported it, follows the sum of the gains
  the bot reported to them (clamped at 10) minus what they spent, and ends equal to the database's;
- nothing was logged at WARNING or above, and discord.py logged no error (the fake_discord fixture).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

from bot.storage.roll_records import PushRefusal
from cogs.yearzero.cog import NO_ROLL_TO_PUSH
from cogs.yearzero.endings import REFUSED
from rules.yearzero.roll import YzRoll
from rules.yearzero.willpower import MAX_WILLPOWER
from tests.drills.conftest import PLAYERS, query, scaled, table_of
from tests.drills.reading import (
    COMMAND_ANSWERS,
    EPHEMERAL,
    answered_once,
    is_pushed_roll,
    private_text,
    push_button_roll,
    willpower_line,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, Reply

WAVES = scaled(4)
ALREADY_PUSHED = REFUSED[PushRefusal.ALREADY_PUSHED]
NOT_YOURS = REFUSED[PushRefusal.NOT_YOURS]
SPENT = re.compile(r"spends \*\*(?P<points>\d+)\*\* Willpower: (?P<before>\d+) → \*\*(?P<after>\d+)\*\*\.$")
CANNOT_SPEND = re.compile(r"^You have (?P<have>\d+) Willpower; you cannot spend (?P<points>\d+)\.$")
SHOWN = re.compile(r"^You have \*\*(?P<points>\d+)\*\* Willpower")


@dataclass
class Player:
    """A player at a table, and what they should see next."""

    user: FakeUser
    table: FakeChannel
    willpower: int = 0
    pending: tuple[int, dict] | None = None
    """Their pushable roll here: (roll id, its message as posted)."""


@dataclass
class Night:
    """The fake, the players, the registered choices, and everything pushed, in order."""

    fake: FakeDiscord
    players: list[Player]
    choices: dict[str, list]
    shown_pushed: Counter = field(default_factory=Counter)
    gains: dict[int, int] = field(default_factory=dict)
    answered: Counter = field(default_factory=Counter)
    """Interactions answered, by what they were ("/hex cast", "Push button")."""


def registered_choices(fake: FakeDiscord) -> dict[str, list]:
    """Choice values as the bot registered them, keyed "command option" (e.g. "heroic dice")."""
    found: dict[str, list] = {}

    def walk(prefix: str, options: list[dict]) -> None:
        for option in options:
            if option.get("choices"):
                found[f"{prefix} {option['name']}"] = [choice["value"] for choice in option["choices"]]
            walk(f"{prefix} {option['name']}", option.get("options") or [])

    for command in fake.commands():
        walk(command["name"], command.get("options") or [])
    return found


def what(reply: Reply) -> str:
    data = reply.interaction["data"]
    if "custom_id" in data:
        return "Push button"
    subcommands = [option["name"] for option in data.get("options") or [] if option["type"] == 1]
    return " ".join(["/" + data["name"], *subcommands])


def check_once(night: Night, *replies: Reply) -> None:
    for reply in replies:
        assert answered_once(reply), reply.describe()
        assert reply.errors == [], reply.describe()
        night.answered[what(reply)] += 1


# -- what a player does ------------------------------------------------------------------------------------


async def roll_yz(night: Night, player: Player, rng: random.Random) -> None:
    options = {"attribute": rng.randint(1, 5), "skill": rng.randint(0, 4), "gear": rng.randint(0, 3)}
    if rng.random() < 0.3:
        options["artifact"] = rng.choice(["d8", "d10", "d12"])
    private = rng.random() < 0.1
    reply = await night.fake.slash("yz", options | {"private": private}, user=player.user, channel=player.table)
    check_once(night, reply)
    assert reply.type in COMMAND_ANSWERS and reply.ephemeral == private
    assert reply.embed["description"].startswith("Year Zero ·")
    roll_id = push_button_roll(reply.message)
    player.pending = (roll_id, reply.message) if roll_id is not None else None  # a new roll supersedes the last


def saw_push(night: Night, player: Player, roll_id: int, reply: Reply) -> None:
    """A push the player saw: the gain it reads, clamped into their Willpower, must be the Willpower it shows."""
    gain, now = willpower_line(reply)
    now = player.willpower if now is None else now  # nothing gained: the card says nothing of Willpower
    assert now == min(MAX_WILLPOWER, player.willpower + gain), reply.describe()
    player.willpower, player.pending = now, None
    night.shown_pushed[roll_id] += 1
    night.gains[roll_id] = gain


async def push(night: Night, player: Player, rng: random.Random) -> None:
    """Push the pending roll by button or /push, or race two clicks and /push on it."""
    if player.pending is None:
        reply = await night.fake.slash("push", user=player.user, channel=player.table)
        check_once(night, reply)
        assert private_text(reply) == NO_ROLL_TO_PUSH, reply.describe()
        return
    roll_id, message = player.pending
    click = lambda: night.fake.click(message, label="Push", user=player.user)  # noqa: E731
    command = lambda: night.fake.slash("push", user=player.user, channel=player.table)  # noqa: E731
    how = rng.choice(["click", "command", "race"])
    attempts = {"click": [click], "command": [command], "race": [click, click, command]}[how]
    replies = await asyncio.gather(*(attempt() for attempt in attempts))
    check_once(night, *replies)
    # A click that lost the race is shown the push that won (as stored); a /push that lost is refused privately.
    shown = [reply for reply in replies if is_pushed_roll(reply)]
    assert shown and len({willpower_line(reply) for reply in shown}) == 1, [r.describe() for r in shown]
    assert all(private_text(r) in (ALREADY_PUSHED, NO_ROLL_TO_PUSH) for r in replies if r not in shown)
    saw_push(night, player, roll_id, shown[0])


async def willpower(night: Night, player: Player, rng: random.Random) -> None:
    if rng.random() < 0.3:
        reply = await night.fake.slash("willpower show", user=player.user, channel=player.table)
        check_once(night, reply)
        assert int(SHOWN.match(private_text(reply))["points"]) == player.willpower
        return
    points = rng.randint(1, 3)
    reply = await night.fake.slash("willpower spend", {"points": points}, user=player.user, channel=player.table)
    check_once(night, reply)
    refused = private_text(reply)
    if refused is not None:
        assert CANNOT_SPEND.match(refused).groupdict() == {"have": str(player.willpower), "points": str(points)}
        assert player.willpower < points
        return
    spent = SPENT.search(reply.content)
    assert (int(spent["before"]), int(spent["after"])) == (player.willpower, player.willpower - points), reply.content
    player.willpower -= points


async def meddle(night: Night, player: Player, rng: random.Random) -> None:
    """Click the Push button of someone's pending (public) roll: refused privately, nothing changes."""
    others = [
        other for other in night.players
        if other.pending is not None and other is not player and not other.pending[1]["flags"] & EPHEMERAL
    ]
    if not others:
        return await willpower(night, player, rng)
    _, message = rng.choice(others).pending
    reply = await night.fake.click(message, label="Push", user=player.user)
    check_once(night, reply)
    assert private_text(reply) == NOT_YOURS, reply.describe()


def hex_roll(rng: random.Random) -> tuple[str, dict]:
    attribute, skill = rng.randint(1, 6), rng.randint(0, 4)
    pool = {"attribute": attribute, "skill": skill, "specialty": rng.randint(0, skill), "gear": rng.randint(0, 1)}
    return rng.choice([
        ("hex test", pool),
        ("hex contest", pool | {"opposing": rng.randint(0, 8)}),
        ("hex cast", pool | {"risk": rng.randint(0, 3)}),
        ("hex plain", {"dice": rng.randint(1, 10)}),
    ])


def heroic_roll(rng: random.Random, choices: dict[str, list]) -> tuple[str, dict]:
    target = rng.choice([
        {"difficulty": rng.choice(choices["heroic difficulty difficulty"])}, {"tn": rng.randint(5, 15)},
        {"versus": rng.randint(0, 10)},
    ])
    kind = rng.choice(choices["heroic tn kind"])
    options = {"skill": rng.randint(0, 10), "dice": rng.choice(choices["heroic tn dice"]), "kind": kind}
    if kind not in ("task", "spell"):  # damage is at stake in an attack or a reaction only
        options["damage"] = rng.randint(0, 20)
    return f"heroic {next(iter(target))}", options | target


def seven_kingdoms_roll(rng: random.Random, table: FakeChannel) -> tuple[str, dict]:
    pool = {"rank": rng.randint(3, 5), "bonus": rng.randint(0, 2)}  # rank 3: any difficulty up to 17
    return rng.choice([
        ("test basic", pool | {"difficulty": str(rng.randint(3, 17))}),
        ("test conflict", pool | {"defense": rng.randint(3, 15)}),
        ("test competition", {"participants": f"Jaime {rng.randint(2, 5)}D+1B, Brienne {rng.randint(2, 5)}D"}),
        ("test extended", pool | {"task": f"siege of {table.name}", "needed": 6, "difficulty": "6"}),
    ])


async def roll_other(night: Night, player: Player, rng: random.Random) -> None:
    """A HEX, Heroic or Seven Kingdoms roll: answered with its embed (an extended task may be complete)."""
    command, options = rng.choice([
        hex_roll(rng), heroic_roll(rng, night.choices), seven_kingdoms_roll(rng, player.table)
    ])
    reply = await night.fake.slash(command, options, user=player.user, channel=player.table)
    check_once(night, reply)
    if command == "test extended" and private_text(reply) is not None:
        assert "already complete" in private_text(reply)
        return
    stored = command == "test extended"  # a change: deferred when the store is slow (bot/interactions/answers.py)
    answers = COMMAND_ANSWERS if stored else (4,)
    assert reply.type in answers and reply.embeds and not reply.ephemeral, reply.describe()


ACTIONS = ((roll_yz, 30), (push, 25), (willpower, 12), (meddle, 3), (roll_other, 30))
EVERY_COMMAND = {
    "/yz", "/push", "Push button", "/willpower show", "/willpower spend", "/heroic difficulty", "/heroic tn",
    "/heroic versus", "/hex test", "/hex contest", "/hex cast", "/hex plain", "/test basic", "/test conflict",
    "/test competition", "/test extended",
}


async def wave(night: Night, rng: random.Random) -> None:
    """Every player does one thing, all at once."""
    actions, weights = zip(*ACTIONS, strict=True)
    chosen = [(player, rng.choices(actions, weights)[0], random.Random(rng.random())) for player in night.players]
    await asyncio.gather(*(action(night, player, own_rng) for player, action, own_rng in chosen))


# -- the drill ---------------------------------------------------------------------------------------------


def check_database(night: Night, db_path) -> None:
    rows = {row["id"]: dict(row) for row in query(db_path, "SELECT * FROM yz_roll_states")}
    pushed = {roll_id: row for roll_id, row in rows.items() if row["state"] == "pushed"}
    assert set(pushed) == set(night.shown_pushed), "the database's pushed rolls are exactly the ones shown pushed"
    for roll_id, row in pushed.items():
        assert YzRoll.from_dict(json.loads(row["pushed_payload"])).willpower_gained == night.gains[roll_id]
    stored = {row["user_id"]: row["points"] for row in query(db_path, "SELECT * FROM willpower")}
    for player in night.players:
        assert stored.get(player.user.id, 0) == player.willpower, player.user.name


async def test_two_hundred_players_at_twenty_tables(start_bot, fake_discord, db_path, log_watch):
    await start_bot()
    night = Night(
        fake_discord,
        [Player(user, table_of(number)) for number, user in enumerate(PLAYERS)],
        registered_choices(fake_discord),
    )
    rng = random.Random(20)
    started = time.perf_counter()
    for _ in range(WAVES):
        await wave(night, rng)
    elapsed = time.perf_counter() - started
    assert max(night.shown_pushed.values()) == 1, "a roll was shown pushed twice"
    check_database(night, db_path)
    assert log_watch.lines() == []
    assert set(night.answered) == EVERY_COMMAND, "the mix covers every command"
    total = sum(night.answered.values())
    print(
        f"load: {len(night.players)} players, {WAVES} waves, {total} interactions answered in {elapsed:.1f} s "
        f"({total / elapsed:.0f}/s), {len(night.shown_pushed)} rolls pushed; {dict(sorted(night.answered.items()))}"
    )
