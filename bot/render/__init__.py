"""What every card shares: dice tokens, outcome tones and the embed frame (``bot.render.common``). Every odds line
is worded by ``rules.odds_text`` (which ``python -m rules`` prints too). Each system's card lives with its feature
(``cogs/<feature>/card.py``) and is ``render_x(result, odds, *, roller=None, note=None) -> discord.Embed``: the
result object from ``rules`` (or a small one beside the renderer that adds what storage knew, as ``ExtendedRoll``
and ``PushedRoll``), the odds object from ``rules`` (None: no odds line), the roller (not shown: Discord shows who
used the command; kept for the one signature) and the player's note.
"""
