"""The scenario panel in a real browser: start a shipped lesson, then a wrong scenario that changes nothing.

Voilà serves notebooks/app.ipynb and Debian's Chromium opens the *Scenario* panel, picks the tutorial's purchase
lesson, starts it (the board shows the purchase of the lesson, as the Python twin says), then types a scenario
with a contract among a seat's cards and starts it: the error line names the field and the board stays.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import speicherstadt_lab as sl
from speicherstadt_lab.scenarios import shipped_scenario
from speicherstadt_lab.ui.model import board_model
from tests.support.browser import app_session, voila_server

TIMEOUT = 30_000  # ms for one step
LESSON = "tutorial-2-purchase"
PROMPT = "document.querySelector('.ssl-board .ssl-prompt')?.lastElementChild?.textContent"


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def test_a_shipped_scenario_starts_and_a_wrong_one_changes_nothing(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    page.click(".ssl-scenario .jupyter-widget-Collapse-header")
    page.wait_for_selector(".ssl-scenario-text textarea", state="visible", timeout=TIMEOUT)
    page.select_option(".ssl-scenario-pick select", label=f"Purchase ({LESSON})")  # ipywidgets: options by label
    page.wait_for_function("() => document.querySelector('.ssl-scenario-text textarea').value.includes("
                           "'\"phase\": \"purchase\"')", timeout=TIMEOUT)
    page.click("button.ssl-scenario-start")
    data = shipped_scenario(LESSON)
    want = board_model(sl.new_game(scenario=data), "en")["prompt"]
    page.wait_for_function(f"p => {PROMPT} === p", arg=want, timeout=TIMEOUT)
    page.wait_for_selector(".ssl-scenario-error .ssl-ok", timeout=TIMEOUT)
    assert "Purchase" in page.locator(".ssl-scenario-error").inner_text()

    data["seats"][1]["cards"] = ["contract_b1"]
    page.fill(".ssl-scenario-text textarea", json.dumps(data))
    page.click("button.ssl-scenario-start")
    page.wait_for_selector(".ssl-scenario-error .ssl-err", timeout=TIMEOUT)
    message = page.locator(".ssl-scenario-error").inner_text()
    assert "scenario field 'seats[1].cards[0]'" in message and "contracts go in" in message
    assert page.evaluate(f"() => {PROMPT}") == want  # the board still shows the lesson
    assert not session["errors"], session["errors"]
