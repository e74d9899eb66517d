"""What the SQLite and PostgreSQL stores share, written once against `statements.Statements`: statements with
named parameters (``:guild``), one at a time or in a transaction.

A driver's own module keeps only what differs: the SQL that each database must say its own way, and how its
driver reaches the helpers of other tables inside a transaction. The parameter style differs in one place,
`bot.storage.postgres.named` (SQLite reads ``:name`` itself; asyncpg wants ``$1``).
"""
