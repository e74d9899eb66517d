"""Turns rules results into Discord embeds. The only place that knows how a roll looks on Discord.

Dice are written in Unicode and plain text so they read on any server without custom emoji:
each face in a code span, ``⚔`` after a success, ``☠`` after a bane or a Hazard skull, struck through when a
die is discarded. Every renderer is ``render_x(result, odds, *, roller=None, note=None) -> discord.Embed``: the
result object from ``rules`` (or a small one beside the renderer that adds what storage knew, as
``ExtendedRoll`` and ``PushedRoll``), the odds object from ``rules`` (None: no Odds field), the roller shown as the
author and the player's note. ``bot.render.odds`` formats every odds line.
"""
