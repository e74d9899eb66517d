"""The luck events of Year Zero rolls: a first roll is one, a push one only while the roll has no success."""

from fractions import Fraction

from rules.dice import FixedDice
from rules.luck import LuckEvent
from rules.yearzero.luck_events import yearzero_first_events, yearzero_push_events
from rules.yearzero.odds import odds_after_first, odds_for_roll
from rules.yearzero.roll import push, roll_yz


def test_yearzero_first_roll_and_push_events():
    first = roll_yz(2, 1, 0, (), FixedDice([3, 4, 1]))
    (event,) = yearzero_first_events(first, odds_for_roll(3))
    assert event == LuckEvent(1 - Fraction(5, 6) ** 3, False)
    pushed = push(first, FixedDice([6, 2]))
    (push_event,) = yearzero_push_events(first, pushed)
    assert push_event == LuckEvent(odds_after_first(first).success_after_push, True)
    assert push_event.p == 1 - Fraction(25, 36)


def test_a_push_after_a_success_is_no_event():
    first = roll_yz(2, 0, 0, ("d8",), FixedDice([6, 3, 2]))
    assert yearzero_push_events(first, push(first, FixedDice([4, 5]))) == ()
