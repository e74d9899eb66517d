"""A player's spelling of a name: separators fold between words only, so a stray sign is refused, not dropped."""

import pytest

from rules.errors import InvalidInput
from rules.heroic.tables import Difficulty, Kind
from rules.names import name_key
from rules.sevenkingdoms.roll import difficulty_number


@pytest.mark.parametrize(
    ("text", "key"),
    [("Very Hard", "very_hard"), ("very-hard", "very_hard"), (" VERY_hard ", "very_hard"), ("very  hard", "very_hard"),
     ("parry/fend", "parry_fend"), ("easy", "easy"), ("12", "12")],
)
def test_names_fold_case_and_separators_between_words(text, key):
    assert name_key(text) == key


@pytest.mark.parametrize("text", ["", "  ", "-easy", "easy-", "6-", "_6_", "--6", "very--hard", "very -_ hard"])
def test_a_separator_outside_or_doubled_between_words_is_not_a_name(text):
    assert name_key(text) is None


@pytest.mark.parametrize("text", ["-5", "-1", "61", " +70 "])
def test_seven_kingdoms_difficulty_numbers_keep_their_sign(text):
    with pytest.raises(InvalidInput, match=f"Difficulty {int(text)} is out of range"):
        difficulty_number(text)


@pytest.mark.parametrize("text", ["6-", "_6_", "--6", "-hard", "hard-"])
def test_seven_kingdoms_difficulty_with_stray_separators_is_refused(text):
    with pytest.raises(InvalidInput, match="Unknown difficulty"):
        difficulty_number(text)


def test_seven_kingdoms_difficulties_by_name_and_number():
    assert difficulty_number("very-hard") == difficulty_number("Very Hard") == difficulty_number("very_hard")
    assert difficulty_number(" 12 ") == 12 and difficulty_number("+5") == 5


@pytest.mark.parametrize("text", ["-easy", "easy-", "_easy"])
def test_heroic_names_with_stray_separators_are_refused(text):
    with pytest.raises(InvalidInput, match="Unknown difficulty"):
        Difficulty.parse(text)


def test_heroic_names_parse_in_any_spelling():
    assert Difficulty.parse("Very-Hard") is Difficulty.parse("very hard")
    assert Kind.parse("Parry/Fend") is Kind.parse("fend") is Kind.parse("parry")


@pytest.mark.parametrize("argv", [["yz", "--artifact", "d²"], ["yz", "--attribute", "1", "--faces", "²"]])
def test_superscript_digits_are_refused_not_a_crash(capsys, argv):
    """str.isdigit() accepts '²', int() does not: these ended in a ValueError traceback."""
    from rules.cli.main import main

    assert main(argv) == 1
    assert "error:" in capsys.readouterr().err
