"""Seven Kingdoms tests: test, bonus and penalty dice, difficulties with minimum ranks, degrees of success.

RULES.md section 4 and its fine points (section 5) are the ruling. A pool is an ``SkPool`` (or the seed's
notation through ``parse_pool("3D + 2B − 1P")``); ``roll_test`` reads a basic or conflict test,
competitions live in ``rules.sevenkingdoms.competition`` and extended tests in
``rules.sevenkingdoms.extended``; exact odds in ``rules.sevenkingdoms.odds``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import DiceSource, Die, Fate, Role
from rules.errors import CannotAttempt, InvalidInput, Term, Terms, check_range
from rules.names import name_key

SIDES = 6
MAX_TARGET = 60
KINDS = ("basic", "conflict")
# Translators: the Seven Kingdoms degrees of success, as a name on their own.
DEGREE_NAMES = (Term("Marginal"), Term("Great"), Term("Incredible"), Term("Astonishing"))
# (name, number, minimum rank); a number between rows takes the row at or below it, Heroic is 21 and up.
DIFFICULTIES: tuple[tuple[str, int, int], ...] = (
    # Translators: the Seven Kingdoms difficulties.
    (Term("Automatic"), 0, 1), (Term("Easy"), 3, 1), (Term("Routine"), 6, 1), (Term("Challenging"), 9, 2),
    (Term("Formidable"), 12, 2), (Term("Hard"), 15, 3), (Term("Very Hard"), 18, 3), (Term("Heroic"), 21, 4),
)
NOTATION_HINT = "write it like 3D + 2B − 1P"


def degrees_for(margin: int) -> int:
    """Degrees of success for a margin of 0 or more: 0–4 → 1, 5–9 → 2, 10–14 → 3, 15+ → 4."""
    return min(margin // 5 + 1, len(DEGREE_NAMES))


def failure_band(shortfall: int) -> str:
    """A failure 1–4 below the difficulty is "marginal", 5 or more below is "critical" (ruling)."""
    return "marginal" if shortfall <= 4 else "critical"


_NUMBER = re.compile(r"\s*[-+]?[0-9]+\s*")


def difficulty_number(difficulty: str | int) -> int:
    """The number of a named difficulty ("Hard", "very hard", "very_hard") or of a number (0–60)."""
    if isinstance(difficulty, str):
        if _NUMBER.fullmatch(difficulty):
            return check_range("Difficulty", int(difficulty), 0, MAX_TARGET)
        key = name_key(difficulty, " ")
        for name, number, _ in DIFFICULTIES:
            if key is not None and name_key(name, " ") == key:
                return number
        names = Terms(name for name, _, _ in DIFFICULTIES)
        # Translators: {names} lists the Seven Kingdoms difficulties (Easy, Routine, ...).
        raise InvalidInput("Unknown difficulty {difficulty!r}: give a number from 0 to {high} or one of {names}",
                           difficulty=difficulty, high=MAX_TARGET, names=names)
    return check_range("Difficulty", difficulty, 0, MAX_TARGET)


def resolve_difficulty(difficulty: str | int | None, target: int | None) -> int:
    """The difficulty number from exactly one of a named difficulty or a target number."""
    if target is not None and difficulty is None:
        return difficulty_number(target)
    if difficulty is None or target is not None:
        raise InvalidInput("Give either a difficulty (like Hard) or a target number, not both or neither")
    return difficulty_number(difficulty)


def _row(number: int) -> tuple[str, int, int]:
    return [row for row in DIFFICULTIES if row[1] <= number][-1]


def minimum_rank(number: int) -> int:
    """The minimum ability rank for a basic test of this difficulty number."""
    return _row(number)[2]


def difficulty_name(number: int) -> str | None:
    """The table's name for a difficulty number (Heroic for 21 and up), None for a number between rows."""
    name, row_number, _ = _row(number)
    return name if number == row_number or name == "Heroic" else None


