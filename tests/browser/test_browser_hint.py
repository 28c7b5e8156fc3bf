"""The hint button in a real browser (Voilà and Debian's Chromium at 1280×800): a person to move asks for a hint and
sees the move in words with its notation on hover and the numbers; in German the button and the hint say "Tipp".
The page waits for the app's own state (the hint drawn), never for time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.support.browser import app_session, settle, voila_server

TIMEOUT = 60_000  # ms for one hint (the quick judgement in the kernel)
BUTTON = ".ssl-sidebar button.ssl-hint-button"
HINT = ".ssl-sidebar .ssl-hint-box .ssl-hint"


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        settle(s["page"])
        yield s


def test_a_hint_for_the_person_to_move_in_words_and_in_german(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    button = page.locator(BUTTON)
    assert button.inner_text().strip() == "Hint" and button.is_enabled()
    button.click()
    page.wait_for_selector(HINT, state="visible", timeout=TIMEOUT)
    move = page.locator(f"{HINT} .ssl-hint-move")
    action = page.locator(HINT).get_attribute("data-action")
    assert action and move.get_attribute("title") == action and move.inner_text().strip() not in ("", action)
    body = page.locator(HINT).inner_text()
    assert body.startswith("Suggested move") and "%" in body and "Level 6 · Expert, the strongest level" in body
    # the lead with its 95% interval, or (where the two moves play out alike) the tie
    assert "95% interval" in body or "exactly as well in every play-out" in body
    page.click(".ssl-topbar .widget-toggle-buttons button:has-text('DE')")
    settle(page)  # the kernel has handled the switch and the page has every message it sent
    assert page.locator(BUTTON).inner_text().strip() == "Tipp"
    assert page.locator(HINT).count() == 0  # the English hint is dropped with the language
    page.locator(BUTTON).click()
    page.wait_for_selector(HINT, state="visible", timeout=TIMEOUT)
    assert "Tipp:" in page.locator(HINT).inner_text()
    assert not session["errors"], session["errors"]
