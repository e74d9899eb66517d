"""Records the tests read: each request the bot made, each rule it broke, each interaction's answer."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from bot.playground.store import EPHEMERAL, LOADING, MessageStore


@dataclass(slots=True)
class Request:
    """One HTTP request the bot sent to the fake Discord (path without the /api/v10 prefix)."""

    method: str
    path: str
    template: str | None
    query: dict[str, str]
    body: object
    files: list[dict] = field(default_factory=list)
    status: int = 0
    peer: str = ""
    """The bot's end of the connection the request came on (address and port): one per connection."""

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@dataclass(frozen=True, slots=True)
class Violation:
    """A body Discord would refuse, or a route the fake does not serve."""

    method: str
    path: str
    template: str | None
    problem: str

    def __str__(self) -> str:
        return f"{self.method} {self.template or self.path}: {self.problem}"


@dataclass(eq=False)
class Reply:
    """Everything the bot did in answer to one interaction. Messages are read live from the store."""

    interaction: dict
    store: MessageStore
    callbacks: list[dict] = field(default_factory=list)
    rejected: list[Request] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    edits: list[dict] = field(default_factory=list)
    followup_ids: list[int] = field(default_factory=list)
    original_id: int | None = None
    errors: list[logging.LogRecord] = field(default_factory=list)
    errors_from: int = 0
    parse_error: BaseException | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set at the first callback accepted (a deferral included)."""
    final: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the player sees an answer: a callback other than a deferral, or an edit or followup after one."""
    handled: asyncio.Future | None = None
    sent_at: float = field(default_factory=time.monotonic)
    """When the interaction was sent (time.monotonic): Discord's windows for its answers start then."""

    @property
    def id(self) -> int:
        return int(self.interaction["id"])

    @property
    def token(self) -> str:
        return self.interaction["token"]

    @property
    def callback(self) -> dict | None:
        """The accepted interaction callback body ({"type": ..., "data": ...}), if any."""
        return self.callbacks[0] if self.callbacks else None

    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.callback["type"] if self.callback else None

    @property
    def data(self) -> dict:
        return (self.callback or {}).get("data") or {}

    @property
    def message(self) -> dict | None:
        """The original response (for component interactions answered by 6/7: the clicked message)."""
        return self.store.get(self.original_id) if self.original_id is not None else None

    @property
    def followups(self) -> list[dict]:
        return [self.store[i] for i in self.followup_ids if self.store.get(i) is not None]

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message["flags"] & EPHEMERAL)

    @property
    def flags(self) -> int:
        return self.message["flags"] if self.message else 0

    @property
    def loading(self) -> bool:
        """Still showing 'thinking…' (deferred and never filled in)."""
        return bool(self.message and self.message["flags"] & LOADING)

    @property
    def content(self) -> str:
        return self.message["content"] if self.message else ""

    @property
    def embeds(self) -> list[dict]:
        return self.message["embeds"] if self.message else []

    @property
    def embed(self) -> dict:
        """The first embed of the original response (fails loudly when there is none)."""
        assert self.embeds, f"the answer has no embed: {self.describe()}"
        return self.embeds[0]

    @property
    def components(self) -> list[dict]:
        return self.message["components"] if self.message else []

    @property
    def modal(self) -> dict | None:
        return self.data if self.type == 9 else None

    @property
    def choices(self) -> list[dict] | None:
        return self.data.get("choices") if self.type == 8 else None

    @property
    def text(self) -> str:
        """All visible text of the original response and followups, for `in` checks."""
        return "\n".join(message_text(message) for message in [self.message, *self.followups] if message)

    def describe(self) -> str:
        """A short account for assertion messages."""
        lines = [f"interaction {self.id} (type {self.interaction['type']}, {_label(self.interaction)})"]
        lines += [
            f"  callback {callback['type']}: {str(callback.get('data'))[:300]}" for callback in self.callbacks
        ]
        lines += [f"  rejected {request}: {str(request.body)[:300]}" for request in self.rejected]
        lines += [f"  request {request} -> {request.status}" for request in self.requests]
        lines += [f"  bot error: {record.getMessage()} {_exc_text(record)}" for record in self.errors]
        if self.parse_error is not None:
            lines.append(f"  discord.py could not parse the interaction: {self.parse_error!r}")
        return "\n".join(lines)


def message_text(message: dict) -> str:
    """Content, embed texts and component labels of a message, one per line."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title"), embed.get("description"), (embed.get("author") or {}).get("name")]
        for item in embed.get("fields") or []:
            parts += [item.get("name"), item.get("value")]
        parts.append((embed.get("footer") or {}).get("text"))
    return "\n".join(part for part in parts if part)


def _label(interaction: dict) -> str:
    data = interaction.get("data") or {}
    return f"/{data['name']}" if "name" in data else f"custom_id={data.get('custom_id')!r}"


def _exc_text(record: logging.LogRecord) -> str:
    if record.exc_info and record.exc_info[1] is not None:
        return f"({record.exc_info[1]!r})"
    return ""
