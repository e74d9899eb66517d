"""What a ``python -m rules`` sub-command answers (its JSON is described by ``output.schema.json`` beside it)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from rules.dice import DiceSource
from rules.language import Speech


@dataclass(frozen=True)
class CliOutput:
    """What a sub-command answers: the JSON object and the human summary of the same thing."""

    data: dict
    text: str


Handler = Callable[[argparse.Namespace, DiceSource, Speech], CliOutput]
"""A sub-command: its arguments, the dice to roll, and the language of its summary (never of its JSON)."""
