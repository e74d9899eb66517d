"""/help: its written pages (pages.py), and the command with the menu that turns them (cog.py). Loaded as
the extension ``cogs.help.cog``."""
