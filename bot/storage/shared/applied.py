"""The interactions whose change a store applied, with their outcome, as both stores keep them (the rules are
in bot/storage/applied.py): read and purged by `SharedAppliedInteractions`, written inside the change's own
transaction by `AppliedIn`.

What a driver says its own way: what must run before a repeat is looked for. SQLite's write transactions take
turns, so nothing; PostgreSQL takes an advisory lock on the interaction's id (bot/storage/postgres/applied.py).
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

from bot.storage.shared.statements import Session, Statements

Outcome = dict[str, Any]

class AlreadyApplied(Exception):  # noqa: N818 - it is an answer, not an error: the change was made before
    """The interaction was applied before (a repeat): nothing was changed now; `outcome` is what it applied."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("this interaction was applied before")
        self.outcome = outcome


_RECALL = "SELECT outcome FROM applied_interactions WHERE interaction_id = :id"

_REMEMBER = """
INSERT INTO applied_interactions (interaction_id, subject, outcome, applied_at)
VALUES (:id, :subject, :outcome, :now)
"""

_LATEST_FOR = """
SELECT outcome FROM applied_interactions WHERE subject = :subject
ORDER BY applied_at DESC, interaction_id DESC LIMIT 1
"""

_FORGET = "DELETE FROM applied_interactions WHERE interaction_id = :id RETURNING interaction_id"

_PURGE = "DELETE FROM applied_interactions WHERE applied_at < :before"


def outcome_of(text: str) -> Outcome:
    """The outcome as stored (JSON text), read back."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"an applied interaction's outcome must be a JSON object, not {text!r}")
    return value


class AppliedIn:
    """The applied interactions inside a change's transaction: recall a repeat, remember, forget.

    ``before_recall``: a statement on ``:id`` that a driver runs first, so that a second delivery of the same
    interaction waits for the first to commit (None where transactions already take turns)."""

    def __init__(self, before_recall: str | None = None) -> None:
        self._before_recall = before_recall

    async def recalled(self, session: Session, interaction_id: int | None) -> Outcome | None:
        """The outcome stored for interaction_id inside session, or None (never applied, or no id given)."""
        if interaction_id is None:
            return None
        if self._before_recall is not None:
            await session.fetch_all(self._before_recall, {"id": interaction_id})
        row = await session.fetch_one(_RECALL, {"id": interaction_id})
        return outcome_of(row["outcome"]) if row else None

    async def remember(
        self, session: Session, interaction_id: int | None, outcome: Outcome, subject: str | None = None
    ) -> None:
        """Keep interaction_id's outcome inside session (nothing when no id is given)."""
        if interaction_id is None:
            return
        params = {"id": interaction_id, "subject": subject, "outcome": json.dumps(outcome), "now": time.time()}
        await session.fetch_all(_REMEMBER, params)

    async def forget(self, session: Session, interaction_id: int) -> bool:
        """Forget interaction_id inside session (its change is being withdrawn: a repeat may apply it anew);
        False when it was not remembered."""
        return bool(await session.fetch_all(_FORGET, {"id": interaction_id}))


class SharedAppliedInteractions:
    """Read and purge the applied interactions (they are written by the changes themselves)."""

    def __init__(self, statements: Statements[Any]) -> None:
        self._db = statements

    async def outcome(self, interaction_id: int) -> Outcome | None:
        """What the interaction applied, or None when the store never applied it (or forgot it)."""
        row = await self._db.fetch_one(_RECALL, {"id": interaction_id})
        return outcome_of(row["outcome"]) if row else None

    async def latest_for(self, subject: str) -> Outcome | None:
        """The outcome of the latest interaction applied to subject (e.g. 'yz_roll:12'), or None."""
        row = await self._db.fetch_one(_LATEST_FOR, {"subject": subject})
        return outcome_of(row["outcome"]) if row else None

    async def purge(self, before: datetime) -> int:
        """Forget the interactions applied before `before`; return how many."""
        return await self._db.execute(_PURGE, {"before": before.timestamp()})
