"""Pushing a /yz roll made by hand, end to end through the fake Discord on a real SQLite file: its Push button opens
a modal (callback type 9) asking for the rerolled dice's new faces, whose submission (interaction type 5) pushes
with them; `/push faces:` does it in one line. Each push once, only the roller, after a restart too; wrong faces
are refused privately and nothing is stored."""

from __future__ import annotations

import pytest

from bot.render.by_hand import BY_HAND
from bot.storage.roll_records import PushRefusal
from cogs.yearzero.by_hand import BOT_ROLLED, FACES_INPUT, HAND_ROLLED
from cogs.yearzero.card import PUSHED_DICE
from cogs.yearzero.endings import REFUSED
from tests.bot.embeds import field, give_faces
from tests.cogs.test_by_hand import logged
from tests.cogs.yearzero.test_cog import GUILD, YZ, private_answer, rows, willpower
from tests.fakediscord import ALICE, BOB, GM, FakeDiscord, Reply

MODAL, UPDATE = 9, 7
FIRST = {"attribute": 2, "skill": 1, "gear": 1}
FACES = "6 3 1 4"  # base 6 3 1, gear 4: a push rerolls the 3 and the 4
NEW = "6 1"  # the 3 becomes a 6, the 4 a 1 (a gear bane)


@pytest.fixture
def fake_guilds():
    return (GUILD,)


async def by_hand(fake: FakeDiscord, user=ALICE, faces=FACES, **options) -> Reply:
    reply = await fake.slash("yz", {**FIRST, **options, "faces": faces}, user=user)
    assert reply.errors == [] and reply.embed["footer"]["text"].splitlines()[-1].startswith("🖐 "), reply.describe()
    return reply


def text_input(modal: dict) -> dict:
    [row] = modal["components"]
    [typed] = row["components"]
    return typed


