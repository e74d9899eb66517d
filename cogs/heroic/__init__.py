"""Heroic Rolls: /heroic difficulty, tn and versus (cog.py) and their card (card.py). Loaded as the
extension ``cogs.heroic.cog``."""
