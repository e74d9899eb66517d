"""The interactions whose change the store applied, with their outcome: an interaction applies once.

Discord may deliver one INTERACTION_CREATE twice (a gateway RESUME replays events; a duplicate delivery). Each
change a player asks for - a roll, a push, a Willpower spend or set, an extended test's progress - is applied
together with a row here, in one transaction, keyed by the interaction's id. A repeat finds the row and gets
the first delivery's outcome back instead of applying again, so what it answers is what the first was told.

Rows are kept for `APPLIED_RETENTION` (a RESUME replays minutes, not hours) and then purged with the rolls.
The outcome is a JSON object (plain numbers and text) so that any driver can keep it as text.
"""

from __future__ import annotations

from datetime import timedelta

from bot.storage.shared.applied import AlreadyApplied, AppliedIn, Outcome, SharedAppliedInteractions
from bot.storage.store import Store

__all__ = ["APPLIED_RETENTION", "AlreadyApplied", "AppliedInteractions", "Outcome", "applied_in"]

APPLIED_RETENTION = timedelta(hours=24)
"""How long an applied interaction is remembered: far longer than any replay Discord makes."""

applied_in = AppliedIn()
"""SQLite's write transactions take turns, so a repeat always finds the first delivery's row: nothing to lock."""


class AppliedInteractions(SharedAppliedInteractions):
    """Read and purge the applied interactions (they are written by the changes themselves)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
