"""One request per answer (issue 19): a stored change is answered in Discord's first callback, and nothing else is
sent when nothing else needs changing. Counted on the wire of the fake Discord: every request the bot sends while
it handles the interaction, whatever its route.

A slow store still gets its answer in: past the budget, the interaction is acknowledged meanwhile and filled in.
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.interactions.acknowledging import DEFER_BUDGET
from bot.storage.roll_records import PushRefusal
from cogs.yearzero.endings import REFUSED
from cogs.yearzero.superseding import WAITING
from tests.bot.embeds import give_faces
from tests.bot.test_faults import GUILD, YZ, idle, query, willpower
from tests.cogs.yearzero.test_cog import Constant
from tests.fakediscord import ALICE, BOB, GM, FakeDiscord, FakeUser, Reply
from tests.fakediscord.faults import CALLBACK, EDIT_CHANNEL_MESSAGE, EDIT_ORIGINAL
from tests.storage.test_sqlite_trips import count_hops

EPHEMERAL = 64


@pytest.fixture
def fake_guilds():
    return (GUILD,)


async def sent_for(fake: FakeDiscord, bot, action) -> tuple[Reply, list[tuple[str, str | None]]]:
    """Run action (a coroutine giving a Reply); its reply and every request the bot sent until it was idle again."""
    before = len(fake.requests)
    reply = await action
    await idle(bot)
    return reply, [(request.method, request.template) for request in fake.requests[before:]]


def callback_type(reply: Reply) -> int:
    [callback] = reply.callbacks
    return int(callback["type"])


async def test_a_roll_with_no_pending_roll_is_one_callback_with_its_card(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    reply, sent = await sent_for(fake_discord, bot, fake_discord.slash("yz", {"attribute": 2, "skill": 1}))
    assert sent == [("POST", CALLBACK)] and callback_type(reply) == 4, reply.describe()
    assert reply.embeds and [b["label"] for row in reply.components for b in row["components"]] == ["Push", "Keep"]
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pending",)]


async def test_a_roll_is_one_trip_to_the_database_on_its_answer_path(start_bot, fake_discord, db_path, monkeypatch):
    """The roll, its log entry, its applied interaction and the roll it supersedes: one hop to aiosqlite's thread
    (its message id is written a moment later, with others)."""
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    await bot.db.rolls.messages.flush()
    hops = count_hops(monkeypatch, bot.db)
    give_faces(bot, "YearZero", 5, 4, 3)
    reply, sent = await sent_for(fake_discord, bot, fake_discord.slash("yz", {"attribute": 2, "skill": 1}))
    # The roll's one trip; a chore of the bot (its shard lease's renewal: one UPDATE) may run meanwhile.
    assert [hop for hop in hops if hop not in ("execute", "close")] == ["_transact"] and len(sent) == 2, (hops, sent)
    assert query(db_path, "SELECT state FROM yz_roll_states ORDER BY id") == [("superseded",), ("pending",)]


async def test_a_roll_that_supersedes_one_more_edits_the_old_card_after_answering(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    older = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    give_faces(bot, "YearZero", 5, 4, 3)
    reply, sent = await sent_for(fake_discord, bot, fake_discord.slash("yz", {"attribute": 2, "skill": 1}))
    assert sent == [("POST", CALLBACK), ("PATCH", EDIT_CHANNEL_MESSAGE)] and callback_type(reply) == 4
    assert older.message["components"] == [] and "Superseded" in older.embed["description"]
    assert query(db_path, "SELECT state FROM yz_roll_states ORDER BY id") == [("superseded",), ("pending",)]


async def test_a_push_click_is_one_update_of_its_message(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    give_faces(bot, "YearZero", 1, 1)
    pushed, sent = await sent_for(fake_discord, bot, fake_discord.click(rolled, label="Push"))
    assert sent == [("POST", CALLBACK)] and callback_type(pushed) == 7, pushed.describe()
    assert pushed.message is rolled.message and "Willpower +2 (now 2)" in rolled.embed["description"]
    assert rolled.message["components"] == [] and willpower(db_path) == 2


async def test_a_push_click_reads_its_roll_once_and_claims_in_one_trip(start_bot, fake_discord, monkeypatch):
    """The roller check's read, the claim (one transaction), then, once answered, the push in the roll log."""
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    await bot.db.rolls.messages.flush()
    give_faces(bot, "YearZero", 1, 1)
    hops = count_hops(monkeypatch, bot.db)
    await sent_for(fake_discord, bot, fake_discord.click(rolled, label="Push"))
    # Then, answered, the push goes into the roll log: one UPDATE, its RETURNING rows read in the same hop.
    assert hops == ["_execute_fetchall", "_transact", "_execute_fetchall"], hops


