"""The numbers the app shows, in a real browser (issue 23): open a record with a variation, put the variation on
the board and press Review. The review judges that line (its decision count, its flags), a flag goes to its
position in the variation and shows the better move's gain with a 95% interval, luck reads in percentage points,
the live panel's table and its best moves agree, and every column head carries a title saying what its numbers
mean. A Python twin of the app, driven the same way, says what the page must show. The page waits for the app's
own state (the position line, ``ssl-idle``, ``data-ply``, the probe), never for time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.records import GameRecord, Node
from speicherstadt_lab.ui.app import LabApp
from tests.support.browser import app_session, voila_server

TIMEOUT = 60_000  # ms for one step (the review of the variation is the longest: seconds)
ROLLOUTS = 4  # per action: few, so the review is quick; this checks what is shown, not the judgement
BRANCH = 2  # the variation leaves the main line after ply 2
VARIATION = 20  # moves in the variation
_pings = itertools.count(1)


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def plies(node: Node, n: int, offset: int = 0) -> Node:
    """``n`` moves on from ``node``, each the (7k + offset)-th legal one: not the bots' choices, so some are flagged."""
    for k in range(n):
        legal = node.state.legal_actions()
        node = node.play(str(legal[(7 * k + offset) % len(legal)]), by="human")
    return node


def record_with_a_variation() -> GameRecord:
    """Three players, seed 1: a main line of 6 moves and, from ply ``BRANCH``, a variation of ``VARIATION`` moves."""
    record = GameRecord.new(players=3, seed=1)
    plies(record.root, 6)
    branch = record.mainline()[BRANCH]
    other = next(str(a) for a in branch.state.legal_actions() if str(a) != branch.children[0].action)
    plies(branch.play(other, by="human"), VARIATION - 1, offset=1)
    return record


def sync(page: Page) -> None:
    """Until the kernel has handled every message sent before (the probe's ping)."""
    n = next(_pings)
    page.evaluate("n => window.sslPing(n)", n)
    page.wait_for_selector(f'.ssl-probe[data-pong="{n}"]', state="attached", timeout=TIMEOUT)


def wait_position(page: Page, text: str) -> None:
    page.wait_for_function("t => (document.querySelector('.ssl-position')?.innerText || '').startsWith(t)",
                           arg=text, timeout=TIMEOUT)


def heads_without_title(page: Page, selector: str) -> list[str]:
    """The texts of the column heads under ``selector`` that name a number but say nothing on hover."""
    return page.evaluate("""s => [...document.querySelectorAll(s + ' th')]
        .filter(th => th.textContent.trim() && !th.title).map(th => th.textContent)""", selector)


def test_a_review_of_the_variation_on_the_board_keeps_its_promises(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    text = record_with_a_variation().to_json()
    last = BRANCH + VARIATION  # the variation's last ply

    # the twin: the same record, the variation on the board, reviewed
    twin = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    try:
        twin.live.value = False
        assert twin.load_json(text)
        twin.goto(twin.record.mainline()[BRANCH].children[1])
        assert len(twin.line()) == last + 1
        twin.review_game(rollouts=ROLLOUTS)
        flags = twin.flagged()
        deep = [nd for nd in flags if nd.ply > BRANCH + 1]  # its position lies in the variation
        assert deep, "the variation's odd moves get flagged"
        target = deep[0]
        pick = next(k for k, nd in enumerate(flags) if nd is target)
        label = twin.flag_list.options[pick][0]
        twin.show_flag(target)
        mover = twin.state.to_move
    finally:
        twin.close()

    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "game.json", "mimeType": "application/json",
                                    "buffer": text.encode("utf-8")}])
    wait_position(page, "Ply 6 of 6")
    # the variation's first move (the main line's move at that ply carries the fork)
    page.click(f'.ssl-tree button.ssl-t-move[data-ply="{BRANCH + 1}"]:not(.ssl-t-fork)')
    wait_position(page, f"Ply {BRANCH + 1} of {last}")  # the variation is the line on the board

    page.fill(".ssl-review-rollouts input", str(ROLLOUTS))
    page.press(".ssl-review-rollouts input", "Enter")
    sync(page)
    page.click(".ssl-review-btn")
    page.wait_for_selector('.ssl-review-summary[data-luck="1"]', timeout=TIMEOUT)
    page.wait_for_selector(".ssl-app.ssl-idle", timeout=TIMEOUT)
    said = page.locator(".ssl-msg:not(.ssl-scenario-error)").inner_text()
    assert f"Review: {last} decisions" in said  # the variation's decisions, not the main line's 6

    # the flags are the variation's; one deep in it goes to its position there
    options = [o.replace("\xa0", " ") for o in page.locator(".ssl-flag-list select option").all_inner_texts()]
    assert len(options) == len(flags) and options[-1].startswith(f"{flags[-1].ply}. ")
    assert options[pick] == label
    page.select_option(".ssl-flag-list select", index=pick)
    wait_position(page, f"Ply {target.ply - 1} of {last}")
    page.wait_for_selector(".ssl-position .ssl-variation", timeout=TIMEOUT)
    gain = page.locator(".ssl-gain")
    gain.wait_for(timeout=TIMEOUT)
    assert "95% interval" in gain.inner_text() and " pp" in gain.inner_text()
    assert "standard errors" in (gain.get_attribute("title") or "")
    assert page.locator(".ssl-why").first.inner_text().startswith(f"Ply {target.ply}:")

    # luck: percentage points with their bound, never a bare percentage; every head says what it counts
    luck = page.locator(".ssl-review-summary td.ssl-luck").all_inner_texts()
    assert len(luck) == 3 and all(c.endswith(" pp") and "±" in c and "%" not in c for c in luck)
    assert all(page.locator(".ssl-review-summary td.ssl-luck").nth(k).get_attribute("title") for k in range(3))
    assert heads_without_title(page, ".ssl-review-summary") == []

    # the live panel at this position: the mover's row is its first best move, one judgement on one scale
    page.wait_for_selector(f'.ssl-live[data-ply="{target.ply - 1}"]', timeout=TIMEOUT)
    row = page.locator(f'.ssl-live-seats tr[data-seat="{mover}"] td.ssl-live-win').inner_text()
    best = page.locator(".ssl-live-best li .ssl-live-win").first.inner_text()
    assert row == best and row.endswith("%")
    assert heads_without_title(page, ".ssl-live") == []
    assert page.locator(".ssl-live-intro").get_attribute("title")
    assert session["errors"] == []


def test_a_finished_game_shows_its_result_not_a_band(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    record = GameRecord.new(players=3, seed=2)
    node = record.root
    while not node.state.is_over:
        node = node.play(str(node.state.legal_actions()[0]), by="human")
    st = node.state
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "over.json", "mimeType": "application/json",
                                    "buffer": record.to_json().encode("utf-8")}])
    wait_position(page, f"Ply {node.ply} of {node.ply}")
    page.wait_for_selector(f'.ssl-live[data-ply="{node.ply}"] .ssl-live-result', timeout=TIMEOUT)
    live = page.locator(".ssl-live").inner_text()
    assert live.startswith("Game over:") and "%" not in live
    for i in range(3):
        assert page.locator(f'.ssl-live-final tr[data-seat="{i}"] td').nth(1).inner_text() == str(st.score(i))
    assert heads_without_title(page, ".ssl-live") == []
    assert session["errors"] == []
