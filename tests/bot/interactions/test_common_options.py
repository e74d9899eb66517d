"""The options every cog shares (bot/interactions/common_options.py), as Discord receives them from the full bot."""

from __future__ import annotations

from bot.interactions.common_options import NOTE, NOTE_LENGTH, PRIVATE

SUBCOMMAND, GROUP, STRING, BOOLEAN = 1, 2, 3, 5


def shared_options(commands: list[dict]) -> list[tuple[str, dict]]:
    """Every `private` and `note` option of the registered commands, with its command's path."""
    found = []

    def walk(path: str, options: list[dict]) -> None:
        for option in options:
            if option["type"] in (SUBCOMMAND, GROUP):
                walk(f"{path} {option['name']}", option.get("options") or [])
            elif option["name"] in ("private", "note"):
                found.append((path, option))

    for command in commands:
        walk(f"/{command['name']}", command.get("options") or [])
    return found


async def test_every_note_and_private_option_is_declared_alike(start_bot, fake_discord):
    await start_bot()
    found = shared_options(fake_discord.commands())
    expected = {"/heroic tn", "/hex test", "/hex plain", "/test basic", "/test progress", "/yz"}
    assert {path for path, _ in found} >= expected
    for path, option in found:
        assert not option.get("required", False), path
        if option["name"] == "note":
            assert (option["type"], option["min_length"], option["max_length"]) == (STRING, 1, NOTE_LENGTH), path
        else:
            assert option["type"] == BOOLEAN, path
        assert option["description"] == {"note": NOTE, "private": PRIVATE}[option["name"]], path
