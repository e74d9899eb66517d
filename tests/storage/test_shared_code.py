"""The code both stores share stays driver-neutral: it imports neither driver and writes its SQL with named
parameters, so what differs between SQLite and PostgreSQL stays in the drivers' own modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

STORAGE = Path(__file__).resolve().parents[2] / "bot" / "storage"
ONE_CLASS_FOR_BOTH = ("meta.py", "leases.py", "roll_messages.py", "roll_records.py", "log_records.py", "interface.py")
SHARED = [*sorted((STORAGE / "shared").glob("*.py")), *(STORAGE / name for name in ONE_CLASS_FOR_BOTH)]
DRIVERS = ("aiosqlite", "sqlite3", "asyncpg", "bot.storage.store", "bot.storage.files", "bot.storage.postgres")
SQLITE_CLASSES = tuple(f"bot.storage.{name}" for name in ("applied", "willpower", "extended", "roll_log", "rolls"))
"""SQLite's own classes: importing one reaches the SQLite driver through it."""


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_shared_modules_are_all_here():
    shared = {"rolls.py", "database.py", "statements.py", "applied.py", "willpower.py", "extended.py", "roll_log.py"}
    assert {path.name for path in SHARED} >= shared | {"meta.py", "leases.py"}


def test_the_shared_code_imports_neither_driver():
    offenders = {
        path.name: sorted(
            name for name in imported(path) if name.startswith(DRIVERS) or name in SQLITE_CLASSES
        ) for path in SHARED
    }
    assert {name: drivers for name, drivers in offenders.items() if drivers} == {}


def statements(path: Path) -> list[str]:
    """Every string assigned to a name (the SQL constants; not the docstrings)."""
    texts = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            texts += [leaf.value for leaf in ast.walk(node.value) if isinstance(leaf, ast.Constant)]
    return [text for text in texts if isinstance(text, str)]


def test_the_shared_statements_name_their_parameters():
    numbered = {path.name: [s for s in statements(path) if re.search(r"\$[0-9]|\?", s)] for path in SHARED}
    assert {name: found for name, found in numbered.items() if found} == {}
    assert any(":guild" in text for text in statements(STORAGE / "shared" / "rolls.py"))  # the SQL was read
