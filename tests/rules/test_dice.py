import pytest

from rules.dice import Die, FixedDice, Role, SeededDice, SystemDice, parse_faces, roll_by_hand, roll_dice
from rules.errors import FacesError


def test_fixed_dice_replays_faces_in_order():
    dice = FixedDice([6, 1, 4])
    assert [dice.roll(6), dice.roll(6), dice.roll(6)] == [6, 1, 4]
    dice.finish()


def test_fixed_dice_rejects_impossible_face_and_names_it():
    with pytest.raises(FacesError, match="Face 7 is impossible on a d6"):
        FixedDice([7]).roll(6)
    assert FixedDice([12]).roll(12) == 12


def test_fixed_dice_too_few_and_too_many():
    dice = FixedDice([3])
    dice.roll(6)
    with pytest.raises(FacesError, match="Not enough faces"):
        dice.roll(6)
    extra = FixedDice([3, 4])
    extra.roll(6)
    with pytest.raises(FacesError, match="2 faces given, but the roll used 1"):
        extra.finish()


def test_parse_faces():
    assert [parse_faces("6, 1,4").roll(6) for _ in range(1)] == [6]
    with pytest.raises(FacesError, match="not a number"):
        parse_faces("6,x")
    with pytest.raises(FacesError, match="No faces"):
        parse_faces(" , ")


def test_sources_stay_in_range_and_seeded_repeats():
    system = SystemDice()
    assert all(1 <= system.roll(8) <= 8 for _ in range(200))
    a, b = SeededDice(7), SeededDice(7)
    assert [a.roll(6) for _ in range(20)] == [b.roll(6) for _ in range(20)]


def test_roll_dice_and_die_dict():
    dice = roll_dice(FixedDice([2, 5]), 2, 6, Role.GEAR)
    assert dice == (Die(6, 2, Role.GEAR), Die(6, 5, Role.GEAR))
    assert dice[0].as_dict() == {"sides": 6, "face": 2, "role": "gear"}


def test_system_dice_are_uniform_on_every_die_size():
    """A chi-square check over 60,000 faces per die size: a biased byte-to-face mapping would fail it."""
    from collections import Counter

    dice = SystemDice()
    for sides in (6, 8, 10, 12, 20):
        draws = 60_000
        counts = Counter(dice.roll(sides) for _ in range(draws))
        assert set(counts) == set(range(1, sides + 1))
        expected = draws / sides
        chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
        # 99.99th percentile of chi-square with (sides - 1) degrees of freedom is below 3 * sides + 20 here.
        assert chi_square < 3 * sides + 20


def _fed(data: bytes) -> SystemDice:
    """SystemDice reading the given bytes first (as if os.urandom had returned them)."""
    dice = SystemDice()
    dice._bytes, dice._next = data, 0
    return dice


@pytest.mark.parametrize("sides", [6, 8, 10, 12, 20, 256])
def test_system_dice_map_each_byte_to_a_face_without_bias(sides):
    """A byte below the largest multiple of sides gives byte % sides + 1; one at or above it is drawn again."""
    data = bytes(range(256)) * 2
    dice = _fed(data)
    limit = 256 - 256 % sides
    faces = [dice.roll(sides) for _ in range(limit)]
    assert faces == [value % sides + 1 for value in range(limit)]
    assert {faces.count(face) for face in range(1, sides + 1)} == {limit // sides}  # every face equally often
    assert dice.roll(sides) == 1 and dice._next == 257  # the rejected bytes 252..255 (for a d6) were skipped


def test_system_dice_roll_any_size_of_die():
    assert all(1 <= SystemDice().roll(300) <= 300 for _ in range(50))


def test_faces_may_be_parted_by_spaces_commas_or_both():
    for text in ("6 3 1", "6,3,1", " 6, 3 ,1 ", "6\t3  1"):
        dice = parse_faces(text)
        assert [dice.roll(6) for _ in range(3)] == [6, 3, 1]
    with pytest.raises(FacesError, match="'x'"):
        parse_faces("6 x 1")


def test_roll_by_hand_names_the_first_wrong_face_or_the_count():
    def three_d6(dice):
        return roll_dice(dice, 3, 6, Role.BASE)

    assert [die.face for die in roll_by_hand("6 3 1", three_d6)] == [6, 3, 1]
    with pytest.raises(FacesError, match="Face 7 is impossible on a d6 \\(die 2\\)"):
        roll_by_hand("6 7 9", three_d6)
    with pytest.raises(FacesError, match="needs at least 3, 2 given"):
        roll_by_hand("6 3", three_d6)
    with pytest.raises(FacesError, match="4 faces given, but the roll used 3"):
        roll_by_hand("6 3 1 1", three_d6)