async def test_a_keep_click_is_one_update_of_its_message(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    kept, sent = await sent_for(fake_discord, bot, fake_discord.click(rolled, label="Keep"))
    assert sent == [("POST", CALLBACK)] and callback_type(kept) == 7, kept.describe()
    assert rolled.message["components"] == [] and query(db_path, "SELECT state FROM yz_roll_states") == [("kept",)]


async def test_a_refused_click_is_one_private_message(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    refused, sent = await sent_for(fake_discord, bot, fake_discord.click(rolled, label="Push", user=BOB))
    assert sent == [("POST", CALLBACK)] and callback_type(refused) == 4 and refused.flags & EPHEMERAL
    assert refused.content == REFUSED[PushRefusal.NOT_YOURS]
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pending",)]


async def test_a_willpower_spend_is_one_message_and_one_trip(start_bot, fake_discord, db_path, monkeypatch):
    bot = await start_bot(extensions=YZ)
    await fake_discord.slash("willpower-set", {"player": ALICE, "points": 5}, user=GM)
    hops = count_hops(monkeypatch, bot.db)
    spent, sent = await sent_for(fake_discord, bot, fake_discord.slash("willpower spend", {"points": 2}))
    # One trip; a chore of the bot (its shard lease's renewal) may run meanwhile.
    assert [hop for hop in hops if hop not in ("execute", "close")] == ["_transact"], hops
    assert sent == [("POST", CALLBACK)] and callback_type(spent) == 4 and not spent.ephemeral
    assert spent.content.endswith("5 → **3**.") and willpower(db_path) == 3


async def held_up(bot, action) -> Reply:
    """Run action (a coroutine giving a Reply) while the bot's database is busy with a long write of its own."""

    async def long_write() -> None:
        async with bot.db.store.transaction():
            await asyncio.sleep(DEFER_BUDGET + 1.0)  # a margin for a slow machine

    holding = asyncio.create_task(long_write())
    await asyncio.sleep(0.05)
    reply = await action
    await holding
    return reply


async def test_time_spent_before_the_store_counts_in_the_budget(start_bot, fake_discord):
    """The server's language, read before the roll is stored (remembered for a minute after), waits behind a long
    write of the same bot past the budget: the store gets no fresh budget of its own; "thinking..." is shown and the
    card filled in, rather than a first callback sent after Discord's budget was spent."""
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolling = fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    reply, sent = await sent_for(fake_discord, bot, held_up(bot, rolling))
    assert sent == [("POST", CALLBACK), ("PATCH", EDIT_ORIGINAL)] and callback_type(reply) == 5, reply.describe()
    assert reply.embeds and not reply.loading and "Year Zero" in reply.embed["description"]


async def test_a_clicks_check_read_counts_in_the_budget(start_bot, fake_discord, db_path):
    """A Push button's check reads its roll before the claim: held up past the budget, the click is acknowledged
    (type 6) and the card then edited, pushed."""
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    rolled = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    await bot.db.rolls.messages.flush()
    give_faces(bot, "YearZero", 1, 1)
    pushed, sent = await sent_for(fake_discord, bot, held_up(bot, fake_discord.click(rolled, label="Push")))
    assert callback_type(pushed) == 6 and len(sent) == 2, (sent, pushed.describe())
    assert "Willpower +2 (now 2)" in rolled.embed["description"] and willpower(db_path) == 2


async def test_a_store_slower_than_the_budget_is_acknowledged_meanwhile_and_filled_in(start_bot, fake_discord, db_path):
    """Another program holds the database's write lock past the budget (not past the busy timeout): the roll is
    acknowledged ("thinking...") while it waits, then stored and shown in the same message."""
    bot = await start_bot(extensions=YZ, busy_timeout_ms=4000)
    give_faces(bot, "YearZero", 6, 3, 2)
    locker = sqlite3.connect(db_path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(DEFER_BUDGET + 1.0, locker.rollback)  # a margin for a slow machine
    try:
        reply, sent = await sent_for(fake_discord, bot, fake_discord.slash("yz", {"attribute": 2, "skill": 1}))
    finally:
        locker.close()
    assert sent == [("POST", CALLBACK), ("PATCH", EDIT_ORIGINAL)] and callback_type(reply) == 5, reply.describe()
    assert reply.embeds and not reply.loading and "Year Zero" in reply.embed["description"]
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pending",)]


async def test_a_burst_of_rolls_in_one_channel_does_not_queue_a_burst_of_card_edits(start_bot, fake_discord, db_path):
    """Nine players roll again at once while the first superseded card's edit is slow: the others wait for it, the
    latest WAITING of them; a card left out keeps its buttons until clicked, and the click repairs it."""
    bot = await start_bot(extensions=YZ)
    bot.get_cog("YearZero").dice = Constant(3)  # every die a blank: pushable
    players = [FakeUser(f"burst-{number}") for number in range(9)]
    firsts = [await fake_discord.slash("yz", {"attribute": 2}, user=player) for player in players]
    await bot.db.rolls.messages.flush()
    before = len(fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE))
    fake_discord.inject("PATCH", EDIT_CHANNEL_MESSAGE, delay=0.5)  # the first edit is slow
    await asyncio.gather(*(fake_discord.slash("yz", {"attribute": 2}, user=player) for player in players))
    await idle(bot)
    edits = len(fake_discord.requests_to("PATCH", EDIT_CHANNEL_MESSAGE)) - before
    left = [number for number, first in enumerate(firsts) if first.message["components"]]
    assert edits <= 1 + WAITING and len(left) == len(players) - edits, (edits, left)
    clicked = await fake_discord.click(firsts[left[0]], label="Push", user=players[left[0]])
    assert firsts[left[0]].message["components"] == [], clicked.describe()
    assert "Superseded" in firsts[left[0]].embed["description"]
    assert query(db_path, "SELECT count(*) FROM yz_roll_states WHERE state = 'superseded'") == [(len(players),)]

