"""PostgreSQL storage through asyncpg (``pip install -e ".[postgres]"``): the same interface and guarantees as
the SQLite store, for several bot processes sharing one database. Chosen by ``DATABASE_URL``."""

from bot.storage.postgres.database import PostgresDatabase
from bot.storage.postgres.migrations import load_postgres_migrations
from bot.storage.postgres.pool import where

__all__ = ["PostgresDatabase", "load_postgres_migrations", "where"]
