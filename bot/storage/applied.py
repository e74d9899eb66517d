"""Interactions whose change the store applied, and their outcome: each applies once (docs/architecture.md)."""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

from bot.storage.driver import Row, Session, Statements

Outcome = dict[str, Any]

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
_PURGE = "DELETE FROM applied_interactions WHERE applied_at < :before RETURNING interaction_id"


class AlreadyApplied(Exception):  # noqa: N818 - it is an answer, not an error: the change was made before
    """The interaction was applied before (a repeat): nothing was changed now; `outcome` is what it applied."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__("this interaction was applied before")
        self.outcome = outcome


def outcome_of(row: Row | None) -> Outcome | None:
    """The outcome a row holds read back (a JSON object as text, as `remember` wrote it); None for no row."""
    return None if row is None else json.loads(row["outcome"])


class AppliedInteractions:
    """The applied interactions, kept in a change's transaction (``before_recall``: a repeat waits for the first)."""

    def __init__(self, statements: Statements, before_recall: str | None) -> None:
        self._db = statements
        self._before_recall = before_recall

    async def recalled(self, session: Session, interaction_id: int | None) -> Outcome | None:
        """The outcome stored for interaction_id, or None (never applied, or no id given)."""
        if interaction_id is None:
            return None
        if self._before_recall is not None:
            await session.fetch_all(self._before_recall, {"id": interaction_id})
        return outcome_of(await session.fetch_one(_RECALL, {"id": interaction_id}))

    async def remember(
        self, session: Session, interaction_id: int | None, outcome: Outcome, subject: str | None = None
    ) -> None:
        """Keep interaction_id's outcome (nothing when no id is given)."""
        if interaction_id is None:
            return
        params = {"id": interaction_id, "subject": subject, "outcome": json.dumps(outcome), "now": time.time()}
        await session.fetch_all(_REMEMBER, params)

    async def forget(self, session: Session, interaction_id: int) -> bool:
        """Forget interaction_id, its change withdrawn (a repeat may apply it anew); False when not remembered."""
        return bool(await session.fetch_all(_FORGET, {"id": interaction_id}))

    async def latest_for(self, subject: str) -> Outcome | None:
        """The outcome of the latest interaction applied to subject (e.g. 'yz_roll:12'), or None."""
        return outcome_of(await self._db.fetch_one(_LATEST_FOR, {"subject": subject}))

    async def purge(self, before: datetime) -> int:
        """Forget the interactions applied before `before`; return how many."""
        return len(await self._db.write(_PURGE, {"before": before.timestamp()}))
