"""Fixtures for the rules tests: `run` drives `python -m rules` in-process."""

import pytest

from rules.cli.main import main


@pytest.fixture
def run(capsys):
    """Run the command line with argv; return (exit code, stdout, stderr)."""

    def invoke(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return invoke
