"""Willpower Points: /willpower show and spend, and the game master's /willpower-set (cog.py). Loaded as
the extension ``cogs.willpower.cog``."""
