"""A monkey in a real browser: random clicks on whatever the app offers (board, controls, move tree).

Voilà serves notebooks/app.ipynb; Debian's Chromium clicks. Seats 2 and 3 are bots (Greedy, Random) that move
by themselves. After every click the test waits for the app's own state, never for time: it pings the kernel
(``window.sslPing(n)``, answered once every earlier message is handled) and waits for the ``ssl-idle`` class
(no background job). Then the board must be drawn, and every ``SAVE_EVERY`` clicks (and at the end) the
record is downloaded and replayed move by move with the game's invariants checked in every position.
Zero page errors from our code are allowed.

`make test` runs 150 clicks with a fixed seed; `make soak` runs 1,000 with a fresh one
(``MONKEY_CLICKS``, ``MONKEY_SEED``). Save, Load, the tutorial page and the whole-game review are left out
(a file dialog, another page, a minute of work); everything else that is a visible, enabled button or
``role=button`` inside the app may be clicked.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.engine.conformance import get_adapter
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.records import GameRecord
from tests.support.browser import app_session, voila_server

CLICKS = int(os.environ.get("MONKEY_CLICKS", "150"))
SEED = int(os.environ.get("MONKEY_SEED", "20261125"))
SAVE_EVERY = 50
TIMEOUT = 120_000  # a bot job (play to the end) may take a while on a loaded machine
LEFT_OUT = ".ssl-save, .ssl-load, .ssl-tutorial-btn, .ssl-review-btn, .modebar"

# Marks the candidates, clicks the one ``pick`` selects, and says what it was.
CLICK_ONE = """([pick, leftOut]) => {
  const app = document.querySelector('.ssl-app');
  const all = [...app.querySelectorAll('button, [role=button]')];
  const ok = all.filter(e => !e.disabled && !e.closest(leftOut) && e.getClientRects().length > 0
                            && getComputedStyle(e).visibility !== 'hidden');
  if (!ok.length) return null;
  const e = ok[pick % ok.length];
  const what = (e.getAttribute('aria-label') || e.textContent || e.className || '').trim().slice(0, 40);
  e.click();
  return { n: ok.length, what };
}"""


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def settle(page: Page, n: int) -> None:
    """Until the kernel has handled everything sent so far and no job runs."""
    page.evaluate("n => window.sslPing(n)", n)
    page.wait_for_selector(f'.ssl-probe[data-pong="{n}"]', state="attached", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-app.ssl-idle", state="attached", timeout=TIMEOUT)


def saved_record(page: Page) -> GameRecord:
    """Download the record with the Save button and load it (every move replayed and checked)."""
    with page.expect_download(timeout=TIMEOUT) as download:
        page.click(".ssl-save", timeout=TIMEOUT)
    path = download.value.path()
    with open(path, encoding="utf-8") as f:
        return GameRecord.from_json(f.read())


def assert_valid(record: GameRecord) -> int:
    """Every position of the record satisfies its game's invariants; returns the number of positions."""
    initial = record.initial
    options = {"expansion": initial.expansion} if getattr(initial, "expansion", None) else {}
    adapter = get_adapter(initial.game, **options)
    nodes = record.nodes()
    for node in nodes:
        problems = adapter.invariants(node.state)
        assert not problems, f"ply {node.ply} ({node.action}): {problems}"
    return len(nodes)


def test_monkey_clicks(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Players') input", "3")
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Seed') input", str(SEED % 1000))
    page.fill(".ssl-rollouts input", "10")  # win chances stay quick when the monkey asks for them
    page.keyboard.press("Tab")
    page.wait_for_selector(".ssl-seats.ssl-seats-3", timeout=TIMEOUT)
    for seat, label in ((0, "Human"), (1, "Greedy"), (2, "Random")):
        page.select_option(f".ssl-seat-kind-{seat} select", label=label, timeout=TIMEOUT)
    page.click("button:has-text('New game')")
    settle(page, 0)

    rng = Rng(SEED, "monkey")
    clicked: list[str] = []
    positions = 0
    for i in range(1, CLICKS + 1):
        got = page.evaluate(CLICK_ONE, [rng.below(2**31), LEFT_OUT])
        assert got is not None, "nothing left to click"
        clicked.append(got["what"])
        settle(page, i)
        assert page.locator(".ssl-board .ssl-top, .prb-board .prb-top").count() == 1, \
            f"no board after click {i} ({got['what']!r}); clicks so far: {clicked[-10:]}"
        if i % SAVE_EVERY == 0 or i == CLICKS:
            positions += assert_valid(saved_record(page))
            settle(page, i)
    assert session["errors"] == [], f"page errors after clicks {clicked[-10:]}: {session['errors'][:5]}"
    assert positions > 0
    print(f"monkey: {CLICKS} clicks (seed {SEED}), {len(set(clicked))} different targets, "
          f"{positions} positions checked; last: {json.dumps(clicked[-5:])}")
