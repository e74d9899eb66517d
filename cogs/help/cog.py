"""/help: what each command does, the dice symbols, the pool notation and the rulings, in short pages.

The pages come with a select menu; its custom_id names the player who asked and the language the pages speak
(``rk:help:<id>``, ``rk:help:<id>:de`` past English; turned pages keep it), and the page
picked arrives with the click, so the menu works on a message from before a restart. The asker turns the pages
of their message; anyone else picking a page of a public help gets that page privately, and the shared message
stays where it was.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.interactions.answers import send_first
from bot.interactions.common_options import describe
from bot.interactions.language import player_speech, table_speech
from bot.interactions.places import anywhere
from bot.interactions.rollkeeper import Rollkeeper, rollkeeper
from bot.interactions.tree import reports_errors
from bot.render.common import Tones
from cogs.help.pages import COMMANDS_KEY, PAGES, SYMBOL_VALUES, SYMBOLS, HelpPage
from rules.language import ENGLISH, N_, Speech, speak

HELP_PATTERN = re.compile(r"rk:help:(?P<asker>[0-9]{1,19})(?::(?P<language>[A-Za-z_]{2,5}))?")


def commands_page(tree: app_commands.CommandTree, speech: Speech) -> HelpPage:
    """Every slash command the bot has, with the description Discord shows for it (in speech's language)."""
    found = [command for command in tree.walk_commands() if isinstance(command, app_commands.Command)]
    found.sort(key=lambda command: command.qualified_name)
    text = "\n".join(f"`/{command.qualified_name}` — {speech._(command.description)}" for command in found)
    title = speech._("Every command")
    return HelpPage(COMMANDS_KEY, title, title, text)


def said(page: HelpPage, speech: Speech) -> HelpPage:
    """A written page in speech's language."""
    text = speech._(page.text, **SYMBOL_VALUES) if page is SYMBOLS else speech._(page.text)
    return HelpPage(page.key, speech._(page.label), speech._(page.title), text)


def all_pages(tree: app_commands.CommandTree, speech: Speech) -> tuple[HelpPage, ...]:
    """The pages in menu order, in speech's language: the start page, every command, then the written pages."""
    return (said(PAGES[0], speech), commands_page(tree, speech), *(said(page, speech) for page in PAGES[1:]))


def page_embed(pages: tuple[HelpPage, ...], key: str, speech: Speech) -> discord.Embed:
    """The embed of the page with this key (the start page for a key no page has)."""
    number, page = next(((n, p) for n, p in enumerate(pages, 1) if p.key == key), (1, pages[0]))
    embed = discord.Embed(title=page.title, description=page.text, colour=Tones.NEUTRAL.colour)
    footer = speech._("Page {number} of {count} · pick another in the menu below", number=number, count=len(pages))
    return embed.set_footer(text=footer)


def page_view(pages: tuple[HelpPage, ...], key: str, asker_id: int, speech: Speech) -> discord.ui.View:
    """The menu of pages, the shown one marked; the HelpMenu DynamicItem takes its clicks in any process."""
    view = discord.ui.View(timeout=None)
    view.add_item(HelpMenu(asker_id, pages, key, speech._("Another page…"), language=speech.code))
    view.stop()
    return view


class HelpMenu(discord.ui.DynamicItem[discord.ui.Select], template=HELP_PATTERN):
    """The pages of a /help message as a select menu."""

    pattern = HELP_PATTERN

    def __init__(
        self, asker_id: int, pages: tuple[HelpPage, ...] = (), shown: str = "", placeholder: str = "", *,
        language: str = ENGLISH,
    ) -> None:
        options = [
            discord.SelectOption(label=page.label, value=page.key, default=page.key == shown) for page in pages
        ]
        menu: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"rk:help:{asker_id}" + (f":{language}" if language != ENGLISH else ""),
            placeholder=placeholder or None, options=options or [_PLACEHOLDER],
        )
        super().__init__(menu)
        self.asker_id, self.language = asker_id, language

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]) -> HelpMenu:
        return cls(int(match["asker"]), language=match["language"] or ENGLISH)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        rollkeeper(interaction).hold_interaction(interaction)
        return True

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        asker = interaction.user.id == self.asker_id  # the asker turns the message's pages, in its language
        speech = speak(self.language) if asker else player_speech(interaction)
        pages = all_pages(rollkeeper(interaction).tree, speech)
        key = self.item.values[0] if self.item.values else pages[0].key
        if asker:
            view = page_view(pages, key, self.asker_id, speech)
            await interaction.response.edit_message(embed=page_embed(pages, key, speech), view=view)
        else:  # someone else's help: their own copy, privately, leaving the shared message as it is
            view = page_view(pages, key, interaction.user.id, speech)
            await interaction.response.send_message(embed=page_embed(pages, key, speech), view=view, ephemeral=True)


_PLACEHOLDER = discord.SelectOption(label="Help", value="start")
"""A menu rebuilt from a click needs no options of its own (the message has them); a Select needs one."""


class Help(commands.Cog):
    """/help, and the menu that turns its pages."""

    def __init__(self, bot: Rollkeeper) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpMenu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpMenu)

    @app_commands.command(name="help", description=N_("How to use rollkeeper: the commands, the dice and the rulings"))
    @anywhere
    @describe(public=N_("Show the help to everyone in the channel (by default only you see it)"))
    async def help(self, interaction: discord.Interaction, public: bool = False) -> None:
        speech = await table_speech(interaction, self.bot.db.languages) if public else player_speech(interaction)
        pages = all_pages(self.bot.tree, speech)
        view = page_view(pages, pages[0].key, interaction.user.id, speech)
        embed = page_embed(pages, pages[0].key, speech)
        await send_first(interaction, embed=embed, view=view, ephemeral=not public)


async def setup(bot: Rollkeeper) -> None:
    await bot.add_cog(Help(bot))
