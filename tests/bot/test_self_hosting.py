"""The self-hosting files hold what the README promises: the systemd unit, the Dockerfile, .env.example.

Docker itself is not run here (no daemon on the test machines); the Dockerfile's key lines are read, and its one
command of our own (the dependency list from pyproject.toml) is run as written.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.__main__ import EXIT_SETTINGS
from bot.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "rollkeeper.service"
DOCKERFILE = ROOT / "Dockerfile"
ENV_EXAMPLE = ROOT / ".env.example"


def unit_settings(text: str) -> dict[str, list[str]]:
    """Key -> every value it is given in a systemd unit (keys may repeat), comments left out."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def env_file(text: str) -> dict[str, str]:
    """Variables as `docker run --env-file` reads them: KEY=VALUE lines, comments and blank lines skipped."""
    pairs = (line.split("=", 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {key: value for key, value in pairs}


def dockerfile_lines() -> list[str]:
    joined = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


# --- systemd --------------------------------------------------------------------------------------


def test_the_unit_does_not_restart_on_a_setting_to_fix_and_is_hardened():
    unit = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert unit["RestartPreventExitStatus"] == [str(EXIT_SETTINGS)]  # the code python -m bot exits with
    assert unit["Restart"] == ["on-failure"] and unit["ExecStart"][0].endswith("/.venv/bin/python -m bot")
    assert unit["User"] == ["rollkeeper"] and unit["EnvironmentFile"] == ["/srv/rollkeeper/.env"]
    hardening = {
        "NoNewPrivileges": "yes", "ProtectSystem": "strict", "PrivateTmp": "yes", "ProtectHome": "yes",
        "PrivateDevices": "yes", "RestrictSUIDSGID": "yes", "UMask": "0077",
    }
    assert {key: unit[key][0] for key in hardening} == hardening
    (database,) = [value for value in unit["Environment"] if value.startswith("DATABASE_PATH=")]
    state = f"/var/lib/{unit['StateDirectory'][0]}"
    assert database == f"DATABASE_PATH={state}/rollkeeper.sqlite3"  # writable despite ProtectSystem=strict
    assert unit["ReadWritePaths"] == [state]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_the_unit(tmp_path: Path):
    """As installed, with the paths of this checkout (the unit's own /srv/rollkeeper does not exist here)."""
    text = UNIT.read_text(encoding="utf-8").replace("/srv/rollkeeper/.venv/bin/python", sys.executable)
    text = text.replace("/srv/rollkeeper/.env", str(ENV_EXAMPLE)).replace("/srv/rollkeeper", str(ROOT))
    copy = tmp_path / "rollkeeper.service"
    copy.write_text(text, encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


# --- Docker ---------------------------------------------------------------------------------------


def test_the_base_image_is_pinned_and_dependencies_are_a_layer_of_their_own():
    lines = dockerfile_lines()
    (base,) = [line for line in lines if line.startswith("FROM ")]
    assert re.fullmatch(r"FROM python:3\.11\.\d+-slim-[a-z]+(@sha256:[0-9a-f]{64})?", base), base
    copies = [index for index, line in enumerate(lines) if line.startswith("COPY ")]
    installs = [index for index, line in enumerate(lines) if "pip install" in line]
    assert lines[copies[0]] == "COPY pyproject.toml ./"  # nothing else changes the dependency layer
    assert copies[0] < installs[0] < copies[1]  # dependencies installed before any code is copied
    assert "pip install --no-deps ." in lines[installs[-1]] and installs[-1] > copies[-1]


def test_the_dependency_layer_installs_exactly_the_projects_dependencies(tmp_path: Path):
    (install,) = [line for line in dockerfile_lines() if "requirements.txt" in line and "tomllib" in line]
    command = re.search(r'python -c "(.+?)"', install)
    assert command is not None
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    result = subprocess.run(
        [sys.executable, "-c", command[1]],  # as the shell passes it: '\n' stays a Python escape
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True,
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["postgres"]  # asyncpg, for DATABASE_URL
    assert result.stdout.split("\n")[:-1] == wanted


def test_the_healthcheck_is_the_bots_own_and_the_database_is_on_the_volume():
    lines = dockerfile_lines()
    (health,) = [line for line in lines if line.startswith("HEALTHCHECK ")]
    assert health.endswith('CMD ["python", "-m", "bot", "healthcheck"]')
    assert "ENV DATABASE_PATH=/data/rollkeeper.sqlite3" in lines and 'VOLUME ["/data"]' in lines
    assert lines.index("USER rollkeeper") < lines.index('CMD ["python", "-m", "bot"]')


def test_the_env_example_passed_with_env_file_keeps_the_images_database_path(tmp_path: Path):
    example = ENV_EXAMPLE.read_text(encoding="utf-8")
    assert not re.search(r"^DATABASE_PATH=", example, flags=re.MULTILINE)
    assert re.search(r"^# DATABASE_PATH=", example, flags=re.MULTILINE)  # documented, commented out
    image = {"DATABASE_PATH": "/data/rollkeeper.sqlite3"}
    passed = env_file(example) | {"DISCORD_TOKEN": "fake-token.for-tests.only"}
    settings = load_settings(image | passed, cwd=tmp_path)
    assert settings.database_path == Path("/data/rollkeeper.sqlite3")


def test_the_token_never_goes_into_the_image():
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored and "*.sqlite3" in ignored and "!.env.example" in ignored