async def test_the_push_button_opens_a_modal_for_the_new_faces_and_its_submission_pushes(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")  # the bot's dice would refuse to roll: every face is the player's
    reply = await by_hand(fake_discord)
    opened = await fake_discord.click(reply, label="Push")
    assert opened.type == MODAL and opened.modal["custom_id"] == f"rk:yz:pushfaces:{rows(db_path)[0]['id']}:0"
    assert opened.modal["title"] == "Push: the new faces"
    typed = text_input(opened.modal)
    assert typed["custom_id"] == FACES_INPUT and typed["label"] == "2 faces: Base, Gear"
    assert rows(db_path)[0]["pushes_made"] == 0 and willpower(db_path) is None  # opening it stores nothing

    pushed = await fake_discord.submit(opened, {FACES_INPUT: NEW})
    assert pushed.type == UPDATE and pushed.errors == [], pushed.describe()
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ `1`☠ ↻ `6`⚔\nGear: ↻ `1`☠"
    assert pushed.embed["footer"]["text"].endswith(f"\n{BY_HAND}") and pushed.message is reply.message
    assert rows(db_path)[0]["pushes_made"] == 1 and willpower(db_path) == 1
    again = await fake_discord.submit(opened, {FACES_INPUT: NEW})  # each push once
    assert REFUSED[PushRefusal.PUSHED_MEANWHILE] in private_answer(again)
    assert rows(db_path)[0]["pushes_made"] == 1 and willpower(db_path) == 1


async def test_a_push_by_hand_reads_and_counts_as_the_bots_push_of_the_same_faces(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    dice = give_faces(bot, "YearZero", 6, 3, 1, 4, 6, 1)
    by_bot = await fake_discord.slash("yz", FIRST, user=BOB)
    bot_push = await fake_discord.click(by_bot, label="Push", user=BOB)
    dice.finish()
    give_faces(bot, "YearZero")
    hand_push = await fake_discord.submit(await fake_discord.click(await by_hand(fake_discord), label="Push"),
                                          {FACES_INPUT: NEW})
    shown = ("title", "description", "fields", "color")
    assert {key: hand_push.embed[key] for key in shown} == {key: bot_push.embed[key] for key in shown}
    assert hand_push.embed["footer"]["text"] == bot_push.embed["footer"]["text"] + f"\n{BY_HAND}"
    assert willpower(db_path, ALICE) == willpower(db_path, BOB) == 1
    hand, bot_entry = logged(db_path)[1], logged(db_path)[0]
    assert hand["extras"].pop("by_hand") == 1 and hand == bot_entry  # the same reading, luck, push and Willpower


async def test_a_refused_modal_stores_nothing_and_only_the_roller_may_submit_it(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")
    opened = await fake_discord.click(await by_hand(fake_discord), label="Push")
    for typed, said in (("6", "Not enough faces: the roll needs at least 2, 1 given"),
                        ("6 1 1", "3 faces given, but the roll used 2"),
                        ("6 7", "Face 7 is impossible on a d6 (die 2)"), ("6 x", "Face 'x' is not a number")):
        assert said in private_answer(await fake_discord.submit(opened, {FACES_INPUT: typed}))
    not_yours = await fake_discord.submit(opened, {FACES_INPUT: NEW}, user=BOB)
    assert REFUSED[PushRefusal.NOT_YOURS] in private_answer(not_yours)
    assert rows(db_path)[0]["pushes_made"] == 0 and willpower(db_path) is None and willpower(db_path, BOB) is None
    pushed = await fake_discord.submit(opened, {FACES_INPUT: "6,1"})  # the roller may still push it
    assert pushed.type == UPDATE and willpower(db_path) == 1


async def test_a_modal_opened_before_a_restart_pushes_after_it(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")
    opened = await fake_discord.click(await by_hand(fake_discord), label="Push")
    restarted = await start_bot(extensions=YZ)
    assert restarted is not bot and bot.is_closed()
    give_faces(restarted, "YearZero")
    pushed = await fake_discord.submit(opened, {FACES_INPUT: NEW})
    assert pushed.type == UPDATE and field(pushed.embed, PUSHED_DICE).endswith("Gear: ↻ `1`☠")
    assert willpower(db_path) == 1


async def test_push_faces_pushes_a_roll_by_hand_in_one_line_and_only_such_a_roll(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")
    await by_hand(fake_discord)
    assert private_answer(await fake_discord.slash("push")) == HAND_ROLLED  # the bot would roll: it must not
    assert "Face 0 is impossible" in private_answer(await fake_discord.slash("push", {"faces": "0 1"}))
    assert rows(db_path)[0]["pushes_made"] == 0 and willpower(db_path) is None
    pushed = await fake_discord.slash("push", {"faces": NEW})
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ `1`☠ ↻ `6`⚔\nGear: ↻ `1`☠"
    assert pushed.embed["footer"]["text"].endswith(f"\n{BY_HAND}") and willpower(db_path) == 1

    give_faces(bot, "YearZero", 2, 3)
    await fake_discord.slash("yz", {"attribute": 2})  # rolled by the bot: typed faces may not push it
    assert private_answer(await fake_discord.slash("push", {"faces": "6 6"})) == BOT_ROLLED
    assert rows(db_path)[-1]["pushes_made"] == 0


async def test_a_private_roll_by_hand_is_pushed_through_its_modal_on_its_own_ephemeral_message(
    start_bot, fake_discord, db_path
):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")
    reply = await by_hand(fake_discord, private=True)
    assert reply.ephemeral and [b["label"] for row in reply.components for b in row["components"]] == [
        "Push", "Keep", "Reveal"
    ]
    pushed = await fake_discord.submit(await fake_discord.click(reply, label="Push"), {FACES_INPUT: NEW})
    assert pushed.type == UPDATE and pushed.message is reply.message and reply.ephemeral
    assert pushed.embed["footer"]["text"].endswith(f"\n{BY_HAND}") and willpower(db_path) == 1
    [entry] = logged(db_path)
    assert entry["extras"]["by_hand"] == 1 and entry["extras"]["pushes"] == 1


async def test_the_modal_speaks_the_cards_language(start_bot, fake_discord):
    bot = await start_bot(extensions=(*YZ, "cogs.settings.cog"))
    give_faces(bot, "YearZero")
    await fake_discord.slash("settings language", {"choice": "de"}, user=GM)
    opened = await fake_discord.click(await by_hand(fake_discord, faces="6 3 3 4", gear=1), label="Strapazieren")
    assert opened.modal["title"] == "Strapazieren: die neuen Augenzahlen"
    assert text_input(opened.modal)["label"] == "3 Augenzahlen: Grundwürfel ×2, Ausrüstung"


async def test_a_roll_by_hand_on_postgresql_is_pushed_through_its_modal(postgres_url, start_bot, fake_discord):
    bot = await start_bot(extensions=YZ, DATABASE_URL=postgres_url)
    give_faces(bot, "YearZero")
    reply = await by_hand(fake_discord)
    opened = await fake_discord.click(reply, label="Push")
    assert "Face 9 is impossible" in private_answer(await fake_discord.submit(opened, {FACES_INPUT: "6 9"}))
    pushed = await fake_discord.submit(opened, {FACES_INPUT: NEW})
    assert field(pushed.embed, PUSHED_DICE) == "Base: `6`⚔ `1`☠ ↻ `6`⚔\nGear: ↻ `1`☠"
    stored = await bot.db.rolls.get(int(opened.modal["custom_id"].split(":")[3]))
    assert stored.pushes_made == 1 and '"by_hand":true' in stored.payload
    submitted_again = await fake_discord.submit(opened, {FACES_INPUT: NEW})
    assert REFUSED[PushRefusal.PUSHED_MEANWHILE] in private_answer(submitted_again)


async def test_a_crafted_submission_without_faces_is_refused_privately(start_bot, fake_discord, db_path):
    bot = await start_bot(extensions=YZ)
    give_faces(bot, "YearZero")
    opened = await fake_discord.click(await by_hand(fake_discord), label="Push")
    for components in ([], [{"type": 1, "components": "6 1"}], "6 1", [7]):
        data = {"custom_id": opened.modal["custom_id"], "components": components}
        payload = fake_discord.payload(5, data)
        payload["message"] = opened.interaction["message"]
        assert "No faces given" in private_answer(await fake_discord.send_interaction(payload))
    assert rows(db_path)[0]["pushes_made"] == 0 and willpower(db_path) is None
