"""SHARD_COUNT, SHARD_IDS and SYNC_COMMANDS: read, checked with one-line messages, and a slice refused on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings
from bot.shards import ShardPlan, shard_plan

TOKEN = "MTIz.fake-token.for-tests-only"


def load(tmp_path: Path, **environ: str) -> Settings:
    return load_settings({"DISCORD_TOKEN": TOKEN} | environ, cwd=tmp_path)


def refusal(tmp_path: Path, **environ: str) -> str:
    with pytest.raises(SettingsError) as caught:
        load(tmp_path, **environ)
    message = str(caught.value)
    assert "\n" not in message and TOKEN not in message
    return message


def test_unset_means_discords_count_all_in_this_process_which_syncs(tmp_path: Path):
    plan = load(tmp_path).shards
    assert plan == ShardPlan(count=None, ids=None, sync_commands=None)
    assert plan.client_options() == {"shard_count": None, "shard_ids": None}
    assert plan.syncs_commands and plan.runs_shard_zero and not plan.is_slice


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), (" 3 , 0-1 ", (0, 1, 3)), ("2-2", (2,)), ("3,0-2", (0, 1, 2, 3))],
)
def test_shard_ids_as_ranges_and_lists_covering_every_shard(tmp_path: Path, text: str, ids: tuple[int, ...]):
    if len(ids) < 4:  # a slice: refused on SQLite, so read the plan alone
        plan = shard_plan({"SHARD_COUNT": "4", "SHARD_IDS": text})
    else:
        plan = load(tmp_path, SHARD_COUNT="4", SHARD_IDS=text).shards
    assert plan.ids == ids and plan.count == 4
    assert plan.client_options() == {"shard_count": 4, "shard_ids": list(ids)}
    assert plan.is_slice == (len(ids) < 4)


def test_a_count_alone_runs_every_shard_here(tmp_path: Path):
    plan = load(tmp_path, SHARD_COUNT="2").shards
    assert plan.count == 2 and plan.ids is None and not plan.is_slice and plan.syncs_commands


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "65537", "²"])
def test_bad_shard_count(tmp_path: Path, value: str):
    message = refusal(tmp_path, SHARD_COUNT=value)
    assert message.startswith("SHARD_COUNT must be a whole number of shards from 1 to 65536")
    assert repr(value) in message


@pytest.mark.parametrize("value", ["4", "0-4", "3-1", "a", "0,,1", "-1", "1-", "0-1-2", "²"])
def test_bad_shard_ids_name_the_count_and_the_forms(tmp_path: Path, value: str):
    message = refusal(tmp_path, SHARD_COUNT="4", SHARD_IDS=value)
    assert message.startswith("SHARD_IDS must list shard numbers below SHARD_COUNT=4")
    assert "0-3 or 0,2" in message and repr(value) in message


def test_shard_ids_without_a_count(tmp_path: Path):
    assert refusal(tmp_path, SHARD_IDS="0-1").startswith("SHARD_IDS needs SHARD_COUNT too")


def test_a_shard_named_twice(tmp_path: Path):
    assert refusal(tmp_path, SHARD_COUNT="4", SHARD_IDS="0-2,1") == "SHARD_IDS names a shard twice: '0-2,1'"


def test_a_slice_of_the_shards_on_sqlite_is_refused_pointing_at_postgresql(tmp_path: Path):
    message = refusal(tmp_path, SHARD_COUNT="2", SHARD_IDS="1")
    assert message.startswith("SHARD_IDS=1 runs only some of the 2 shards")
    assert "Use PostgreSQL (DATABASE_URL=postgresql://" in message


@pytest.mark.parametrize(("value", "syncs"), [("true", True), ("YES", True), ("1", True), ("off", False), ("0", False)])
def test_sync_commands_wins_over_the_default(tmp_path: Path, value: str, syncs: bool):
    assert load(tmp_path, SYNC_COMMANDS=value).shards.syncs_commands is syncs


def test_sync_commands_defaults_to_the_process_with_shard_zero():
    assert ShardPlan(count=2, ids=(0,)).syncs_commands
    assert not ShardPlan(count=2, ids=(1,)).syncs_commands
    assert ShardPlan(count=2, ids=(1,), sync_commands=True).syncs_commands


def test_bad_sync_commands(tmp_path: Path):
    assert refusal(tmp_path, SYNC_COMMANDS="maybe").startswith("SYNC_COMMANDS must be true or false, not 'maybe'")


def test_a_slice_of_the_shards_on_postgresql_is_allowed(tmp_path: Path):
    settings = load(tmp_path, SHARD_COUNT="2", SHARD_IDS="1", DATABASE_URL="postgresql://rk@db.example/rollkeeper")
    assert settings.shards == ShardPlan(count=2, ids=(1,)) and settings.shards.is_slice
    assert not settings.shards.syncs_commands


def test_the_shards_leased_are_the_ones_this_process_runs():
    assert ShardPlan(count=4, ids=(1, 3)).leased_shards == (1, 3)
    assert ShardPlan(count=3).leased_shards == (0, 1, 2)
    assert ShardPlan().leased_shards == (0,)  # Discord's count is known only once connected: shard 0 stands for all
