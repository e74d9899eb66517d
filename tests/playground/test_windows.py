"""Discord's windows, as the playground's stand-in keeps them: 3 s for the first callback, 15 minutes a token."""

from __future__ import annotations

import time

from bot.playground.backend import Backend
from bot.playground.invoke import Place, base_payload
from bot.playground.protocol import CALLBACK_WINDOW, INVALID_WEBHOOK_TOKEN, TOKEN_LIFETIME, UNKNOWN_INTERACTION
from bot.playground.records import Reply
from bot.playground.routes import OwnChecks
from bot.playground.table import BOT_USER, GUILD, PEOPLE

ANSWER = {"type": 4, "data": {"content": "rolled"}}


def backend() -> Backend:
    return Backend(
        guilds=[GUILD], bot_user=BOT_USER, application_id=BOT_USER.id, validator=OwnChecks(), reject_invalid=True,
        callback_window=CALLBACK_WINDOW, token_lifetime=TOKEN_LIFETIME,
    )


def interaction(stand_in: Backend, age: float) -> Reply:
    """An interaction sent `age` seconds ago."""
    payload = base_payload(
        2, {"name": "yz"}, Place(PEOPLE[0].user, GUILD, GUILD.channel),
        interaction_id=stand_in.new_id(), application_id=stand_in.application_id, app_permissions=0,
    )
    reply = Reply(interaction=payload, store=stand_in.store, sent_at=time.monotonic() - age)
    stand_in.track(reply)
    return reply


def test_a_first_callback_within_3_seconds_is_taken():
    stand_in = backend()
    reply = interaction(stand_in, 1.0)
    assert stand_in.callback(reply.id, reply.token, ANSWER, [])[0] == 200


def test_a_first_callback_after_3_seconds_is_an_unknown_interaction():
    stand_in = backend()
    reply = interaction(stand_in, CALLBACK_WINDOW + 0.1)
    assert stand_in.callback(reply.id, reply.token, ANSWER, []) == UNKNOWN_INTERACTION
    assert reply.callbacks == []


def test_a_token_serves_followups_for_15_minutes_only():
    stand_in = backend()
    reply = interaction(stand_in, 0.0)
    assert stand_in.callback(reply.id, reply.token, {"type": 5}, [])[0] == 200
    assert stand_in.followup(stand_in.application_id, reply.token, {"content": "done"}, [])[0] == 200
    reply.sent_at -= TOKEN_LIFETIME
    assert stand_in.followup(stand_in.application_id, reply.token, {"content": "late"}, []) == INVALID_WEBHOOK_TOKEN
    late_edit = stand_in.edit_webhook_message(stand_in.application_id, reply.token, "@original", {"content": "x"}, [])
    assert late_edit == INVALID_WEBHOOK_TOKEN


def test_the_tests_stand_in_keeps_no_windows():
    """tests/fakediscord leaves both off: its fault drills make answers late on purpose, and check what follows."""
    stand_in = Backend(guilds=[GUILD], bot_user=BOT_USER, application_id=BOT_USER.id, validator=OwnChecks(),
                       reject_invalid=True)
    reply = interaction(stand_in, 3600.0)
    assert stand_in.callback(reply.id, reply.token, ANSWER, [])[0] == 200
