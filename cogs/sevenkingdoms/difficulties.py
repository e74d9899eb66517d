"""The Seven Kingdoms difficulties as a player types them: suggested in their language as they type, and read
by their name in English or in their language (the rules read the English names), or as a number."""

from __future__ import annotations

from discord import app_commands

from rules.language import Speech
from rules.names import name_key
from rules.sevenkingdoms.roll import DIFFICULTIES, MAX_TARGET, difficulty_number, minimum_rank


def difficulty_choices(speech: Speech) -> list[app_commands.Choice[str]]:
    """The named difficulties as autocomplete choices in the player's language (the value stays English)."""
    return [
        # Translators: an autocomplete choice (at most 100 characters): a difficulty, its number and minimum rank.
        app_commands.Choice(name=speech._("{name} ({number}, minimum rank {rank})", name=speech._(name),
                                          number=f"{number}+" if number == MAX_NAMED else number, rank=rank),
                            value=name)
        for name, number, rank in DIFFICULTIES
    ]


MAX_NAMED = DIFFICULTIES[-1][1]
"""The last named difficulty (Heroic) is this number and up."""


def difficulty_suggestions(typed: str, speech: Speech) -> list[app_commands.Choice[str]]:
    """Choices for a difficulty typed freely: a number (0-60) as typed, then the named ones that match (in the
    player's language or in English)."""
    text = typed.strip()
    found = [choice for choice in difficulty_choices(speech)
             if text.casefold() in choice.name.casefold() or text.casefold() in choice.value.casefold()]
    if text.isascii() and text.isdigit() and int(text) <= MAX_TARGET:
        number = int(text)
        label = speech._("{number} (minimum rank {rank})", number=number, rank=minimum_rank(number))
        found.insert(0, app_commands.Choice(name=label, value=str(number)))
    return found


def typed_difficulty(typed: str, speech: Speech) -> int:
    """The difficulty number of what the player typed: a number, or a named difficulty in English or in their
    language (the rules read the English names)."""
    key = name_key(typed, " ")
    for name, _, _ in DIFFICULTIES:
        if key is not None and key == name_key(speech._(name), " "):
            return difficulty_number(name)
    return difficulty_number(typed)
