"""bench.hotspots names rollkeeper's own functions only: a virtual environment inside the clone holds
discord.py, whose frames must not be listed as rollkeeper's."""

from __future__ import annotations

from bench.fake import ROOT
from bench.hotspots import CUMULATIVE, OWN, Profile, Stage, area_of, show_functions, stage_time

DISCORD = (str(ROOT / ".venv/lib/python3.11/site-packages/discord/app_commands/tree.py"), 1136, "wrapper")
YZ = (str(ROOT / "cogs/yearzero/cog.py"), 149, "yz")
CARD = (str(ROOT / "cogs/yearzero/card.py"), 115, "render_first")


def profile() -> Profile:
    entries = {  # pstats: primitive calls, calls, own time, cumulative time, callers
        DISCORD: (14000, 14000, 0.5, 3.6, {}),
        YZ: (14000, 14000, 0.04, 3.4, {}),
        CARD: (1000, 1000, 0.2, 0.25, {}),
    }
    return Profile("ours", 1000, entries, 0.0, 0.0)


def test_only_rollkeepers_functions_are_listed_by_cumulative_and_by_own_time(capsys):
    show_functions(profile(), CUMULATIVE)
    by_cumulative = capsys.readouterr().out.splitlines()
    show_functions(profile(), OWN)
    by_own = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in by_cumulative] == ["cogs/yearzero/cog.py:149", "cogs/yearzero/card.py:115"]
    assert [line.split()[2] for line in by_own] == ["cogs/yearzero/card.py:115", "cogs/yearzero/cog.py:149"]
    assert by_own[0].split()[0] == "0.200"  # profiled ms per /yz: 0.2 s over 1000 events


def test_areas_put_the_environment_s_discord_py_under_discord_py():
    assert area_of(DISCORD[0]) == "discord.py" and area_of(YZ[0]).startswith("rollkeeper")


def test_a_stage_is_its_functions_cumulative_time_less_its_steps_and_a_caller_narrows_it():
    push = (str(ROOT / "cogs/yearzero/pushing.py"), 61, "push")
    answer = (str(ROOT / "cogs/yearzero/pushing.py"), 181, "pushed_answer")
    read = (str(ROOT / "cogs/yearzero/endings.py"), 103, "read_payload")
    entries = {  # read_payload: 0.1 s from push itself, 0.3 s from pushed_answer
        push: (1000, 1000, 0.1, 2.0, {}),
        answer: (1000, 1000, 0.2, 0.8, {push: (1000, 1000, 0.2, 0.8)}),
        read: (2000, 2000, 0.4, 0.4, {push: (1000, 1000, 0.1, 0.1), answer: (1000, 1000, 0.3, 0.3)}),
    }
    profiled = Profile("ours", 1000, entries, 0.0, 0.0)
    assert stage_time(profiled, Stage("all reads", ("cogs/yearzero/endings.py:read_payload",))) == 0.4
    narrowed = Stage("push's own read", ("cogs/yearzero/endings.py:read_payload<cogs/yearzero/pushing.py:push",))
    assert stage_time(profiled, narrowed) == 0.1
    card = "cogs/yearzero/pushing.py:pushed_answer"
    less = Stage("push but its card", ("cogs/yearzero/pushing.py:push",), less=(card,))
    assert abs(stage_time(profiled, less) - 1.2) < 1e-9


def test_trips_to_postgresql_are_asyncpg_s_writes_to_its_socket_not_aiohttp_s():
    write = ("/usr/lib/python3.11/asyncio/selector_events.py", 1037, "write")
    execute = ("/venv/site-packages/asyncpg/connection.py", 2035, "_do_execute")
    simple = ("/venv/site-packages/asyncpg/connection.py", 320, "execute")
    aiohttp = ("/venv/site-packages/aiohttp/http_writer.py", 106, "_writelines")
    callers = {execute: (3000, 3000, 0.0, 0.0), simple: (2000, 2000, 0.0, 0.0), aiohttp: (1000, 1000, 0.0, 0.0)}
    profiled = Profile("ours", 1000, {write: (6000, 6000, 0.1, 0.1, callers)}, 0.0, 0.0)
    assert profiled.postgres_trips() == {"_do_execute": 3.0, "execute": 2.0}
