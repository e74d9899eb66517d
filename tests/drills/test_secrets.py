"""Secrets: the bot token never appears in a log line or an error message.

Three layers:
- the whole test run: tests/conftest.py's session-wide watch fails the run if any record of any test holds a
  test token (its mechanism is checked here first);
- the real `python -m bot` path in its own process (tests.drills.launcher), at LOG_LEVEL=DEBUG, with every record
  also written unredacted to a second file: a login Discord refuses (exit 2), a crash at start-up (exit 1, a
  traceback), and a whole run (start, rolls, a push, refusals, SIGTERM). Neither the log a self-hoster sees nor
  the raw records hold the token, and "[token hidden]" never shows: the redaction was never even needed;
- in this process, a command that fails unexpectedly logs its traceback without the token.
The whole run also checks the start-up lines: the invite URL with exactly the scopes `bot applications.commands`
and the permissions Send Messages + Embed Links, and the number of servers.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlsplit

import discord

from bot.app.logs import HIDDEN, INTERACTION_HIDDEN
from bot.interactions.tree import GENERIC_MESSAGE
from bot.playground.protocol import error
from tests.bot.payloads import slash_payload
from tests.conftest import SecretWatch
from tests.drills.conftest import PLAYERS, click_payload, table_of
from tests.drills.launcher import RAW_LOG
from tests.drills.process import BotProcess, answer_of
from tests.drills.reading import is_pushed_roll, private_text, push_button_roll
from tests.fakediscord.faults import CALLBACK

TOKEN = "MTIzNDU2Nzg5.drill-token.secrets-never-log-me"
YZ = ("cogs.yearzero.cog", "cogs.willpower.cog")


def run_settings(tmp_path) -> dict[str, str]:
    return {
        "DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "rollkeeper.sqlite3"), "LOG_LEVEL": "DEBUG",
        RAW_LOG: str(tmp_path / "raw.log"),
    }


def assert_no_token(tmp_path, log: str) -> str:
    """The log a self-hoster sees and the raw records: no token, and no need to hide one. Returns the log."""
    raw = (tmp_path / "raw.log").read_text(encoding="utf-8")
    assert raw.strip(), "the raw log caught the records"
    for text in (log, raw):
        assert TOKEN not in text and HIDDEN not in text
        assert TOKEN.split(".")[0] not in text  # not even a piece of it
    return log


def test_the_session_watch_sees_a_token_in_a_message_or_a_traceback(token_never_logged: SecretWatch):
    """The run-wide check works: a token in a record's message or in its exception's text is noted."""
    leaks = len(token_never_logged.leaks)
    logger = logging.getLogger("tests.drills.secrets")
    logger.debug("logging in with %s", TOKEN)
    try:
        raise RuntimeError(f"refused: {TOKEN}")
    except RuntimeError:
        logger.exception("failed")
    noted = token_never_logged.leaks[leaks:]
    del token_never_logged.leaks[leaks:]  # planted on purpose: not a leak of the bot's
    assert len(noted) == 2 and "logging in with" in noted[0] and "Traceback" in noted[1]


async def test_a_refused_token_exits_2_without_showing_it(fake_discord, tmp_path):
    fake_discord.backend.failures["GET", "/users/@me"] = error(401, 0, "401: Unauthorized")
    log_path = tmp_path / "bot.log"
    code = await BotProcess.run_to_exit(fake_discord, tmp_path, log_path, **run_settings(tmp_path))
    log = assert_no_token(tmp_path, log_path.read_text())
    assert code == 2, log
    assert "Discord refused the token in DISCORD_TOKEN" in log and "Reset Token" in log
    assert "Traceback" not in log


async def test_a_crash_at_start_up_logs_its_traceback_without_the_token(fake_discord, tmp_path):
    fake_discord.backend.failures["GET", "/oauth2/applications/@me"] = error(400, 50035, "Invalid Form Body")
    log_path = tmp_path / "bot.log"
    code = await BotProcess.run_to_exit(fake_discord, tmp_path, log_path, **run_settings(tmp_path))
    log = assert_no_token(tmp_path, log_path.read_text())
    assert code == 1, log
    assert "rollkeeper stopped on an unexpected error" in log and "Traceback" in log and "400 Bad Request" in log


async def test_a_whole_run_at_debug_never_logs_the_token(fake_discord, tmp_path):
    fake = fake_discord
    bot = await BotProcess.start(fake, tmp_path, tmp_path / "bot.log", **run_settings(tmp_path))
    player, table = PLAYERS[0], table_of(0)
    rolled = await answer_of(fake, slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table))
    assert push_button_roll(rolled.message) is not None
    refused = await answer_of(fake, click_payload(fake, rolled.message, PLAYERS[1]))
    assert private_text(refused)
    assert is_pushed_roll(await answer_of(fake, click_payload(fake, rolled.message, player)))
    crafted = slash_payload(fake, "yz", {"attribute": 1, "skill": 1}, user=player, channel=table, attribute=-1)
    assert private_text(await answer_of(fake, crafted))
    await bot.until_ready()
    assert await bot.stop() == 0
    log = assert_no_token(tmp_path, bot.log())
    assert "Traceback" not in log and " ERROR " not in log
    [invite] = [line.split(": ")[-1] for line in log.splitlines() if "Invite the bot to a server with: " in line]
    url = urlsplit(invite)
    query = parse_qs(url.query)
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    assert query["scope"] == ["bot applications.commands"]
    assert query["client_id"] == [str(fake.application_id)]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == discord.Permissions(send_messages=True, embed_links=True)
    assert query["integration_type"] == ["0"]
    [account] = [line.split(": ")[-1] for line in log.splitlines() if "Add the app to your own account with: " in line]
    account_query = parse_qs(urlsplit(account).query)
    assert account_query["scope"] == ["applications.commands"] and account_query["integration_type"] == ["1"]
    assert f"Ready as {fake.bot_user.name}" in log and "in 1 servers" in log


async def test_a_command_failing_unexpectedly_logs_its_traceback_without_the_token(
    start_bot, fake_discord, token_never_logged, caplog
):
    """In this process (token from tests/conftest.py): the player gets the generic message, the log the
    traceback; the session-wide watch sees every record, so a token in one would fail the run."""
    bot = await start_bot(extensions=YZ)

    class Broken:
        def roll(self, sides: int) -> int:
            raise RuntimeError("the dice fell off the table")

    bot.get_cog("YearZero").dice = Broken()
    leaks = len(token_never_logged.leaks)
    reply = await fake_discord.slash("yz", {"attribute": 2, "skill": 1}, user=PLAYERS[0], channel=table_of(0))
    assert private_text(reply) == GENERIC_MESSAGE
    [record] = [r for r in caplog.records if r.name == "bot.interactions.tree" and r.levelno == logging.ERROR]
    assert record.exc_info and "the dice fell off the table" in caplog.text
    assert token_never_logged.leaks[leaks:] == []


async def test_no_interaction_token_reaches_the_log_at_debug(fake_discord, tmp_path):
    """An interaction's token answers or edits as the bot in its channel for 15 minutes. discord.py logs every
    gateway event (the token among the payload's keys) and every callback or webhook URL (the token in its
    path) at DEBUG: through a roll, a refusal, a push, an answer that fails once and /push, the log a self-hoster
    sees holds none of the tokens the interactions carried, though the raw records do."""
    fake = fake_discord
    bot = await BotProcess.start(fake, tmp_path, tmp_path / "bot.log", **run_settings(tmp_path))
    player, table = PLAYERS[0], table_of(0)
    sent: list[dict] = []

    async def answer(payload: dict):
        sent.append(payload)
        return await answer_of(fake, payload)

    rolled = await answer(slash_payload(fake, "yz", {"attribute": 4, "skill": 4}, user=player, channel=table))
    assert private_text(await answer(click_payload(fake, rolled.message, PLAYERS[1])))  # a refusal
    assert is_pushed_roll(await answer(click_payload(fake, rolled.message, player)))
    fake.inject("POST", CALLBACK, status=500)  # the next answer fails once; discord.py tries it again
    again = await answer(slash_payload(fake, "yz", {"attribute": 3, "skill": 2, "pushes": 2}, user=player,
                                       channel=table))
    assert push_button_roll(again.message) is not None
    await answer(slash_payload(fake, "push", {}, user=player, channel=table))
    await bot.until_ready()
    assert await bot.stop() == 0
    log, raw = bot.log(), (tmp_path / "raw.log").read_text(encoding="utf-8")
    tokens = [payload["token"] for payload in sent]
    assert len(set(tokens)) == 5 and all(token in raw for token in tokens)  # the records did carry them
    assert [token for token in tokens if token in log] == []
    assert INTERACTION_HIDDEN in log
