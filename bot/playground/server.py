"""The REST half of the Discord stand-in: an aiohttp app that records, validates and answers every request."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from bot.playground.backend import Backend
from bot.playground.installs import MISSING_ACCESS
from bot.playground.limits import check_limits
from bot.playground.protocol import Handler, Result, error
from bot.playground.records import Request, Violation

API = "/api/v10"
FILE_FIELD = re.compile(r"files\[(\d+)\]")
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES: web.RequestKey[list[dict]] = web.RequestKey("files", list)


def respond(result: Result) -> web.Response:
    """Discord's answers carry Content-Type exactly `application/json` (discord.py compares it literally)."""
    status, payload = result
    if status == 204:
        return web.Response(status=204)
    return web.Response(
        status=status, body=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )


async def read_body(request: web.Request) -> tuple[object, list[dict]]:
    """The JSON body, or for multipart/form-data the parsed payload_json plus the uploaded files."""
    if request.content_type == "multipart/form-data":
        body, files = None, []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body = json.loads(await part.text())
            elif part.name and (match := FILE_FIELD.fullmatch(part.name)):
                data = await part.read()
                files.append(
                    {
                        "index": int(match[1]),
                        "filename": part.filename,
                        "size": len(data),
                        "data": data,
                        "content_type": part.headers.get("Content-Type"),
                    }
                )
        return body, files
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else None), []
    return None, []


