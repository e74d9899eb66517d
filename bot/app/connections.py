"""The bot's connections to Discord's REST API: a bounded pool, kept alive between bursts.

discord.py's own connector has no limit: a burst of interactions on a freshly started bot opened one new TLS
connection per answer, every handshake on the event loop at once (2,000 at once answered with p95 near 3 s).
The pool is passed as discord.py's public ``connector=`` option by ``python -m bot``.
"""

from __future__ import annotations

import aiohttp

DISCORD_CONNECTIONS = 128
"""At most this many connections to Discord's API at once (discord.py's own connector has no limit). Each serves
one request per round trip: 128 carry about 2,500 answers a second at a 50 ms round trip, more than the bot
computes, while a cold burst pays 128 TLS handshakes rather than one per interaction."""
DISCORD_KEEPALIVE_SECONDS = 60.0
"""How long an idle connection to Discord is kept for the next request (aiohttp's default is 15 s)."""


def discord_connector(limit: int = DISCORD_CONNECTIONS) -> aiohttp.TCPConnector:
    """The connection pool for the bot's requests to Discord; call it in the running event loop (aiohttp's
    connectors need one). `python -m bench --only bursts` measures it against discord.py's default."""
    return aiohttp.TCPConnector(limit=limit, keepalive_timeout=DISCORD_KEEPALIVE_SECONDS)
