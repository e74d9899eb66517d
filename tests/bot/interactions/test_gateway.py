"""bot/interactions/gateway.py: a payload discord.py cannot parse is logged and dropped, and the bot keeps
serving.

Pins the DEP: place in bot/interactions/gateway.py on discord.py 2.7: the wrapped parser is the one the gateway
calls (the fake's own hook, beneath it, sees discord.py's parser raise), and the exception goes no further.
"""

from __future__ import annotations

import logging

from bot.interactions.gateway import describe_event
from tests.bot.payloads import slash_payload

DROPPED = "Dropped a malformed INTERACTION_CREATE"


async def test_a_malformed_interaction_is_dropped_with_one_warning(fake_discord, start_bot, caplog):
    await start_bot()
    payload = slash_payload(fake_discord, "yz", {"attribute": 3, "skill": 1})
    payload["member"]["user"]["id"] = "abc"
    with caplog.at_level(logging.WARNING, logger="bot.interactions.gateway"):
        dropped = await fake_discord.send_interaction(payload, expect_answer=False)
    assert isinstance(dropped.parse_error, ValueError), "discord.py's own parser no longer ran beneath ours"
    assert dropped.callbacks == []
    [warning] = [record for record in caplog.records if record.name == "bot.interactions.gateway"]
    assert warning.levelno == logging.WARNING and DROPPED in warning.getMessage()
    assert payload["token"] not in warning.getMessage() and repr(payload["id"]) in warning.getMessage()
    assert not fake_discord._bot_task.done()
    served = await fake_discord.slash("yz", {"attribute": 3, "skill": 1})
    assert served.embed["description"].startswith("Year Zero")


async def test_a_good_interaction_passes_through_the_wrapper_untouched(fake_discord, start_bot, caplog):
    await start_bot()
    with caplog.at_level(logging.WARNING, logger="bot.interactions.gateway"):
        reply = await fake_discord.slash("yz", {"attribute": 2, "skill": 2})
    assert reply.parse_error is None and reply.embed["description"].startswith("Year Zero")
    assert [record for record in caplog.records if record.name == "bot.interactions.gateway"] == []


def test_the_log_names_a_payload_by_its_ids_only():
    line = describe_event({"id": "42", "type": 2, "token": "secret-token", "data": {"note": "hello"}})
    assert line == "id '42', type '2', guild_id 'None', channel_id 'None'"
    assert describe_event(None) == "a payload of type NoneType"
    assert len(describe_event({"id": "9" * 500})) < 100
