"""``python -m rules … --lang``: the summary (and the help) in the language asked, the JSON the same in all."""

from __future__ import annotations

import json

import pytest

from rules.cli.main import main
from rules.language import LANGUAGES, TRANSLATED, speak

YZ = ["yz", "--attribute", "3", "--skill", "2", "--gear", "1", "--faces", "6,3,1,4,5,2"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_summary_speaks_the_language_asked(capsys, code):
    speech = speak(code)
    status, out, _ = run(capsys, *YZ, "--lang", code)
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith(speech._("Year Zero: {pool}", pool=""))
    assert lines[-2].startswith(speech._("Odds: {chances}", chances="")), lines
    assert lines[-1].startswith(speech._("Pushing: {chance} to succeed", chance="").split(" ")[0]), lines


def test_swedish_by_its_short_name_and_the_json_alike_in_every_language(capsys):
    swedish = run(capsys, *YZ, "--lang", "sv")[1]
    assert swedish == run(capsys, *YZ, "--lang", "sv_SE")[1] != run(capsys, *YZ)[1]
    assert "framgång" in swedish  # "success" in Swedish, as its catalogue has it
    outputs = {json.dumps(json.loads(run(capsys, *YZ, "--json", "--lang", code)[1])) for code in LANGUAGES}
    assert len(outputs) == 1


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_refusal_and_the_help_speak_it_too(capsys, code):
    speech = speak(code)
    status, _, err = run(capsys, "sk", "test", "--rank", "1", "--difficulty", "Hard", "--lang", code)
    assert status == 1 and err.startswith(speech._("error: {reason}", reason="").rstrip())
    assert "Rank 1" not in err
    with pytest.raises(SystemExit):
        main(["yz", "--help", "--lang", code])
    assert speech._("pushes the roll allows (0-3, default 1)")[:20] in " ".join(capsys.readouterr().out.split())


def test_an_unknown_language_is_refused(capsys):
    with pytest.raises(SystemExit) as refused:
        main([*YZ, "--lang", "tlh"])
    said = capsys.readouterr().err
    assert refused.value.code == 2 and "'tlh' is none of en, sv_SE, de, fr, es_ES, pt_BR, it, ru, cs" in said


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_seven_kingdoms_dice_groups_are_named_in_the_language_asked(capsys, code):
    speech = speak(code)
    _, out, _ = run(capsys, "sk", "test", "--rank", "3", "--bonus", "1", "--difficulty", "Hard", "--faces", "6,3,4,5",
                    "--lang", code)
    dice = out.splitlines()[1]
    test, bonus = (speech.pgettext("seven kingdoms dice", word) for word in ("test", "bonus"))
    assert f" {test} 6 " in dice and f"· {bonus} " in dice, dice
