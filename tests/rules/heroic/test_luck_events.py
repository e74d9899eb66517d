"""The luck events of Heroic Rolls: every roll is one, a complication counting as a success."""

from rules.dice import FixedDice
from rules.heroic.luck_events import heroic_events
from rules.heroic.odds import odds_for_heroic
from rules.heroic.roll import roll_heroic


def test_heroic_complication_counts_as_a_success():
    roll = roll_heroic(3, FixedDice([3, 4]), tn=10)  # 7 + 3 = 10 = TN: success with a complication
    (event,) = heroic_events(roll, odds_for_heroic(3, 10))
    assert event.success and event.p == odds_for_heroic(3, 10).success
