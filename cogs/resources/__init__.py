"""Forbidden Lands resource dice: /resource roll, show and set (cog.py), and the roll's card (card.py). Loaded as
the extension ``cogs.resources.cog``."""
