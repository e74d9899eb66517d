"""The playground's page: a few static files, a JSON API for what people do, and a WebSocket of what changes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from aiohttp import WSMsgType, web

from bot.playground.botprocess import BotProcess
from bot.playground.invoke import CannotInvoke
from bot.playground.session import Table
from bot.playground.table import LANGUAGES, PEOPLE

STATIC = Path(__file__).with_name("static")
TABLE: web.AppKey[Table] = web.AppKey("table", Table)
BOT: web.AppKey[BotProcess] = web.AppKey("bot", BotProcess)


def refused(message: str, status: int = 400) -> web.Response:
    return web.json_response({"error": message}, status=status)


async def page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def state(request: web.Request) -> web.Response:
    table, bot = request.app[TABLE], request.app[BOT]
    return web.json_response(
        {
            "places": table.places(),
            "people": [someone.payload() for someone in PEOPLE],
            "bot": {"name": table.backend.bot_user.name, "id": str(table.backend.bot_user.id), "state": bot.state},
            "commands": table.commands(),
            "languages": [{"locale": locale, "name": name} for locale, name in LANGUAGES.items()],
            "locale": table.locale,
            "messages": table.messages(),
        }
    )


async def live(request: web.Request) -> web.WebSocketResponse:
    """Every change, as JSON lines: message (create, update, delete), bot (its state), failed (an interaction)."""
    ws = web.WebSocketResponse(heartbeat=20)
    await ws.prepare(request)
    table, queue = request.app[TABLE], asyncio.Queue[dict]()
    table.listeners.append(queue.put_nowait)
    sender = asyncio.create_task(_send_all(ws, queue))
    try:
        async for message in ws:
            if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                break
    finally:
        table.listeners.remove(queue.put_nowait)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    return ws


async def _send_all(ws: web.WebSocketResponse, queue: asyncio.Queue[dict]) -> None:
    while not ws.closed:
        event = await queue.get()
        await ws.send_str(json.dumps(event))


async def _body(request: web.Request) -> dict:
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="a JSON object is expected")
    return body


async def command(request: web.Request) -> web.Response:
    body = await _body(request)
    try:
        reply = await request.app[TABLE].command(str(body["user"]), str(body["channel"]), str(body["line"]))
    except (CannotInvoke, ValueError, KeyError) as refusal:
        return refused(str(refusal))
    return web.json_response({"interaction": str(reply.id)})


async def autocomplete(request: web.Request) -> web.Response:
    body = await _body(request)
    try:
        choices = await request.app[TABLE].choices(
            str(body["user"]), str(body["channel"]), str(body["line"]), str(body["focused"])
        )
    except (CannotInvoke, ValueError, KeyError) as refusal:
        return refused(str(refusal))
    return web.json_response({"choices": choices})


async def press(request: web.Request) -> web.Response:
    body = await _body(request)
    values = body.get("values")
    try:
        reply = await request.app[TABLE].press(
            str(body["user"]), str(body["message"]), str(body["custom_id"]),
            [str(value) for value in values] if isinstance(values, list) else None,
        )
    except (CannotInvoke, ValueError, KeyError) as refusal:
        return refused(str(refusal))
    return web.json_response({"interaction": str(reply.id)})


async def language(request: web.Request) -> web.Response:
    body = await _body(request)
    try:
        request.app[TABLE].speak(str(body["locale"]))
    except (ValueError, KeyError) as refusal:
        return refused(str(refusal))
    return web.json_response({"locale": request.app[TABLE].locale})


async def restart(request: web.Request) -> web.Response:
    body = await _body(request)
    bot = request.app[BOT]
    try:
        await bot.restart(kill=bool(body.get("kill")))
    except RuntimeError as error:
        return refused(str(error), 503)
    return web.json_response({"state": bot.state})


async def attachment(request: web.Request) -> web.Response:
    kept = request.app[TABLE].backend.store.files.get(int(request.match_info["attachment"]))
    if kept is None:
        raise web.HTTPNotFound()
    headers = {
        "Content-Disposition": f'attachment; filename="{kept["filename"]}"',
        "Content-Type": kept["type"] or "application/octet-stream",
    }
    return web.Response(body=kept["data"], headers=headers)


def web_app(table: Table, bot: BotProcess) -> web.Application:
    app = web.Application()
    app[TABLE], app[BOT] = table, bot
    app.add_routes(
        [
            web.get("/", page),
            web.get("/api/state", state),
            web.get("/api/live", live),
            web.post("/api/command", command),
            web.post("/api/autocomplete", autocomplete),
            web.post("/api/press", press),
            web.post("/api/language", language),
            web.post("/api/restart", restart),
            web.get("/files/{attachment:[0-9]+}/{filename}", attachment),
            web.static("/static", STATIC),
        ]
    )
    return app
