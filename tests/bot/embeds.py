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
