"""Player text is inert on every card: no masked links, no fake formatting, no reversed or hidden characters."""

from __future__ import annotations

import pytest

from bot.text import inert
from tests.cogs.yearzero.test_cog import YZ, roll

PHISHING = "[Push here](https://evil.example) **Success!** \u202egnp.exe\u200b"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("[Push here](https://evil.example)", "\\[Push here](https://evil.example)"),
        ("**Success!**", "\\*\\*Success!\\*\\*"),
        ("a\u202eb\u2066c\u200bd\ufeffe", "a b c d e"),
        ("line\nbreak\ttab", "line break tab"),
        ("  plain words  ", "plain words"),
        ("__x__ ~~y~~ `z` ||w||", "\\_\\_x\\_\\_ \\~\\~y\\~\\~ \\`z\\` \\|\\|w\\|\\|"),
    ],
)
def test_inert_escapes_markdown_and_drops_invisible_characters(typed, shown):
    assert inert(typed) == shown


def test_inert_cuts_to_the_limit_before_escaping():
    assert inert("x" * 10, 5) == "xxxx…"
    assert inert("*" * 10, 3) == "\\*\\*…"


async def test_a_note_cannot_pose_as_the_bot(start_bot, fake_discord):
    bot = await start_bot(extensions=YZ)
    reply = await roll(fake_discord, bot, [6, 6], attribute=2, skill=0, note=PHISHING)
    description = reply.embed["description"]
    first_line = description.splitlines()[1]  # under the system and pool
    assert first_line == "> \\[Push here](https://evil.example) \\*\\*Success!\\*\\* gnp.exe"
    assert "\u202e" not in description and "\u200b" not in description
    assert "](https://evil.example)" in first_line and "\\[" in first_line  # shown as typed, not as a link
