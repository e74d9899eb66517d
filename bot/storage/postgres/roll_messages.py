"""The messages that show Year Zero rolls, noted as they are sent and written in batches (see
bot/storage/roll_messages.py): on PostgreSQL one UPDATE writes a whole batch."""

from __future__ import annotations

from bot.storage.postgres.named import NamedStatements
from bot.storage.postgres.pool import PostgresStore
from bot.storage.roll_messages import RollMessages

_SET_MESSAGES = """
UPDATE yz_rolls SET channel_id = noted.channel, message_id = noted.message
FROM unnest(:ids::bigint[], :channels::bigint[], :messages::bigint[]) AS noted (id, channel, message)
WHERE yz_rolls.id = noted.id
RETURNING yz_rolls.id
"""


class PostgresRollMessages(RollMessages):
    """Message ids noted as rolls are sent, written in batches: one UPDATE for the whole batch."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(NamedStatements(store))

    async def _write(self, noted: dict[int, tuple[int, int]]) -> int:
        ids = list(noted)
        channels = [noted[roll_id][0] for roll_id in ids]
        messages = [noted[roll_id][1] for roll_id in ids]
        return len(await self._store.fetch_all(_SET_MESSAGES, {"ids": ids, "channels": channels, "messages": messages}))
