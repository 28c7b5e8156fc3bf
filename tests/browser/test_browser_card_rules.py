"""A card's rule on click (issue 25): before, a card's rule showed on hover only, which a touch screen and a keyboard
never reach. Now a click on a card that is no target of a legal action (or on the ⓘ of a card that sits in a
target, a water space one places a worker on) opens its rule text in a small popover in the board, in the board's
language, from the model; a second click, its close button or Escape closes it; no message goes to Python.

Each board's own module (``Board._esm``, ``PacketRowBoard._esm``) is drawn in Debian's Chromium on a stand-in of the
widget's model that records what the page sends. The page waits for its own state (the elements), never for time.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

import speicherstadt_lab as sl
from speicherstadt_lab.ui import Board, PacketRowBoard
from speicherstadt_lab.ui.model import board_model
from speicherstadt_lab.ui.packet_row_model import board_model as packet_row_model
from tests.support.board_page import TIMEOUT, open_board_page
from tests.support.scenario import red_buys_three

POP = ".gb-rule-pop"


def open_page(browser: Any, widget: Any, model: dict[str, Any], ready: str) -> Page:
    """A page drawing ``model`` with the module and stylesheet of the board class ``widget``."""
    return open_board_page(browser, widget, model, ready, lang_switch=True, viewport={"width": 1280, "height": 800})


def popover(page: Page) -> dict[str, Any] | None:
    """The open popover's card id and texts, None when no popover is open."""
    return page.evaluate("""(sel) => {
        const p = document.querySelector(sel);
        if (!p) return null;
        const r = p.getBoundingClientRect();
        return { card: p.dataset.card, text: p.innerText, visible: r.width > 0 && r.height > 0 };
    }""", POP)


def closed(page: Page) -> None:
    page.wait_for_function("(sel) => !document.querySelector(sel)", arg=POP, timeout=TIMEOUT)


def opened(page: Page, card: str) -> dict[str, Any]:
    page.wait_for_function("([sel, id]) => (document.querySelector(sel) || {dataset: {}}).dataset.card === id",
                           arg=[POP, card], timeout=TIMEOUT)
    shown = popover(page)
    assert shown is not None and shown["visible"]
    return shown


def sent(page: Page) -> list[Any]:
    return page.evaluate("window.SENT")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_water_space_cards_rule_opens_from_its_info_button_without_placing(browser: Any, lang: str) -> None:
    state = sl.new_game(players=3, seed=7)  # demand: every water space is a target (a worker goes there)
    model = board_model(state, lang)
    info = model["spaces"][0]["card"]
    assert info["rule"] and model["spaces"][0]["legal"]
    page = open_page(browser, Board, model, ".ssl-col.ssl-legal")
    try:
        label = f"{model['labels']['rule_open']}: {info['name']}"
        page.get_by_role("button", name=label, exact=True).click(timeout=TIMEOUT)
        shown = opened(page, info["id"])
        assert info["name"] in shown["text"] and info["text"] in shown["text"]
        assert info["rule"].splitlines()[0] in shown["text"]  # the rulebook's section, in the board's language
        assert sent(page) == []  # reading a rule plays nothing
        page.keyboard.press("Escape")
        closed(page)
        page.get_by_role("button", name=label, exact=True).click(timeout=TIMEOUT)
        opened(page, info["id"])
        page.get_by_role("button", name=label, exact=True).click(timeout=TIMEOUT)  # a second click closes it
        closed(page)
        # the water space itself still places a worker: its message is the model's, sent once
        page.locator(".ssl-col.ssl-legal[data-space='0'] .ssl-price").click(timeout=TIMEOUT)
        page.wait_for_function("() => window.SENT.length === 1", timeout=TIMEOUT)
        place = next(a["msg"] for a in model["actions"] if a["text"] == "place 0")
        assert [{k: v for k, v in m.items() if k != "rev"} for m in sent(page)] == [place]
    finally:
        page.close()


def test_a_card_that_is_no_target_opens_its_rule_on_click(browser: Any) -> None:
    state = red_buys_three(["warehouse", "contract_a1", "ship_b1", "ship_b2"],
                           ["coffee", "tea", "carpet", "saffron", "rubber", "rubber"])
    model = board_model(state, "en")
    assert model["dock"] and model["can_act"]
    red = model["seats"][state.to_move]
    contract = red["contracts"][0]["card"]
    page = open_page(browser, Board, model, ".ssl-dock")
    try:
        seat = page.locator(f".ssl-seat[data-seat='{state.to_move}']")
        seat.locator(".ssl-contract").first.click(timeout=TIMEOUT)  # no cube picked: the contract is no target
        shown = opened(page, contract["id"])
        assert contract["text"] in shown["text"] and contract["rule"].splitlines()[1] in shown["text"]
        page.get_by_role("button", name=model["labels"]["rule_close"], exact=True).click(timeout=TIMEOUT)
        closed(page)
        chip = red["groups"][0]["cards"][0]  # a card of a kind group (the ships): its rule too
        seat.locator(".ssl-group .ssl-chip").first.click(timeout=TIMEOUT)
        opened(page, chip["id"])
        seat.locator(".ssl-group .ssl-chip").first.click(timeout=TIMEOUT)
        closed(page)
        # with a cube picked the contract is the target of 'contract coffee 0': the click plays it, no rule opens
        coffee = next(g["name"] for g in model["goods"] if g["id"] == "coffee")
        page.locator(".ssl-dock-cubes").get_by_role("button", name=coffee, exact=True).first.click(timeout=TIMEOUT)
        page.get_by_role("button", name="contract coffee 0", exact=True).click(timeout=TIMEOUT)
        page.wait_for_function("() => window.SENT.length === 1", timeout=TIMEOUT)
        assert popover(page) is None and sent(page)[0]["verb"] == "contract"
    finally:
        page.close()


def test_a_packet_row_card_opens_its_rule_on_click(browser: Any) -> None:
    state = sl.new_game("packet_row", players=3, seed=2)  # choosing a board: no card on the boards is a target
    model = packet_row_model(state, "de")
    slot = next(s for b in model["boards"] for s in b["current"] if s["card"] and s["card"]["rule"])
    assert not slot["legal"]
    page = open_page(browser, PacketRowBoard, model, ".prb-bd")
    try:
        card = page.locator(f".prb-bd[data-board='{slot['card']['board']}'] .prb-cur .prb-card").nth(slot["index"])
        card.click(timeout=TIMEOUT)
        shown = opened(page, slot["card"]["id"])
        assert slot["card"]["text"] in shown["text"] and "Regel" in shown["text"]  # German, from the model
        assert sent(page) == []
        page.keyboard.press("Escape")
        closed(page)
        card.focus(timeout=TIMEOUT)  # by the keyboard: the card takes the focus, Enter opens its rule
        page.keyboard.press("Enter")
        opened(page, slot["card"]["id"])
        page.keyboard.press("Escape")
        closed(page)
        assert sent(page) == []
    finally:
        page.close()
