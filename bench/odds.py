"""Exact odds against icepool, each on a process's first query.

Every query runs in a fresh Python process, once with rollkeeper's odds and once with icepool, interleaved, so
both pay the same cold-start costs (imports are done before the clock starts; caches are empty). The answers
must be identical fractions; the figure that matters is the ratio icepool / ours of the median times, measured
in the same run. Target: ours at least 10 times faster on every query.

    python -m bench.odds [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from dataclasses import dataclass

TARGET = 10.0

# Each query: the import lines (not timed), then the expression timed (the process's first query).
QUERIES: dict[str, dict[str, tuple[str, str]]] = {
    "Year Zero 25 base + 5 gear + d12 artifact: P(success after push), E[successes after push]": {
        "ours": (
            "from rules.yearzero.odds import odds_for_roll",
            "(lambda o: (o.success_after_push, o.expected_successes_after_push))"
            "(odds_for_roll(25, 5, (12,)))",
        ),
        "icepool": (
            "import icepool",
            "(lambda final: (final.probability('>=', 1), final.mean()))("
            "30 @ icepool.d6.map(lambda f: icepool.d6 if f not in (1, 6) else f).map(lambda f: int(f == 6))"
            " + icepool.d12.map(lambda f: icepool.d12 if f < 6 else f)"
            ".map(lambda f: 0 if f < 6 else (f - 4) // 2))",
        ),
    },
    "HEX contest 30 vs 30: P(acting side wins)": {
        "ours": ("from rules.hex.odds import odds_for_contest", "(odds_for_contest(30, 30).acting_wins,)"),
        "icepool": (
            "import icepool",
            "(lambda s: ((30 @ s >= 30 @ s).probability(True),))(icepool.d6.map(lambda f: int(f == 6)))",
        ),
    },
    "Seven Kingdoms 10D+10B-3P: result distribution": {
        "ours": (
            "from rules.sevenkingdoms.roll import SkPool\n"
            "from rules.sevenkingdoms.odds import result_distribution",
            "tuple(sorted(result_distribution(SkPool(10, 10, discard=3)).items()))",
        ),
        "icepool": (
            "import icepool",
            "(lambda s: tuple((k, s.probability(k)) for k in sorted(s.outcomes())))"
            "(icepool.d6.pool(20).highest(10, drop=3).sum())",
        ),
    },
}

RUNNER = """
import json, time
from fractions import Fraction
{imports}
start = time.perf_counter()
answer = {expression}
seconds = time.perf_counter() - start
def exact(value):
    if isinstance(value, tuple):
        return [exact(v) for v in value]
    return str(Fraction(value))
print(json.dumps({{"seconds": seconds, "answer": exact(answer)}}))
"""


@dataclass(frozen=True)
class Timing:
    name: str
    ours: list[float]
    icepool: list[float]
    identical: bool

    @property
    def ratio(self) -> float:
        return statistics.median(self.icepool) / statistics.median(self.ours)


def first_query(imports: str, expression: str) -> tuple[float, object]:
    code = RUNNER.format(imports=imports, expression=expression)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    return data["seconds"], data["answer"]


def measure(name: str, query: dict[str, tuple[str, str]], runs: int) -> Timing:
    ours: list[float] = []
    theirs: list[float] = []
    answers: set[str] = set()
    for _ in range(runs):
        for side, times in (("ours", ours), ("icepool", theirs)):
            seconds, answer = first_query(*query[side])
            times.append(seconds)
            answers.add(json.dumps(answer))
    return Timing(name, ours, theirs, identical=len(answers) == 1)


def spread(times: list[float]) -> str:
    low, middle, high = (1e3 * t for t in (min(times), statistics.median(times), max(times)))
    return f"median {middle:8.2f} ms (min {low:.2f}, max {high:.2f})"


def run(runs: int = 7) -> bool:
    """Print every figure; return True when every answer matched and every ratio met the target."""
    ok = True
    for name, query in QUERIES.items():
        timing = measure(name, query, runs)
        print(name)
        print(f"  ours    {spread(timing.ours)}")
        print(f"  icepool {spread(timing.icepool)}")
        ratios = sorted(i / o for i, o in zip(timing.icepool, timing.ours, strict=True))
        print(
            f"  ratio icepool/ours: {timing.ratio:.1f}x (per-run {ratios[0]:.1f}x to {ratios[-1]:.1f}x)"
            f" · answers identical: {'yes' if timing.identical else 'NO'}"
        )
        ok &= timing.identical and timing.ratio >= TARGET
    verdict = "PASS" if ok else "FAIL"
    print(f"odds verdict: {verdict} (target: identical answers, >= {TARGET:.0f}x on the first query)")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per side and query")
    args = parser.parse_args(argv)
    return 0 if run(args.runs) else 1


if __name__ == "__main__":
    sys.exit(main())
