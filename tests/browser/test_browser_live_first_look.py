"""Packet Row's live analysis in a real browser: after a click the panel first shows a first look from fewer play-outs
(with its intervals and a line saying so), then the full judgement replaces it."""

from __future__ import annotations

from typing import Any

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.ui.app.live_panel import LIVE_FIRST
from tests.support.browser import VIEWPORT, settle, voila_server
from tests.support.move_clicks import click_move, clickable

TIMEOUT = 120_000
SEED = 1

# every live panel content the page shows, in order: [kind, ply, text] (a MutationObserver sees each one, however
# soon the next replaces it)
RECORD = """() => {
  window.sslLive = [];
  const seen = () => {
    const el = document.querySelector('.ssl-live');
    if (!el) return;
    const kind = el.classList.contains('ssl-live-first') ? 'first' : 'full';
    const ply = el.dataset.firstPly ?? el.dataset.ply;
    const last = window.sslLive[window.sslLive.length - 1];
    if (!last || last[0] !== kind || last[1] !== ply) window.sslLive.push([kind, ply, el.innerText]);
  };
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, attributes: true });
}"""


def test_a_packet_row_step_shows_a_first_look_with_its_intervals_then_the_full_judgement(browser: Any) -> None:
    state = sl.new_game("packet_row", players=3, seed=SEED)
    action = str(make_bot("greedy", seed=SEED).choose(state.observe(state.to_move)))
    assert clickable(action)
    with voila_server() as url:
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(f"{url}?game=packet_row&players=3&seed={SEED}", timeout=TIMEOUT)
        page.wait_for_selector('.ssl-live[data-ply="0"]', timeout=TIMEOUT)
        settle(page)
        page.evaluate(RECORD)
        click_move(page, ".prb-board", action)
        page.wait_for_selector('.ssl-live[data-ply="1"]', timeout=TIMEOUT)
        shown = page.evaluate("() => window.sslLive")
        page.close()
    shown = [entry for entry in shown if entry[1] == "1"]  # the position before the click may show on meanwhile
    assert [kind for kind, _, _ in shown] == ["first", "full"]
    first, full = shown[0][2], shown[1][2]
    assert f"First look from {LIVE_FIRST} play-outs" in first and "%–" in first  # its intervals with it
    assert "First look" not in full and "%–" in full
