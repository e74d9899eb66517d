"""Turns rules results into Discord embeds. The only place that knows how a roll looks on Discord.

Every card reads outcome first (``bot.render.common``): a symbol and the outcome as the title, the system and
pool on the line below, the dice in fields, the odds in the footer. Dice are written in Unicode and plain text
so they read on any server without custom emoji. Every renderer is
``render_x(result, odds, *, roller=None, note=None) -> discord.Embed``: the result object from ``rules`` (or a
small one beside the renderer that adds what storage knew, as ``ExtendedRoll`` and ``PushedRoll``), the odds
object from ``rules`` (None: no odds line), the roller (not shown: Discord shows who used the command; kept for
the one signature) and the player's note. ``bot.render.odds`` picks every odds line, ``rules.odds_text`` words it.
"""
