"""One class per thing kept, for both stores: a method added for one database is there for the other, and the
two open databases offer the same methods with the same parameters."""

from __future__ import annotations

import inspect

from bot.storage.database import Storage
from bot.storage.postgres import PostgresDatabase, PostgresStore
from bot.storage.sqlite import Database, Store

KEPT = ("rolls", "willpower", "resources", "extended", "meta", "applied", "leases", "log")


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls, callable)
        if not name.startswith("_") and name not in ("open",)
    }


def shape(signature: inspect.Signature) -> list[tuple[str, object, object]]:
    """Names, kinds and defaults: what a caller relies on."""
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def test_both_stores_have_the_same_methods_with_the_same_parameters():
    ours, theirs = public_methods(Database), public_methods(PostgresDatabase)
    assert sorted(ours) == sorted(theirs) == sorted(public_methods(Storage))
    assert {name: shape(ours[name]) for name in ours} == {name: shape(theirs[name]) for name in theirs}


def test_each_thing_kept_is_one_class_on_both_stores():
    """The two databases build what they keep from the same classes: only the statements and dialect differ."""
    sqlite = Database(Store.__new__(Store))
    pool = PostgresStore.__new__(PostgresStore)
    postgres = PostgresDatabase(pool)
    assert postgres.store is pool  # the pool takes named statements itself
    for attribute in KEPT:
        assert type(getattr(sqlite, attribute)) is type(getattr(postgres, attribute)), attribute
        assert type(getattr(sqlite, attribute)).__module__.startswith("bot.storage."), attribute
