"""HEX: the pool and the dice it designates (``pool``), a roll and its reading (``roll``), exact odds (``odds``) and
which rolls are luck events (``luck_events``)."""
