"""Year Zero rolls in PostgreSQL: what PostgreSQL says its own way (the rest is bot/storage/shared/rolls.py).

A claim is one UPDATE whose WHERE holds every condition of a pushable roll, including a compare-and-set on
pushes_made (the Nth push); under READ COMMITTED a second claim racing the first - from this process or another
- waits for the first's row lock, then re-reads the committed row, finds pushes_made moved on (or the roll
ended) and matches nothing. Keep is the same kind of UPDATE, so a Keep racing a push ends the roll one way only.
The Willpower gain locks the roller's row in the claim's transaction: a push and its points are stored both or
neither.
"""

from __future__ import annotations

from bot.storage.postgres.applied import applied_in
from bot.storage.postgres.named import NamedStatements, NamedTransaction
from bot.storage.postgres.pool import PostgresStore
from bot.storage.postgres.roll_messages import PostgresRollMessages
from bot.storage.postgres.willpower import LOCKED_POINTS
from bot.storage.shared.rolls import SharedRolls
from bot.storage.shared.statements import Row
from bot.storage.shared.willpower import WillpowerChange, gain_in

# The roll is pushable: its roller's, within its lifetime, pending and the player's newest here.
_PUSHABLE = """
roll.id = :id AND roll.user_id = :user AND roll.created_at >= :oldest AND roll.state = 'pending'
  AND NOT EXISTS (
      SELECT 1 FROM yz_rolls AS newer
      WHERE newer.guild_id = roll.guild_id AND newer.channel_id = roll.channel_id
        AND newer.user_id = roll.user_id AND newer.id > roll.id
  )
"""


class PostgresRolls(SharedRolls[NamedTransaction]):
    """The pushable Year Zero rolls."""

    _CLAIM = f"""
UPDATE yz_rolls AS roll SET state = CASE WHEN :last THEN 'pushed' ELSE 'pending' END,
    pushed_payload = :pushed, pushed_at = :now, pushes_made = roll.pushes_made + 1
WHERE {_PUSHABLE} AND roll.pushes_made = :made AND roll.pushes_made < roll.pushes_allowed
RETURNING roll.*
"""

    _KEEP = f"UPDATE yz_rolls AS roll SET state = 'kept' WHERE {_PUSHABLE} RETURNING roll.*"

    _HIGHEST_ID = "SELECT coalesce(pg_sequence_last_value(pg_get_serial_sequence('yz_rolls', 'id')), 0) AS highest"

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store), PostgresRollMessages(store), applied_in)

    async def _gain(self, session: NamedTransaction, claimed: Row, user_id: int, points: int) -> WillpowerChange:
        """The roller's Willpower row is locked first, so a racing change builds on this one."""
        return await gain_in(session, LOCKED_POINTS, claimed["guild_id"], user_id, points)
