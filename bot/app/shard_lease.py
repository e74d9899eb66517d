"""This process's lease on the shards it serves: taken at start, renewed while it lives, given back at stop.

Two processes started with one token on one database would both answer every interaction (each spend applied
twice, each shown roll superseded by the other's). The second is refused at start with one line (exit code 2).
A process that crashed stops renewing: its lease expires after LEASE_TTL_SECONDS; on the same host a lease
whose process is gone (or is an earlier run under this very pid, as after a container restart) is taken over
at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from bot.storage.database import Storage
from bot.storage.errors import StorageError
from bot.storage.leases import HeldLease

_log = logging.getLogger(__name__)


class LeaseHeld(Exception):
    """Another live process serves these shards on this database; the message is the one line to print."""

    def __init__(self, held: Sequence[HeldLease], path: object) -> None:
        shards = ", ".join(str(lease.shard_id) for lease in held)
        owner, until = held[0].owner.rsplit(":", 1)[0], held[0].expires_at.strftime("%H:%M:%S UTC")
        super().__init__(
            f"Another rollkeeper ({owner}) is already serving shard {shards} of this bot with the database {path} "
            f"(its lease runs until {until}, renewed while it runs): stop it first; two would answer everything twice."
        )


def new_owner() -> str:
    """This process's name in the lease table: host, pid and a nonce that tells this run from earlier ones."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def is_gone(owner: str) -> bool:
    """True when owner was a process on this host that no longer runs (or an earlier run under our pid)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isascii() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # the nonce differs (else it would be ours): an earlier run under this same pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, but another user's
        return False
    return False


class ShardLease:
    """Take, renew and give back one process's leases; `on_lost` is called if a renewal finds them gone."""

    def __init__(
        self, db: Storage, shard_ids: Sequence[int], *, ttl: float, renew_every: float,
        clock: Callable[[], datetime], on_lost: Callable[[], object],
    ) -> None:
        self.db, self.shard_ids, self.owner = db, tuple(shard_ids), new_owner()
        self.ttl, self.renew_every = timedelta(seconds=ttl), renew_every
        self._clock, self._on_lost = clock, on_lost
        self._renewing: asyncio.Task[None] | None = None

    async def take(self) -> None:
        """Take every shard's lease, or raise LeaseHeld (nothing taken); renewed from now on."""
        await self._take(self.shard_ids)
        self._renewing = asyncio.create_task(self._renew_periodically(), name="rollkeeper-lease")

    async def cover(self, shard_count: int) -> None:
        """Lease the shards of shard_count not held yet, renewed with the others from now on (Discord's count,
        known only as the shards connect, names them), or raise LeaseHeld (none of them taken)."""
        missing = tuple(shard for shard in range(shard_count) if shard not in self.shard_ids)
        if missing:
            await self._take(missing)
            self.shard_ids = (*self.shard_ids, *missing)

    async def _take(self, shard_ids: Sequence[int]) -> None:
        held = await self.db.leases.take(shard_ids, self.owner, self._clock(), self.ttl)
        gone = {lease.owner for lease in held if is_gone(lease.owner)}
        if gone:
            _log.info("Taking over the shard lease of a process that is gone: %s", ", ".join(sorted(gone)))
            held = await self.db.leases.take(shard_ids, self.owner, self._clock(), self.ttl, overrule=gone)
        if held:
            raise LeaseHeld(held, self.db.store.location)

    async def _renew_periodically(self) -> None:
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                kept = await self.db.leases.renew(self.shard_ids, self.owner, self._clock(), self.ttl)
            except StorageError as error:  # busy: the next renewal may pass, well within the TTL
                _log.warning("Could not renew the shard lease: %s", error)
                continue
            if not kept:
                _log.error("This process lost its shard lease (another process took it over): stopping")
                self._on_lost()
                return

    async def release(self) -> None:
        """Stop renewing and give the leases back, so the next start need not wait for them to expire."""
        if self._renewing is not None:
            self._renewing.cancel()
            await asyncio.gather(self._renewing, return_exceptions=True)
            self._renewing = None
            try:
                await self.db.leases.release(self.owner)
            except StorageError as error:
                _log.warning("Could not give back the shard lease (it will expire): %s", error)
