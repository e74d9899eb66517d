"""The gateway half of the fake Discord: HELLO, IDENTIFY, READY, GUILD_CREATE, then pushed events.

Each connection IDENTIFYs as one shard, ``[shard_id, shard_count]`` (``[0, 1]`` when it names none); it gets the
guilds that shard owns (``(guild_id >> 22) % shard_count``) and, later, their interactions."""

from __future__ import annotations

import asyncio
import json
import secrets

from aiohttp import WSMsgType, web

from bot.playground.backend import Backend
from bot.playground.world import PRIVILEGED_INTENTS

HELLO, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HEARTBEAT_ACK = 10, 1, 2, 6, 9, 11
INVALID_SHARD, DISALLOWED_INTENTS = 4010, 4014


class GatewaySession:
    """One bot connection after IDENTIFY; events are sent with increasing sequence numbers."""

    def __init__(self, ws: web.WebSocketResponse, identify: dict, shard: tuple[int, int] = (0, 1)) -> None:
        self.ws = ws
        self.identify = identify
        self.shard_id, self.shard_count = shard
        self.session_id = secrets.token_hex(16)
        self._sequence = 0
        self._lock = asyncio.Lock()
        self.history: list[dict] = []
        """Every event dispatched, for a RESUME to replay."""

    async def send(self, payload: dict) -> None:
        async with self._lock:
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: dict) -> None:
        async with self._lock:
            self._sequence += 1
            payload = {"op": 0, "t": event, "s": self._sequence, "d": data}
            self.history.append(payload)
            await self.ws.send_str(json.dumps(payload))

    async def resume(self, ws: web.WebSocketResponse, seen: int, replay: int) -> None:
        """Take the new connection and send what the bot missed after `seen`, plus (a fault) the last `replay`
        events it had already received, in their order and with their numbers, then RESUMED."""
        async with self._lock:
            self.ws = ws
            missed = [event for event in self.history if event["s"] > seen]
            again = [event for event in self.history if event["s"] <= seen][-replay:] if replay else []
            for event in again + missed:
                await ws.send_str(json.dumps(event))
            self._sequence += 1
            await ws.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": self._sequence, "d": {}}))

    @property
    def closed(self) -> bool:
        return self.ws.closed


class Gateway:
    """Serves the websocket; `shards` maps each shard to the connection that runs it now (`session` is the
    last one to identify)."""

    def __init__(self, backend: Backend, *, allowed_intents: int = 0, heartbeat_ms: int = 41250) -> None:
        self.backend = backend
        self.allowed_intents = allowed_intents
        self.heartbeat_ms = heartbeat_ms
        self.session: GatewaySession | None = None
        self.identified = asyncio.Event()
        self.sessions: list[GatewaySession] = []
        self.replay_on_resume = 0
        """How many already-delivered events the next RESUME replays (a fault: see FakeDiscord.reconnect)."""
        self.resumed = asyncio.Event()
        self.shards: dict[int, GatewaySession] = {}

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The open connection that carries this guild's events (DMs: shard 0's)."""
        session = self.shards.get(self.backend.shard_of(guild_id))
        return session if session is not None and not session.closed else None

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
            elif op == RESUME and session is None:
                session = await self._resume(ws, payload["d"])
        if session is not None and self.session is session:
            self.session = None
        if session is not None and self.shards.get(session.shard_id) is session and session.ws is ws:
            del self.shards[session.shard_id]  # not when the session was resumed on a newer connection
        return ws

    async def _resume(self, ws: web.WebSocketResponse, resume: dict) -> GatewaySession | None:
        """Resume the session the bot names (replaying self.replay_on_resume events), or refuse it."""
        found = next((s for s in self.sessions if s.session_id == resume.get("session_id")), None)
        if found is None:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        replay, self.replay_on_resume = self.replay_on_resume, 0
        await found.resume(ws, int(resume.get("seq") or 0), replay)
        self.session = found
        self.shards[found.shard_id] = found
        self.resumed.set()
        return found

    async def reconnect(self, replay: int = 0) -> None:
        """Close the bot's connection as Discord does before a RESUME (code 4000: resumable); the RESUME that
        follows replays the last `replay` events the bot already received (as a lost acknowledgement does)."""
        if self.session is None:
            raise RuntimeError("no bot is connected")
        self.replay_on_resume = replay
        self.resumed.clear()
        await self.session.ws.close(code=4000, message=b"Unknown error: please resume")

    async def _identify(self, ws: web.WebSocketResponse, identify: dict) -> GatewaySession | None:
        refused = identify.get("intents", 0) & PRIVILEGED_INTENTS & ~self.allowed_intents
        if refused:
            await ws.close(code=DISALLOWED_INTENTS, message=b"Disallowed intent(s).")
            return None
        shard = identify.get("shard") or [0, 1]
        if shard[1] != self.backend.shard_count or not 0 <= shard[0] < shard[1]:
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = GatewaySession(ws, identify, (shard[0], shard[1]))
        await session.dispatch("READY", self._ready(session))
        for guild in self._owned_by(session):
            await session.dispatch("GUILD_CREATE", guild.create_payload(self.backend.bot_user))
        self.session = session
        self.shards[session.shard_id] = session
        self.sessions.append(session)
        self.identified.set()
        return session

    def _ready(self, session: GatewaySession) -> dict:
        backend = self.backend
        return {
            "v": 10,
            "user": backend.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in self._owned_by(session)],
            "shard": [session.shard_id, session.shard_count],
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

    def _owned_by(self, session: GatewaySession) -> list:
        return [guild for guild in self.backend.guilds.values()
                if guild.has_app and self.backend.shard_of(guild.id) == session.shard_id]
