"""The playground, run as a newcomer runs it (`python -m bot playground` in a fresh directory), for the tests here.

`playground` starts it on a free port of 127.0.0.1 with its database in a temporary folder and yields its URL.
The browser tests need Chromium (Debian's `chromium` package) and Playwright for Python; where either is missing
they are skipped, and pytest says so in one line at the end of the run.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
"""The browser: $CHROMIUM, else chromium on the PATH (Debian's package)."""
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
INSTALL = "apt-get install chromium (Debian/Ubuntu) and pip install -e '.[test]' (Playwright)"
_skipped_for_browser: list[str] = []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Playground:
    """`python -m bot playground` in a child process; `url` once it has printed it."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        environment = {key: value for key, value in os.environ.items() if key not in ("DATABASE_PATH", "DATABASE_URL")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "playground", "--port", str(self.port), *args],
            cwd=folder, env=environment | (env or {}), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.output: list[str] = []

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output.append(line)
            if self.url in line:
                return
        self.stop()
        raise AssertionError("the playground did not start:\n" + "".join(self.output))

    def stop(self) -> str:
        """SIGINT (Ctrl+C), wait; return everything it printed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        rest = self.process.stdout.read() if self.process.stdout else ""
        return "".join(self.output) + (rest or "")


@pytest.fixture(scope="module")
def playground(tmp_path_factory) -> Iterator[Playground]:
    running = Playground(tmp_path_factory.mktemp("playground"))
    running.wait_ready()
    yield running
    running.stop()


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401  (only: is it installed?)
    except ImportError:
        return "Playwright for Python is not installed"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = browser_missing()
    if missing is not None:
        _skipped_for_browser.append(missing)
        pytest.skip(f"browser tests: {missing}; {INSTALL}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line when the browser tests were skipped, saying how to run them."""
    if _skipped_for_browser:
        terminalreporter.write_line(
            f"Playground browser tests: skipped ({_skipped_for_browser[0]}). To run them: {INSTALL}."
        )
