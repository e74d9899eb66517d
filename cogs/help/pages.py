"""The pages of `/help`: short, one topic each, in the words the cards and the README use.

The list of commands is not written here: the help cog reads it from the command tree, so it never goes
stale. The dice tokens are drawn by the renderers' own `token`, so the help shows them as the cards do.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.common import BANE_MARK, COMPLICATION_MARK, SUCCESS_MARK, Tones, token
from rules.language import N_


@dataclass(frozen=True, slots=True)
class HelpPage:
    """One page: its key (the select menu's value), a label for the menu, a title and the text, in English (the
    help cog says them in the reader's language; the symbols page's text is a template filled with
    SYMBOL_VALUES)."""

    key: str
    label: str
    title: str
    text: str


COMMANDS_KEY = "commands"

START = HelpPage(
    "start", N_("Start here"), N_("rollkeeper: dice for the table"),
    N_("I roll and read the dice of four games, and show each result with its exact odds.\n\n"
       "• **HEX** — `/hex`\n• **Year Zero** (Forbidden Lands) — `/yz`, `/push`, `/willpower`\n"
       "• **Heroic Rolls** — `/heroic`\n• **Seven Kingdoms** tests — `/test`\n\n"
       "Every roll takes `private` (only you see it), `note` (a few words shown on the roll) and `faces` (dice you "
       "rolled by hand, in the card's order: `faces:6 3 1`; a Push then asks for the new faces). "
       "Bad input never rolls: I tell you privately what was wrong, and nothing is stored. I speak your Discord "
       "language to you, and the server's on public cards (a game master sets it with `/settings language`).\n\n"
       "Pick a page below: every command, each game, the dice symbols, the pool notation, and the rulings I follow."),
)

SYMBOLS = HelpPage(
    "symbols", N_("Dice symbols"), N_("Reading a card"),
    # Translators: the {...} are dice and outcome symbols: keep each where its word is.
    N_("**The title is the outcome**, behind a symbol:\n"
       "{success} success · {crit} critical success · {partial} success with a complication · {failure} failure · "
       "{disaster} disaster (Mishap, loss of control, fumble, critical failure) · {neutral} a plain roll · "
       "{winner} / {tie} a competition's winner or tie · {progress} extended tests\n\n"
       "**The dice:**\n"
       "{scores} a die that scores ({success_mark} once per success; a Year Zero Artifact Die may score more than "
       "one, shown ×2, ×3…)\n"
       "{hurts} a 1 that hurts: a Year Zero bane, or a HEX Hazard, Control or Affinity die of a failed roll "
       "({bane_mark})\n"
       "{struck} a die discarded (Seven Kingdoms discard penalties take the highest)\n"
       "{complication} the Seven Kingdoms 1 that brings a complication\n"
       "↻ the dice a Year Zero push rerolled\n\n"
       "The footer gives the exact odds of the roll, before it was rolled."),
)
SYMBOL_VALUES = {
    "success": Tones.SUCCESS.symbol, "crit": Tones.CRIT.symbol, "partial": Tones.PARTIAL.symbol,
    "failure": Tones.FAILURE.symbol, "disaster": Tones.DISASTER.symbol, "neutral": Tones.NEUTRAL.symbol,
    "winner": Tones.WINNER.symbol, "tie": Tones.TIE.symbol, "progress": Tones.PROGRESS.symbol,
    "scores": token(6, success=True), "success_mark": SUCCESS_MARK, "hurts": token(1, bane=True),
    "bane_mark": BANE_MARK, "struck": token(6, struck=True), "complication": token(1) + COMPLICATION_MARK,
}
"""What the symbols page's template is filled with: the symbols as the cards draw them."""

