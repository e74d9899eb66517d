"""The playground in a real browser (headless Chromium through Playwright), used as a table would use it.

Each step leaves a screenshot in pytest's temporary folder (the path is printed with -s, and kept with the run's
other temporary files); with RK_PLAYGROUND_SCREENSHOT=1 the README's picture (docs/playground.png) is written too.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rules.language import speak
from tests.playground.conftest import Playground

try:
    from playwright import sync_api as playwright_errors
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips these tests, and says so at the end of the run
    expect = playwright_errors = None
README_PICTURE = Path(__file__).resolve().parents[2] / "docs" / "playground.png"
STEPS = itertools.count(1)
"""Screenshots are numbered across the module's tests, in the order they were taken."""
SLOW = 30_000
"""Milliseconds to wait for the bot's answer or a restart (a shared 2-core machine can be slow)."""


class Table:
    """One browser page at the playground, and the steps a person takes there."""

    def __init__(self, page, shots: Path) -> None:
        self.page, self.shots = page, shots
        self.box = page.get_by_role("combobox", name="Message #tavern")

    def shot(self, name: str) -> Path:
        path = self.shots / f"{next(STEPS):02}-{name}.png"
        self.page.screenshot(path=path)
        return path

    def play_as(self, label: str) -> None:
        self.page.get_by_label("Playing as").select_option(label=label)

    def channel(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()
        self.box = self.page.get_by_role("combobox", name=f"Message #{name}")

    def send(self, line: str) -> None:
        count = self.page.locator(".message:not(.notice)").count()
        self.box.fill(line)
        self.box.press("Enter")
        expect(self.page.locator(".message:not(.notice)")).to_have_count(count + 1, timeout=SLOW)

    def last(self):
        """The newest message, pinned by its id (a later message does not move it)."""
        newest = self.page.locator(".message:not(.notice)").last.get_attribute("data-id")
        return self.page.locator(f'.message[data-id="{newest}"]')


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("playground-screenshots")
    print(f"\nplayground screenshots: {folder}")
    return folder


@pytest.fixture
def table(browser, playground: Playground, shots: Path):
    context = browser.new_context(viewport={"width": 1200, "height": 800}, color_scheme="dark", accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(playground.url)
    try:
        page.wait_for_selector("body[data-ready=yes]")
    except playwright_errors.TimeoutError:
        raise AssertionError(f"the page did not get ready; its errors: {errors}") from None
    yield Table(page, shots)
    context.close()
    assert errors == [], errors


def test_a_roll_pushed_refused_restarted_and_kept(table: Table):
    page = table.page
    table.box.click()
    table.box.press_sequentially("/y")
    expect(page.get_by_role("option", name="/yz")).to_be_visible()
    table.box.press_sequentially("z ")
    expect(page.get_by_role("option", name="attribute *")).to_be_visible()  # required ones first, marked
    table.shot("options-of-yz")
    table.box.press_sequentially("attribute:40")
    expect(page.locator("#error")).to_contain_text("between 0 and 10")  # refused as Discord's client does
    table.box.press("Enter")
    expect(page.locator(".message")).to_have_count(0)
    table.box.fill("")
    table.box.press_sequentially("/yz attribute:4 skill:2 gear:1")
    table.box.press("Enter")
    card = page.locator(".message").first
    expect(card.locator(".embed-title")).to_be_visible(timeout=SLOW)
    expect(card).to_contain_text("Alice used /yz")
    expect(page.locator("#announcer")).to_contain_text("rollkeeper: ")  # the live region read it out
    table.shot("the-card")
    before = card.locator(".embed").inner_text()

    table.play_as("Bob")
    card.get_by_role("button", name="Push").click()
    refusal = page.locator(".message.ephemeral").last
    expect(refusal).to_contain_text("Only you can see this", timeout=SLOW)
    table.shot("bob-is-refused-privately")
    refused_text = refusal.inner_text()
    table.play_as("Alice")
    expect(page.locator(".message.ephemeral")).to_have_count(0)  # only Bob saw it

    card.get_by_role("button", name="Push").click()
    expect(card.locator(".embed")).not_to_have_text(before, timeout=SLOW)
    table.shot("alice-pushed")
    assert refused_text not in card.inner_text()

    table.play_as("Carol")
    table.send("/yz attribute:3 skill:1")
    carols = table.last()
    expect(carols.get_by_role("button", name="Keep")).to_be_enabled()
    table.play_as("Alice")
    table.send("/yz attribute:2")

    page.get_by_role("button", name="Restart the bot").click()
    expect(page.locator("#bot-state")).to_have_text("rollkeeper: online", timeout=SLOW * 2)
    table.shot("restarted")
    table.play_as("Carol")
    kept_before = carols.locator(".embed").inner_text()
    carols.get_by_role("button", name="Keep").click()
    expect(carols.locator(".embed")).not_to_have_text(kept_before, timeout=SLOW)
    expect(carols.get_by_role("button", name="Push")).to_have_count(0)
    table.shot("carol-kept-an-older-roll-after-the-restart")
    if os.environ.get("RK_PLAYGROUND_SCREENSHOT"):
        shutil.copyfile(table.shot("readme"), README_PICTURE)


def test_help_menu_autocomplete_and_the_log_export(table: Table):
    page = table.page
    page.get_by_role("button", name="Kill and restart").click()  # SIGKILL, as a crash
    expect(page.locator("#bot-state")).to_have_text("rollkeeper: online", timeout=SLOW * 2)
    table.send("/help")
    menu = table.last().get_by_role("combobox")
    title = table.last().locator(".embed-title").first.inner_text()
    table.shot("help")
    options = menu.locator("option:not([disabled])")
    menu.select_option(options.nth(1).get_attribute("value"))
    expect(table.last().locator(".embed-title").first).not_to_have_text(title, timeout=SLOW)
    table.shot("help-menu-used")

    table.channel("dungeon")
    table.send("/test extended task:Climb the wall difficulty:Hard needed:5 rank:3")
    expect(table.last()).to_contain_text("Climb the wall")
    table.box.fill("")
    table.box.press_sequentially("/test extended task:Cl")
    suggestion = page.get_by_role("option", name="Climb the wall (")
    expect(suggestion).to_be_visible(timeout=SLOW)  # answered by the bot's autocomplete
    table.shot("autocomplete-from-the-bot")
    suggestion.click()
    expect(table.box).to_have_value("/test extended task:Climb the wall ")
    table.box.press_sequentially("difficulty:Ha")
    page.get_by_role("option", name="Hard").first.click()
    table.box.press_sequentially("rank:3")
    table.box.press("Enter")
    expect(page.locator(".message:not(.notice)")).to_have_count(2, timeout=SLOW)
    expect(table.last()).to_contain_text("Climb the wall")
    table.shot("extended-test-rolled-again")

    table.channel("tavern")
    table.play_as("The GM (game master)")
    table.send("/log export")
    link = table.last().get_by_role("link", name="roll-log-")
    expect(link).to_be_visible()
    expect(table.last()).to_contain_text("Only you can see this")
    table.shot("log-export")
    page.get_by_role("button", name="Light theme").click()
    expect(page.get_by_role("button", name="Light theme")).to_have_attribute("aria-pressed", "true")
    table.shot("light-theme")
    with page.expect_download() as download:
        link.click()
    csv = Path(download.value.path()).read_text(encoding="utf-8")
    assert csv.splitlines()[0].count(",") >= 3
    assert len(csv.splitlines()) >= 2

    table.send("/willpower-set player:alice points:3")  # a member option, typed by name
    expect(table.last()).to_contain_text("@Alice's Willpower is now 3")
    expect(table.last()).to_contain_text("Today at")


def test_on_a_phone(browser, playground: Playground, shots: Path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light", is_mobile=True)
    page = context.new_page()
    page.goto(playground.url)
    page.wait_for_selector("body[data-ready=yes]")
    box = page.get_by_role("combobox", name="Message #tavern")
    box.fill("/yz attribute:3 skill:3 gear:2")
    box.press("Enter")
    expect(page.locator(".message").last.locator(".embed")).to_be_visible(timeout=SLOW)
    page.screenshot(path=shots / f"{next(STEPS):02}-phone-390px.png")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    context.close()


@contextmanager
def phone_speaking(browser, playground: Playground, language: str) -> Iterator:
    """A page of the playground on a 390 px phone, its players and server speaking `language` (the picker's label);
    English again afterwards, since the playground is shared by the module's tests. The page is checked to fit."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", is_mobile=True)
    page = context.new_page()
    page.goto(playground.url)
    page.wait_for_selector("body[data-ready=yes]")
    picker = page.get_by_label("Language")
    picker.select_option(label=language)
    try:
        yield page
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    finally:
        picker.select_option(label="English")
        context.close()


def test_a_german_table_on_a_phone(browser, playground: Playground, shots: Path):
    """The language picker sets the players' and the server's Discord locale: the picker and the card speak it."""
    german = speak("de")
    with phone_speaking(browser, playground, "Deutsch") as page:
        box = page.get_by_role("combobox", name="Message #tavern")
        box.click()
        box.press_sequentially("/y")
        yz = german._("Roll Attribute + Skill base dice, gear dice, Artifact Dice and Pride; push or keep")
        expect(page.get_by_role("option", name="/yz")).to_contain_text(yz)  # the synced description_localizations
        page.screenshot(path=shots / f"{next(STEPS):02}-phone-german-command-picker.png")
        box.fill("/heroic tn dice:")  # a choice's label: its name_localizations
        expect(page.get_by_role("option", name=german._("{dice} + Skill", dice="2d6"))).to_be_visible()
        box.fill("/yz attribute:3 skill:2 gear:1")
        box.press("Enter")
        card = page.locator(".message").last
        push = card.get_by_role("button", name=german._("Push"))
        expect(push).to_be_visible(timeout=SLOW)
        expect(card.get_by_role("button", name=german._("Keep"))).to_be_visible()
        page.screenshot(path=shots / f"{next(STEPS):02}-phone-german-card.png", full_page=True)
        before = card.locator(".embed").inner_text()
        push.click()
        expect(card.locator(".embed")).not_to_have_text(before, timeout=SLOW)
        expect(push).to_have_count(0)
        page.screenshot(path=shots / f"{next(STEPS):02}-phone-german-pushed.png", full_page=True)


def test_resource_dice_on_a_phone(browser, playground: Playground, shots: Path):
    """A Swedish table's Food die set to D8, then rolled by hand on a 2: the card says it steps down, D8 → D6."""
    swedish = speak("sv_SE")
    with phone_speaking(browser, playground, "Svenska") as page:
        box = page.get_by_role("combobox", name="Message #tavern")
        box.fill("/resource set resource:food rating:d8")
        box.press("Enter")
        expect(page.locator(".message").last).to_contain_text(swedish._("D{sides}", sides=8), timeout=SLOW)
        box.fill("/resource roll resource:food faces:2")
        box.press("Enter")
        card = page.locator(".message").last.locator(".embed")
        food, d6 = swedish._("Food"), swedish._("D{sides}", sides=6)
        expect(card).to_contain_text(swedish._("{resource} steps down · {rating}", resource=food, rating=d6),
                                     timeout=SLOW)
        expect(card).to_contain_text(f"{swedish._('D{sides}', sides=8)} → {d6}")
        expect(card).to_contain_text("25")  # the chance a D8 had of stepping down, 2/8
        page.screenshot(path=shots / f"{next(STEPS):02}-phone-swedish-resource.png", full_page=True)


@pytest.mark.parametrize(("code", "endonym"), [("it", "Italiano"), ("ru", "Русский"), ("cs", "Čeština")])
def test_a_card_in_each_newer_language_on_a_phone(browser, playground: Playground, shots: Path, code, endonym):
    """Italian, Russian and Czech tables: the card's buttons and its footer speak the table's language, and the
    card fits a 390 px phone (Cyrillic and Czech diacritics are wider than English)."""
    speech = speak(code)
    with phone_speaking(browser, playground, endonym) as page:
        box = page.get_by_role("combobox", name="Message #tavern")
        box.fill("/yz attribute:4 skill:2 gear:2 artifact:d12")
        box.press("Enter")
        card = page.locator(".message").last
        expect(card.get_by_role("button", name=speech._("Push"))).to_be_visible(timeout=SLOW)
        expect(card.get_by_role("button", name=speech._("Keep"))).to_be_visible()
        expect(card.locator(".embed")).to_contain_text(speech._("Odds: {chances}", chances="").strip())
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        page.screenshot(path=shots / f"{next(STEPS):02}-phone-{code}-card.png", full_page=True)
