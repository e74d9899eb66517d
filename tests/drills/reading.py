"""Reading the bot's answers as a player does: pushes, Willpower lines, roll ids on buttons, private refusals."""

from __future__ import annotations

import re

from tests.fakediscord import Reply

EPHEMERAL = 64
COMMAND_ANSWERS, CLICK_ANSWERS = (4, 5), (7, 6)
"""How a stored change is answered: in the first callback (a message; a click's update), or, when the store took
longer than its budget under load, acknowledged first ("thinking..."; a silent update) and filled in."""
PUSH_PREFIX = "rk:yz:push:"
_GAINED = re.compile(r"^Willpower \+(?P<gain>\d+) \(now (?P<now>\d+)\)", re.MULTILINE)


def answered_once(reply: Reply) -> bool:
    """One interaction callback, and no request on its token refused (e.g. a second callback: 40060)."""
    return len(reply.callbacks) == 1 and not reply.rejected and all(r.status < 400 for r in reply.requests)


def private_text(reply: Reply) -> str | None:
    """The text of an ephemeral plain answer (a refusal or an error), else None: the answer itself (4), or the
    private followup after an acknowledgement (a click's silent one, or a deleted "thinking...")."""
    if reply.type == 4 and reply.flags & EPHEMERAL and not reply.embeds:
        return reply.content
    followups = reply.followups
    acknowledged_only = reply.type == 6 or (reply.type == 5 and reply.message is None)
    if acknowledged_only and len(followups) == 1 and followups[0]["flags"] & EPHEMERAL and not followups[0]["embeds"]:
        return followups[0]["content"]
    return None


def is_pushed_roll(reply: Reply) -> bool:
    """The answer shows a pushed Year Zero roll: the first message updated in place by a click (7, or 6 then an
    edit when the store was slow), or /push's own message (4, or "thinking..." filled in: 5)."""
    pushed = bool(reply.embeds) and reply.embed["title"].split(" ", 1)[-1].startswith("Pushed:")
    return reply.type in (4, 5, 6, 7) and pushed


def willpower_line(reply: Reply) -> tuple[int, int | None]:
    """(points gained by the push as the roll reads, Willpower now) from a pushed roll's embed; a push that
    gained nothing shows no Willpower line: (0, None)."""
    gained = _GAINED.search(reply.embed["description"])
    return (int(gained["gain"]), int(gained["now"])) if gained else (0, None)


def push_button_roll(message: dict | None) -> int | None:
    """The roll id named by the Push button of a message, or None when it has none."""
    for row in (message or {}).get("components") or []:
        for button in row.get("components") or []:
            if str(button.get("custom_id", "")).startswith(PUSH_PREFIX):
                return int(button["custom_id"][len(PUSH_PREFIX):])
    return None
