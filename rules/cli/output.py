"""What a ``python -m rules`` sub-command answers (its JSON is described by ``output.schema.json`` beside it)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from rules.dice import DiceSource


@dataclass(frozen=True)
class CliOutput:
    """What a sub-command answers: the JSON object and the human summary of the same thing."""

    data: dict
    text: str


Handler = Callable[[argparse.Namespace, DiceSource], CliOutput]
