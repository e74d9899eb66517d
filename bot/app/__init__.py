"""The app, the top floor of bot/: the bot class and its start-up (client.py), command sync (sync.py), the periodic
chores (chores.py), the shard lease (shard_lease.py), the connection pool to Discord (connections.py) and the
command-line helpers for whoever runs it (admin.py, copydb.py); ``python -m bot`` is bot/__main__.py. Nothing in
bot/ below this package, and nothing in cogs/, imports it: the features see the bot as
bot.interactions.rollkeeper.Rollkeeper."""
