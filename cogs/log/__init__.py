"""The roll log: /log show and export (cog.py), Reveal for private rolls (reveal.py), /stats and /session
(stats.py), their cards (cards.py) and the tallies /stats sums (tallies.py). Loaded as the extension
``cogs.log.cog``, whose `setup` adds both cogs."""
