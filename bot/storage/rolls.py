"""Year Zero rolls in SQLite: what SQLite says its own way (the rest is bot/storage/shared/rolls.py).

Every statement is one trip to aiosqlite's thread, so storing a roll is one INSERT, and a push claim is four
trips in a ``BEGIN IMMEDIATE`` transaction: BEGIN, the claim (which also returns the roller's Willpower before
it), the new Willpower, COMMIT. SQLite's write transactions take turns, so the claim's conditions, read through
the view ``yz_roll_states`` (migration V3), hold until it commits: of any number of simultaneous pushes - in one
process or several on one database - exactly one wins.
"""

from __future__ import annotations

from bot.storage.applied import applied_in
from bot.storage.roll_messages import RollMessages
from bot.storage.roll_records import (  # noqa: F401 (offered here as they always were)
    PURGE_BATCH,
    PushClaim,
    PushRefusal,
    RollState,
    YearZeroRoll,
    epoch,
    push_subject,
    refusal_of,
)
from bot.storage.shared.rolls import SharedRolls
from bot.storage.shared.statements import Row
from bot.storage.shared.willpower import WillpowerChange, gained, store_in
from bot.storage.store import Store, Transaction


class YearZeroRolls(SharedRolls[Transaction]):
    """The pushable Year Zero rolls."""

    _CLAIM = """
UPDATE yz_rolls SET state = CASE WHEN :last THEN 'pushed' ELSE 'pending' END,
    pushed_payload = :pushed, pushed_at = :now, pushes_made = pushes_made + 1
WHERE id = :id AND user_id = :user AND created_at >= :oldest
  AND pushes_made = :made AND pushes_made < pushes_allowed
  AND (SELECT state FROM yz_roll_states WHERE id = :id) = 'pending'
RETURNING *, (
    SELECT points FROM willpower WHERE willpower.guild_id = yz_rolls.guild_id AND willpower.user_id = :user
) AS willpower_before
"""

    _KEEP = """
UPDATE yz_rolls SET state = 'kept'
WHERE id = :id AND user_id = :user AND created_at >= :oldest
  AND (SELECT state FROM yz_roll_states WHERE id = :id) = 'pending'
RETURNING *
"""

    _HIGHEST_ID = "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'yz_rolls'), 0) AS highest"

    def __init__(self, store: Store) -> None:
        super().__init__(store, RollMessages(store), applied_in)

    async def _gain(self, session: Transaction, claimed: Row, user_id: int, points: int) -> WillpowerChange:
        """The claim read the Willpower before it; the write lock is held, so only the new total is written."""
        change = gained(claimed["willpower_before"] or 0, points)
        return await store_in(session, claimed["guild_id"], user_id, change)