def check_minimum_rank(rank: int, number: int) -> None:
    """Raise CannotAttempt when the rank is below the minimum rank of a basic test's difficulty."""
    needed = minimum_rank(number)
    if rank < needed:
        name = difficulty_name(number)
        # Translators: {difficulty} is a Seven Kingdoms difficulty, by name (Easy, Routine, ...) or by number.
        raise CannotAttempt("Rank {rank} is below the minimum rank {needed} for a test of difficulty {difficulty}",
                            rank=rank, needed=needed, difficulty=Term(name) if name else number)


@dataclass(frozen=True, slots=True)
class SkPool:
    """A Seven Kingdoms pool: rank test dice, bonus dice, their penalties, and one helper's aid."""

    rank: int
    bonus: int = 0
    wounds: int = 0
    pool_penalty: int = 0
    discard: int = 0
    injuries: int = 0
    aid: bool = False

    def __post_init__(self) -> None:
        for label, value, high in (("Rank", self.rank, 10), ("Bonus dice", self.bonus, 10),
                                   ("Wounds", self.wounds, 10), ("Pool penalty", self.pool_penalty, 10),
                                   ("Discard penalty", self.discard, 20), ("Injuries", self.injuries, 10)):
            check_range(label, value, 0, high)
        if self.aid not in (0, 1) or not isinstance(self.aid, int):
            raise InvalidInput("Only one helper can aid a test: aid is 0 or 1 bonus die, not {aid!r}",
                               aid=self.aid)
        object.__setattr__(self, "aid", bool(self.aid))

    @property
    def test_dice(self) -> int:
        """Test dice left after wounds and pool penalties (never below 0): the number of dice kept."""
        return max(self.rank - self.wounds - self.pool_penalty, 0)

    @property
    def bonus_dice(self) -> int:
        return self.bonus + int(self.aid)

    @property
    def dice_rolled(self) -> int:
        return self.test_dice + self.bonus_dice

    @property
    def notation(self) -> str:
        """The seed's notation for rank, bonus and discard dice: ``3D + 2B − 1P``."""
        text = f"{self.rank}D"
        text += f" + {self.bonus}B" if self.bonus else ""
        return text + (f" − {self.discard}P" if self.discard else "")

    def as_dict(self) -> dict:
        return {"notation": self.notation, "rank": self.rank, "bonus": self.bonus, "wounds": self.wounds,
                "pool_penalty": self.pool_penalty, "discard": self.discard, "injuries": self.injuries,
                "aid": self.aid, "test_dice": self.test_dice, "bonus_dice": self.bonus_dice}


_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-", "－": "-", "＋": "+"})
_POOL = re.compile(r"\s*\+?\s*\d+\s*[DBP](\s*[+-]\s*\d+\s*[DBP])*\s*", re.IGNORECASE)
_TERM = re.compile(r"([+-]?)\s*(\d+)\s*([DBP])", re.IGNORECASE)


def parse_pool(text: str, *, wounds: int = 0, pool_penalty: int = 0, injuries: int = 0,
               aid: bool = False) -> SkPool:
    """Read the seed's notation (``3D + 2B − 1P``, ``4d+1b``, ``2D``): D rank, B bonus, P discard dice."""
    cleaned = (text or "").translate(_MINUS)
    if not _POOL.fullmatch(cleaned):
        raise InvalidInput("Cannot read the pool {text!r}: write it like 3D + 2B − 1P", text=text)
    terms: dict[str, int] = {}
    for sign, digits, letter in _TERM.findall(cleaned):
        letter = letter.upper()
        if letter in terms:
            raise InvalidInput("The pool {text!r} gives {letter} twice: write it like 3D + 2B − 1P", text=text,
                               letter=letter)
        if sign == "-" and letter != "P":
            raise InvalidInput("The pool {text!r} subtracts {letter} dice: only P dice are subtracted", text=text,
                               letter=letter)
        terms[letter] = int(digits)
    if "D" not in terms:
        raise InvalidInput("The pool {text!r} has no test dice (D): write it like 3D + 2B − 1P", text=text)
    return SkPool(terms["D"], terms.get("B", 0), wounds, pool_penalty, terms.get("P", 0), injuries, aid)


