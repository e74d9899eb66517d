"""The roll log's page, the /stats card and the CSV export (not roll cards: those are in bot/render)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import discord

from bot.render.common import DESCRIPTION, FIELD_VALUE, Tones, clip, plural
from bot.storage.roll_log import LogEntry
from cogs.log.tallies import SYSTEM_NAMES, Tally
from rules.odds_text import percent

EMPTY_PAGE = "No rolls here yet (or none older)."
CSV_HEADERS = (
    "id", "time_utc", "user_id", "system", "kind", "reading", "private", "revealed_at_utc", "luck_events",
    "extras",
)


def log_line(entry: LogEntry) -> str:
    """One roll of the log: when (in the reader's time zone), who, which system, what it read."""
    when = f"<t:{int(entry.created_at.timestamp())}:t>"
    system = SYSTEM_NAMES.get(entry.system, entry.system)
    private = " · 🔒 private" + (", revealed" if entry.revealed_at else "") if entry.private else ""
    return f"{when} <@{entry.user_id}> · {system}: {clip(entry.reading, 160)}{private}"


def render_log_page(entries: Sequence[LogEntry]) -> discord.Embed:
    """A page of the channel's log, newest first."""
    text = "\n".join(log_line(entry) for entry in entries) or EMPTY_PAGE
    tone = Tones.PROGRESS
    embed = discord.Embed(
        title=f"{tone.symbol} Roll log of this channel", description=clip(text, DESCRIPTION), colour=tone.colour
    )
    if entries:
        embed.set_footer(text=f"Entries {entries[-1].id}–{entries[0].id}; private rolls show only to their roller.")
    return embed


def luck_text(tally: Tally) -> str:
    """The figures of one tally, each on its own line; no luck figure without luck events."""
    lines = [plural(tally.rolls, "roll")]
    luck = tally.luck
    if luck is not None:
        chances = plural(luck.events, "chance")
        lines.append(f"{luck.successes} of {chances} succeeded; expected {float(luck.expected):.2f}")
        lines.append(f"Luckier than {percent(luck.percentile)} of possible evenings")
        lines.append(f"At least this good: {percent(luck.at_least_this_good)}")
    if tally.name == SYSTEM_NAMES["yearzero"]:
        lines.append(f"{plural(tally.pushes, 'push', 'pushes')}, {tally.willpower} Willpower gained, "
                     f"{plural(tally.banes, 'bane')} taken")
    if tally.degrees is not None:
        degrees = tally.degrees
        lines.append(f"Degrees: {float(degrees.average):.2f} on average, {float(degrees.expected):.2f} expected "
                     f"({plural(degrees.tests, 'test')})")
    return "\n".join(lines)


def render_stats(whose: str, period: str, total: Tally, systems: Sequence[Tally], spark: str) -> discord.Embed:
    """The /stats card: the total first, then each system, then the evening as a sparkline."""
    tone = Tones.NEUTRAL
    embed = discord.Embed(title=f"{tone.symbol} Luck of {whose}", description=period, colour=tone.colour)
    embed.add_field(name="In total", value=clip(luck_text(total), FIELD_VALUE), inline=False)
    for tally in systems:
        embed.add_field(name=tally.name, value=clip(luck_text(tally), FIELD_VALUE), inline=False)
    if spark:
        embed.add_field(name="The evening, roll by roll", value=f"`{spark}`", inline=False)
    return embed


def log_csv(entries: Sequence[LogEntry]) -> str:
    """The entries as CSV with a header row; times in UTC (ISO 8601), luck events as 'p/q:1' texts."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADERS)
    for entry in entries:
        revealed = entry.revealed_at.isoformat() if entry.revealed_at else ""
        writer.writerow([
            entry.id, entry.created_at.isoformat(), entry.user_id, entry.system, entry.kind,
            spreadsheet_safe(entry.reading), int(entry.private), revealed, " ".join(entry.events), _extras(entry),
        ])
    return out.getvalue()


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet will not run as a formula (a cell starting with = + - @ gets a leading quote)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _extras(entry: LogEntry) -> str:
    return " ".join(f"{name}={value}" for name, value in sorted(entry.extras.items()))
