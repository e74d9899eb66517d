"""``python -m rules hex`` and ``python -m rules odds hex``: JSON shape, --faces readings, errors, help."""

from fractions import Fraction

import pytest

from rules.cli.main import main
from tests.rules.cli.support import run_json

KEYS = {"system", "kind", "input", "dice", "reading", "odds"}


def exact(fraction: Fraction) -> str:
    return f"{fraction.numerator}/{fraction.denominator}"


def test_test_with_faces_reads_hazard_dice_first(run):
    data = run_json(run, "hex", "test", "--attribute", "3", "--skill", "2", "--dv", "4",
                    "--faces", "6,1,3,6,5")
    assert set(data) == KEYS and (data["system"], data["kind"]) == ("hex", "test")
    assert data["input"]["pool"]["size"] == 5 and data["input"]["dv"] == 4
    assert [d["role"] for d in data["dice"]] == ["hazard", "hazard", "base", "base", "base"]
    assert [d["face"] for d in data["dice"]] == [6, 1, 3, 6, 5]
    reading = data["reading"]
    assert (reading["success"], reading["successes"], reading["mos"], reading["damage"]) == (True, 2, 1, 5)
    assert reading["hazard"] == "none" and reading["mishap"] is False
    assert data["odds"]["success"]["exact"] == exact(1 - Fraction(5, 6) ** 5)
    assert data["odds"]["mishap"]["exact"] == exact(Fraction(1, 36) * Fraction(5, 6) ** 3)


def test_test_mishap_from_faces(run):
    data = run_json(run, "hex", "test", "--attribute", "2", "--gear", "1", "--faces", "1,1,4")
    assert data["reading"]["mishap"] is True and data["reading"]["hazard"] == "mishap"
    assert data["reading"]["success"] is False and data["reading"]["mos"] is None


def test_required_nullified_test_rolls_nothing(run):
    data = run_json(run, "hex", "test", "--attribute", "1", "--complications", "2", "--required")
    assert data["dice"] == [] and data["reading"]["success"] is False and data["reading"]["nullified"]
    assert data["odds"]["success"]["exact"] == "0/1"


def test_advancement_needs_no_faces(run):
    data = run_json(run, "hex", "test", "--attribute", "2", "--advancement", "--dv", "3")
    assert data["dice"] == [] and data["reading"]["automatic"] and data["reading"]["damage"] == 3


def test_contest_faces_acting_then_opposing(run):
    data = run_json(run, "hex", "contest", "--attribute", "2", "--opposing", "3", "--dv", "2",
                    "--faces", "1,1,1,1,2")
    assert [d["role"] for d in data["dice"]] == ["hazard"] * 4 + ["base"]
    reading = data["reading"]
    assert reading["outcome"] == "acting" and reading["mos"] == 0 and reading["damage"] == 2
    assert reading["opposing"]["mishap"] is True and reading["mishap"] is False
    names = {"acting_wins", "opposing_wins", "no_winner", "acting_mishap", "opposing_mishap"}
    assert set(data["odds"]) >= names


def test_contest_with_nullified_opposition(run):
    data = run_json(run, "hex", "contest", "--attribute", "1", "--opposing", "0", "--faces", "3")
    assert data["reading"]["outcome"] == "acting" and data["odds"]["acting_wins"]["exact"] == "1/1"


def test_cast_faces_affinity_control_then_rest(run):
    data = run_json(run, "hex", "cast", "--attribute", "3", "--skill", "2", "--risk", "2",
                    "--faces", "2,1,3,4,5")
    assert [d["role"] for d in data["dice"]] == ["affinity", "control", "control", "base", "base"]
    assert data["reading"]["hazard"] == "loss_of_control" and data["reading"]["risk"] == 2
    assert set(data["odds"]) >= {"success", "loss_of_control", "fizzle"}


def test_resisted_cast_tie_succeeds(run):
    data = run_json(run, "hex", "cast", "--attribute", "2", "--risk", "1", "--opposing", "1",
                    "--faces", "1,1,2")
    assert [d["role"] for d in data["dice"]] == ["affinity", "control", "hazard"]
    assert data["reading"]["success"] is True and data["reading"]["hazard"] == "none"


def test_plain_roll(run):
    data = run_json(run, "hex", "plain", "--dice", "3", "--faces", "6,1,6")
    assert data["reading"]["successes"] == 2 and {d["role"] for d in data["dice"]} == {"base"}
    assert data["odds"]["at_least_one"]["exact"] == exact(1 - Fraction(5, 6) ** 3)


def test_odds_only(run):
    data = run_json(run, "odds", "hex", "contest", "--attribute", "3", "--opposing", "2")
    assert set(data) == {"system", "kind", "input", "dice", "reading", "odds"}
    assert data["dice"] == [] and data["reading"] == {}  # the odds roll nothing
    assert data["odds"]["acting_size"] == 3 and data["odds"]["opposing_size"] == 2
    cast = run_json(run, "odds", "hex", "cast", "--attribute", "1", "--risk", "3")
    assert cast["odds"]["control_dice"] == 1 and cast["odds"]["affinity_dice"] == 0


def test_text_summary(run):
    code, out, _ = run("hex", "contest", "--attribute", "2", "--opposing", "2", "--faces", "1,1,6,2")
    assert code == 0
    assert "FAILURE (the opposing side wins), MoS 1" in out and "MISHAP" in out and "Odds:" in out
    code, out, _ = run("hex", "test", "--attribute", "1", "--dv", "3", "--faces", "6")
    assert "SUCCESS, MoS 0, damage 3" in out and "-> 1 success\n" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("hex", "test", "--attribute", "3", "--faces", "1,2"), "Not enough faces"),
        (("hex", "test", "--attribute", "2", "--faces", "1,2,3"), "3 faces given, but the roll used 2"),
        (("hex", "contest", "--attribute", "1", "--opposing", "1", "--faces", "6"), "Not enough faces"),
        (("hex", "test", "--attribute", "1", "--faces", "7"), "Face 7 is impossible on a d6"),
        (("hex", "test", "--skill", "2", "--specialty", "3"), "Specialty 3 cannot exceed Skill 2"),
        (("hex", "test", "--attribute", "2", "--complications", "2"), "cannot be attempted"),
        (("hex", "cast", "--attribute", "2", "--risk", "9"), "Risk 9 is out of range"),
        (("hex", "plain", "--dice", "0"), "Dice 0 is out of range"),
        (("odds", "hex", "contest", "--attribute", "2", "--opposing", "99"), "Opposing pool 99 is out"),
    ],
)
def test_bad_input_exits_1_with_a_clear_message(run, argv, message):
    code, out, err = run(*argv)
    assert code == 1 and out == ""
    assert err.startswith("error: ") and message in err


@pytest.mark.parametrize(
    ("kind", "order"),
    [
        ("test", "Hazard Dice first"),
        ("contest", "the acting pool"),
        ("cast", "the Affinity die, then the Control"),
        ("plain", "--faces order"),
    ],
)
def test_help_documents_the_faces_order(monkeypatch, capsys, kind, order):
    with pytest.raises(SystemExit) as done:
        main(["hex", kind, "--help"])
    assert done.value.code == 0
    assert order in " ".join(capsys.readouterr().out.split())
