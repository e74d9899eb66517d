"""Another program holding the bot's database: ``python -m tests.drills.locker PATH``.

Opens PATH with plain sqlite3, takes ``BEGIN EXCLUSIVE``, prints ``locked`` and holds the lock until a line
(or end of file) arrives on stdin; then rolls back (it wrote nothing) and prints ``released``.
"""

from __future__ import annotations

import sqlite3
import sys


def main(path: str) -> int:
    connection = sqlite3.connect(path, isolation_level=None, timeout=10)
    connection.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.readline()
    connection.execute("ROLLBACK")
    connection.close()
    print("released", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
