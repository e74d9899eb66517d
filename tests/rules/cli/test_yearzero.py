"""``python -m rules yz`` and ``python -m rules odds yz``: JSON, text, --faces order and errors."""

from fractions import Fraction

import pytest

from rules.cli.main import main
from rules.yearzero.roll import YzRoll
from tests.rules.cli.support import run_json


def test_roll_json_shape_and_faces_order(run):
    data = run_json(run, *"yz --attribute 2 --skill 1 --gear 1 --artifact d10 --faces 6,1,3,4,9".split())
    assert data["system"] == "yearzero" and data["kind"] == "roll"
    assert data["input"] == {
        "attribute": 2, "skill": 1, "gear": 1, "artifacts": ["d10"], "pride": False, "pushes": 1, "push": False
    }
    assert [(d["face"], d["role"], d["sides"]) for d in data["dice"]] == [
        (6, "base", 6), (1, "base", 6), (3, "base", 6), (4, "gear", 6), (9, "artifact", 10),
    ]  # fmt: skip
    reading = data["reading"]
    assert reading["successes"] == 3 and reading["success"] is True
    assert reading["base_banes"] == 1 and reading["reroll_indices"] == [2, 3]
    assert reading["willpower_gained"] == 0 and "first" not in data and "pushed" not in data
    before = data["odds"]["before_roll"]
    assert before["success_first_roll"]["exact"] == str(1 - Fraction(5, 6) ** 4 * Fraction(5, 10))
    assert data["odds"]["push_this_roll"]["success_after_push"] == {"exact": "1/1", "float": 1.0}


def test_push_json_holds_both_rolls_damage_and_willpower(run):
    argv = "yz --attribute 2 --skill 1 --gear 1 --artifact d8 --push --faces 6,3,1,4,5,2,1,7"
    data = run_json(run, *argv.split())
    assert data["kind"] == "push" and data["input"]["push"] is True
    assert [d["face"] for d in data["dice"]] == [6, 3, 1, 4, 5, 2, 1, 7]  # every die, in --faces order
    assert [d["face"] for d in data["first"]["dice"]] == [6, 3, 1, 4, 5]
    assert [d["face"] for d in data["pushed"]["dice"]] == [6, 2, 1, 1, 7]
    assert data["pushed"]["reading"]["rerolled"] == [1, 3, 4]
    assert data["first"]["reading"]["successes"] == 1 and data["pushed"]["reading"]["successes"] == 2
    assert data["damage"] == {"attribute": 1, "gear": 1}
    assert data["willpower_gained"] == 1
    assert data["reading"] == data["pushed"]["reading"]
    # the made roll: pushing 3 (base), 4 (gear), 5 (d8) with a 6 already kept -> success is certain
    assert data["odds"]["push_this_roll"]["success_after_push"]["exact"] == "1/1"


def test_pushed_json_rebuilds_through_the_library(run):
    data = run_json(run, "yz", "--attribute", "1", "--push", "--faces", "4,6")
    assert data["pushed"]["reading"]["success"] is True
    stored = {"attribute": 1, "skill": 0, "gear": 0, "artifacts": [], "faces": [6], "first_faces": [4]}
    assert YzRoll.from_dict(stored).reading_as_dict() == data["reading"]


def test_text_summary(run):
    code, out, _ = run("yz", "--attribute", "1", "--skill", "1", "--push", "--faces", "1,3,6")
    assert code == 0
    assert "First roll: base [1 3] -> 0 successes" in out
    assert "Pushed: base [1 6] -> 1 success;" in out and "Willpower +1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("yz --attribute 1 --skill 1 --push --faces 6,1", "Nothing to push: every die shows 6 or 1"),
        ("yz --attribute 1 --artifact d8 --artifact d8 --artifact d8 --artifact d8", "4 Artifact dice given"),
        ("yz --artifact d20", "Artifact die 'd20' is not one of d8"),
        ("yz", "at least one die"),
        ("yz --attribute 11", "Attribute 11 is out of range"),
        ("yz --attribute 1 --faces 6,6", "2 faces given, but the roll used 1"),
        ("yz --attribute 1 --push --faces 3", "Not enough faces"),
        ("odds yz --base 3 --skill 1", "either --base or --attribute"),
    ],
)
def test_refusals_exit_1_with_the_message(run, argv, message):
    code, out, err = run(*argv.split())
    assert code == 1 and out == ""
    assert message in err


def test_odds_json_beyond_roll_bounds(run):
    data = run_json(run, "odds", "yz", "--base", "25", "--gear", "5", "--artifact", "d12")
    assert data["system"] == "yearzero" and data["kind"] == "odds"
    assert data["input"] == {"base": 25, "gear": 5, "artifacts": ["d12"], "pride": False, "pushes": 1}
    assert data["dice"] == [] and data["reading"] == {}
    first = 1 - Fraction(5, 6) ** 30 * Fraction(5, 12)
    assert data["odds"]["success_first_roll"]["exact"] == f"{first.numerator}/{first.denominator}"
    after = 1 - Fraction(13, 18) ** 30 * Fraction(5, 12) ** 2
    assert data["odds"]["success_after_push"]["exact"] == f"{after.numerator}/{after.denominator}"


def test_odds_from_attribute_and_skill_and_text(run):
    data = run_json(run, "odds", "yz", "--attribute", "1")
    assert data["odds"]["success_first_roll"] == {"exact": "1/6", "float": 1 / 6}
    code, out, _ = run("odds", "yz", "--attribute", "1")
    assert code == 0 and "success first roll: 1/6" in out


