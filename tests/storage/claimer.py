"""A second process for tests/storage/test_postgres.py: claims every roll it is given, all at once.

    python -m tests.storage.claimer URL GO_FILE ROLL_ID:USER_ID...

Opens its pool and prints "ready", waits until GO_FILE exists (so both processes start together), claims each
roll as its roller, then prints one JSON line: the ids of the rolls this process won.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage.postgres import PostgresDatabase

NOW = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


async def claim_all(url: str, go: Path, rolls: dict[int, int]) -> list[int]:
    """Claim every roll (roll id -> its roller) at once when go appears; return the ids of those won."""
    async with await PostgresDatabase.open(url) as db:
        print("ready", flush=True)
        deadline = time.monotonic() + 30
        while not go.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        claims = await asyncio.gather(
            *(db.rolls.claim_push(roll, user, "{}", 1, NOW, timedelta(hours=1)) for roll, user in rolls.items())
        )
    return [roll for roll, claim in zip(rolls, claims, strict=True) if claim.refusal is None]


if __name__ == "__main__":
    url, go, *pairs = sys.argv[1:]
    rolls = dict(tuple(map(int, pair.split(":"))) for pair in pairs)
    print(json.dumps(asyncio.run(claim_all(url, Path(go), rolls))))
