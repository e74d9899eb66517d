"""The dated results file a benchmark run leaves in bench/results/: what it printed, on which commit, under what load.

A run's figures move with the machine's load, so each file says what the load was, before and after, beside the
commit (and whether the tree held uncommitted changes) and the options the run was given. One Markdown file per
run, named by the UTC minute it ended: ``bench/results/2026-12-03T1912Z.md``.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import takewhile
from pathlib import Path
from typing import TextIO

RESULTS_DIR = Path(__file__).resolve().parent / "results"
REPOSITORY = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Machine:
    """Where a run ran: the load averages (1, 5, 15 min) at its start and end, the cores, Python."""

    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    cores: int
    python: str
    platform: str


@dataclass(frozen=True)
class Commit:
    """The commit the run measured (`git rev-parse --short HEAD` as it started) and whether the tree differed from
    it then (tracked files only: a results file left uncommitted does not count)."""

    short: str
    dirty: bool


@dataclass(frozen=True)
class SectionResult:
    name: str
    ok: bool
    seconds: float
    verdict_line: str = ""


@dataclass
class Run:
    """Everything a results file holds."""

    ended: datetime
    commit: Commit
    machine: Machine
    options: Mapping[str, object]
    sections: list[SectionResult] = field(default_factory=list)
    output: str = ""


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def machine(load_before: tuple[float, float, float]) -> Machine:
    return Machine(
        load_before=load_before,
        load_after=load_average(),
        cores=os.cpu_count() or 0,
        python=platform.python_version(),
        platform=platform.platform(terse=True),
    )


def current_commit(repository: Path = REPOSITORY) -> Commit:
    """HEAD's short hash and whether `git status` shows changes; "unknown" outside a git checkout."""
    try:
        short = _git(repository, "rev-parse", "--short", "HEAD").strip()
        dirty = bool(_git(repository, "status", "--porcelain", "--untracked-files=no").strip())
    except (OSError, subprocess.CalledProcessError):
        return Commit(short="unknown", dirty=False)
    return Commit(short=short, dirty=dirty)


def _git(repository: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repository), *args], check=True, capture_output=True, text=True, timeout=30
    ).stdout


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, terminal: TextIO) -> None:
        self.terminal = terminal
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.terminal.write(text)
        return self.copy.write(text)

    def flush(self) -> None:
        self.terminal.flush()


@contextlib.contextmanager
def captured_output() -> Iterator[io.StringIO]:
    """Everything printed inside, still printed, and kept in the StringIO yielded."""
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield tee.copy


def verdict_line(output: str, longest: int = 200) -> str:
    """What a section's last '<section> verdict: PASS (...)' said after its verdict, on one line.

    A failure's message may run over several lines (up to the section's timing line); they are joined. A verdict
    that says nothing more borrows the section's last line naming its target ('stall 145 ms (target <= 50 ms)').
    A text longer than `longest` is cut with '...': the full output is in the file below the table."""
    at = output.rfind(" verdict: ")
    if at < 0:
        return ""
    lines = output[at + len(" verdict: ") :].splitlines()
    said = " ".join(line.strip() for line in takewhile(lambda line: not TIMING.match(line), lines))
    said = said.removeprefix("PASS").removeprefix("FAIL").strip()
    if said.startswith("(") and said.endswith(")"):
        said = said[1:-1]
    if not said:
        targets = [line.strip() for line in output[:at].splitlines() if "target" in line]
        said = targets[-1] if targets else ""
    return said if len(said) <= longest else said[: longest - 3] + "..."


TIMING = re.compile(r"^  \([\w-]+: [0-9.]+ s\)$")
"""The line run_section prints after a section: '  (odds: 0.8 s)'."""


def file_name(ended: datetime) -> str:
    return ended.astimezone(UTC).strftime("%Y-%m-%dT%H%MZ") + ".md"


def write(run: Run, directory: Path = RESULTS_DIR) -> Path:
    """Write the run's results file in directory (made if missing); a second run in the same minute gets -2, -3..."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / file_name(run.ended)
    number = 2
    while path.exists():
        path = directory / f"{file_name(run.ended).removesuffix('.md')}-{number}.md"
        number += 1
    path.write_text(render(run), encoding="utf-8")
    return path


def render(run: Run) -> str:
    m = run.machine
    dirty = " (uncommitted changes in the tree)" if run.commit.dirty else ""
    options = dict(run.options)
    command = options.pop("command", "")
    sizes = ", ".join(f"{name}={value}" for name, value in options.items())
    lines = [
        f"# python -m bench, {run.ended.astimezone(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        "| run | |",
        "|---|---|",
        f"| commit | `{run.commit.short}`{dirty} |",
        f"| load average (1, 5, 15 min) | {_load(m.load_before)} at the start, {_load(m.load_after)} at the end |",
        f"| cores | {m.cores} |",
        f"| python | {m.python} on {m.platform} |",
        f"| command | `{command}` |",
        f"| sizes | {sizes} |",
        "",
        table(run.sections),
        "",
        "## What it printed",
        "",
        "```text",
        run.output.rstrip("\n"),
        "```",
        "",
    ]
    return "\n".join(lines)


def table(sections: list[SectionResult]) -> str:
    """The summary table: one row per section, its verdict, its time and the headline it printed."""
    rows = ["| section | verdict | seconds | headline |", "|---|---|---|---|"]
    for section in sections:
        verdict = "PASS" if section.ok else "FAIL"
        headline = section.verdict_line.replace("|", "\\|")
        rows.append(f"| {section.name} | {verdict} | {section.seconds:.0f} | {headline} |")
    return "\n".join(rows)


def _load(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{value:.2f}" for value in load)
