"""Where a game is played, and what the app may do there.

rollkeeper can be installed to a server (a *guild install*: the bot is a member, and may post and edit with its own
token) or to a player's account (a *user install*: the player brings the app's commands to their DMs with the bot,
to group DMs and to servers that never added the bot). Discord says which in every interaction: its `context`
(0 a server, 1 the bot's DM, 2 a group DM) and its `authorizing_integration_owners`.

**The place.** What the table keeps (Willpower, rolls, the roll log, extended tests) is kept per *place*: the
server's id in a server, whichever install brought the command there; the channel's id in a DM or a group DM, where
there is no server. Storage calls that number `guild_id` (the column kept its name); Discord's ids never repeat across
servers and channels, so a DM's place is never a server's, and the reverse. `place_channel` is the one function that
decides it.

**The bot's own token** reaches only the channels of a server that installed the app (`bot_present`). Anywhere else
the app answers and edits through the interaction's own token, for its 15 minutes (`webhook_edits.py`), and Discord
sends a user-installed app's public answer as an ephemeral one where the server's members may not use external apps
(`answers_forced_private`).
"""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands

from bot.errors import PlayerError
from rules.language import N_

T = TypeVar("T")

NOT_IN_A_SERVER = N_("This command works only in a server's channels, not in direct messages.")
ONLY_WHERE_ADDED = N_(
    "This command works only in a server that added rollkeeper, not where the app is added only to your account."
)


def place_channel(interaction: discord.Interaction) -> tuple[int, int]:
    """(place, channel) of an interaction: the place is the server's id in a server, the channel's id in a DM or
    a group DM (see the module's docstring); a PlayerError when Discord named no channel."""
    if interaction.channel_id is None:
        raise PlayerError(NOT_IN_A_SERVER)
    place = interaction.guild_id if interaction.guild_id is not None else interaction.channel_id
    return place, interaction.channel_id


def bot_present(interaction: discord.Interaction) -> bool:
    """Whether the bot itself is in the interaction's server: the server installed the app (its id is the guild
    install's owner). Only there may the bot's own token post or edit messages in the channel."""
    return interaction.is_guild_integration()


def game_master(interaction: discord.Interaction) -> bool:
    """Whether the player acts as the game master here: Manage Server in a server; nobody in a DM or a group DM,
    where each player keeps their own."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def may_see_others(interaction: discord.Interaction) -> bool:
    """Whether the player may look at another player's Willpower, resources or stats here: a game master in a
    server; anyone in a DM or a group DM, where there is none."""
    return interaction.guild_id is None or game_master(interaction)


def server_of(interaction: discord.Interaction) -> int:
    """The id of the server a server-only command runs in: one that installed the app (a PlayerError in a DM, a
    group DM, or a server where the app came only with a player's account)."""
    if interaction.guild_id is None:
        raise PlayerError(NOT_IN_A_SERVER)
    if not bot_present(interaction):
        raise PlayerError(ONLY_WHERE_ADDED)
    return interaction.guild_id


def answers_forced_private(interaction: discord.Interaction) -> bool:
    """Whether Discord will show a public answer to this interaction to its player only: a user-installed app, in a
    server that did not add it, where the server's settings deny the Use External Apps permission."""
    if interaction.guild_id is None or bot_present(interaction):
        return False
    return not interaction.app_permissions.use_external_apps


def anywhere(command: T) -> T:
    """Offer a top-level command in both installs and every context: servers, the bot's DM, group DMs."""
    contexts = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    installs = app_commands.allowed_installs(guilds=True, users=True)
    return installs(contexts(command))


def server_only(command: T) -> T:
    """Offer a top-level command only in servers that installed the app (never with a user install); guild_only
    says it to Discord both ways (contexts [0], and dm_permission false for older clients)."""
    installs = app_commands.allowed_installs(guilds=True, users=False)
    return installs(app_commands.guild_only(command))


def everywhere_contexts() -> app_commands.AppCommandContext:
    """The contexts of a command group played anywhere (`anywhere` for an `app_commands.Group(...)`)."""
    return app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


def both_installs() -> app_commands.AppInstallationType:
    """The installs of a command group played anywhere."""
    return app_commands.AppInstallationType(guild=True, user=True)


def server_contexts() -> app_commands.AppCommandContext:
    """The contexts of a server-only command group."""
    return app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def server_install() -> app_commands.AppInstallationType:
    """The install of a server-only command group."""
    return app_commands.AppInstallationType(guild=True, user=False)

