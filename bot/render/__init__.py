"""Turns rules results into Discord embeds. The only place that knows how a roll looks on Discord.

Dice are written in Unicode and plain text so they read on any server without custom emoji:
each face in a code span, ``⚔`` after a success, ``☠`` after a bane or a Hazard skull, struck through when a
die is discarded. Every function takes a result object from ``rules`` and returns a ``discord.Embed``.
"""
