"""The playground's places in a real browser (issue 22, part 1): the party's group DM on a phone, next to the server.

It has a playground of its own (the `playground` fixture is per module), so what the other browser tests did in
#tavern does not reach it. Its screenshots are saved in pytest's temporary folder (the path is printed with -s).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.playground.conftest import Playground
from tests.playground.test_browser import SLOW, expect

STEPS = itertools.count(1)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("playground-places-screenshots")
    print(f"\nplayground places screenshots: {folder}")
    return folder


def test_the_party_plays_in_its_group_dm_on_a_phone(browser, playground: Playground, shots: Path):
    """Carol in the party's group DM (the bot is not in it): Willpower set, a roll pushed, the card updated through
    the interaction; the Willpower is the group DM's, and #tavern shows none of it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", is_mobile=True)
    page = context.new_page()
    page.goto(playground.url)
    page.wait_for_selector("body[data-ready=yes]")
    page.get_by_label("Playing as").select_option(label="Carol")
    page.get_by_role("button", name="the party", exact=True).click()
    box = page.get_by_role("combobox", name="Message the party")
    expect(page.locator("#topic")).to_contain_text("group DM")
    messages = page.locator(".message:not(.notice)")
    expect(messages).to_have_count(0)

    def send(line: str):
        count = messages.count()
        box.fill(line)
        box.press("Enter")
        expect(messages).to_have_count(count + 1, timeout=SLOW)
        return page.locator(f'.message[data-id="{messages.last.get_attribute("data-id")}"]')

    expect(send("/willpower set points:3")).to_contain_text("Willpower to 3")
    card = send("/yz attribute:3 skill:2")
    push = card.get_by_role("button", name="Push")
    expect(push).to_be_visible(timeout=SLOW)
    page.screenshot(path=shots / f"{next(STEPS):02}-phone-group-dm-rolled.png", full_page=True)
    before = card.locator(".embed").inner_text()
    push.click()
    expect(card.locator(".embed")).not_to_have_text(before, timeout=SLOW)
    expect(push).to_have_count(0)
    expect(card).to_contain_text("(edited)")
    party_ids = set(messages.evaluate_all("found => found.map(message => message.dataset.id)"))
    shown = send("/willpower show")
    expect(shown).to_contain_text("Only you can see this")
    party_willpower = int(shown.locator(".content").inner_text().split()[2])
    assert party_willpower >= 3, shown.inner_text()
    page.screenshot(path=shots / f"{next(STEPS):02}-phone-group-dm-pushed.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"

    page.get_by_role("button", name="tavern", exact=True).click()
    box = page.get_by_role("combobox", name="Message #tavern")
    tavern_ids = set(messages.evaluate_all("found => found.map(message => message.dataset.id)"))
    assert party_ids and not party_ids & tavern_ids
    expect(page.locator(".message-text", has_text="Willpower to 3")).to_have_count(0)
    expect(send("/willpower show")).to_contain_text("You have 0 Willpower")  # Carol's in the server: untouched
    page.screenshot(path=shots / f"{next(STEPS):02}-phone-back-in-tavern.png", full_page=True)
    context.close()
