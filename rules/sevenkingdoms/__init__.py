"""Seven Kingdoms: a pool and a test (``roll``), competitions (``competition``), extended tests (``extended``), exact
odds (``odds``) and which tests are luck events (``luck_events``)."""
