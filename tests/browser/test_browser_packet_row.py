"""Packet Row in a real browser: Voilà serves notebooks/app.ipynb, Debian's Chromium plays one round by clicks.

Choose "Packet Row" in the game chooser, four human seats, a fixed seed; then the first round: the harbour
master chooses a board, the first seat declines, the others take cards or decline, the harbour master moves
on to another board, and so on until the round ends. After every click the board must show what the engine
says (round, active board, pawns on the slots, money), and the page must log no error from our code.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import speicherstadt_lab as sl
from speicherstadt_lab.bots.greedy import GreedyBot
from tests.support.browser import app_session, voila_server

SEED = 1
PLAYERS = 4
TIMEOUT = 30_000


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Ply ${n} of`)",
                           arg=ply, timeout=TIMEOUT)


def plan_round(state: Any) -> list[str]:
    """The first round's card decisions: the first seat declines, the harbour master moves on once."""
    bot = GreedyBot(seed=2)
    plan: list[str] = []
    s = state
    declined = moved_on = False
    while s.round == state.round and not s.is_over:
        legal = [a for a in s.legal_actions() if a.kind in ("choose", "take", "decline", "pass")]
        texts = [str(a) for a in legal]
        if not declined and "decline" in texts:
            action, declined = "decline", True
        elif s.phase == "decide" and s.to_move == s.harbour_master and not moved_on and any(
                t.startswith("choose") for t in texts):
            action, moved_on = next(t for t in texts if t.startswith("choose")), True
        else:
            ranked = bot.explain(s.observe(s.to_move))
            action = next(a for a in ranked["action"] if a in texts)
        plan.append(action)
        s = s.apply(action)
    return plan


def click(page: Page, action: str) -> None:
    w = action.split()
    if w[0] == "choose":
        page.click(f".prb-bd[data-board={w[1]}] .prb-btn-choose", timeout=TIMEOUT)
    elif w[0] == "take":
        supply = ".prb-fut" if w[2] == "future" else ".prb-cur"
        page.locator(f".prb-bd[data-board={w[1]}] {supply} .prb-slot").nth(int(w[-1])).locator(
            ".prb-clickable").click(timeout=TIMEOUT)
    else:
        page.click(f".prb-board .prb-btn-{w[0]}", timeout=TIMEOUT)


def shown(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => ({
        round: document.querySelector('.prb-board .prb-round')?.textContent,
        active: document.querySelector('.prb-board .prb-bd.prb-active')?.dataset.board ?? null,
        pawns: document.querySelectorAll('.prb-board .prb-on-slot').length,
    })""")


def check(page: Page, state: Any) -> None:
    got = shown(page)
    assert got["round"] == f"Round {state.round}", got
    assert got["active"] == (state.current_board if state.phase == "decide" else None), (got, state.phase)
    assert got["pawns"] == sum(1 for i in range(state.n_players) if state.player(i).pawn is not None), got
    text = page.locator(".prb-board").inner_text()
    for i in range(state.n_players):
        assert f"${state.money[i]}" in text


def test_a_packet_row_round_by_clicks(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    page.select_option(".ssl-topbar select >> nth=0", label="Packet Row")
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Players') input", str(PLAYERS))
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Seed') input", str(SEED))
    page.keyboard.press("Tab")
    page.wait_for_selector(f".ssl-seats.ssl-seats-{PLAYERS}", timeout=TIMEOUT)  # the app shows 4 seat rows
    for k in range(PLAYERS):
        page.select_option(f".ssl-seat-kind-{k} select", label="Human", timeout=TIMEOUT)
    page.click("button:has-text('New game')")
    wait_ply(page, 0)
    page.wait_for_selector(".prb-board .prb-top", timeout=TIMEOUT)
    state = sl.new_game("packet_row", players=PLAYERS, seed=SEED)
    check(page, state)
    plan = plan_round(state)
    assert "decline" in plan and any(a.startswith("take") for a in plan)
    for k, action in enumerate(plan, start=1):
        click(page, action)
        state = state.apply(action)
        wait_ply(page, k)
        check(page, state)
    assert state.round == 2 and shown(page)["round"] == "Round 2"


def test_the_page_logged_no_errors_from_our_code(session: dict[str, Any]) -> None:
    assert session["errors"] == []  # collected by the page's listeners over the whole module
