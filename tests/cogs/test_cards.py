"""Every card kind the bot sends (tests/cogs/cards.py), checked for its shape: the outcome first with a symbol
that reads without colour, a colour that reads on both Discord themes, no author line, its fields, its odds."""

from __future__ import annotations

import pytest

from bot.render import common
from bot.render.common import DARK_EMBED, LIGHT_EMBED, Tones
from tests.cogs.cards import CARD_KINDS
from tests.cogs.test_render import public_renderers

MIN_CONTRAST = 3.0


def relative_luminance(colour: int) -> float:
    """WCAG 2 relative luminance of a 0xRRGGBB colour."""
    channels = [(colour >> shift & 0xFF) / 255 for shift in (16, 8, 0)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: int, b: int) -> float:
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_formula_matches_wcag_reference_values():
    assert contrast(0x000000, 0xFFFFFF) == pytest.approx(21.0)
    assert contrast(0x777777, 0xFFFFFF) == pytest.approx(4.48, abs=0.01)
    assert contrast(0x5B0A0A, DARK_EMBED) < MIN_CONTRAST  # the old disaster colour, invisible on dark


@pytest.mark.parametrize("tone", Tones.all(), ids=lambda tone: tone.symbol)
@pytest.mark.parametrize("background", [DARK_EMBED, LIGHT_EMBED], ids=["dark", "light"])
def test_every_tone_reads_on_both_discord_themes(tone, background):
    assert contrast(tone.colour.value, background) >= MIN_CONTRAST


def test_every_colour_a_card_uses_is_a_checked_tone():
    """No renderer picks a colour outside the tones: every card's colour is one of them."""
    tones = {tone.colour.value for tone in Tones.all()}
    assert {kind.build().colour.value for kind in CARD_KINDS} <= tones
    assert not hasattr(common, "Colour")  # the old unchecked palette is gone


def test_symbols_do_not_depend_on_colour_and_tell_outcomes_apart():
    outcomes = [Tones.SUCCESS, Tones.CRIT, Tones.PARTIAL, Tones.FAILURE, Tones.DISASTER]
    assert len({tone.symbol for tone in outcomes}) == len(outcomes)


def test_the_catalogue_covers_every_renderer_and_every_tone():
    renderers = {function for functions in public_renderers().values() for function in functions}
    assert {kind.renderer for kind in CARD_KINDS} == renderers
    assert {kind.tone for kind in CARD_KINDS} == set(Tones.all())


@pytest.mark.parametrize("kind", CARD_KINDS, ids=lambda kind: kind.name)
def test_card_shape(kind):
    card = kind.build()
    assert card.title.startswith(f"{kind.tone.symbol} "), card.title
    assert card.colour.value == kind.tone.colour.value
    assert card.author.name is None  # Discord already shows who used the command
    names = [field.name for field in card.fields]
    assert len(names) == len(kind.fields) and all(
        name.startswith(expected) for name, expected in zip(names, kind.fields, strict=True)
    ), names
    first_line = card.description.splitlines()[0]
    assert first_line.split(" · ")[0] in ("HEX test", "HEX contest", "HEX cast", "HEX plain roll", "Year Zero",
                                          "Heroic", "Seven Kingdoms", "Seven Kingdoms competition",
                                          "Seven Kingdoms extended", "Resource die"), first_line
    if card.footer.text:
        assert card.footer.text.startswith("Odds: ")


@pytest.mark.parametrize("kind", CARD_KINDS, ids=lambda kind: kind.name)
def test_card_lines_fit_a_phone(kind):
    """About 40 characters fit one line of a title on a 400-px phone; the outcome must not wrap to three."""
    assert len(kind.build().title) <= 80


@pytest.mark.parametrize(
    ("argv", "card"),
    [
        (["odds", "heroic", "--skill", "3", "--difficulty", "easy"], "heroic success"),
        (["odds", "hex", "test", "--attribute", "4"], "hex test failure"),
        (["odds", "hex", "contest", "--attribute", "3", "--opposing", "3"], "hex contest won"),
        (["odds", "hex", "cast", "--attribute", "4", "--risk", "2"], "hex cast fizzle"),
        (["odds", "hex", "plain", "--dice", "4"], "hex plain roll"),
        (["odds", "yz", "--attribute", "3", "--skill", "2", "--gear", "1"], "yz first roll, success"),
        (["odds", "sk", "test", "--pool", "3D+2B-1P", "--difficulty", "routine"], "sk success"),
    ],
)
def test_the_bot_and_the_command_line_write_odds_alike(argv, card, capsys):
    """One odds format everywhere: the card's footer is a line the command line prints for the same roll."""
    from rules.cli.main import main

    assert main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    footer = next(kind for kind in CARD_KINDS if kind.name == card).build().footer.text
    assert footer in printed


ALL_COGS = ("cogs.hex.cog", "cogs.heroic.cog", "cogs.sevenkingdoms.cog", "cogs.yearzero.cog", "cogs.willpower.cog")
SENT = [  # (command, options, cog, faces, the tone of the card, its buttons)
    ("hex test", {"attribute": 2}, "Hex", [6, 2], Tones.SUCCESS, []),
    ("hex contest", {"attribute": 1, "opposing": 1}, "Hex", [2, 6], Tones.FAILURE, []),
    ("hex cast", {"attribute": 2, "risk": 1}, "Hex", [2, 1], Tones.DISASTER, []),
    ("hex plain", {"dice": 2}, "Hex", [6, 6], Tones.NEUTRAL, []),
    ("heroic difficulty", {"skill": 3, "difficulty": "easy"}, "Heroic", [6, 6], Tones.CRIT, []),
    ("heroic tn", {"skill": 3, "tn": 20}, "Heroic", [2, 3], Tones.FAILURE, []),
    ("heroic versus", {"skill": 3, "versus": 2}, "Heroic", [6, 6], Tones.CRIT, []),
    ("test basic", {"rank": 2, "difficulty": "Easy"}, "SevenKingdoms", [1, 1], Tones.FAILURE, []),
    ("test competition", {"participants": "Arya 1D, Sansa 1D"}, "SevenKingdoms", [3, 3], Tones.TIE, []),
    ("test extended", {"task": "Siege", "needed": 3, "rank": 1, "difficulty": "3"}, "SevenKingdoms", [6],
     Tones.SUCCESS, []),
    ("test progress", {}, "SevenKingdoms", [], Tones.PROGRESS, []),
    ("yz", {"attribute": 2, "skill": 0}, "YearZero", [2, 3], Tones.FAILURE, ["Push", "Keep"]),
    ("push", {}, "YearZero", [6, 1], Tones.SUCCESS, []),
]


async def test_every_card_the_bot_sends_has_its_shape_through_discord(start_bot, fake_discord):
    """The cards as discord.py sends them to (the fake) Discord: outcome symbol, tone colour, no author, and the
    buttons each kind carries (only a pushable Year Zero roll has them: Push and Keep)."""
    from tests.bot.embeds import give_faces

    bot = await start_bot(extensions=ALL_COGS)
    for command, options, cog, faces, tone, buttons in SENT:
        dice = give_faces(bot, cog, *faces)
        reply = await fake_discord.slash(command, options)
        dice.finish()
        card = reply.embed
        assert card["title"].startswith(f"{tone.symbol} "), (command, card["title"])
        assert card["color"] == tone.colour.value and "author" not in card, command
        shown = [item["label"] for row in reply.components for item in row["components"]]
        assert shown == buttons, command
