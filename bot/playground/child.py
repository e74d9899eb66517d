"""The bot's own process in the playground: the real RollkeeperBot with its cogs, pointed at the stand-in.

    python -m bot.playground.child API_URL GATEWAY_URL DATABASE_PATH

Run by bot/playground/botprocess.py (the page's Restart button stops it and starts another). It stops cleanly
on SIGTERM, as `python -m bot` does. Its commands are synced globally, as a real deployment's are (a group DM, the
bot's DM and a server that never added the bot see global commands only), at every start: the stand-in forgets
them when the playground stops, while the database would remember their hash and skip the sync.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.app.client import RollkeeperBot
from bot.app.connections import discord_connector
from bot.app.logs import configure_logging
from bot.app.opening import open_storage
from bot.app.serving import serve
from bot.app.sync import synced_hash_key
from bot.playground.standin import point_discord_py_at
from bot.playground.table import BOT_USER
from bot.settings import Settings

TOKEN = "playground-placeholder-token"
"""The stand-in asks for no token; discord.py sends this one, and the log hides it as it would a real one."""
GUILD_READY_TIMEOUT = 0.01
"""The stand-in sends every GUILD_CREATE at once: no 2 s wait for more (a discord.Client option)."""


async def run(settings: Settings) -> None:
    async with await open_storage(settings) as db:
        await db.meta.set(synced_hash_key(BOT_USER.id), None)
    bot = RollkeeperBot(settings, connector=discord_connector(), guild_ready_timeout=GUILD_READY_TIMEOUT)
    await serve(settings, bot)


def main(argv: list[str]) -> int:
    api_url, gateway_url, database = argv
    point_discord_py_at(api_url, gateway_url)
    settings = Settings(discord_token=TOKEN, database_path=Path(database), log_level="WARNING")
    configure_logging(settings)
    asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
