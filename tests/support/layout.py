"""Helpers of the browser tests that look at the app's page (layout, languages, projector): the board's targets
and the script that finds those out of the window, records the greedy bots play to a position, and the page's
steps (load a record, wait for a ply, switch the language, open the tutorial or a collapsed panel)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.records import GameRecord
from tests.support.browser import settle as wait_settled

TIMEOUT = 30_000  # ms for one step
JOB_TIMEOUT = 120_000  # ms for a background job (two cores shared)

# What the boards mark as the targets of the decision on the board (widgets/board.js, widgets/packet_row.js).
TARGETS = {
    "speicherstadt": ", ".join(f".ssl-board {s}" for s in (
        ".ssl-col.ssl-legal", ".ssl-top-card.ssl-legal", ".ssl-btn", ".ssl-cube-btn.ssl-legal", ".ssl-target",
        ".ssl-worker-btn.ssl-legal", "button.ssl-stock-item")),
    "packet_row": ".prb-board .prb-clickable, .prb-board .prb-btn, .prb-board .prb-opt",
}

# The targets outside the window: class, label and box of each, the page at its top (as it opens; Voilà scrolls
# a box around the app, not the window).
OUT_OF_VIEW = """sel => {
  for (let e = document.querySelector('.ssl-app'); e; e = e.parentElement) e.scrollTop = 0;
  window.scrollTo(0, 0);
  const w = document.documentElement.clientWidth, h = window.innerHeight;
  const all = [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  const out = all.filter(e => { const r = e.getBoundingClientRect();
    return r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5; })
    .map(e => { const r = e.getBoundingClientRect();
      return `${e.className} "${e.getAttribute('aria-label') || e.innerText.trim().slice(0, 30)}" `
        + `x ${Math.round(r.left)}–${Math.round(r.right)} y ${Math.round(r.top)}–${Math.round(r.bottom)}`; });
  return {n: all.length, out};
}"""


# The first shown element's box and the window's size, the page scrolled to its top (Voilà scrolls a box around the
# app, not the window).
BOX = """s => { for (let e = document.querySelector('.ssl-app'); e; e = e.parentElement) e.scrollTop = 0;
  window.scrollTo(0, 0);
  const all = [...document.querySelectorAll(s)].filter(e => e.getClientRects().length);
  if (!all.length) return null;
  const r = all[0].getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: document.documentElement.clientWidth,
          h: window.innerHeight}; }"""


def in_view(page: Page, selector: str) -> str:
    """"" when the first shown element of ``selector`` lies wholly inside the window, else what is wrong."""
    box = page.evaluate(BOX, selector)
    if box is None:
        return f"{selector}: not shown"
    inside = box["left"] >= 0 and box["top"] >= 0 and box["right"] <= box["w"] + 0.5 and \
        box["bottom"] <= box["h"] + 0.5
    return "" if inside else f"{selector}: {box}"


def record_until(game: str, players: int, seed: int, stop: Callable[[Any], bool], **options: Any) -> GameRecord:
    """A record of the greedy bots playing from ``seed`` until the first position where ``stop`` holds (or the end)."""
    record = GameRecord.new(players=players, seed=seed, game=game, **options)
    bots = [make_bot("greedy", seed=k) for k in range(players)]
    node = record.root
    while not node.state.is_over and not stop(node.state):
        st = node.state
        node = node.play(bots[st.to_move].choose(st.observe(st.to_move)), by="human")
    return record


def settle(page: Page) -> None:
    """Until the kernel has caught up and no job runs (``tests.support.browser.settle``)."""
    wait_settled(page, TIMEOUT, JOB_TIMEOUT)


def wait_ply(page: Page, ply: int, last: int | None = None) -> None:
    """Until the position line says ply ``ply`` (of ``last``), in either language."""
    page.wait_for_function("([n, m]) => { const w = (document.querySelector('.ssl-position')?.innerText || '')"
                           ".split(/\\s+/); return w[1] === String(n) && (m === null || w[3] === String(m)); }",
                           arg=[ply, last], timeout=TIMEOUT)


def load(page: Page, record: GameRecord) -> None:
    """Load ``record`` through the app's load button; the board shows its end."""
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "game.json", "mimeType": "application/json",
                                    "buffer": record.to_json().encode("utf-8")}])
    end = record.end().ply
    wait_ply(page, end, end)
    settle(page)


