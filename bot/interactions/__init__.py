"""Interaction plumbing, beneath the app and above the cards: answering (answers.py), the command tree and its one
error handler (tree.py), the options every command shares (common_options.py) and the check of the raw options a
payload carries (raw_options.py), the roller-only check of buttons (roller.py), the logbook every roll is answered
and logged through (logbook.py), the gateway filter (gateway.py) and the bot as features see it (rollkeeper.py)."""
