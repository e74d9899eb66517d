"""What Discord lets an app do where it came only with a player's account (a user install): the rules the stand-in
answers by in a server that never added the app, and in group DMs.

There the bot has no access to the channel (its own token is answered 403 Missing Access), an interaction takes at
most MAX_FOLLOWUPS follow-ups, and where the server's members lack Use External Apps, Discord shows the app's
answers to their player only (ephemeral), whatever the app asked.
"""

from __future__ import annotations

from bot.playground.invoke import GUILD_INSTALL
from bot.playground.protocol import error
from bot.playground.world import USE_EXTERNAL_APPS

MAX_FOLLOWUPS = 5
"""Follow-up messages Discord takes per interaction of a user-installed app."""
MISSING_ACCESS = error(403, 50001, "Missing Access")
TOO_MANY_FOLLOWUPS = error(400, 40094, "This interaction has hit the maximum number of follow up messages")


def user_installed_only(interaction: dict) -> bool:
    """The interaction reached the app through a player's account only: no server install authorized it."""
    owners = interaction.get("authorizing_integration_owners") or {}  # keyed by the install type, as text
    return str(GUILD_INSTALL) not in owners


def followups_full(interaction: dict, followups: int) -> bool:
    """Whether Discord refuses one more follow-up to a user-installed app's interaction."""
    return user_installed_only(interaction) and followups >= MAX_FOLLOWUPS


def forced_ephemeral(interaction: dict) -> bool:
    """Whether Discord shows the answers to this interaction to its player only: a user-installed app in a server
    whose members may not use external apps publicly."""
    if not interaction.get("guild_id") or not user_installed_only(interaction):
        return False
    return not int(interaction.get("app_permissions") or 0) & USE_EXTERNAL_APPS