def test_help_text_mentions_order(monkeypatch, capsys):
    with pytest.raises(SystemExit):
        main(["yz", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "--faces order: the base dice (Attribute + Skill), then the gear dice, then the Artifact dice" in out
    )
    assert "With --push, the new faces of the rerolled dice follow" in out


def test_push_with_the_rollers_willpower_shows_the_cap(run):
    """Four banes gained from 9 Willpower: 10 after, 3 lost past the cap, as the bot says it."""
    argv = "yz --attribute 3 --skill 2 --push --willpower 9 --faces 1,1,3,4,5,1,1,2"
    data = run_json(run, *argv.split())
    assert data["willpower_gained"] == 4
    assert (data["willpower_before"], data["willpower_after"], data["willpower_lost"]) == (9, 10, 3)
    without = run_json(run, *argv.replace(" --willpower 9", "").split())
    assert (without["willpower_before"], without["willpower_after"], without["willpower_lost"]) == (0, 4, 0)


def test_odds_json_carries_the_success_distributions(run):
    data = run_json(run, *"odds yz --base 1".split())
    assert data["odds"]["successes_first_roll"] == {
        "0": {"exact": "5/6", "float": 5 / 6}, "1": {"exact": "1/6", "float": 1 / 6}
    }
    assert data["odds"]["successes_after_push"]["1"]["exact"] == "5/18"  # 1/6 + 4/6 * 1/6
    rolled = run_json(run, *"yz --attribute 1 --faces 6".split())
    assert rolled["odds"]["before_roll"]["successes_after_push"] == data["odds"]["successes_after_push"]


def test_exit_status_tells_a_refusal_from_a_usage_error(capsys):
    """0 answered, 1 refused by the rules (the reason on stderr), 2 a command line that does not parse."""
    assert main(["yz", "--attribute", "1", "--faces", "6"]) == 0
    assert main(["yz", "--attribute", "11"]) == 1
    with pytest.raises(SystemExit) as usage:
        main(["yz", "--attribute", "one"])
    assert usage.value.code == 2
    with pytest.raises(SystemExit) as odds:  # the odds roll nothing: they take no --faces
        main(["odds", "yz", "--base", "2", "--faces", "6,6"])
    assert odds.value.code == 2
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "exit status: 0 answered, 1 the rules refused it" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("argv", "needed"),
    [("yz --attribute 3 --faces 1,2", "at least 3, 2 given"),
     ("yz --attribute 2 --push --faces 3", "at least 3, 1 given")],
)
def test_too_few_faces_say_how_many_the_roll_needs(capsys, argv, needed):
    assert main(argv.split()) == 1
    assert f"Not enough faces: the roll needs {needed}" in capsys.readouterr().err


# --- the Pride die and several pushes -----------------------------------------------------------------


def test_pride_and_three_pushes_take_faces_for_each_step(run):
    argv = "yz --attribute 2 --pride --pushes 3 --push --willpower 9 --faces 1,3,4,2,5,1,9"
    data = run_json(run, *argv.split())
    # first roll: base 1, 3 and Pride 4; push 1: 3 -> 2, Pride -> 5; push 2: 2 -> 1, Pride -> 9 (2 successes)
    assert data["input"] | {} == {
        "attribute": 2, "skill": 0, "gear": 0, "artifacts": [], "pride": True, "pushes": 3, "push": True
    }  # fmt: skip
    assert [(d["role"], d["sides"]) for d in data["first"]["dice"]] == [("base", 6), ("base", 6), ("pride", 12)]
    assert [[d["face"] for d in step["dice"]] for step in data["pushes"]] == [[1, 2, 5], [1, 1, 9]]
    assert [d["face"] for d in data["dice"]] == [1, 3, 4, 2, 5, 1, 9]  # every die rolled, in --faces order
    assert len(data["pushes"]) == 2  # nothing blank is left for a third push
    assert data["reading"]["successes"] == 2 and data["reading"]["pushes"] == 2
    # Willpower 9: push 1 counts the first roll's 1 (+1 -> 10), push 2 its own new 1 (+1, lost past 10)
    assert [(p["willpower_before"], p["willpower_after"]) for p in data["pushes"]] == [(9, 10), (10, 10)]
    assert (data["willpower_gained"], data["willpower_after"], data["willpower_lost"]) == (2, 10, 1)
    assert data["damage"] == {"attribute": 2, "gear": 0}
    before = data["odds"]["before_roll"]
    assert before["pride"] is True and before["pushes"] == 3 and before["artifacts"] == ["d12"]
    assert sum(Fraction(p["exact"]) for p in before["successes_after_push"].values()) == 1


def test_odds_with_pride_and_pushes(run):
    data = run_json(run, *"odds yz --base 1 --pride --pushes 2".split())
    assert data["input"] == {"base": 1, "gear": 0, "artifacts": [], "pride": True, "pushes": 2}
    d6_fails = 1 - Fraction(1, 6) * (1 + Fraction(2, 3) + Fraction(4, 9))
    assert Fraction(data["odds"]["success_after_all_pushes"]["exact"]) == 1 - d6_fails * Fraction(5, 12) ** 3


def test_pushes_zero_cannot_push_and_out_of_range_is_refused(capsys):
    assert main(["yz", "--attribute", "1", "--pushes", "0", "--push", "--faces", "3"]) == 1
    assert "may not be pushed" in capsys.readouterr().err
    assert main(["yz", "--attribute", "1", "--pushes", "4"]) == 1
    assert "Pushes allowed" in capsys.readouterr().err


def test_text_shows_each_push(run):
    code, out, _ = run(*"yz --attribute 1 --pushes 2 --push --faces 3,4,6".split())
    assert code == 0 and "Pushed (1 of 2): base [4] -> 0 successes" in out and "Pushed (2 of 2): base [6]" in out
