"""The board's JavaScript in a real browser sends the grammar's clicks and never writes notation (issue 24).

The board's module (``Board._esm``: ``widgets/common.js``, the regions of ``widgets/board/`` and ``widgets/board.js``,
assembled by ``ui/board.py``) is drawn in Debian's Chromium on a stand-in of the widget's model (the JSON model of
``ui/model.py``, the messages it sends recorded), for a Kaispeicher loading turn with the two-click moves (the
Truck), the Smuggler, a sale of two cubes in the market hall, a contract and the hall. Each click must send exactly
the message the model lists for that action (``Grammar.fields_of``), and the board accepts it and applies it once.
The page waits for its own state (the elements), never for time.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from speicherstadt_lab.ui import Board
from speicherstadt_lab.ui.model import board_model
from tests.support.board_page import TIMEOUT, open_board_page
from tests.support.kai_scenario import red_loading


def loading() -> Any:
    """Red loads coffee, tea and hemp with the Smuggler, the Truck and the Harbour Master; a tea on Red's first
    contract (the second takes tea); Blue's contract holds a coffee."""
    return red_loading(4, dock=["coffee", "tea", "hemp"], cards=["smuggler", "truck", "harbour_master"],
                       contracts=[("contract_a1", ["tea"]), ("contract_b2", [])],
                       others={1: {"contracts": [("contract_a3", ["coffee"])]}})


def open_board(browser: Any, state: Any) -> tuple[Page, dict[str, Any]]:
    """A page drawing ``state``'s board model; the model too."""
    model = board_model(state, "en")
    return open_board_page(browser, Board, model, ".ssl-board .ssl-dock"), model


def click(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).first.click(timeout=TIMEOUT)


def sent(page: Page) -> list[dict[str, Any]]:
    return [{k: v for k, v in m.items() if k != "rev"} for m in page.evaluate("window.SENT")]


def accepted(state: Any, msg: dict[str, Any], text: str) -> None:
    """The board takes the message as the action ``text`` and applies it once."""
    board = Board(state)
    got: list[Any] = []
    board.on_action(lambda a, before, after: got.append((str(a), before, after)), with_states=True)
    assert board.handle_message(msg), board.error
    assert got[0][0] == text and got[0][1] is state and got[0][2].last_action == text


@pytest.mark.parametrize(("picks", "text"), [
    (["coffee"], "contract coffee 0"),
    (["tea"], "keep tea"),
    (["coffee", "hemp"], "hallsell coffee hemp"),
    ([], "smuggle 1 0 coffee"),
    ([], "truck tea 0 1"),
])
def test_each_click_sends_the_models_message_for_its_action(browser: Any, picks: list[str], text: str) -> None:
    state = loading()
    assert text in [str(a) for a in state.legal_actions()]
    page, model = open_board(browser, state)
    try:
        expected = next(a["msg"] for a in model["actions"] if a["text"] == text)
        dock = model["dock"]
        name = {g["id"]: g["name"] for g in model["goods"]}
        for good in picks:  # dock cubes picked first
            page.locator(".ssl-dock-cubes").get_by_role("button", name=name[good], exact=True).first.click(
                timeout=TIMEOUT)
        page.wait_for_function("n => document.querySelectorAll('.ssl-dock-cubes .ssl-selected').length === n",
                               arg=len(picks), timeout=TIMEOUT)
        if text.startswith("hallsell"):
            click(page, model["labels"]["hallsell"])
        elif text.startswith("smuggle"):
            click(page, f"{dock['smuggle_label']} {name['coffee']}")
        elif text.startswith("truck"):
            click(page, f"{dock['truck_label']} {name['tea']}")  # the cube on Red's first contract, then its target
            page.wait_for_selector(".ssl-contract.ssl-target", timeout=TIMEOUT)
            click(page, text)
        else:
            click(page, text)  # the target is labelled with the action the model names
        page.wait_for_function("() => window.SENT.length === 1", timeout=TIMEOUT)
        assert sent(page) == [expected]
        accepted(state, expected, text)
    finally:
        page.close()


def test_the_page_finds_no_target_the_model_does_not_list(browser: Any) -> None:
    """With the Tea picked, the targets are exactly the model's tea actions that take a target (contract 1, the
    hall): nothing else is offered, and every target's label is an action the model lists."""
    state = loading()
    page, model = open_board(browser, state)
    try:
        tea = next(g["name"] for g in model["goods"] if g["id"] == "tea")
        page.locator(".ssl-dock-cubes").get_by_role("button", name=tea, exact=True).first.click(timeout=TIMEOUT)
        page.wait_for_selector(".ssl-target", timeout=TIMEOUT)
        labels = page.eval_on_selector_all(".ssl-target", "els => els.map((e) => e.getAttribute('aria-label'))")
        assert sorted(labels) == ["contract tea 1", "keep tea"]
        assert set(labels) <= {a["text"] for a in model["actions"]}
    finally:
        page.close()
