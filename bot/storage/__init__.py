"""What the bot keeps, in SQLite or PostgreSQL: one class per thing kept, written once against the driver seam
(driver.py); what the two databases say differently is dialects.py. No SQL lives outside this package."""
