"""The luck events of Seven Kingdoms tests: a rolled test is one, an Automatic success none."""

from rules.dice import FixedDice
from rules.luck import LuckEvent
from rules.sevenkingdoms.luck_events import sevenkingdoms_events
from rules.sevenkingdoms.odds import odds_for_test as sk_odds
from rules.sevenkingdoms.roll import SkPool
from rules.sevenkingdoms.roll import roll_test as sk_roll_test


def test_sevenkingdoms_automatic_is_no_event_a_rolled_test_is():
    pool = SkPool(2)
    assert sevenkingdoms_events(sk_roll_test(pool, FixedDice([]), target=0), sk_odds(pool, 0)) == ()
    rolled = sk_roll_test(pool, FixedDice([5, 4]), target=9)
    assert sevenkingdoms_events(rolled, sk_odds(pool, 9)) == (LuckEvent(sk_odds(pool, 9).success, True),)
