"""Server settings: /settings language, the language of a server's public cards (cog.py). Loaded as the
extension ``cogs.settings.cog``."""
