"""The extended-test arithmetic the bot's storage and cogs call: completion and what is still needed."""

import pytest

from rules.sevenkingdoms.extended import MAX_TASK_NAME, ExtendedProgress, is_complete, still_needed


@pytest.mark.parametrize(
    ("needed", "gained", "complete", "left"),
    [(5, 0, False, 5), (5, 4, False, 1), (5, 5, True, 0), (5, 8, True, 0), (1, 0, False, 1)],
)
def test_completion_and_what_is_left(needed, gained, complete, left):
    assert is_complete(needed, gained) is complete
    assert still_needed(needed, gained) == left
    progress = ExtendedProgress("Climb", needed, gained)
    assert (progress.complete, progress.remaining) == (complete, left)


def test_the_longest_name_is_the_limit():
    assert ExtendedProgress("x" * MAX_TASK_NAME, 3).name == "x" * MAX_TASK_NAME
    with pytest.raises(Exception, match=f"1 to {MAX_TASK_NAME} characters"):
        ExtendedProgress("x" * (MAX_TASK_NAME + 1), 3)
