"""Year Zero Willpower: 0-10 per player, gained by pushing, spent on talents."""

from __future__ import annotations

from rules.errors import InvalidInput, check_range

MAX_WILLPOWER = 10


def check_willpower(value: int, name: str = "Willpower") -> int:
    """Validate a Willpower total (0-10) and return it."""
    return check_range(name, value, 0, MAX_WILLPOWER)


def apply_willpower(current: int, gained: int) -> tuple[int, int]:
    """Add gained WP to current: (new total, points lost past the cap of 10)."""
    check_willpower(current)
    check_range("Willpower gained", gained, 0, 100)
    total = current + gained
    new_total = min(total, MAX_WILLPOWER)
    return new_total, total - new_total


def spend_willpower(current: int, cost: int) -> int:
    """Spend cost WP from current and return what is left; spending more than one has is refused."""
    check_willpower(current)
    check_range("Willpower to spend", cost, 0, MAX_WILLPOWER)
    if cost > current:
        raise InvalidInput("Not enough Willpower: {cost} WP needed, {current} left", cost=cost, current=current)
    return current - cost
