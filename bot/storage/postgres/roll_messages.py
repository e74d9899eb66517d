"""The messages that show Year Zero rolls, noted as they are sent and written in batches (see
bot/storage/roll_messages.py): on PostgreSQL one UPDATE writes a whole batch."""

from __future__ import annotations

import logging

from bot.storage.errors import StorageError
from bot.storage.postgres.pool import PostgresStore
from bot.storage.roll_messages import RollMessages

_log = logging.getLogger(__name__)

_SET_MESSAGES = """
UPDATE yz_rolls SET channel_id = noted.channel, message_id = noted.message
FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS noted (id, channel, message)
WHERE yz_rolls.id = noted.id
RETURNING yz_rolls.id
"""


class PostgresRollMessages(RollMessages):
    """Message ids noted as rolls are sent, written in batches: one UPDATE for the whole batch."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(store)
        self._postgres = store

    async def _write(self, noted: dict[int, tuple[int, int]]) -> int:
        ids = list(noted)
        channels = [noted[roll_id][0] for roll_id in ids]
        messages = [noted[roll_id][1] for roll_id in ids]
        try:
            return len(await self._postgres.fetch_all(_SET_MESSAGES, ids, channels, messages))
        except StorageError as error:
            _log.warning("Could not note the messages of %d Year Zero rolls: %s", len(noted), error)
            return 0
