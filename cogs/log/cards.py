"""The roll log's page, the /stats card and the CSV export (not roll cards: those are in bot/render)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import discord

from bot.render.common import DESCRIPTION, FIELD_VALUE, Tones, clip
from bot.storage.roll_log import LogEntry
from cogs.log.tallies import SYSTEM_NAMES, Tally
from rules.language import N_, Speech

EMPTY_PAGE = N_("No rolls here yet (or none older).")
CSV_HEADERS = (
    # Translators: the CSV export's column headers: keep them short, lowercase and without spaces.
    N_("id"), N_("time_utc"), N_("user_id"), N_("system"), N_("kind"), N_("reading"), N_("private"),
    N_("revealed_at_utc"), N_("luck_events"), N_("extras"),
)


def log_line(entry: LogEntry, speech: Speech) -> str:
    """One roll of the log: when (in the reader's time zone), who, which system, what it read."""
    when = f"<t:{int(entry.created_at.timestamp())}:t>"
    system = speech._(SYSTEM_NAMES[entry.system]) if entry.system in SYSTEM_NAMES else entry.system
    private = ""
    if entry.private:
        private = " · " + (speech._("🔒 private, revealed") if entry.revealed_at else speech._("🔒 private"))
    return f"{when} <@{entry.user_id}> · {system}: {clip(entry.reading, 160)}{private}"


def render_log_page(entries: Sequence[LogEntry], speech: Speech) -> discord.Embed:
    """A page of the channel's log, newest first."""
    text = "\n".join(log_line(entry, speech) for entry in entries) or speech._(EMPTY_PAGE)
    tone = Tones.PROGRESS
    title = speech._("Roll log of this channel")
    embed = discord.Embed(
        title=f"{tone.symbol} {title}", description=clip(text, DESCRIPTION),
        colour=tone.colour,
    )
    if entries:
        embed.set_footer(text=speech._("Entries {first}–{last}; private rolls show only to their roller.",
                                       first=entries[-1].id, last=entries[0].id))
    return embed


def luck_text(tally: Tally, speech: Speech) -> str:
    """The figures of one tally, each on its own line; no luck figure without luck events."""
    lines = [speech.ngettext("{count} roll", "{count} rolls", tally.rolls)]
    luck = tally.luck
    if luck is not None:
        lines.append(speech.ngettext("{successes} of {count} chance succeeded; expected {expected}",
                                     "{successes} of {count} chances succeeded; expected {expected}", luck.events,
                                     successes=luck.successes, expected=speech.decimal(luck.expected, 2)))
        lines.append(speech._("Luckier than {chance} of possible evenings", chance=speech.percent(luck.percentile)))
        lines.append(speech._("At least this good: {chance}", chance=speech.percent(luck.at_least_this_good)))
    if tally.name == SYSTEM_NAMES["yearzero"]:
        pushes = speech.ngettext("{count} push", "{count} pushes", tally.pushes)
        banes = speech.ngettext("{count} bane taken", "{count} banes taken", tally.banes)
        # Translators: {pushes} is "3 pushes", {banes} "2 banes taken" (both translated).
        lines.append(speech._("{pushes}, {willpower} Willpower gained, {banes}", pushes=pushes,
                              willpower=tally.willpower, banes=banes))
    if tally.degrees is not None:
        degrees = tally.degrees
        lines.append(speech.ngettext("Degrees: {average} on average, {expected} expected ({count} test)",
                                     "Degrees: {average} on average, {expected} expected ({count} tests)",
                                     degrees.tests, average=speech.decimal(degrees.average, 2),
                                     expected=speech.decimal(degrees.expected, 2)))
    return "\n".join(lines)


def render_stats(whose: str, period: str, total: Tally, systems: Sequence[Tally], spark: str, speech: Speech
                 ) -> discord.Embed:
    """The /stats card: the total first, then each system, then the evening as a sparkline."""
    tone = Tones.NEUTRAL
    # Translators: {whose} is a player's name or "this channel".
    title = speech._("Luck of {whose}", whose=whose)
    embed = discord.Embed(title=f"{tone.symbol} {title}", description=period, colour=tone.colour)
    embed.add_field(name=speech._(total.name), value=clip(luck_text(total, speech), FIELD_VALUE), inline=False)
    for tally in systems:
        embed.add_field(name=speech._(tally.name), value=clip(luck_text(tally, speech), FIELD_VALUE), inline=False)
    if spark:
        embed.add_field(name=speech._("The evening, roll by roll"), value=f"`{spark}`", inline=False)
    return embed


def log_csv(entries: Sequence[LogEntry], speech: Speech) -> str:
    """The entries as CSV with a header row; times in UTC (ISO 8601), luck events as 'p/q:1' texts."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([speech._(header) for header in CSV_HEADERS])
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
