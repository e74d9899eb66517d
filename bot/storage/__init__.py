"""What the bot keeps (pending Year Zero rolls, Willpower, extended tests, the roll log, applied interactions, shard
leases, meta), in SQLite through one aiosqlite connection or in PostgreSQL through an asyncpg pool. One class per
thing kept (`rolls.YearZeroRolls`, `willpower.Willpower`, ...) is written once against the driver seam
(`driver.Statements`); what the two databases say differently is `dialects.SQLITE` and `dialects.POSTGRES`. The
open database is a `database.Storage`: `sqlite.Database` or `postgres.PostgresDatabase`, as `opening.open_storage`
chooses. No SQL lives outside this package; its migrations are in `migrations/sqlite/` and `migrations/postgres/`.
"""
