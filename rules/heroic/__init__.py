"""Heroic Rolls: variants, difficulties and kinds of roll (``tables``), a roll and its reading (``roll``), exact odds
(``odds``) and which rolls are luck events (``luck_events``)."""
