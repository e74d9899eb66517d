"""A burst on a freshly started bot (issue 9, finding 8): the answers share a bounded pool of connections.

Before, discord.py's default connector (no limit) opened one new connection per interaction callback in a burst,
each a TLS handshake on the bot's event loop against Discord: 2,000 at once answered with p95 near 3 s and up
to 579 late. The drill runs the real `python -m bot`, makes every answer take a long round trip (so the
callbacks of a burst overlap), sends a burst at once, and counts the connections the answers came on: at most
the pool's size, and every interaction answered once. The timing figures are `python -m bench --only bursts`.
"""

from __future__ import annotations

import asyncio

from bot.app.connections import DISCORD_CONNECTIONS
from tests.bot.payloads import slash_payload
from tests.drills.conftest import PLAYERS, scaled, table_of
from tests.drills.process import BotProcess
from tests.drills.reading import answered_once

TOKEN = "drill-token.burst-drill.never-log-me"
BURST = max(scaled(400), 2 * DISCORD_CONNECTIONS)
ROUND_TRIP = 0.4
"""Seconds the fake holds each answer: long enough that a burst's callbacks are all in flight together."""


async def test_a_cold_burst_shares_a_bounded_pool_of_connections(fake_discord, tmp_path):
    settings = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "INFO"}
    bot = await BotProcess.start(fake_discord, tmp_path, tmp_path / "bot.log", **settings)
    await bot.until_ready()
    fake_discord.backend.latency = ROUND_TRIP
    payloads = [
        slash_payload(fake_discord, "yz", {"attribute": 3, "skill": 2}, user=PLAYERS[n % 200], channel=table_of(n))
        for n in range(BURST)
    ]
    replies = [await fake_discord.send_interaction(payload, wait=False) for payload in payloads]
    await asyncio.wait_for(asyncio.gather(*(reply.answered.wait() for reply in replies)), 120)
    fake_discord.backend.latency = 0.0
    assert all(answered_once(reply) for reply in replies)
    connections = {request.peer for reply in replies for request in reply.requests if "callback" in request.path}
    print(f"{BURST} interactions answered on {len(connections)} connections")
    assert 1 <= len(connections) <= DISCORD_CONNECTIONS, len(connections)
    assert await bot.stop() == 0