def set_lang(page: Page, lang: str) -> None:
    """The top bar's language switch."""
    button = page.locator(".ssl-topbar .widget-toggle-button", has_text=re.compile(f"^{lang.upper()}$"))
    if "mod-active" not in (button.get_attribute("class") or ""):
        button.click(timeout=TIMEOUT)
    page.wait_for_function("l => document.querySelector('.ssl-topbar .widget-toggle-buttons .mod-active')"
                           "?.innerText.trim() === l", arg=lang.upper(), timeout=TIMEOUT)
    settle(page)


# The games the panels are opened for: a finished game of the greedy bots, looked at from a round's start.
GAMES = {
    "speicherstadt": ("speicherstadt", {}, 3, 1),
    "kaispeicher": ("speicherstadt", {"expansion": "kaispeicher"}, 3, 1),
    "packet_row": ("packet_row", {}, 3, 1),
}


def show_tutorial(page: Page, on: bool) -> None:
    """The top bar's tutorial button: the tutorial page (its boards drawn) in place of the lab, or the lab back."""
    button = page.locator(".ssl-topbar .ssl-tutorial-btn")
    if ("mod-active" in (button.get_attribute("class") or "")) != on:
        button.click(timeout=TIMEOUT)
    if on:
        page.wait_for_function("() => { const shown = e => !!e && e.getClientRects().length > 0;"
                               " return !shown(document.querySelector('.ssl-app .ssl-whatif'))"
                               " && shown(document.querySelector('.ssl-app h2'))"
                               " && [...document.querySelectorAll("
                               "'.ssl-app .ssl-board .ssl-top, .ssl-app .prb-board .prb-top')].some(shown); }",
                               timeout=JOB_TIMEOUT)
    else:
        page.wait_for_selector(".ssl-app .ssl-whatif", timeout=TIMEOUT)
    settle(page)


def open_collapsed(page: Page, selector: str) -> None:
    """Open the accordion ``selector`` (ipywidgets' Collapse) if it is closed."""
    collapse = page.locator(f"{selector} .jupyter-widget-Collapse").first
    if "jupyter-widget-Collapse-open" not in (collapse.get_attribute("class") or ""):
        page.locator(f"{selector} .jupyter-widget-Collapse-header").first.click(timeout=TIMEOUT)
    page.wait_for_selector(f"{selector} .jupyter-widget-Collapse-contents", state="visible", timeout=TIMEOUT)


def open_every_panel(page: Page, game: str, bot_button: str) -> None:
    """The lab on ``GAMES[game]``'s record at round 3's start (What if… has a say) after one bot move (``bot_button``:
    its button's selector in the page's language; the bot's reasons shown), the rules and scenario panels open."""
    name, options, players, seed = GAMES[game]
    record = record_until(name, players, seed, lambda s: False, **options)
    start = next(n for n in record.mainline() if n.state.round == 3)
    load(page, record)
    page.click(f'.ssl-tree button.ssl-t-move[data-ply="{start.ply}"] >> nth=0', timeout=TIMEOUT)
    wait_ply(page, start.ply)
    page.wait_for_selector(".ssl-whatif.ssl-whatif-on", timeout=TIMEOUT)
    page.click(bot_button, timeout=TIMEOUT)
    wait_ply(page, start.ply + 1)
    settle(page)
    # The rules panel opens (unfolded) from the top bar's toggle; a session shared by several games may still have the
    # toggle on from the game before (settled: the page shows the kernel's state): never click it off.
    if not page.locator(".ssl-rules-btn.mod-active").count():
        page.click(".ssl-rules-btn", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-rules-panel .jupyter-widget-Collapse-contents", state="visible", timeout=TIMEOUT)
    open_collapsed(page, ".ssl-scenario")
