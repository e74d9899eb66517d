"""``python -m rules sk ...`` and ``python -m rules odds sk ...``: JSON, text, --faces order and errors."""


import json

import pytest

from rules.sevenkingdoms.odds import competition_odds, odds_for_test
from rules.sevenkingdoms.roll import SkPool
from tests.rules.cli.support import run_json


@pytest.fixture
def cli(run):
    return run


def test_test_json_reads_test_dice_then_bonus_dice(cli):
    data = run_json(cli, "sk", "test", "--rank", "3", "--bonus", "1", "--discard", "1",
                    "--difficulty", "Formidable", "--faces", "6,2,4,5")
    assert (data["system"], data["kind"]) == ("sevenkingdoms", "basic")
    assert [(d["face"], d["role"], d["fate"]) for d in data["dice"]] == [
        (6, "test", "discarded"), (2, "test", "kept"), (4, "test", "kept"), (5, "bonus", "kept")]
    assert data["reading"]["result"] == 11 and data["reading"]["failure_band"] == "marginal"
    assert data["input"]["pool"]["notation"] == "3D + 1B − 1P" and data["input"]["difficulty_number"] == 12
    expected = odds_for_test(SkPool(3, 1, discard=1), 12).success
    assert data["odds"]["success"]["exact"] == f"{expected.numerator}/{expected.denominator}"


def test_pool_notation_with_wounds_and_aid(cli):
    data = run_json(cli, "sk", "test", "--pool", "3D+2B-1P", "--wounds", "1", "--aid", "--difficulty", "Easy",
                    "--faces", "1,2,3,4,5")
    assert [d["role"] for d in data["dice"]] == ["test", "test", "bonus", "bonus", "bonus"]
    assert data["reading"]["result"] == 4 + 3  # 5 discarded, the two test dice left keep 4 and 3
    assert data["input"]["pool"]["aid"] is True and data["input"]["pool"]["test_dice"] == 2


def test_conflict_against_defense_zero_is_rolled(cli):
    data = run_json(cli, "sk", "conflict", "--rank", "1", "--defense", "0", "--faces", "1")
    assert data["kind"] == "conflict" and data["reading"]["status"] == "rolled"
    assert data["reading"]["degrees"] == 1 and len(data["dice"]) == 1


def test_automatic_and_no_test_die_read_no_faces(cli):
    data = run_json(cli, "sk", "test", "--rank", "2", "--difficulty", "automatic")
    reading = data["reading"]
    assert (data["dice"], reading["status"], reading["success"]) == ([], "automatic", True)
    data = run_json(cli, "sk", "test", "--rank", "2", "--wounds", "2", "--difficulty", "easy")
    reading = data["reading"]
    assert (data["dice"], reading["status"], reading["success"]) == ([], "no_test_dice", False)


def test_text_summary(cli):
    code, out, _ = cli("sk", "test", "--rank", "4", "--bonus", "1", "--difficulty", "Very Hard", "--faces",
                       "1,3,6,2,6")
    assert code == 0
    assert "4D + 1B vs Very Hard (18)" in out
    assert "Result 17 vs 18: marginal failure, 1 below; complication" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("sk", "test", "--rank", "1", "--difficulty", "Hard"),
         "error: Rank 1 is below the minimum rank 3 for a test of difficulty Hard\n"),
        (("sk", "test", "--rank", "3", "--aid", "2", "--target", "3"), "Only one helper can aid a test"),
        (("sk", "test", "--pool", "3D", "--rank", "3", "--difficulty", "Easy"), "not both"),
        (("sk", "test", "--difficulty", "Easy"), "Give --rank"),
        (("sk", "test", "--rank", "3"), "Give either a difficulty"),
        (("sk", "test", "--pool", "3Q", "--target", "3"), "Cannot read the pool '3Q'"),
        (("sk", "test", "--rank", "2", "--target", "3", "--faces", "6,6,6"), "3 faces given, but"),
        (("sk", "test", "--rank", "2", "--target", "3", "--faces", "6"), "Not enough faces"),
        (("sk", "competition", "--participants", "Jaime 5D"), "2 to 25 participants, not 1"),
        (("odds", "sk", "test", "--rank", "1", "--difficulty", "Heroic"),
         "minimum rank 4 for a test of difficulty Heroic"),
    ],
)
def test_errors_go_to_stderr_with_exit_code_2(cli, argv, message):
    code, out, err = cli(*argv)
    assert code == 1 and out == ""
    assert err.startswith("error: ") and message in err


def test_competition_json_and_faces_participant_by_participant(cli):
    data = run_json(cli, "sk", "competition", "--participants", "Jaime 5D+2B, Brienne 4D+1B, Pod 0D+1B",
                    "--faces", "6,6,5,4,3,2,1,6,5,5,4,1")
    assert data["kind"] == "competition"
    assert [d["participant"] for d in data["dice"]] == ["Jaime"] * 7 + ["Brienne"] * 5
    reading = data["reading"]
    assert (reading["winner"], reading["margin"], reading["degrees"]) == ("Jaime", 4, 1)
    assert reading["tie"] is False
    assert reading["standings"] == ["Jaime", "Brienne", "Pod"]
    assert [c["result"] for c in reading["competitors"]] == [24, 20, None]
    assert data["odds"]["win"]["Pod"]["exact"] == "0/1"


def test_odds_commands_print_only_odds(cli):
    data = run_json(cli, "odds", "sk", "test", "--rank", "10", "--bonus", "10", "--discard", "3",
                    "--difficulty", "Hard")
    assert set(data) == {"system", "kind", "input", "dice", "reading", "odds"}
    assert data["dice"] == [] and data["reading"] == {}  # the odds roll nothing
    expected = odds_for_test(SkPool(10, 10, discard=3), "Hard")
    assert data["odds"]["success"]["exact"] == f"{expected.success.numerator}/{expected.success.denominator}"
    data = run_json(cli, "odds", "sk", "conflict", "--pool", "2D", "--target", "0")
    assert data["odds"]["status"] == "rolled" and data["odds"]["success"]["exact"] == "1/1"
    data = run_json(cli, "odds", "sk", "competition", "--participants", "Jaime 5D+2B, Brienne 4D+1B")
    odds = competition_odds([SkPool(5, 2), SkPool(4, 1)])
    assert data["odds"]["win"]["Jaime"]["float"] == float(odds.win[0])
    assert data["odds"]["tie"]["float"] == float(odds.tie)
    code, out, _ = cli("odds", "sk", "competition", "--participants", "Jaime 5D+2B, Brienne 4D+1B")
    assert code == 0 and "Odds: Jaime " in out and " · Brienne " in out and " · tie at the top " in out


def test_help_documents_the_faces_order(cli, capsys):
    for kind, words in (("test", "test dice left after wounds"), ("conflict", "then the bonus dice"),
                        ("competition", "each participant in the order given")):
        with pytest.raises(SystemExit):
            cli("sk", kind, "--help")
        assert words in " ".join(capsys.readouterr().out.split())


def test_a_basic_test_carries_its_minimum_rank_and_a_conflict_none(run):
    code, out, _ = run("sk", "test", "--rank", "5", "--difficulty", "hard", "--faces", "6,6,6,6,6", "--json")
    basic = json.loads(out)
    assert code == 0 and basic["input"]["min_rank"] == 3  # Hard (21): minimum rank 3
    code, out, _ = run("sk", "conflict", "--rank", "2", "--target", "30", "--faces", "6,6", "--json")
    assert code == 0 and json.loads(out)["input"]["min_rank"] is None
