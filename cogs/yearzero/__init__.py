"""Year Zero (Forbidden Lands): /yz, /push and the Push and Keep buttons (cog.py), pushing (pushing.py),
the messages of rolls that ended (endings.py) and the cards (card.py). Loaded as the extension
``cogs.yearzero.cog``."""
