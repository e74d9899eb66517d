"""What the command-line tests share besides the `run` fixture."""

import json


def run_json(run, *argv) -> dict:
    """Run with --json; the command must succeed with nothing on stderr; return the parsed object."""
    code, out, err = run(*argv, "--json")
    assert (code, err) == (0, ""), err
    return json.loads(out)
