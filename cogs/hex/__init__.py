"""HEX (AEGIS): /hex test, contest, cast and plain (cog.py) and their cards (card.py). Loaded as the
extension ``cogs.hex.cog``."""
