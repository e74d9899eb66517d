"""The gateway half of the fake Discord: HELLO, IDENTIFY, READY, GUILD_CREATE, then pushed events."""

from __future__ import annotations

import asyncio
import json
import secrets

from aiohttp import WSMsgType, web

from tests.fakediscord.backend import Backend
from tests.fakediscord.world import PRIVILEGED_INTENTS

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK = 10, 1, 2, 6, 9, 11
DISALLOWED_INTENTS = 4014


class GatewaySession:
    """One bot connection after IDENTIFY; events are sent with increasing sequence numbers."""

    def __init__(self, ws: web.WebSocketResponse, identify: dict) -> None:
        self.ws = ws
        self.identify = identify
        self.session_id = secrets.token_hex(16)
        self._sequence = 0
        self._lock = asyncio.Lock()

    async def send(self, payload: dict) -> None:
        async with self._lock:
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: dict) -> None:
        async with self._lock:
            self._sequence += 1
            await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data}))

    @property
    def closed(self) -> bool:
        return self.ws.closed


class Gateway:
    """Serves the websocket; `session` is the bot currently identified (one bot at a time)."""

    def __init__(self, backend: Backend, *, allowed_intents: int = 0, heartbeat_ms: int = 41250) -> None:
        self.backend = backend
        self.allowed_intents = allowed_intents
        self.heartbeat_ms = heartbeat_ms
        self.session: GatewaySession | None = None
        self.identified = asyncio.Event()
        self.sessions: list[GatewaySession] = []

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        session = None
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            payload = json.loads(message.data)
            op = payload.get("op")
            if op == HEARTBEAT:
                await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
            elif op == IDENTIFY and session is None:
                session = await self._identify(ws, payload["d"])
            elif op == RESUME:
                await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
        if session is not None and self.session is session:
            self.session = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, identify: dict) -> GatewaySession | None:
        refused = identify.get("intents", 0) & PRIVILEGED_INTENTS & ~self.allowed_intents
        if refused:
            await ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return None
        session = GatewaySession(ws, identify)
        await session.dispatch("READY", self._ready(session))
        for guild in self.backend.guilds.values():
            await session.dispatch("GUILD_CREATE", guild.create_payload(self.backend.bot_user))
        self.session = session
        self.sessions.append(session)
        self.identified.set()
        return session

    def _ready(self, session: GatewaySession) -> dict:
        backend = self.backend
        return {
            "v": 10,
            "user": backend.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in backend.guilds],
            "session_id": session.session_id,
            "resume_gateway_url": backend.gateway_url,
            "application": {"id": str(backend.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
