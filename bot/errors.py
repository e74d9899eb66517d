"""Errors the bot raises for something a player asked or can fix.

A `PlayerError` message is written to be shown to the player exactly as it is, like the rules engine's
`rules.errors.RulesError`, and keeps its English template and values apart for
``Speech.error``. The one error handler (`bot.interactions.tree.report_error`) shows both kinds as they are and
answers anything else with a short generic message.
"""

from __future__ import annotations


class PlayerError(Exception):
    """Base of the bot's own errors whose message a player can read as it is."""

    def __init__(self, template: str, **values: object) -> None:
        self.template = template
        self.values = values
        self.message = template.format(**values) if values else template
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message
