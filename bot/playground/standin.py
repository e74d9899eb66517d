"""The Discord stand-in, listening: REST under /api/v10 and the gateway at /ws, on a free port of 127.0.0.1.

    standin = StandIn(backend, Gateway(backend))
    await standin.start()           # standin.api_url, standin.gateway_url
    point_discord_py_at(standin.api_url, standin.gateway_url)   # in the bot's process
    ...
    await standin.close()
"""

from __future__ import annotations

import socket
import ssl

import discord
import yarl
from aiohttp import web

from bot.playground.backend import Backend
from bot.playground.gateway import Gateway
from bot.playground.server import API, RestApi

LOOPBACK = "127.0.0.1"


class StandIn:
    """Serves one backend's REST routes and gateway; `api_url` and `gateway_url` are known once started."""

    def __init__(self, backend: Backend, gateway: Gateway, *, tls: ssl.SSLContext | None = None) -> None:
        self.backend = backend
        self.gateway = gateway
        self.tls = tls
        self.api_url = ""
        self._runner: web.AppRunner | None = None

    @property
    def gateway_url(self) -> str:
        return self.backend.gateway_url

    async def start(self) -> None:
        rest = RestApi(self.backend)
        app = web.Application(middlewares=[rest.middleware])
        app.router.add_get("/ws", self.gateway.handle)
        app.add_routes(rest.routes())
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        listener = socket.create_server((LOOPBACK, 0))
        port = listener.getsockname()[1]
        await web.SockSite(self._runner, listener, ssl_context=self.tls).start()
        secure = "s" if self.tls is not None else ""
        self.backend.gateway_url = f"ws{secure}://{LOOPBACK}:{port}/ws"
        self.api_url = f"http{secure}://{LOOPBACK}:{port}{API}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def point_discord_py_at(api_url: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Send this process's discord.py to the stand-in; returns what it pointed at before.

    DEP: discord.py takes its REST base and gateway address from these class attributes (2.7); no public setting
    points a bot elsewhere. tests/bot/test_fakediscord.py shows every request reaching the stand-in.
    """
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return saved
