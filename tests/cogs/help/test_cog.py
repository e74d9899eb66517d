"""/help through the fake Discord: every page reachable from the menu, within Discord's limits, after a restart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.app.client import EXTENSIONS
from bot.render.common import DESCRIPTION, EMBED_TOTAL, TITLE
from cogs.help.pages import PAGES, RULINGS
from tests.fakediscord import BOB

RULES_DOC = Path(__file__).resolve().parents[3] / "docs" / "rules.md"


@pytest.fixture
async def bot(start_bot):
    return await start_bot(extensions=EXTENSIONS)


def menu(reply) -> dict:
    (row,) = reply.components
    (select,) = row["components"]
    assert select["type"] == 3 and select["custom_id"] == f"rk:help:{reply.interaction['member']['user']['id']}"
    return select


def shown(reply) -> str:
    """The page the menu marks as shown."""
    (default,) = [option["value"] for option in menu(reply)["options"] if option.get("default")]
    return default


async def pick(fake_discord, reply, key: str, **who):
    """Pick the page key in the help menu of reply's message."""
    custom_id = next(c["custom_id"] for row in reply.components for c in row["components"])
    return await fake_discord.click(reply, custom_id, values=[key], **who)


def embed_size(embed: dict) -> int:
    return len(embed.get("title", "")) + len(embed.get("description", "")) + len(embed["footer"]["text"])


async def test_help_is_private_by_default_and_opens_on_the_start_page(fake_discord, bot):
    reply = await fake_discord.slash("help")
    assert reply.ephemeral and reply.type == 4
    embed = reply.embed
    assert embed["title"] == "rollkeeper: dice for the table"
    assert embed["footer"]["text"] == f"Page 1 of {len(PAGES) + 1} · pick another in the menu below"
    options = menu(reply)["options"]
    assert [option["label"] for option in options][:2] == ["Start here", "Every command"]
    assert len(options) == len(PAGES) + 1 and shown(reply) == "start"


async def test_every_page_is_reachable_and_within_discords_limits(fake_discord, bot):
    reply = await fake_discord.slash("help")
    keys = [option["value"] for option in menu(reply)["options"]]
    titles = set()
    for number, key in enumerate(keys, 1):
        turned = await pick(fake_discord, reply, key)
        assert turned.type == 7, turned.describe()  # the same message, turned to that page
        embed = turned.embeds[0]
        assert embed["footer"]["text"].startswith(f"Page {number} of {len(keys)}")
        assert shown(turned) == key
        assert len(embed["title"]) <= TITLE and len(embed["description"]) <= DESCRIPTION
        assert embed_size(embed) <= EMBED_TOTAL and embed["description"].strip()
        titles.add(embed["title"])
    assert len(titles) == len(keys)  # each page its own


async def test_the_commands_page_lists_every_registered_command(fake_discord, bot):
    reply = await fake_discord.slash("help")
    page = (await pick(fake_discord, reply, "commands")).embeds[0]["description"]
    listed = set(re.findall(r"^`/([a-z -]+)`", page, flags=re.MULTILINE))
    registered = {command.qualified_name for command in bot.tree.walk_commands() if not hasattr(command, "commands")}
    assert listed == registered
    assert {"help", "test clear", "hex cast", "willpower-set", "yz"} <= listed


async def test_the_pages_explain_the_notation_and_show_dice_as_the_cards_do(fake_discord, bot):
    reply = await fake_discord.slash("help")
    notation = (await pick(fake_discord, reply, "notation")).embeds[0]
    assert notation["title"] == "The pool in one line: 3D+2B-1P"
    assert "discards the highest, and adds the best three" in notation["description"]
    symbols = (await pick(fake_discord, reply, "symbols")).embeds[0]["description"]
    assert "`6`⚔" in symbols and "`1`☠" in symbols and "~~`6`~~" in symbols and "`1`⚠" in symbols
    assert "✅ success" in symbols and "💀 disaster" in symbols  # the outcome symbols of the card titles


async def test_public_help_is_turned_by_its_asker_and_others_get_their_own_copy(fake_discord, bot):
    reply = await fake_discord.slash("help", {"public": True})
    assert not reply.ephemeral
    other = await pick(fake_discord, reply, "rulings", user=BOB)
    assert other.type == 4 and other.ephemeral and other.embeds[0]["title"] == RULINGS.title
    assert shown(reply) == "start"  # the shared message did not move
    assert menu(other)["custom_id"] == f"rk:help:{BOB.id}"
    mine = await pick(fake_discord, reply, "rulings")
    assert mine.type == 7 and shown(reply) == "rulings"


async def test_the_menu_still_works_after_a_restart(fake_discord, start_bot):
    await start_bot(extensions=("cogs.help.cog",))
    reply = await fake_discord.slash("help")
    await start_bot(extensions=("cogs.help.cog",))
    turned = await pick(fake_discord, reply, "hex")
    assert turned.type == 7 and turned.embeds[0]["title"] == "HEX: d6 pools, 6s succeed"


def test_the_rulings_page_names_each_ruling_of_docs_rules():
    readme = RULES_DOC.read_text(encoding="utf-8")
    listed = readme.split("## The rules, and our rulings", 1)[1].split("And the fine points", 1)[0]
    headlines = re.findall(r"^\d+\. \*\*(.+?)\.?\*\*", listed, flags=re.MULTILINE)
    assert len(headlines) == 10
    for headline in headlines:
        assert f"**{headline}**" in RULINGS.text, headline
