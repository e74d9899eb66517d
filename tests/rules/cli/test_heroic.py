"""``python -m rules heroic`` and ``python -m rules odds heroic``: JSON shape, --faces order, errors."""


import pytest

from tests.rules.cli.support import run_json


def test_hawkeye_tracking_as_json(run):
    data = run_json(run, "heroic", "--skill", "7", "--difficulty", "Easy", "--faces", "4,6")
    assert (data["system"], data["kind"]) == ("heroic", "task")
    assert data["input"]["skill"] == 7 and data["input"]["difficulty"] == "Easy"
    assert data["dice"] == [
        {"sides": 6, "face": 4, "role": "base"},
        {"sides": 6, "face": 6, "role": "base"},
    ]
    reading = data["reading"]
    assert (reading["total"], reading["tn"], reading["outcome"]) == (17, 8, "success")
    # Skill 7 vs TN 8 fails only on the double 1.
    assert data["odds"]["failure"] == {"exact": "1/36", "float": 1 / 36}
    assert set(data["odds"]) == {"success", "complication", "crit", "fumble", "failure"}


def test_attack_fumble_reads_the_combat_fumble_die_last(run):
    argv = (
        "heroic",
        "--skill",
        "7",
        "--versus",
        "2",
        "--kind",
        "attack",
        "--damage",
        "7",
        "--faces",
        "1,1,3",
    )
    data = run_json(run, *argv)
    assert [die["role"] for die in data["dice"]] == ["base", "base", "fumble_table"]
    assert data["dice"][2]["face"] == 3
    reading = data["reading"]
    assert (reading["outcome"], reading["consequence"], reading["tn"]) == ("fumble", "drops_weapon", 9)
    assert reading["half_damage"] == 3.5 and "3.5" in reading["consequence_text"]
    code, out, _ = run(*argv)
    assert code == 0 and "Combat Fumble d6: 3" in out and "drops their weapon" in out


def test_reaction_crit_in_d20_with_damage(run):
    argv = ("heroic", "--skill", "2", "--versus", "30", "--dice", "d20", "--kind", "dodge", "--damage", "4")
    data = run_json(run, *argv, "--faces", "20")
    reading = data["reading"]
    assert (reading["tn"], reading["outcome"], reading["consequence"]) == (39, "crit", "free_action")
    assert (reading["governing_skill"], reading["damage_taken"]) == ("Agility", 0)
    fumble = run_json(run, *argv, "--faces", "1")["reading"]
    assert (fumble["damage_taken"], fumble["consequence"]) == (8, "critical_damage")


def test_odds_only(run):
    data = run_json(run, "odds", "heroic", "--skill", "4", "--tn", "14", "--dice", "d20")
    assert (data["system"], data["kind"], data["dice"]) == ("heroic", "odds", [])
    assert data["reading"]["tn"] == 14
    assert data["odds"]["success"]["exact"] == "11/20" and data["odds"]["complication"]["exact"] == "1/20"
    code, out, _ = run("odds", "heroic", "--skill", "6", "--difficulty", "very-hard")
    assert code == 0 and "TN 14 (Very Hard)" in out and "success" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("heroic", "--skill", "7", "--difficulty", "easy", "--tn", "8", "--faces", "3,3"),
            "only one target",
        ),
        (("heroic", "--skill", "7", "--faces", "3,3"), "Give a target"),
        (("heroic", "--skill", "31", "--tn", "8", "--faces", "3,3"), "Skill 31"),
        (("heroic", "--skill", "7", "--tn", "8", "--faces", "3,3,3"), "used 2"),
        (("heroic", "--skill", "7", "--tn", "8", "--kind", "attack", "--faces", "1,1"), "Not enough faces"),
        (("heroic", "--skill", "7", "--tn", "8", "--dice", "d8", "--faces", "3"), "Unknown dice"),
        (("odds", "heroic", "--skill", "7", "--difficulty", "nightmare"), "Unknown difficulty"),
    ],
)
def test_refusals_go_to_stderr_with_status_1(run, argv, message):
    code, out, err = run(*argv)
    assert code == 1 and out == "" and message in err


def test_help_documents_the_faces_order(run, capsys):
    with pytest.raises(SystemExit):
        run("heroic", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--faces order: the roll's dice" in help_text and "then, only when an attack Fumbles" in help_text
