"""PostgreSQL reads the shared statements' named parameters (``:name``) as numbered ones (``$1``)."""

from __future__ import annotations

import pytest

from bot.storage.postgres import bound, numbered


def test_each_name_gets_one_number_in_the_order_it_first_appears():
    sql = "UPDATE t SET a = :pushed WHERE id = :id AND (SELECT s FROM v WHERE id = :id) = 'pending'"
    assert numbered(sql) == (
        "UPDATE t SET a = $1 WHERE id = $2 AND (SELECT s FROM v WHERE id = $2) = 'pending'",
        ("pushed", "id"),
    )


def test_casts_and_colons_inside_words_are_left_alone():
    text, names = numbered("SELECT unnest(:ids::bigint[]), 'yz_roll:12', 'a:b', x::text FROM t WHERE n = :n")
    assert text == "SELECT unnest($1::bigint[]), 'yz_roll:12', 'a:b', x::text FROM t WHERE n = $2"
    assert names == ("ids", "n")


def test_arguments_follow_the_numbers_and_a_missing_one_is_named():
    assert bound("SELECT :b, :a, :b", {"a": 1, "b": 2, "unused": 3}) == ("SELECT $1, $2, $1", [2, 1])
    with pytest.raises(KeyError, match="owner"):
        bound("SELECT * FROM shard_leases WHERE owner = :owner", {"shard": 0})
