"""The classes of what is kept stay driver-neutral: they import neither driver and write their SQL with named
parameters, so what differs between SQLite and PostgreSQL stays in the dialects and the drivers' own modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"
DRIVER_MODULES = ("sqlite.py", "files.py", "postgres.py", "schema.py")
"""The drivers' own modules, the only ones that may reach aiosqlite, sqlite3 or asyncpg (schema.py splits the
migration files where sqlite3 says a statement is complete)."""
SHARED = [path for path in sorted(STORAGE.glob("*.py")) if path.name not in DRIVER_MODULES]
DRIVERS = ("aiosqlite", "sqlite3", "asyncpg", *(f"bot.storage.{name.removesuffix('.py')}" for name in DRIVER_MODULES))


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_shared_modules_are_all_here():
    kept = {"rolls.py", "willpower.py", "extended.py", "roll_log.py", "applied.py", "leases.py", "meta.py"}
    assert {path.name for path in SHARED} >= kept | {"database.py", "driver.py", "dialects.py", "roll_messages.py"}


def test_the_shared_code_imports_neither_driver():
    offenders = {path.name: sorted(name for name in imported(path) if name.startswith(DRIVERS)) for path in SHARED}
    assert {name: drivers for name, drivers in offenders.items() if drivers} == {}


def statements(path: Path) -> list[str]:
    """Every string assigned to a name or given as an argument (the SQL constants; not the docstrings)."""
    texts = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.keyword) and node.value is not None:
            texts += [leaf.value for leaf in ast.walk(node.value) if isinstance(leaf, ast.Constant)]
    return [text for text in texts if isinstance(text, str)]


def test_the_shared_statements_name_their_parameters():
    numbered = {path.name: [s for s in statements(path) if re.search(r"\$[0-9]|\?", s)] for path in SHARED}
    assert {name: found for name, found in numbered.items() if found} == {}
    assert any(":guild" in text for text in statements(STORAGE / "rolls.py"))  # the SQL was read
    assert any(":made" in text for text in statements(STORAGE / "dialects.py"))  # the dialects' keywords too


def test_the_dialects_are_a_short_list():
    """What the databases say differently is a few statements, not parallel modules."""
    dialects = (STORAGE / "dialects.py").read_text(encoding="utf-8")
    assert len(dialects.splitlines()) <= 160
    assert not (STORAGE / "shared").exists() and not (STORAGE / "interface.py").exists()
