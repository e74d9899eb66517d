"""`python -m bot playground` from the outside: where it listens, what it connects to, a command line read."""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bot.playground.cli import is_loopback
from bot.playground.commandline import read_line
from bot.playground.interactions import APPLICATION_COMMAND
from bot.playground.invoke import CannotInvoke
from bot.playground.session import Table
from bot.playground.table import GUILD, PEOPLE
from tests.playground.conftest import Playground

AUDIT = '''
import os, sys

def _note(event, args):
    if event in ("socket.connect", "socket.getaddrinfo"):
        with open(os.environ["RK_CONNECTIONS"], "a") as log:
            log.write(f"{event} {args[1] if event == 'socket.connect' else args[0]!r}\\n")

sys.addaudithook(_note)
'''
"""A sitecustomize for the playground's processes: each connection it opens, and each name it looks up."""


def test_without_a_token_python_m_bot_names_the_playground(tmp_path: Path):
    environment = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    finished = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 2
    assert "DISCORD_TOKEN is not set" in finished.stderr
    assert "without a token: python -m bot playground" in finished.stderr


def test_a_public_host_is_refused_without_public(tmp_path: Path):
    finished = subprocess.run(
        [sys.executable, "-m", "bot", "playground", "--host", "0.0.0.0", "--port", "0"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert finished.returncode == 2
    assert "--host 0.0.0.0 is not a loopback address" in finished.stderr
    assert "--public" in finished.stderr
    assert not (tmp_path / "playground.sqlite3").exists()


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "localhost"])
def test_loopback_hosts_are_taken(host: str):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "example.invalid"])
def test_other_hosts_are_not(host: str):
    assert not is_loopback(host)


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_the_playground_connects_to_loopback_only(tmp_path: Path):
    """Every socket the playground and its bot open (audited in both processes) goes to 127.0.0.0/8."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(AUDIT)
    log = tmp_path / "connections.log"
    running = Playground(tmp_path, env={"PYTHONPATH": str(tmp_path / "site"), "RK_CONNECTIONS": str(log)})
    try:
        running.wait_ready()
        with urllib.request.urlopen(running.url + "/api/state", timeout=30) as answer:
            state = json.load(answer)
        alice = state["people"][0]["id"]
        tavern = state["places"][0]["channels"][alice]
        post(running.url + "/api/command", {"user": alice, "channel": tavern, "line": "/yz attribute:3 skill:1"})
        post(running.url + "/api/restart", {"kill": False})
    finally:
        printed = running.stop()
    lines = log.read_text().splitlines()
    connected = [line.split(" ", 1)[1] for line in lines if line.startswith("socket.connect ")]
    assert connected, "the audit hook saw no connection at all:\n" + printed
    for address in connected:
        host = address.strip("()").split(",")[0].strip("'\"")
        assert ipaddress.ip_address(host) in ipaddress.ip_network("127.0.0.0/8"), address
    looked_up = {line.split(" ", 1)[1] for line in lines if line.startswith("socket.getaddrinfo ")}
    assert looked_up <= {"'127.0.0.1'", "b'127.0.0.1'", "'localhost'"}, looked_up


def test_the_tables_language_is_every_players_and_the_servers_locale():
    """The page's language picker: what the interactions carry, what the open pages hear, what is refused."""
    table = Table()
    heard: list[dict] = []
    table.listeners.append(heard.append)
    table.speak("pt-BR")
    for someone in PEOPLE:
        payload = table.payload(APPLICATION_COMMAND, {"name": "yz"}, user=someone.user)
        assert (payload["locale"], payload["guild_locale"], payload["guild"]["locale"]) == ("pt-BR",) * 3
    assert heard == [{"type": "locale", "locale": "pt-BR"}]
    with pytest.raises(ValueError, match="not 'pt-PT'"):
        table.speak("pt-PT")  # a Discord locale, but not one of the page's
    assert table.locale == "pt-BR"


YZ = {
    "name": "yz", "description": "Roll", "type": 1, "options": [
        {"type": 4, "name": "attribute", "description": "a", "required": True, "min_value": 0, "max_value": 10},
        {"type": 3, "name": "artifact", "description": "b", "choices": [{"name": "d8", "value": "d8"}]},
        {"type": 3, "name": "note", "description": "c"},
        {"type": 5, "name": "private", "description": "d"},
        {"type": 6, "name": "player", "description": "e"},
    ],
}
LOG = {"name": "log", "description": "Log", "type": 1, "options": [
    {"type": 1, "name": "export", "description": "x", "options": [{"type": 3, "name": "start", "description": "s"}]},
]}
USERS = [someone.user for someone in PEOPLE]


def test_a_whole_line_is_read_as_typed_options():
    read = read_line(
        "/yz attribute:4 note:a long climb private:true artifact:D8 player:bob", {"yz": YZ}, USERS, list(GUILD.channels)
    )
    assert read.options == {
        "attribute": 4, "note": "a long climb", "private": True, "artifact": "d8", "player": PEOPLE[1].user,
    }
    assert read_line("/log export start:2024-01-01", {"log": LOG}, USERS, []).path == ["export"]


@pytest.mark.parametrize(
    "line, says",
    [
        ("/roll", "no command /roll"),
        ("/yz attribute:four", "valid integer"),
        ("/yz 4", "not an option"),
        ("/yz artifact:d20", "pick one of d8"),
        ("/yz private:maybe", "True or False"),
        ("/yz player:zed", "not a member"),
        ("/log", "needs a subcommand"),
    ],
)
def test_what_discords_client_refuses_is_refused(line: str, says: str):
    with pytest.raises(CannotInvoke, match=says):
        read_line(line, {"yz": YZ, "log": LOG}, USERS, list(GUILD.channels))
