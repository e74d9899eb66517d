"""How a player's spelling of a name (a difficulty, a kind of roll) is read: case and separators folded, but
only between words, so a stray sign or separator is not silently dropped ("-easy", "6-" and "--6" are refused,
not read as Easy or 6)."""

from __future__ import annotations

import re

_WORDS = re.compile(r"[^\W_]+(?:(?:\s+|\s*[-_/]\s*)[^\W_]+)*")
_WORD = re.compile(r"[^\W_]+")


def name_key(text: object, joiner: str = "_") -> str | None:
    """The words of text, lowercased and joined by joiner ('Very-Hard' -> 'very_hard'); None when text is not
    a name: empty, or with a separator before, after or doubled between its words."""
    stripped = str(text).strip()
    if not _WORDS.fullmatch(stripped):
        return None
    return joiner.join(word.lower() for word in _WORD.findall(stripped))
