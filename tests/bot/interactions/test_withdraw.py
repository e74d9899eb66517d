"""Told = stored when a command's answer never reaches the player: its change is withdrawn, and the player is
shown that nothing changed as soon as Discord takes anything (issue 9: "a change the player was told failed is
not applied; a change that was applied is shown"). Before withdrawing, the bot asks Discord whether an answer
whose every reply was lost arrived after all: then it stays, as shown.

Each test ends on the same check: what the player sees (the message as Discord keeps it) against the store.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.interactions.answers import ANSWER_ATTEMPTS, NOT_SHOWN
from tests.bot.embeds import give_faces
from tests.bot.test_faults import ANSWER_ROUTES, GUILD, YZ, query, willpower
from tests.fakediscord import ALICE, GM, FakeDiscord, message_text
from tests.fakediscord.faults import EDIT_CHANNEL_MESSAGE, EDIT_ORIGINAL, says, shows

LOST = {"reset": True, "times": ANSWER_ATTEMPTS}
"""Every try at an answer meets a reset connection: Discord never took it."""
TAKEN_BUT_LOST = {"reset": True, "taken": True, "times": ANSWER_ATTEMPTS}
"""Discord took every try, but each reply was lost on the way back."""


pytestmark = pytest.mark.faults


@pytest.fixture
def fake_guilds():
    return (GUILD,)


def lose(fake: FakeDiscord, when, **fault) -> None:
    for route in ANSWER_ROUTES:
        fake.inject(*route, when=when, **(fault or LOST))


async def with_willpower(fake: FakeDiscord, points: int) -> None:
    await fake.slash("willpower-set", {"player": ALICE, "points": points}, user=GM)


def extended_progress(db_path) -> list[tuple]:
    return query(db_path, "SELECT name, progress, needed FROM extended_tests")


# -- lost: withdrawn, and the player is shown that nothing changed ---------------------------------------


async def test_a_spend_whose_answer_never_arrives_is_withdrawn(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 5)
    lose(fake_discord, says("spends"))
    spent = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False)
    assert spent.content == NOT_SHOWN and not spent.loading, spent.describe()
    assert willpower(db_path) == 5 and bot.is_ready()
    assert query(db_path, "SELECT count(*) FROM applied_interactions WHERE interaction_id = ?", spent.id) == [(0,)]
    again = await fake_discord.slash("willpower spend", {"points": 2})  # the player tries again: spent once
    assert again.content.endswith("5 → **3**.") and willpower(db_path) == 3


async def test_a_set_whose_answer_never_arrives_is_withdrawn(start_bot, fake_discord, db_path):
    await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 4)
    lose(fake_discord, says("is now **9**"))
    changed = await fake_discord.slash("willpower-set", {"player": ALICE, "points": 9}, user=GM, expect_answer=False)
    assert changed.content == NOT_SHOWN and willpower(db_path) == 4, changed.describe()


async def test_an_extended_roll_whose_answer_never_arrives_counts_nothing(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "SevenKingdoms", 6, 6, 6, 6, 6, 6)
    options = {"task": "Siege", "rank": 3, "difficulty": "Routine"}
    first = await fake_discord.slash("test extended", options | {"needed": 20})
    counted = extended_progress(db_path)
    assert counted[0][1] > 0, first.describe()
    lose(fake_discord, shows("Siege"))
    lost = await fake_discord.slash("test extended", options, expect_answer=False)
    assert lost.content == NOT_SHOWN and lost.embeds == [], lost.describe()
    assert extended_progress(db_path) == counted
    assert query(db_path, "SELECT count(*) FROM roll_log") == [(1,)]  # the first roll only


async def test_a_private_extended_roll_that_started_its_task_and_was_never_shown_leaves_nothing(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "SevenKingdoms", 6, 6, 6)
    lose(fake_discord, shows("Siege"))
    options = {"task": "Siege", "needed": 20, "rank": 3, "difficulty": "Routine", "private": True}
    lost = await fake_discord.slash("test extended", options, expect_answer=False)
    assert lost.content == NOT_SHOWN and lost.ephemeral and lost.components == [], lost.describe()
    assert extended_progress(db_path) == [] and query(db_path, "SELECT count(*) FROM roll_log") == [(0,)]


async def test_a_pushable_roll_never_shown_is_withdrawn_and_says_so(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 5, 4, 3)
    lose(fake_discord, shows("`5` `4` `3`"))
    lost = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, expect_answer=False)
    assert lost.content == NOT_SHOWN and lost.embeds == [] and lost.components == [], lost.describe()
    assert query(db_path, "SELECT count(*) FROM yz_rolls") == [(0,)]
    assert query(db_path, "SELECT count(*) FROM roll_log") == [(0,)]


# -- taken, its replies lost: Discord is asked, and the change stays as shown ------------------------------


async def test_a_spend_whose_answer_arrived_though_every_reply_was_lost_stays(start_bot, fake_discord, db_path):
    await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 5)
    lose(fake_discord, says("spends"), **TAKEN_BUT_LOST)
    spent = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False)
    asked = [request.status for request in spent.requests if request.method == "GET"]
    assert asked == [200] and spent.content.endswith("5 → **3**."), spent.describe()
    assert willpower(db_path) == 3


async def test_a_roll_whose_answer_arrived_though_every_reply_was_lost_stays_pushable(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 5, 4, 3)
    lose(fake_discord, shows("`5` `4` `3`"), **TAKEN_BUT_LOST)
    shown = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, expect_answer=False)
    assert "`5` `4` `3`" in message_text(shown.message), shown.describe()
    give_faces(bot, "YearZero", 6, 6, 6)
    pushed = await fake_discord.click(shown, label="Push")
    assert "pushed" in shown.embed["title"].lower(), pushed.describe()
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pushed",)]


async def test_when_discord_cannot_say_whether_the_answer_arrived_the_change_is_withdrawn(
    start_bot, fake_discord, db_path
):
    """Taken but every reply lost, and the question fails too: the bot withdraws the change, and the notice that
    replaces the answer (Discord takes it) keeps what the player sees equal to what is stored."""
    await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 5)
    lose(fake_discord, says("spends"), **TAKEN_BUT_LOST)
    fake_discord.inject("GET", EDIT_ORIGINAL, status=404, times=ANSWER_ATTEMPTS + 1)  # every question fails
    spent = await fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False)
    assert spent.content == NOT_SHOWN and willpower(db_path) == 5, spent.describe()


# -- later changes: a lost spend is refunded whatever came after; a lost set that a later change built on stays --


async def test_a_lost_spend_is_refunded_though_a_later_spend_was_shown(start_bot, fake_discord, db_path):
    """While the first spend's answer is being retried, the player spends again and sees 3 → 2. The first is
    refunded all the same: each spend the player was told failed is undone, each one shown stays."""
    bot = await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 5)
    lose(fake_discord, says("5 → **3**"), reset=True, delay=0.3, times=ANSWER_ATTEMPTS)
    first = asyncio.ensure_future(fake_discord.slash("willpower spend", {"points": 2}, expect_answer=False))
    await until_willpower(db_path, 3)
    later = await fake_discord.slash("willpower spend", {"points": 1})
    lost = await first
    assert later.content.endswith("3 → **2**.") and lost.content == NOT_SHOWN, lost.describe()
    assert willpower(db_path) == 4 and bot.is_ready()


async def test_a_lost_set_that_a_later_spend_built_on_stays_and_is_shown_once_discord_takes_it(
    start_bot, fake_discord, db_path
):
    """The game master's set to 9 is lost while the player spends 1 and is shown 9 → 8: that total is built on the
    set, so the set stays, never said to be undone, and its answer is tried once more (Discord takes it now)."""
    await start_bot(extensions=YZ)
    await with_willpower(fake_discord, 4)
    lose(fake_discord, says("is now **9**"), reset=True, delay=0.3, times=ANSWER_ATTEMPTS)
    setting = {"player": ALICE, "points": 9}
    lost = asyncio.ensure_future(fake_discord.slash("willpower-set", setting, user=GM, expect_answer=False))
    await until_willpower(db_path, 9)
    later = await fake_discord.slash("willpower spend", {"points": 1})
    unshown = await lost
    assert later.content.endswith("9 → **8**.") and willpower(db_path) == 8
    assert "Willpower is now **9** (was 4)" in unshown.content and not unshown.loading, unshown.describe()


async def until_willpower(db_path, points: int) -> None:
    for _ in range(400):
        if willpower(db_path) == points:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"Willpower never reached {points}")


# -- /push: a push is never withdrawn; one whose answer is lost is shown on the roll's own message ----------------


async def test_a_slash_push_whose_answer_is_lost_is_shown_on_the_rolls_own_message(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    shown = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    give_faces(bot, "YearZero", 1, 1)
    lose(fake_discord, shows("pushed"))  # /push's own answer never arrives
    lost = await fake_discord.slash("push", expect_answer=False)
    assert lost.message is None, lost.describe()  # Discord never took /push's own answer
    assert "pushed" in shown.embed["title"].lower() and "Willpower +2 (now 2)" in shown.embed["description"]
    assert shown.message["components"] == [], shown.describe()  # no push left: the pushed card, done
    assert query(db_path, "SELECT state FROM yz_roll_states") == [("pushed",)] and willpower(db_path) == 2


async def test_a_slash_push_whose_answer_and_card_edit_are_lost_is_shown_on_the_next_click(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero", 6, 3, 2)
    shown = await fake_discord.slash("yz", {"attribute": 2, "skill": 1})
    give_faces(bot, "YearZero", 1, 1)
    lose(fake_discord, shows("pushed"))
    fake_discord.inject("PATCH", EDIT_CHANNEL_MESSAGE, **LOST)  # the roll's own message cannot be edited either
    await fake_discord.slash("push", expect_answer=False)
    assert "pushed" not in shown.embed["title"].lower() and any(
        button["label"] == "Push" for row in shown.message["components"] for button in row["components"]
    )
    again = await fake_discord.click(shown, label="Push", expect_answer=False)
    assert "pushed" in shown.embed["title"].lower() and "Willpower +2 (now 2)" in shown.embed["description"]
    assert shown.message["components"] == [], again.describe()
    assert willpower(db_path) == 2
