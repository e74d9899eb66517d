"""The rules package stays free of Discord and of module-level randomness."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN_ROOTS = {"discord", "aiosqlite", "aiohttp"}


def _imported_roots(source: str) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_modules_exist():
    assert len(list(RULES.rglob("*.py"))) >= 5


def test_no_rules_module_imports_discord_or_storage():
    offenders = {
        str(path.relative_to(RULES)): sorted(_imported_roots(path.read_text()) & FORBIDDEN_ROOTS)
        for path in RULES.rglob("*.py")
    }
    assert {name: roots for name, roots in offenders.items() if roots} == {}


def test_no_module_level_random_calls():
    """Randomness comes in through a dice source: no module calls random.* at import time."""
    for path in RULES.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            for call in ast.walk(node):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    break
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id in {"random", "secrets"}
                ):
                    raise AssertionError(f"{path.name} calls {call.func.value.id}.{call.func.attr} at import")


def test_purity_check_catches_a_discord_import():
    assert "discord" in _imported_roots("from discord import app_commands\n") & FORBIDDEN_ROOTS
    assert "discord" in _imported_roots("import discord.ui\n") & FORBIDDEN_ROOTS


def test_ruff_bans_discord_inside_rules():
    """The lint rule (rules/ruff.toml, banned-api) fires on a discord import placed in rules/.

    ruff comes with the test extra: it is run from this interpreter, so the test never depends on PATH (an
    unactivated venv) and never skips."""
    probe = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--stdin-filename", str(RULES / "probe.py"), "-"],
        input="import discord\n\nprint(discord)\n",
        capture_output=True,
        text=True,
        cwd=RULES.parent,
    )
    assert probe.returncode == 1
    assert "TID251" in probe.stdout and "discord" in probe.stdout
