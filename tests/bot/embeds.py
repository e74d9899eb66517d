"""Small readers shared by the cog tests: fixed dice for a cog, and an embed's field by name."""

from rules.dice import FixedDice


def give_faces(bot, cog: str, *faces: int) -> FixedDice:
    """Make the named cog read these faces for its next rolls; return the source (to check all were used)."""
    dice = FixedDice(list(faces))
    bot.get_cog(cog).dice = dice
    return dice


def field(embed: dict, name: str) -> str:
    """The value of the embed's field called name."""
    return next(item["value"] for item in embed["fields"] if item["name"] == name)


def odds(embed: dict) -> str:
    """The card's odds line: its footer."""
    return embed["footer"]["text"]


def below_title(embed: dict) -> list[str]:
    """The description's lines: system and pool first, then the note and the details."""
    return embed["description"].splitlines()


def assert_ended_as(message: dict, ending: str, *, left: tuple[str, ...] = ()) -> None:
    """The message (a stored one, or a callback's data) says once, in its card, why its roll ended: the card has the
    ending's line, no content repeats it, and no buttons are left but `left` (a private roll's Reveal). ending is
    an `Ending` (a /push ending's line may link to the pushed roll, so only its words before the colon are
    compared)."""
    assert not message.get("content"), f"the ending is said twice: content {message.get('content')!r}"
    lines = message["embeds"][0]["description"].splitlines()
    assert any(line.startswith(ending.split(":")[0]) for line in lines), lines
    kept = tuple(button["label"] for row in message.get("components") or () for button in row["components"])
    assert kept == left, message.get("components")
