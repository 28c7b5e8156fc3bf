"""The move list in a real browser (Voilà on notebooks/app.ipynb, Debian's Chromium): the keys ← → Home End step
through the record after a click on the board and in the tree, a comment edited in the box shows in the tree and is
saved, one language switch sets the top bar and the board, and at 1024 px the German tabs are not cut off.

A Python twin of the app, driven the same way, says which ply the bots reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.app import LabApp
from tests.support.browser import app_session, voila_server

SEED = 1
TIMEOUT = 30_000  # ms for one step
NARROW = {"width": 1024, "height": 800}


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    """One page for the module, with every console error and page error it logs."""
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


@pytest.fixture(scope="module")
def end_ply() -> int:
    """The ply the bots reach playing the first round from the start (what the page's button does)."""
    twin = LabApp(players=3, seed=SEED, seats=["human"] * 3, threaded=False, chart_delay=0)
    twin.live.value = False
    twin.play_to_round_end()
    ply = twin.node.ply
    twin.close()
    return ply


def wait_ply(page: Page, ply: int, word: str = "Ply") -> None:
    """Until the app says the board shows ply ``ply`` ("Zug" in German)."""
    page.wait_for_function("([n, w]) => (document.querySelector('.ssl-position')?.innerText || '')"
                           ".startsWith(`${w} ${n} `)", arg=[ply, word], timeout=TIMEOUT)


def test_the_keys_step_on_the_board_and_in_the_tree(session: dict[str, Any], end_ply: int) -> None:
    page: Page = session["page"]
    wait_ply(page, 0)
    page.click("button:has-text('To end of round')")
    wait_ply(page, end_ply)

    # the tree: round 1 under its head, each move with its seat's colour
    assert page.locator(".ssl-tree .ssl-t-rnd .ssl-t-round").first.inner_text() == "R1"
    first = page.locator('.ssl-tree .ssl-t-move[data-ply="1"]')
    assert first.get_attribute("data-round") == "1" and first.get_attribute("title").startswith("1. Red: ")
    assert first.locator(".ssl-t-dot").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(213, 94, 0)"

    # the keys step after a click on the board (and with the focus anywhere: tests/browser/test_browser_app_fixes.py)
    page.click(".ssl-board .ssl-title-name")
    page.keyboard.press("ArrowLeft")
    wait_ply(page, end_ply - 1)
    page.keyboard.press("Home")
    wait_ply(page, 0)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 1)
    page.keyboard.press("End")
    wait_ply(page, end_ply)

    # so does the tree: the focus follows the current move
    page.click('.ssl-tree .ssl-t-move[data-ply="3"]')
    wait_ply(page, 3)
    page.keyboard.press("ArrowLeft")
    wait_ply(page, 2)
    page.wait_for_selector('.ssl-tree .ssl-t-cur[data-ply="2"]', timeout=TIMEOUT)
    assert page.evaluate("() => document.activeElement.dataset.ply") == "2"
    page.keyboard.press("End")
    wait_ply(page, end_ply)
    assert page.locator(".ssl-msg .ssl-err").count() == 0


def test_a_comment_is_edited_shown_in_the_tree_and_saved(session: dict[str, Any], end_ply: int) -> None:
    page: Page = session["page"]
    page.fill(".ssl-comment textarea", "Gute Idee: the contract pays.")
    page.keyboard.press("Tab")  # the box sends when it loses the focus
    note = page.locator(".ssl-tree .ssl-t-note")
    note.wait_for(timeout=TIMEOUT)
    assert note.inner_text().endswith("Gute Idee: the contract pays.")
    assert page.locator(".ssl-tree .ssl-t-cur").get_attribute("title").endswith("\nGute Idee: the contract pays.")
    with page.expect_download(timeout=TIMEOUT) as info:
        page.click("button.ssl-save")
    record = GameRecord.from_json(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record.mainline()[end_ply].comment == "Gute Idee: the contract pays."


def test_one_language_switch_sets_the_top_bar_and_the_board(session: dict[str, Any], end_ply: int) -> None:
    page: Page = session["page"]
    assert page.locator(".ssl-board .ssl-lang").count() == 0  # the board in the app has no switch of its own
    assert page.locator(".ssl-topbar .widget-toggle-buttons").count() == 1
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('DE')")
    wait_ply(page, end_ply, "Zug")
    page.wait_for_function("() => (document.querySelector('.ssl-board .ssl-round')?.textContent || '')"
                           ".startsWith('Runde')", timeout=TIMEOUT)
    assert page.locator(".ssl-topbar button:has-text('Neues Spiel')").count() == 1
    assert page.locator(".ssl-board .ssl-phase").first.inner_text() == "Nachfrage"
    assert page.locator(".ssl-comment textarea").get_attribute("placeholder").startswith("Kommentar")
    page.wait_for_function("() => /gewinnt|Bewertungsmodell/"
                           ".test(document.querySelector('.ssl-live')?.innerText || '')",
                           timeout=TIMEOUT)  # the live analysis follows the switch, too


def test_the_german_tabs_fit_at_1024_px(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    page.set_viewport_size(NARROW)
    tabs = page.evaluate("""() => [...document.querySelectorAll('.ssl-app .widget-toggle-buttons button')]
        .filter(b => b.offsetParent !== null)
        .map(b => ({label: b.innerText, scroll: b.scrollWidth, client: b.clientWidth}))""")
    assert "nach Runde" in [t["label"] for t in tabs] and "nach Zug" in [t["label"] for t in tabs]
    cut = [t for t in tabs if t["scroll"] > t["client"]]
    assert cut == []


def test_the_page_logged_no_errors_from_our_code(session: dict[str, Any]) -> None:
    assert session["errors"] == []