HEX = HelpPage(
    "hex", N_("HEX"), N_("HEX: d6 pools, 6s succeed"),
    N_("`/hex test` — your pool is Attribute + Skill + Specialty + Environment + Gear + Ingenuity − complications. "
       "Each 6 is a success; one is enough. Two Hazard Dice (all dice in a pool of 1 or 2): a failure with no 6 "
       "where every Hazard Die shows 1 is a **Mishap**.\n"
       "`/hex contest` — both sides roll; the opposition wins only with strictly more 6s.\n"
       "`/hex cast` — magic at a Risk of 0–5: one Affinity die and up to Risk Control dice.\n"
       "`/hex plain` — Initiative, Hit Location, Armor: counts the 6s, never a Mishap.\n\n"
       "A pool of 0 or less rolls nothing: a voluntary action cannot be tried, a required Test fails. "
       "`advancement` spends a banked Advancement: an automatic success."),
)

YEAR_ZERO = HelpPage(
    "yz", N_("Year Zero"), N_("Year Zero (Forbidden Lands): push your luck"),
    N_("`/yz attribute skill gear` — base dice (Attribute + Skill) and gear dice, plus up to three Artifact Dice "
       "(d8 Mighty, d10 Epic, d12 Legendary); `pride:true` adds your Pride die (a d12 read like an Artifact Die). "
       "Each 6 is a success; an Artifact or Pride Die scores 1–4.\n"
       "**Push** (the button, or `/push`) — rerolls every die that shows neither a success nor a 1. After a "
       "push each base-die 1 is a point of Attribute damage and gives you a Willpower Point; each gear-die 1 "
       "lowers the gear bonus.\n"
       "`pushes:N` (0–3, default 1) is how often the roll may be pushed; a later push counts only its own new 1s. "
       "**Keep** accepts the roll as it lies.\n"
       "Only the roller can push or keep, and a roll stays pushable until its last push, until it is kept, until you "
       "roll again in the channel, or for a day (the bot's `PUSH_LIFETIME_HOURS`) — even across a restart of the "
       "bot. Its message then says so and loses its buttons.\n"
       "`/willpower show` · `spend` — your Willpower Points (0–10) here; `/willpower-set` is for a server's game "
       "masters (Manage Server)."),
)

RESOURCES = HelpPage(
    "resources", N_("Resource dice"), N_("Resource dice (Forbidden Lands): Food, Water, Arrows, Torches"),
    N_("`/resource set` — rate one of your resources D6, D8, D10, D12 or none (a game master may set anyone's).\n"
       "`/resource roll` — roll its die when the table uses it: on a 1 or 2 it steps down one size "
       "(D12 → D10 → D8 → D6 → none); with none left it cannot be rolled. The card shows the chance of stepping "
       "down (2/n) and the rolls expected before it runs out.\n"
       "`/resource show` — your ratings, privately. Kept where you play, like Willpower."),
)

HEROIC = HelpPage(
    "heroic", N_("Heroic Rolls"), N_("Heroic Rolls: 2d6 + Skill against a Target Number"),
    N_("`/heroic difficulty` (Basic … Insane), `/heroic tn` (a Target Number) or `/heroic versus` (the opposing "
       "Skill: TN = 7 + it, 9 + it with a d20), each with your `skill`. `dice` picks 2d6 (default), d12 or d20.\n"
       "Above the TN succeeds; equal succeeds with a complication; below fails. Double 6 (natural 12, natural 20) "
       "is a Crit and double 1 (natural 1) a Fumble, whatever the TN.\n"
       "`kind` says what a Crit or Fumble means: an attack (double damage; the Combat Fumble table), a reaction "
       "(Block, Parry, Shield Block, Dodge, Resist Magic), or a spell (the Spell Miscast Table)."),
)

SEVEN_KINGDOMS = HelpPage(
    "sk", N_("Seven Kingdoms"), N_("Seven Kingdoms tests: keep the best dice"),
    N_("`/test basic` (a difficulty: a name or a number), `conflict` (the defender's Defense), `competition` "
       "(named characters), "
       "`extended` (a named task of the channel needing degrees, against a difficulty given the same way; "
       "`progress` shows them, `clear` forgets one — its "
       "starter or Manage Server, after you confirm).\n"
       "Roll test dice plus bonus dice, set aside the discards, keep the best test-dice-many and add them up. "
       "Result ≥ difficulty succeeds: 1 degree, and one more for every 5 above (Marginal, Great, Incredible, "
       "Astonishing). "
       "A failed test with a 1 on any die may bring a complication."),
)

