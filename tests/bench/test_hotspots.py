"""bench.hotspots names rollkeeper's own functions only: a virtual environment inside the clone holds
discord.py, whose frames must not be listed as rollkeeper's."""

from __future__ import annotations

from bench.fake import ROOT
from bench.hotspots import CUMULATIVE, OWN, Profile, area_of, show_functions

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
