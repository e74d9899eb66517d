"""Seven Kingdoms tests: /test basic, conflict, competition and extended (cog.py), the channel's
extended tasks with /test progress and clear's confirmation (tasks.py), their cards (card.py) and what the log
keeps of a test (logged.py). Loaded as the extension ``cogs.sevenkingdoms.cog``."""
