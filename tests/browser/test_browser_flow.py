"""What a user trips over in the app (issue 23), in a real browser.

Voilà serves notebooks/app.ipynb and Debian's Chromium: seats switched to Greedy in their dropdowns (or "Bots
move by themselves" ticked) start the bots when a bot is to move; at the end of the game the bot buttons are
off and come back one step earlier; a scenario starts where it says, with its title and text in view; after a
chance variation the event list tells each event once and the bots play on. Each test starts its own game on
the module's page; a Python twin of the app, driven the same way, says where the bots must end. The page waits
for the app's own state (the probe's pong, ``ssl-idle``, the position line), never for time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.ui.app import LabApp
from tests.support.app import round_start_with_a_fire
from tests.support.browser import app_session, voila_server
from tests.support.browser import settle as wait_settled

TIMEOUT = 30_000  # ms for one step
GAME_TIMEOUT = 120_000  # ms for the bots to play a whole game (two cores shared)
LABELS = {"human": "Human", "greedy": "Greedy", "random": "Random"}
AUTO = "Bots move by themselves"
PLAY_BUTTONS = ("Bot move", "To end of round", "To end of game")


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


# ---- helpers ------------------------------------------------------------------------------------------

def settle(page: Page) -> None:
    """Until the kernel has caught up and no job runs (``tests.support.browser.settle``)."""
    wait_settled(page, TIMEOUT, GAME_TIMEOUT)


def position(page: Page) -> str:
    return page.locator(".ssl-position").inner_text()


def wait_position(page: Page, ply: int, last: int, timeout: int = TIMEOUT) -> None:
    """Until the position line says ``Ply ply of last``."""
    page.wait_for_function("([n, m]) => (document.querySelector('.ssl-position')?.innerText || '')"
                           ".startsWith(`Ply ${n} of ${m}`)", arg=[ply, last], timeout=timeout)


def set_seats(page: Page, kinds: Sequence[str]) -> None:
    for seat, kind in enumerate(kinds):
        page.select_option(f".ssl-seat-kind-{seat} select", label=LABELS[kind], timeout=TIMEOUT)


def set_auto(page: Page, on: bool) -> None:
    box = page.get_by_label(AUTO)
    if box.is_checked() != on:
        box.set_checked(on, timeout=TIMEOUT)


def fresh(page: Page, kinds: Sequence[str], auto: bool) -> None:
    """A new 3-player game, seed 1, with these seats, and the bots moving by themselves or not (set last)."""
    set_auto(page, False)
    settle(page)
    set_seats(page, kinds)
    for k, value in ((0, "3"), (1, "1")):  # 3 players, seed 1
        page.fill(f".ssl-topbar input[type=number] >> nth={k}", value)
        page.press(f".ssl-topbar input[type=number] >> nth={k}", "Enter")
    page.click(".ssl-topbar button:has-text('New game')")
    settle(page)
    assert position(page).startswith("Ply 0 of 0")
    set_auto(page, auto)


def play_buttons_disabled(page: Page) -> list[bool]:
    return [page.locator(".ssl-app button", has_text=name).first.is_disabled() for name in PLAY_BUTTONS]


def wait_play_buttons(page: Page, disabled: bool) -> None:
    page.wait_for_function("([names, off]) => names.every(n => [...document.querySelectorAll('.ssl-app button')]"
                           ".some(b => b.textContent.trim() === n && b.disabled === off))",
                           arg=[list(PLAY_BUTTONS), disabled], timeout=TIMEOUT)


def greedy_game_length() -> int:
    """Where three Greedy bots end the 3-player game with seed 1 (the Python twin)."""
    twin = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    try:
        for seat in range(3):
            twin.set_seat(seat, "greedy")
        assert twin.state.is_over
        return int(twin.node.ply)
    finally:
        twin.close()


# ---- 1. and 2.: bots start when a bot is to move; the bot buttons at the end --------------------------------


def test_a_seat_switched_to_a_bot_starts_the_bots(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    final = greedy_game_length()
    fresh(page, ["human", "greedy", "greedy"], auto=True)
    settle(page)
    assert position(page).startswith("Ply 0 of 0")  # a human is to move: nothing starts
    # In play "What if…" is closed, and says why in one line (no buttons that look usable)
    assert "Closed while a person plays" in page.locator(".ssl-whatif-info").inner_text()
    assert not page.locator("button.ssl-whatif-make").is_visible()
    set_seats(page, ["greedy"])  # the seat to move becomes a bot
    wait_position(page, final, final, timeout=GAME_TIMEOUT)
    settle(page)
    assert not session["errors"], session["errors"]


def test_ticking_auto_starts_the_bots_and_the_bot_buttons_rest_at_the_end(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    final = greedy_game_length()
    fresh(page, ["greedy", "greedy", "greedy"], auto=False)
    settle(page)
    assert position(page).startswith("Ply 0 of 0") and play_buttons_disabled(page) == [False] * 3
    set_auto(page, True)
    wait_position(page, final, final, timeout=GAME_TIMEOUT)
    settle(page)
    wait_play_buttons(page, disabled=True)  # the game is over: nothing for a bot to do
    page.click(".ssl-navbtn >> nth=1")  # one step back
    wait_position(page, final - 1, final)
    wait_play_buttons(page, disabled=False)
    settle(page)
    assert position(page).startswith(f"Ply {final - 1} of {final}")  # stepping back never lets the bots play on
    page.click(".ssl-navbtn >> nth=2")
    wait_position(page, final, final)
    wait_play_buttons(page, disabled=True)
    assert not session["errors"], session["errors"]


# ---- 3. a scenario starts where it says ---------------------------------------------------------------------


def note_in_view(page: Page) -> None:
    page.wait_for_function("""() => { const n = document.querySelector('.ssl-notice');
        if (!n || !n.offsetParent) return false;
        const r = n.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }""", timeout=TIMEOUT)


def start_shipped(page: Page, label: str, name: str) -> None:
    page.select_option(".ssl-scenario-pick select", label=f"{label} ({name})", timeout=TIMEOUT)
    page.wait_for_function("t => document.querySelector('.ssl-scenario-text textarea').value.includes(t)",
                           arg=f'"en": "{label}"', timeout=TIMEOUT)
    page.click("button.ssl-scenario-start")
    settle(page)


def test_a_scenario_starts_where_it_says_with_its_text_in_view(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    fresh(page, ["human", "greedy", "greedy"], auto=True)
    page.click(".ssl-scenario .jupyter-widget-Collapse-header")
    page.wait_for_selector(".ssl-scenario-text textarea", state="visible", timeout=TIMEOUT)

    start_shipped(page, "Coffee or the fire?", "example-coffee-or-fire")  # Ben, a bot until now, is to move
    assert position(page).startswith("Ply 0 of 0"), "no bot moved away from the scenario"
    assert [page.locator(f".ssl-seat-kind-{k} select").input_value() for k in range(3)] == ["Human"] * 3
    note_in_view(page)
    note = page.locator(".ssl-notice").inner_text()
    assert "Coffee or the fire?" in note and "Ben is first to place" in note
    assert "“Coffee or the fire?”" in page.locator(".ssl-scenario-error").inner_text()

    page.locator("button.ssl-scenario-start").scroll_into_view_if_needed()
    start_shipped(page, "Purchase", "tutorial-2-purchase")
    note_in_view(page)
    assert "Red decides now: buy or pass." in page.locator(".ssl-notice").inner_text()

    page.locator("button.ssl-scenario-current").scroll_into_view_if_needed()
    page.click("button.ssl-scenario-current")  # this position: a scenario without a title
    settle(page)
    page.click("button.ssl-scenario-start")
    settle(page)
    message = page.locator(".ssl-scenario-error").inner_text()
    assert "without a title" in message and "scenario ." not in message
    note_in_view(page)
    assert not session["errors"], session["errors"]


# ---- 4. after a chance variation ----------------------------------------------------------------------------


def log_entries(page: Page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('.ssl-board .ssl-log-entry')].map(e => e.innerText)")


def test_after_a_chance_variation_each_event_shows_once_and_the_bots_play_on(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    record = sl.record_game(sl.new_game(players=3, seed=4), [make_bot("greedy", seed=i) for i in range(3)])
    text = record.to_json()
    node, fire = round_start_with_a_fire(record)
    twin = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    try:
        assert twin.load_json(text)
        twin.auto.value = False
        for seat in range(3):
            twin.set_seat(seat, "greedy")
        twin.auto.value = True
        twin.goto(twin.record.mainline()[node.ply])
        parent_log = len(twin.board.model["log"])
        child = twin.make_chance_variation(pile=[fire])
        assert child is not None and twin.state.is_over
        final = twin.node.ply
    finally:
        twin.close()

    fresh(page, ["greedy", "greedy", "greedy"], auto=False)
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "game.json", "mimeType": "application/json",
                                    "buffer": text.encode("utf-8")}])
    wait_position(page, record.end().ply, record.end().ply)
    set_auto(page, True)  # the game is over: nothing to play
    settle(page)
    page.click(f'.ssl-tree button.ssl-t-move[data-ply="{node.ply}"] >> nth=0')
    wait_position(page, node.ply, record.end().ply)
    before = log_entries(page)
    assert len(before) == parent_log

    tags = page.locator(".ssl-whatif-pile input")
    tags.fill(fire)
    tags.press("Enter")
    page.wait_for_selector(".ssl-whatif-pile .jupyter-widget-tag", timeout=TIMEOUT)
    page.click("button.ssl-whatif-make")
    wait_position(page, final, final, timeout=GAME_TIMEOUT)  # the bots play the new line to the end
    settle(page)

    page.click(".ssl-tree .ssl-chance")  # back to the chance step: the same events as before it, once each
    wait_position(page, node.ply + 1, final)
    assert log_entries(page) == before
    assert not session["errors"], session["errors"]
