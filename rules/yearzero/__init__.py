"""Year Zero Engine, Forbidden Lands flavour: the dice (``dice``), the pool's checks (``checks``), a roll and its
pushes (``roll``), exact odds (``odds``), Willpower (``willpower``) and which rolls are luck events
(``luck_events``)."""
