"""Every ``--json`` output of every sub-command, in every system, against rules/cli/output.schema.json: one shape
and one vocabulary (success, complication, failure vs failure_band, no_winner) across the four systems."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from rules.cli.main import build_parser, main
from rules.language import speak

COMMANDS = [
    ["hex", "test", "--attribute", "3", "--skill", "2"],
    ["hex", "test", "--attribute", "2", "--advancement"],
    ["hex", "contest", "--attribute", "3", "--opposing", "2"],
    ["hex", "cast", "--attribute", "3", "--risk", "1"],
    ["hex", "cast", "--attribute", "3", "--risk", "1", "--opposing", "2"],
    ["hex", "plain", "--dice", "3"],
    ["yz", "--attribute", "3", "--skill", "1", "--artifact", "d8"],
    ["yz", "--attribute", "2", "--skill", "1", "--push", "--willpower", "9", "--faces", "3,1,4,1,6"],
    ["yz", "--attribute", "1", "--pride", "--pushes", "3", "--push", "--faces", "3,4,2,5,3,6,5"],
    ["heroic", "--skill", "5", "--tn", "8"],
    ["heroic", "--skill", "5", "--versus", "3", "--kind", "block", "--damage", "4"],
    ["sk", "test", "--rank", "3", "--difficulty", "hard"],
    ["sk", "test", "--rank", "2", "--target", "12", "--faces", "1,2"],
    ["sk", "conflict", "--rank", "3", "--target", "12"],
    ["sk", "competition", "--participants", "Jaime 5D+2B, Brienne 4D+1B"],
    ["odds", "hex", "test", "--attribute", "3"],
    ["odds", "hex", "contest", "--attribute", "3", "--opposing", "2"],
    ["odds", "hex", "cast", "--attribute", "3", "--risk", "1", "--opposing", "1"],
    ["odds", "hex", "plain", "--dice", "3"],
    ["odds", "yz", "--base", "3", "--gear", "1"],
    ["odds", "yz", "--base", "3", "--pride", "--pushes", "2"],
    ["odds", "heroic", "--skill", "5", "--tn", "8"],
    ["odds", "sk", "test", "--rank", "3", "--difficulty", "hard"],
    ["odds", "sk", "conflict", "--rank", "3", "--target", "12"],
    ["odds", "sk", "competition", "--participants", "Jaime 5D+2B, Brienne 4D+1B"],
]


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(resources.files("rules").joinpath("cli/output.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_every_sub_command_is_covered():
    parser = build_parser(speak("en"))
    covered = {tuple(argv[:3] if argv[0] == "odds" and argv[1] in ("hex", "sk") else argv[:2]) for argv in COMMANDS}
    for system, sub in [("hex", ("test", "contest", "cast", "plain")), ("sk", ("test", "conflict", "competition"))]:
        for name in sub:
            assert (system, name) in covered and ("odds", system, name) in covered
    assert parser.parse_args(["yz"]).system == "yz"  # the single-command systems are covered by the list above


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_json_output_follows_the_schema(capsys, validator, argv):
    assert main([*argv, "--json"]) == 0
    output = json.loads(capsys.readouterr().out)
    problems = [f"{list(error.absolute_path)}: {error.message[:200]}" for error in validator.iter_errors(output)]
    assert problems == []


@pytest.mark.parametrize(
    "wrong",
    [
        {"reading": {"succeeded": True}},  # the old Heroic word for success
        {"reading": {"failure": "marginal"}},  # a band is failure_band; failure is a probability
        {"odds": {"neither": {"exact": "1/2", "float": 0.5}}},  # nobody winning is no_winner
        {"odds": {"success": {"exact": "3/2", "float": 1.5}}},  # not a probability
        {"reading": {"success": "yes"}},
    ],
)
def test_the_schema_refuses_the_old_words_and_wrong_types(validator, wrong):
    base = {"system": "heroic", "kind": "task", "input": {}, "dice": [], "reading": {}, "odds": {}}
    assert list(validator.iter_errors(base)) == []
    assert list(validator.iter_errors(base | wrong)) != []
