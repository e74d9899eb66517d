"""rollkeeper's rules engine: four tabletop dice systems, their readings and their exact odds.

Pure Python, free of Discord. Every roll takes a dice source from the caller (see ``rules.dice``) and returns
an immutable result; bad input raises a ``rules.errors.RulesError`` whose message can be shown to a player.
"""
