"""The two links that add rollkeeper, printed at start-up: to a server (the guild install: the bot joins, with exactly
the permissions it needs) and to a player's own account (the user install: the commands only, for DMs, group DMs and
servers without the bot). Discord's `integration_type` says which; the application's Installation settings in the
Developer Portal must allow both (docs/self-hosting.md)."""

from __future__ import annotations

import discord

INVITE_PERMISSIONS = discord.Permissions(send_messages=True, embed_links=True)
INVITE_SCOPES = ("bot", "applications.commands")
ACCOUNT_SCOPES = ("applications.commands",)
"""The user install brings the commands only: no bot user, no permissions."""
GUILD_INSTALL, USER_INSTALL = 0, 1
"""Discord's `integration_type` of an authorization link."""


def server_install_url(client_id: int) -> str:
    """The link that adds the bot to a server with exactly the permissions it needs."""
    url = discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS, scopes=INVITE_SCOPES)
    return f"{url}&integration_type={GUILD_INSTALL}"


def account_install_url(client_id: int) -> str:
    """The link that adds the app to a player's own account."""
    return f"{discord.utils.oauth_url(client_id, scopes=ACCOUNT_SCOPES)}&integration_type={USER_INSTALL}"
