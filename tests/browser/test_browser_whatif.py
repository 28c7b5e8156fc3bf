"""A chance variation in a real browser: open a finished game, step back to the start of a round whose season
still hides a fire, bring that fire forward in the "What if…" panel, play the new line to the end with the
bots, and see both lines on the chart and side by side in the comparison. A Python twin of the app, driven
the same way, says where the bots' line must end. The page waits for the app's own state, never for time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.ui.app import LabApp
from tests.support.app import round_start_with_a_fire
from tests.support.browser import app_session, voila_server

SEED = 5
TIMEOUT = 60_000  # ms for one step (the bots' line to the end is the longest)


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def finished_record() -> sl.GameRecord:
    return sl.record_game(sl.new_game(players=3, seed=SEED), [make_bot("greedy", seed=i) for i in range(3)])


def wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Ply ${n} of`)",
                           arg=ply, timeout=TIMEOUT)


def wait_idle(page: Page) -> None:
    page.wait_for_selector(".ssl-app.ssl-idle", timeout=TIMEOUT)


def test_a_fire_brought_forward_and_played_out_shows_both_lines(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    record = finished_record()
    text = record.to_json()
    node, fire = round_start_with_a_fire(record)
    end_ply = record.end().ply

    twin = LabApp(players=3, seed=1, threaded=False, chart_delay=0)  # the notebook's app, driven the same way
    assert twin.load_json(text)
    twin.goto(twin.record.mainline()[node.ply])
    assert twin.make_chance_variation(pile=[fire]) is not None
    twin.play_to_end()
    final_ply = twin.node.ply
    assert twin.node.state.is_over and final_ply > node.ply + 1

    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "game.json", "mimeType": "application/json",
                                    "buffer": text.encode("utf-8")}])
    wait_ply(page, end_ply)  # a finished game: analysis, but at its end nothing is left to draw
    page.wait_for_selector(".ssl-whatif.ssl-whatif-off", timeout=TIMEOUT)

    page.click(f'.ssl-tree button.ssl-t-move[data-ply="{node.ply}"] >> nth=0')  # back to the round's start
    wait_ply(page, node.ply)
    page.wait_for_selector(".ssl-whatif.ssl-whatif-on", timeout=TIMEOUT)
    page.wait_for_selector(f'.ssl-whatif-tocome [data-card="{fire}"] .ssl-whatif-fire', timeout=TIMEOUT)

    tags = page.locator(".ssl-whatif-pile input")
    tags.fill(fire)
    tags.press("Enter")
    page.wait_for_selector(".ssl-whatif-pile .jupyter-widget-tag", timeout=TIMEOUT)
    page.click("button.ssl-whatif-make")
    wait_ply(page, node.ply + 1)
    page.wait_for_selector(".ssl-whatif-msg .ssl-ok", timeout=TIMEOUT)
    assert page.locator(".ssl-tree .ssl-chance").count() == 1
    first = page.evaluate("() => document.querySelector('.ssl-whatif-tocome [data-card]')?.dataset.card")
    assert first == fire  # the fire is now the next card to come

    page.click("button:has-text('To end of game'), button:has-text('Bis Spielende')")
    wait_ply(page, final_ply)
    wait_idle(page)
    # the charts follow the board a moment after it (chart_delay): wait for the branch to be drawn
    page.wait_for_function("""() => document.querySelector('.js-plotly-plot').data
        .some(t => (t.meta || {}).line === 'branch' && (t.x || []).length > 1)""", timeout=TIMEOUT)
    traces = page.evaluate("""() => document.querySelector('.js-plotly-plot').data.map(t => ({
        meta: t.meta || {}, dash: (t.line || {}).dash || null, n: (t.x || []).length}))""")
    branch = [t for t in traces if t["meta"].get("line") == "branch"]
    main = [t for t in traces if t["meta"].get("line") == "main"]
    assert branch and main and all(t["dash"] == "dash" and t["n"] > 1 for t in branch)

    page.click("button.ssl-whatif-compare-btn")
    page.wait_for_selector('.ssl-whatif-table[data-lines="2"]', timeout=TIMEOUT)
    rows = page.locator(".ssl-whatif-table .ssl-whatif-row")
    assert rows.count() == 2 and f"pile: {fire}" in rows.nth(1).inner_text()
    assert session["errors"] == []