class RestApi:
    """Routes under /api/v10 mapped onto the backend."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def routes(self) -> list[web.RouteDef]:
        app, guild, token = "/applications/{app}", "/guilds/{guild}", "/webhooks/{app}/{token}"
        return [
            web.get(API + "/users/@me", self.me),
            web.get(API + "/oauth2/applications/@me", self.application),
            web.get(API + "/applications/@me", self.application),
            web.get(API + "/gateway", self.gateway),
            web.get(API + "/gateway/bot", self.gateway),
            web.route("*", API + app + "/commands", self.commands),
            web.route("*", API + app + guild + "/commands", self.commands),
            web.post(API + "/interactions/{interaction}/{token}/callback", self.callback),
            web.post(API + token, self.followup),
            web.route("*", API + token + "/messages/{message}", self.webhook_message),
            web.get(API + "/channels/{channel}", self.channel),
            web.post(API + "/channels/{channel}/messages", self.create_message),
            web.route("*", API + "/channels/{channel}/messages/{message}", self.channel_message),
            web.route("*", "/{tail:.*}", self.not_served),
        ]

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Record the request, validate its body against the spec and the limits, then answer."""
        if not request.path.startswith(API):
            return await handler(request)
        path = request.path[len(API) :]
        body, files = await read_body(request)
        template = self.backend.validator.template_for(path)
        record = Request(request.method, path, template, dict(request.query), body, files)
        record.peer = str(request.transport.get_extra_info("peername")) if request.transport else ""
        self.backend.requests.append(record)
        reply = self.backend.replies.get(request.match_info.get("token", ""))
        if reply is not None:
            reply.requests.append(record)
        problems = self._problems(record)
        response: web.StreamResponse
        if problems and self.backend.reject_invalid:
            if reply is not None:
                reply.rejected.append(record)
            response = respond(error(400, 50035, "Invalid Form Body: " + "; ".join(problems)))
        elif (fault := self.backend.fault_for(request.method, template, body)) is not None:
            request[BODY], request[FILES] = body, files
            response = await fault.answer(request, handler)
        elif (request.method, path) in self.backend.failures:
            response = respond(self.backend.failures[request.method, path])
        else:
            request[BODY], request[FILES] = body, files
            if self.backend.latency:
                await asyncio.sleep(self.backend.latency)
            response = await handler(request)
        record.status = response.status
        self._check_response(record, response)
        return response

    def _check_response(self, record: Request, response: web.StreamResponse) -> None:
        """Validate the fake's own answer against the spec; drift is kept in backend.fake_problems."""
        if record.template is None or not isinstance(response, web.Response):
            return
        if not isinstance(response.body, bytes | bytearray) or not response.body:
            return
        answer = json.loads(response.body)
        for problem in self.backend.validator.check_response(
            record.method, record.template, response.status, answer
        ):
            self.backend.fake_problems.append(
                f"{record.method} {record.template} -> {response.status}: {problem}"
            )

    def _problems(self, record: Request) -> list[str]:
        if record.template is None or record.body is None:
            return []
        problems = self.backend.validator.check(record.method, record.template, record.body)
        located = {problem.split(":", 1)[0] for problem in problems}
        problems += [
            problem
            for problem in check_limits(record.method, record.template, record.body, files=len(record.files))
            if problem.split(":", 1)[0] not in located
        ]
        for problem in problems:
            self.backend.violations.append(Violation(record.method, record.path, record.template, problem))
        return problems

    async def not_served(self, request: web.Request) -> web.Response:
        """Anything the fake does not implement: recorded as a violation so the gap is visible."""
        path = request.path[len(API) :] if request.path.startswith(API) else request.path
        template = self.backend.validator.template_for(path)
        problem = "route not served by the fake Discord (404)"
        self.backend.violations.append(Violation(request.method, path, template, problem))
        return respond(error(404, 0, "404: Not Found"))

    # -- identity -------------------------------------------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        return respond(
            (
                200,
                self.backend.bot_user.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"},
            )
        )

    async def application(self, request: web.Request) -> web.Response:
        backend = self.backend
        owner = next(iter(backend.guilds.values())).owner
        return respond(
            (
                200,
                {
                    "id": str(backend.application_id),
                    "name": backend.bot_user.name,
                    "description": "",
                    "icon": None,
                    "type": None,
                    "bot_public": False,
                    "bot_require_code_grant": False,
                    "owner": owner.payload(),
                    "team": None,
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "flags_new": "0",
                    "redirect_uris": [],
                    "interactions_endpoint_url": None,
                    "role_connections_verification_url": None,
                    "rpc_origins": [],
                    "approximate_guild_count": len(backend.guilds),
                    "approximate_user_install_count": 0,
                    "approximate_user_authorization_count": 0,
                    "explicit_content_filter": 0,
                    "eligible_oauth2_scopes": ["bot", "applications.commands"],
                    "tags": [],
                    "bot": backend.bot_user.payload(),
                    "summary": "",
                },
            )
        )

    async def gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        answer = {"url": self.backend.gateway_url, "shards": self.backend.shard_count, "session_start_limit": limit}
        return respond((200, answer))

    # -- application commands -------------------------------------------------------------------------

    async def commands(self, request: web.Request) -> web.Response:
        if int(request.match_info["app"]) != self.backend.application_id:
            return respond(error(403, 50001, "Missing Access"))
        scope = int(request.match_info["guild"]) if "guild" in request.match_info else None
        if scope is not None and scope not in self.backend.guilds:
            return respond(error(403, 50001, "Missing Access"))
        registry = self.backend.commands
        if request.method == "GET":
            return respond((200, registry.list(scope)))
        if request.method == "PUT":
            return respond((200, registry.overwrite(scope, request[BODY] or [])))
        if request.method == "POST":
            return respond((201, registry.upsert(scope, request[BODY])))
        return await self.not_served(request)

    # -- interactions ---------------------------------------------------------------------------------

    def interaction_answer(self, request: web.Request, result: tuple[int, Any]) -> web.Response:
        """Answer a call on an interaction's token; one Discord refuses (a second initial response, a callback
        type that does not fit the interaction, a followup before any response) is a violation too."""
        status, payload = result
        asking = request.method == "GET" and status == 404  # whether Discord has a response: a fair question
        if status >= 400 and not asking:
            path = request.path[len(API) :]
            problem = f"interaction protocol: {payload['message']} ({payload['code']})"
            template = self.backend.validator.template_for(path)
            self.backend.violations.append(Violation(request.method, path, template, problem))
        return respond(result)

    async def callback(self, request: web.Request) -> web.Response:
        info = request.match_info
        result = self.backend.callback(int(info["interaction"]), info["token"], request[BODY] or {}, request[FILES])
        return self.interaction_answer(request, result)

    async def followup(self, request: web.Request) -> web.Response:
        info = request.match_info
        result = self.backend.followup(int(info["app"]), info["token"], request[BODY] or {}, request[FILES])
        return self.interaction_answer(request, result)

    async def webhook_message(self, request: web.Request) -> web.Response:
        info, backend = request.match_info, self.backend
        app, token, message = int(info["app"]), info["token"], info["message"]
        if request.method == "GET":
            return self.interaction_answer(request, backend.get_webhook_message(app, token, message))
        if request.method == "PATCH":
            result = backend.edit_webhook_message(app, token, message, request[BODY] or {}, request[FILES])
            return self.interaction_answer(request, result)
        if request.method == "DELETE":
            return self.interaction_answer(request, backend.delete_webhook_message(app, token, message))
        return await self.not_served(request)

    # -- channels -------------------------------------------------------------------------------------

    def without_access(self, request: web.Request) -> web.Response | None:
        """403 Missing Access, a violation too, for the bot's own token in a channel it is not in (a group DM, a
        server that never added the app): there the app may use only its interactions' tokens."""
        if not self.backend.no_access(int(request.match_info["channel"])):
            return None
        path = request.path[len(API) :]
        problem = "the bot used its own token in a channel it is not in (403 Missing Access)"
        self.backend.violations.append(Violation(request.method, path, self.backend.validator.template_for(path),
                                                 problem))
        return respond(MISSING_ACCESS)

    async def channel(self, request: web.Request) -> web.Response:
        if (refused := self.without_access(request)) is not None:
            return refused
        return respond(self.backend.get_channel(int(request.match_info["channel"])))

    async def create_message(self, request: web.Request) -> web.Response:
        if (refused := self.without_access(request)) is not None:
            return refused
        channel = int(request.match_info["channel"])
        return respond(self.backend.create_message(channel, request[BODY] or {}, request[FILES]))

    async def channel_message(self, request: web.Request) -> web.Response:
        if (refused := self.without_access(request)) is not None:
            return refused
        channel, message = int(request.match_info["channel"]), int(request.match_info["message"])
        if request.method == "GET":
            return respond(self.backend.get_message(channel, message))
        if request.method == "PATCH":
            return respond(self.backend.edit_message(channel, message, request[BODY] or {}, request[FILES]))
        if request.method == "DELETE":
            return respond(self.backend.delete_message(channel, message))
        return await self.not_served(request)
