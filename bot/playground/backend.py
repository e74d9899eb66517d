"""Discord's side of interactions and messages: what each REST call does to the stand-in's state.

With ``callback_window`` and ``token_lifetime`` set (the playground sets Discord's 3 s and 15 minutes), a first
callback after the window is refused as Discord refuses it (10062), and so is any use of a token after its
lifetime (50027); the tests leave both off, as their faults simulate lateness themselves, or set them and move
the stand-in's clock on (`clock_offset`). Where the app came only with a player's account, installs.py's rules hold.
"""

from __future__ import annotations

import time

from bot.playground.channels import ChannelMessages
from bot.playground.installs import TOO_MANY_FOLLOWUPS, followups_full, forced_ephemeral
from bot.playground.protocol import (
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    NOT_FOR_THIS_INTERACTION,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    Fault,
    Result,
)
from bot.playground.records import Reply, Request, Violation
from bot.playground.routes import Validator
from bot.playground.store import EPHEMERAL, LOADING, CommandRegistry, MessageStore
from bot.playground.world import FakeGroupDM, FakeGuild, FakeUser, Snowflakes

AUTOCOMPLETE, MODAL_SUBMIT = 4, 5


class Backend(ChannelMessages):
    """The fake's whole state; REST handlers and the harness both work on it."""

    def __init__(
        self,
        *,
        guilds: list[FakeGuild],
        bot_user: FakeUser,
        application_id: int,
        validator: Validator,
        reject_invalid: bool,
        shard_count: int = 1,
        callback_window: float | None = None,
        token_lifetime: float | None = None,
    ) -> None:
        self.new_id = Snowflakes()
        self.guilds = {guild.id: guild for guild in guilds}
        self.bot_user = bot_user
        self.application_id = application_id
        self.validator = validator
        self.reject_invalid = reject_invalid
        self.store = MessageStore(self.new_id, bot_user, application_id)
        self.commands = CommandRegistry(self.new_id, application_id)
        self.requests: list[Request] = []
        self.violations: list[Violation] = []
        self.fake_problems: list[str] = []
        self.replies: dict[str, Reply] = {}
        self.failures: dict[tuple[str, str], Result] = {}
        """Requests a test makes fail, e.g. ("GET", "/users/@me") -> error(401, 0, "401: Unauthorized")."""
        self.faults: list[Fault] = []
        """Faults injected with FakeDiscord.inject, in the order they were added (see faults.py)."""
        self.owners: dict[int, Reply] = {}
        self.gateway_url = ""
        self.latency = 0.0
        """Seconds each REST answer waits before it is sent, as the round trip to Discord would (benchmarks)."""
        self.shard_count = shard_count
        """What GET /gateway/bot recommends; a bot must IDENTIFY with this count."""
        self.callback_window = callback_window
        self.token_lifetime = token_lifetime
        self.clock_offset = 0.0
        """Seconds the stand-in's clock is ahead of time.monotonic (a test moves it on to age the tokens)."""
        self.group_dms: dict[int, FakeGroupDM] = {}
        """The group DMs interactions came from, by channel id (the bot has no access to them)."""

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that carries a guild's events (Discord's formula); DMs go to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    # -- bookkeeping ----------------------------------------------------------------------------------

    def fault_for(self, method: str, template: str | None, body: object = None) -> Fault | None:
        """The first injected fault not yet spent that matches the request."""
        return next((fault for fault in self.faults if fault.matches(method, template, body)), None)

    def track(self, reply: Reply) -> None:
        self.replies[reply.token] = reply

    def _own(self, reply: Reply, message: dict) -> dict:
        self.owners[int(message["id"])] = reply
        return message

    def _place(self, reply: Reply) -> dict:
        """Where the bot's answer goes, and which interaction it answers."""
        interaction = reply.interaction
        guild_id = interaction.get("guild_id")
        return {
            "channel_id": int(interaction["channel_id"]),
            "guild_id": int(guild_id) if guild_id else None,
            "interaction": interaction,
            "trigger": self._modal_opener(interaction),
        }

    def _modal_opener(self, interaction: dict) -> dict | None:
        """For a modal submit: the interaction whose answer opened that modal."""
        if interaction["type"] != 5:
            return None
        custom_id = (interaction.get("data") or {}).get("custom_id")
        for reply in reversed(self.replies.values()):
            if reply.modal is not None and reply.modal.get("custom_id") == custom_id:
                return reply.interaction
        return None

    # -- interaction callbacks ------------------------------------------------------------------------

    def callback(self, interaction_id: int, token: str, body: dict, files: list[dict]) -> Result:
        """POST /interactions/{id}/{token}/callback, answered as with ?with_response=true."""
        reply = self.replies.get(token)
        if reply is None or reply.id != interaction_id or self._late(reply, self.callback_window):
            return UNKNOWN_INTERACTION
        if reply.callbacks:
            return ALREADY_ACKNOWLEDGED
        kind: int = body.get("type", 0)
        data = body.get("data") or {}
        if not self._fits(reply.interaction["type"], kind):
            return NOT_FOR_THIS_INTERACTION
        handler = {
            4: self._send,
            5: self._defer,
            6: self._update,
            7: self._update,
            8: self._record,
            9: self._record,
        }.get(kind)
        if handler is None:
            return NOT_FOR_THIS_INTERACTION
        outcome = handler(reply, kind, data, files)
        if outcome is not None:
            return outcome
        reply.callbacks.append(body)
        reply.answered.set()
        if kind not in (5, 6):
            reply.final.set()
        return 200, self._callback_response(reply, kind)

    @staticmethod
    def _fits(interaction_type: int, callback_type: object) -> bool:
        """An autocomplete is answered with choices (8) and only it is; a modal submit cannot open a modal (9)."""
        if interaction_type == AUTOCOMPLETE or callback_type == 8:
            return interaction_type == AUTOCOMPLETE and callback_type == 8
        return not (callback_type == 9 and interaction_type == MODAL_SUBMIT)

    def _send(self, reply: Reply, kind: int, data: dict, files: list[dict]) -> Result | None:
        if forced_ephemeral(reply.interaction):
            data = data | {"flags": (data.get("flags") or 0) | EPHEMERAL}
        message = self.store.create(data, **self._place(reply), files=files)
        reply.original_id = int(self._own(reply, message)["id"])
        return None

    def _defer(self, reply: Reply, kind: int, data: dict, files: list[dict]) -> Result | None:
        flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
        message = self.store.create({}, **self._place(reply), flags=flags)
        reply.original_id = int(self._own(reply, message)["id"])
        return None

    def _update(self, reply: Reply, kind: int, data: dict, files: list[dict]) -> Result | None:
        clicked = reply.interaction.get("message")
        if reply.interaction["type"] not in (3, 5) or clicked is None:
            return NOT_FOR_THIS_INTERACTION
        message_id = int(clicked["id"])
        message = self.store.get(message_id)
        if message is None:
            self.store.messages[message_id] = message = dict(clicked)
        reply.original_id = message_id
        if kind == 7:
            self.store.apply(message, data, files=files)
            reply.edits.append({"message_id": message_id, "body": data})
        return None

    def _record(self, reply: Reply, kind: int, data: dict, files: list[dict]) -> Result | None:
        return None

    def _callback_response(self, reply: Reply, kind: int) -> dict:
        message = reply.message
        interaction = {
            "id": str(reply.id),
            "type": reply.interaction["type"],
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
        }
        if message is not None:
            interaction["response_message_id"] = message["id"]
        response = {"interaction": interaction}
        if kind in (4, 7) and message is not None:
            response["resource"] = {"type": kind, "message": message}
        return response

    # -- interaction webhooks (followups and edits) ---------------------------------------------------

    def _late(self, reply: Reply, window: float | None) -> bool:
        return window is not None and time.monotonic() + self.clock_offset - reply.sent_at > window

    def _acknowledged(self, application_id: int, token: str) -> Reply | None:
        reply = self.replies.get(token)
        if application_id != self.application_id or reply is None or not reply.callbacks:
            return None
        return reply

    def _expired(self, token: str) -> bool:
        reply = self.replies.get(token)
        return reply is not None and self._late(reply, self.token_lifetime)

    def followup(self, application_id: int, token: str, body: dict, files: list[dict]) -> Result:
        """POST /webhooks/{app}/{token}: after a deferral the first followup fills the 'thinking' message."""
        if self._expired(token):
            return INVALID_WEBHOOK_TOKEN
        reply = self._acknowledged(application_id, token)
        if reply is None:
            return UNKNOWN_WEBHOOK
        if followups_full(reply.interaction, len(reply.followup_ids)):
            return TOO_MANY_FOLLOWUPS
        if forced_ephemeral(reply.interaction):
            body = body | {"flags": (body.get("flags") or 0) | EPHEMERAL}
        original = reply.message
        if original is not None and original["flags"] & LOADING:
            message = self.store.fill_loading(original, body, files)
        else:
            message = self.store.create(body, **self._place(reply), files=files)
        reply.followup_ids.append(int(self._own(reply, message)["id"]))
        reply.final.set()
        return 200, message

    def _webhook_message(
        self, application_id: int, token: str, message_id: str
    ) -> tuple[Reply, dict] | Result:
        if self._expired(token):
            return INVALID_WEBHOOK_TOKEN
        reply = self._acknowledged(application_id, token)
        if reply is None:
            return UNKNOWN_WEBHOOK
        wanted = reply.original_id if message_id == "@original" else int(message_id)
        if wanted is None or (wanted != reply.original_id and wanted not in reply.followup_ids):
            return UNKNOWN_MESSAGE
        message = self.store.get(wanted)
        return (reply, message) if message is not None else UNKNOWN_MESSAGE

    def get_webhook_message(self, application_id: int, token: str, message_id: str) -> Result:
        found = self._webhook_message(application_id, token, message_id)
        return found if isinstance(found[0], int) else (200, found[1])

    def edit_webhook_message(
        self, application_id: int, token: str, message_id: str, body: dict, files: list[dict]
    ) -> Result:
        found = self._webhook_message(application_id, token, message_id)
        if isinstance(found[0], int):
            return found
        reply, message = found
        if message["flags"] & LOADING:
            self.store.fill_loading(message, body, files)
        else:
            self.store.apply(message, body, files=files)
        reply.edits.append({"message_id": int(message["id"]), "body": body})
        reply.final.set()
        return 200, message

    def delete_webhook_message(self, application_id: int, token: str, message_id: str) -> Result:
        found = self._webhook_message(application_id, token, message_id)
        if isinstance(found[0], int):
            return found
        self.store.delete(int(found[1]["id"]))
        return 204, None
