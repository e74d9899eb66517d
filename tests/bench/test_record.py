"""The benchmark's dated results file: written where and when it should be, holding the commit, the load and the table.

No timing is asserted: the figures are whatever the fake sections print.
"""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench import record
from bench.__main__ import parser, run_sections, saves

ENDED = datetime(2026, 12, 3, 19, 12, 40, tzinfo=UTC)


def a_run(**changes: object) -> record.Run:
    run = record.Run(
        ended=ENDED,
        commit=record.Commit(short="abc1234", dirty=False),
        machine=record.Machine(
            load_before=(1.25, 0.5, 0.25), load_after=(2.5, 1.0, 0.75), cores=2, python="3.11.7", platform="Linux"
        ),
        options={"command": "python -m bench --quick --save", "events": 300, "storms": 1},
        sections=[
            record.SectionResult("interactions", False, 61.2, "ratio ours/bare 4.81, target <= 1.5"),
            record.SectionResult("odds", True, 9.6, "target: identical answers, >= 10x on the first query"),
        ],
        output="ratio ours/bare (wall, medians): 4.81\nVERDICT: FAIL (interactions FAIL, odds PASS)\n",
    )
    for name, value in changes.items():
        setattr(run, name, value)
    return run


def test_a_run_leaves_a_file_named_by_its_minute_with_the_commit_the_load_and_the_table(tmp_path: Path):
    path = record.write(a_run(), tmp_path / "results")
    assert path == tmp_path / "results" / "2026-12-03T1912Z.md"
    text = path.read_text(encoding="utf-8")
    assert "| commit | `abc1234` |" in text
    assert "1.25, 0.50, 0.25 at the start, 2.50, 1.00, 0.75 at the end" in text
    assert "| cores | 2 |" in text and "3.11.7" in text
    assert "`python -m bench --quick --save`" in text and "events=300, storms=1" in text
    assert "| interactions | FAIL | 61 | ratio ours/bare 4.81, target <= 1.5 |" in text
    assert "| odds | PASS | 10 | target: identical answers, >= 10x on the first query |" in text
    assert "```text\nratio ours/bare (wall, medians): 4.81\nVERDICT: FAIL" in text


def test_a_dirty_tree_is_said_and_a_second_run_in_the_same_minute_keeps_the_first(tmp_path: Path):
    first = record.write(a_run(), tmp_path)
    second = record.write(a_run(commit=record.Commit(short="abc1234", dirty=True)), tmp_path)
    assert first.name == "2026-12-03T1912Z.md" and second.name == "2026-12-03T1912Z-2.md"
    assert "(uncommitted changes in the tree)" in second.read_text(encoding="utf-8")
    assert "uncommitted" not in first.read_text(encoding="utf-8")


def test_the_commit_is_heads_short_hash_and_a_change_makes_it_dirty(tmp_path: Path):
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, text=True).stdout

    git("init", "-q")
    (tmp_path / "file").write_text("one")
    git("add", "file")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "one")
    head = git("rev-parse", "--short", "HEAD").strip()
    assert record.current_commit(tmp_path) == record.Commit(short=head, dirty=False)
    (tmp_path / "file").write_text("two")
    assert record.current_commit(tmp_path) == record.Commit(short=head, dirty=True)
    assert record.current_commit(tmp_path / "nowhere") == record.Commit(short="unknown", dirty=False)


def test_the_sections_output_is_printed_and_kept_with_each_headline(capsys: pytest.CaptureFixture[str]):
    def passing() -> bool:
        print("odds verdict: PASS (identical answers)")
        return True

    def failing() -> bool:
        print("purge verdict: FAIL")
        raise AssertionError("a bot logged:\n    WARNING a stall of 80 ms")

    results, printed = run_sections({"odds": passing, "purge": failing}, ["purge", "odds"])
    assert [(r.name, r.ok, r.verdict_line) for r in results] == [
        ("odds", True, "identical answers"),
        ("purge", False, "AssertionError: a bot logged: WARNING a stall of 80 ms"),
    ]
    assert printed == capsys.readouterr().out
    assert printed.endswith("VERDICT: FAIL (odds PASS, purge FAIL)\n")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], True),
        (["--quick"], False),
        (["--only", "odds"], False),
        (["--quick", "--save"], True),
        (["--only", "odds", "--save"], True),
        (["--no-save"], False),
    ],
)
def test_a_full_run_saves_unless_told_not_to_and_a_quick_or_partial_one_only_when_told(argv, expected):
    assert saves(parser().parse_args(argv)) is expected


def test_a_long_headline_is_cut_and_a_bare_verdict_borrows_the_line_naming_its_target():
    assert record.verdict_line("x verdict: FAIL (" + "y" * 300 + ")\n  (x: 1.0 s)\n", longest=50) == "y" * 47 + "..."
    stall = "  longest loop stall 145.5 ms (target <= 50 ms)\n  a roll's wait: p99 3 ms\n"
    assert record.verdict_line(stall + "purge verdict: FAIL\n  (purge: 6.0 s)\n") == stall.splitlines()[0].strip()
    assert record.verdict_line("purge verdict: PASS\n  (purge: 6.0 s)\n") == ""
    assert record.verdict_line("nothing said\n") == ""
