"""The two stores offer the same methods with the same parameters: a method added to one (say, by a new
feature on SQLite) fails here until the other has it too, before any cog can call it on one store only."""

from __future__ import annotations

import inspect

import pytest

from bot.storage import Database, ExtendedTests, Meta, Storage, Willpower, YearZeroRolls
from bot.storage.applied import AppliedInteractions
from bot.storage.leases import ShardLeases
from bot.storage.postgres import PostgresDatabase
from bot.storage.postgres.applied import PostgresAppliedInteractions
from bot.storage.postgres.extended import PostgresExtendedTests
from bot.storage.postgres.leases import PostgresShardLeases
from bot.storage.postgres.meta import PostgresMeta
from bot.storage.postgres.rolls import PostgresRolls
from bot.storage.postgres.willpower import PostgresWillpower

PAIRS = [
    (YearZeroRolls, PostgresRolls),
    (Willpower, PostgresWillpower),
    (ExtendedTests, PostgresExtendedTests),
    (Meta, PostgresMeta),
    (AppliedInteractions, PostgresAppliedInteractions),
    (ShardLeases, PostgresShardLeases),
    (Database, PostgresDatabase),
]


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, callable)
        if not name.startswith("_") and name not in ("open",)
    }


def shape(signature: inspect.Signature) -> list[tuple[str, object, object]]:
    """Names, kinds and defaults: what a caller relies on."""
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


@pytest.mark.parametrize(("sqlite", "postgres"), PAIRS, ids=lambda cls: cls.__name__)
def test_both_stores_have_the_same_methods_with_the_same_parameters(sqlite, postgres):
    ours, theirs = public_methods(sqlite), public_methods(postgres)
    assert sorted(ours) == sorted(theirs)
    assert {name: shape(ours[name]) for name in ours} == {name: shape(theirs[name]) for name in theirs}


def test_every_method_the_bot_may_call_is_in_the_interface():
    """The Protocol the cogs see lists each store's public methods (a store's extras would be unreachable)."""
    kept = {
        "rolls": YearZeroRolls,
        "willpower": Willpower,
        "extended": ExtendedTests,
        "meta": Meta,
        "applied": AppliedInteractions,
        "leases": ShardLeases,
    }
    for attribute, cls in kept.items():
        protocol = inspect.get_annotations(Storage.__dict__[attribute].fget, eval_str=True)["return"]
        assert sorted(public_methods(protocol)) == sorted(public_methods(cls)), attribute