def roll_pool(pool: SkPool, dice: DiceSource) -> tuple[tuple[Die, ...], int]:
    """Roll test then bonus dice, discard the highest, keep the highest test-dice-many of the rest."""
    roles = [Role.TEST] * pool.test_dice + [Role.BONUS] * pool.bonus_dice
    faces = [dice.roll(SIDES) for _ in roles]
    order = sorted(range(len(faces)), key=lambda i: (-faces[i], i))  # ties: the first die rolled goes first
    fates = [Fate.UNKEPT] * len(faces)
    for place, index in enumerate(order):
        if place < pool.discard:
            fates[index] = Fate.DISCARDED
        elif place < pool.discard + pool.test_dice:
            fates[index] = Fate.KEPT
    rolled = tuple(Die(SIDES, face, role, fate) for face, role, fate in zip(faces, roles, fates, strict=True))
    return rolled, sum(d.face for d in rolled if d.fate is Fate.KEPT) - pool.injuries


@dataclass(frozen=True, slots=True)
class SkTest:
    """A basic or conflict test; status "rolled", "automatic" (no roll) or "no_test_dice" (fails, no roll)."""

    pool: SkPool
    kind: str
    difficulty: int
    status: str
    dice: tuple[Die, ...] = ()
    result: int | None = None

    @property
    def rolled(self) -> bool:
        return self.status == "rolled"

    @property
    def success(self) -> bool:
        return self.status == "automatic" or (self.margin is not None and self.margin >= 0)

    @property
    def margin(self) -> int | None:
        """Result − difficulty (negative on a failure); None without a roll."""
        return self.result - self.difficulty if self.rolled and self.result is not None else None

    @property
    def degrees(self) -> int | None:
        """1–4 on a success, 0 on a rolled failure, None without a roll."""
        if self.margin is None:
            return None
        return degrees_for(self.margin) if self.margin >= 0 else 0

    @property
    def degree_name(self) -> str | None:
        return DEGREE_NAMES[self.degrees - 1] if self.degrees else None

    @property
    def shortfall(self) -> int | None:
        """How far below the difficulty a rolled failure fell."""
        return -self.margin if self.margin is not None and self.margin < 0 else None

    @property
    def failure(self) -> str | None:
        """"marginal" (1–4 below) or "critical" (5+ below) for a rolled failure."""
        return failure_band(self.shortfall) if self.shortfall is not None else None

    @property
    def complication(self) -> bool:
        """A failed roll in which any die rolled (kept, unkept or discarded) shows 1."""
        return self.rolled and not self.success and any(d.face == 1 for d in self.dice)

    def reading(self) -> dict:
        return {"status": self.status, "result": self.result, "success": self.success, "margin": self.margin,
                "degrees": self.degrees, "degree_name": self.degree_name, "shortfall": self.shortfall,
                "failure_band": self.failure, "complication": self.complication}

    def as_dict(self) -> dict:
        minimum = minimum_rank(self.difficulty) if self.kind == "basic" else None
        return {"kind": self.kind, "pool": self.pool.as_dict(), "difficulty": self.difficulty,
                "difficulty_name": difficulty_name(self.difficulty), "minimum_rank": minimum,
                "dice": [d.as_dict() for d in self.dice], "reading": self.reading()}


def roll_test(pool: SkPool, dice: DiceSource, *, difficulty: str | int | None = None,
              target: int | None = None, kind: str = "basic") -> SkTest:
    """Roll a basic test (named difficulty or target) or a conflict test (target = the defender's Defense).

    Order of checks: minimum rank (basic only), Automatic (basic difficulty 0: succeeds, no roll), then no
    test die left (fails, no roll). A conflict has no minimum rank and is rolled even against Defense 0.
    """
    if kind not in KINDS:
        raise InvalidInput("Unknown kind of test {kind!r}: use basic or conflict", kind=kind)
    number = resolve_difficulty(difficulty, target)
    if kind == "basic":
        check_minimum_rank(pool.rank, number)
        if number == 0:
            return SkTest(pool, kind, number, "automatic")
    if pool.test_dice == 0:
        return SkTest(pool, kind, number, "no_test_dice")
    rolled, result = roll_pool(pool, dice)
    return SkTest(pool, kind, number, "rolled", rolled, result)
