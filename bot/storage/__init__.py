"""What the bot keeps, in SQLite or PostgreSQL, written once on the driver seam. No SQL lives outside this package."""