NOTATION = HelpPage(
    "notation", N_("Pool notation"), N_("The pool in one line: 3D+2B-1P"),
    N_("Seven Kingdoms commands take the pool as `rank`, `bonus` and `discard`, or in one `pool` option:\n"
       "• `3D` — ability rank 3: three test dice, three kept\n"
       "• `+2B` — two bonus dice (a trained specialty): rolled with the others, so the best three come from more "
       "dice\n"
       "• `-1P` — one discard penalty: the highest die rolled is set aside first\n\n"
       "So `3D+2B-1P` rolls five dice, discards the highest, and adds the best three of the rest. Spaces and "
       "`−` are fine (`3D + 2B − 1P`). `wounds`, `pool_penalty`, `injuries` and `aid` go with either form. "
       "A competition names everyone: `Jaime 5D+2B, Brienne 4D+1B`."),
)

# Translators: the rulings rollkeeper follows where the rules are silent; keep the numbering.
RULINGS = HelpPage(
    "rulings", N_("Rulings"), N_("Where the rules are silent, I do this"),
    N_("1. **HEX gear may stack**: Environment, Gear and Ingenuity take 0–3 dice each.\n"
       "2. **HEX ties go to the acting side, 0–0 included**: the opposition needs strictly more 6s.\n"
       "3. **Year Zero skill dice can bane**: every base die (Attribute and Skill) has a bane face, as the seed "
       "says (the printed game gives skill dice none).\n"
       "4. **Heroic Rolls: a tie is a success with a complication in every variant** (2d6, d12 and d20).\n"
       "5. **Seven Kingdoms: no test die left, no roll**: the test fails without a roll.\n"
       "6. **Seven Kingdoms failure bands**: 1–4 below the difficulty is a marginal failure, 5 or more a "
       "critical one.\n"
       "7. **The Pride die**: a d12 read like an Artifact Die, never a bane, rerolled by a push when blank; "
       "\"once per session\" is up to your table.\n"
       "8. **Several pushes**: 0–3 per roll; each 1 counts once, at the push that first shows it (the first push "
       "counts the first roll's 1s too).\n"
       "9. **Revealing a private roll** shows the same dice and reading; nothing is rolled again.\n"
       "10. **Honest luck**: /stats weighs each roll whose success was in doubt (and each Year Zero push of a roll "
       "with no success yet) by its exact chance; the luck percentile is P(fewer) + ½·P(as many).\n\n"
       "The README lists the finer points too."),
)

ANYWHERE = HelpPage(
    "anywhere", N_("Where to play"), N_("Play anywhere: servers, DMs, group DMs"),
    N_("**Add the app to your account** (click the app's name, then *Add App* → *Add to My Apps*) and its commands "
       "go with you: to your DMs with me, to group DMs, and to servers that never added me.\n\n"
       "Each server, DM and group DM keeps its own Willpower, resource dice, rolls and log. Where I am not in the "
       "server, each player sets their own Willpower with `/willpower set`; in a server that added me, a game master "
       "uses `/willpower-set`.\n"
       "Where I am not in the server I can update a roll's card for 15 minutes; after that, a click on it brings it "
       "up to date. A server may let such apps answer only privately: I then say so.\n"
       "`/willpower-set`, `/settings`, `/session start`, `/log export` and `/test clear` work only in a server that "
       "added me."),
)

PAGES = (START, HEX, YEAR_ZERO, RESOURCES, HEROIC, SEVEN_KINGDOMS, NOTATION, SYMBOLS, RULINGS, ANYWHERE)
"""The written pages, in menu order; the commands page (from the tree) goes second."""
