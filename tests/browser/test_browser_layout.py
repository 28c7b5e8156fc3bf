"""The app's layout in a real browser (issue 23): Voilà serves notebooks/app.ipynb, Debian's Chromium looks.

- At 1280×800 every target of the decision on the board (the places, buttons, cubes and drop targets the board
  marks) lies inside the window without scrolling, in each phase of Die Speicherstadt (a round-5 loading with
  each dock cube picked in turn), of Kaispeicher and of Packet Row; at 1920×1080 the board is wider and the side
  bar stays beside it.
- Every panel (the lab page, the side bar, the charts and review, the rules, the scenario panel, the tutorial
  page, the What-if panel) of each game, in English and German at 1280×800: no text overflows its box, no text
  is clipped, no dropdown cuts its choice, nothing needs an emoji font, and the page logs no error.
- The Kaispeicher board is titled by its variant; Packet Row's card titles fit; no card is an icon alone.

Positions come from records the greedy bots play with fixed seeds, loaded through the app's load button; the page
waits for the app's own state (the position line, the probe's pong, ``ssl-idle``), never for time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.support.browser import VIEWPORT, app_session, voila_server
from tests.support.layout import (
    GAMES,
    OUT_OF_VIEW,
    TARGETS,
    TIMEOUT,
    load,
    open_every_panel,
    record_until,
    set_lang,
    show_tutorial,
)

WIDE = {"width": 1920, "height": 1080}

# Text that does not fit inside the app: an element with text of its own whose box cuts it (overflow hidden or
# clip, or an ellipsis) while it is wider or taller than the box; text reaching out of a clipping ancestor (up to
# the first scroll box: what scrolls can be reached); a dropdown narrower than its choice, a list box narrower
# than an option. Plotly's SVG is left out. Each offender: tag.class "text" (what is too big).
OVERFLOW = """() => {
  const app = document.querySelector('.ssl-app');
  const out = [];
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const cuts = v => v === 'hidden' || v === 'clip';
  const scrolls = v => v === 'auto' || v === 'scroll';
  const name = e => `${e.tagName.toLowerCase()}.${String(e.className).trim().split(/\\s+/).join('.')}`;
  const ctx = document.createElement('canvas').getContext('2d');
  const textWidth = (e, t) => { const cs = getComputedStyle(e);
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`; return ctx.measureText(t).width; };
  for (const e of app.querySelectorAll('*')) {
    if (e.closest('svg') || !shown(e)) continue;
    const cs = getComputedStyle(e);
    if (e.tagName === 'SELECT') {
      const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const opts = e.size > 1 || e.multiple ? [...e.options] : [e.options[e.selectedIndex]].filter(Boolean);
      for (const o of opts) {
        const need = textWidth(e, o.text);
        if (need > room + 1) out.push(`${name(e)} "${o.text}" (needs ${Math.ceil(need)} px, has ${room})`);
      }
      continue;
    }
    const own = [...e.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
    if (!own.length) continue;
    const text = e.innerText.trim().replace(/\\s+/g, ' ').slice(0, 60);
    const ellipsis = cs.textOverflow === 'ellipsis';
    if ((cuts(cs.overflowX) || ellipsis) && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${name(e)} "${text}" (width ${e.scrollWidth} > ${e.clientWidth})`); continue;
    }
    if (cuts(cs.overflowY) && e.scrollHeight > e.clientHeight + 1) {
      out.push(`${name(e)} "${text}" (height ${e.scrollHeight} > ${e.clientHeight})`); continue;
    }
    for (const node of own) {
      const range = document.createRange(); range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      let clipped = null;
      for (let a = e; a && a !== app.parentElement && !clipped; a = a.parentElement) {
        const s = a === e ? cs : getComputedStyle(a);
        if (a !== e && (scrolls(s.overflowX) || scrolls(s.overflowY))) break;
        if (a === e) continue;
        const box = a.getBoundingClientRect();
        const left = box.left + a.clientLeft, top = box.top + a.clientTop;
        if (cuts(s.overflowX) && (r.left < left - 1 || r.right > left + a.clientWidth + 1)) clipped = a;
        if (cuts(s.overflowY) && (r.top < top - 1 || r.bottom > top + a.clientHeight + 1)) clipped = a;
      }
      if (clipped) { out.push(`${name(e)} "${text}" (clipped by ${name(clipped)})`); break; }
    }
  }
  return [...new Set(out)];
}"""

# Characters only an emoji font draws (U+1F000 and up): the page must not need one to be understood.
EMOJI = "() => [...new Set([...document.querySelector('.ssl-app').innerText].filter(c => c.codePointAt(0) >= 0x1F000))]"

@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    """One page for the module (1280×800), with every console error and page error it logs."""
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


# ---- positions --------------------------------------------------------------------------------------------


def loading(round_: int, good: str | None = None) -> Callable[[Any], bool]:
    """The first loading decision of round ``round_`` (with ``good`` in the dock)."""
    return lambda s: s.round == round_ and s.phase == "loading" and (good is None or good in s.dock_goods)


def verbs(*kinds: str) -> Callable[[Any], bool]:
    """The first decision that offers every one of ``kinds``."""
    return lambda s: set(kinds) <= {a.kind for a in s.legal_actions()}


# id: game, options, players, seed, where to stop
POSITIONS: dict[str, tuple[str, dict[str, Any], int, int, Callable[[Any], bool]]] = {
    "speicherstadt-demand": ("speicherstadt", {}, 3, 1, lambda s: s.round == 2),
    "speicherstadt-purchase": ("speicherstadt", {}, 3, 1, lambda s: s.round == 2 and s.phase == "purchase"),
    "speicherstadt-round5-loading": ("speicherstadt", {}, 3, 1, loading(5)),  # the dock empty: take from the warehouse
    "speicherstadt-round5-loading-coffee": ("speicherstadt", {}, 3, 7, loading(5, "coffee")),
    "speicherstadt-5-players-loading": ("speicherstadt", {}, 5, 10, loading(5, "coffee")),
    "kaispeicher-demand": ("speicherstadt", {"expansion": "kaispeicher"}, 3, 1, lambda s: True),
    "kaispeicher-round5-loading": ("speicherstadt", {"expansion": "kaispeicher"}, 3, 3, loading(5, "glass")),
    "packet-row-choose": ("packet_row", {}, 4, 1, lambda s: True),
    "packet-row-take": ("packet_row", {}, 4, 1, verbs("take", "decline")),
    "packet-row-cash": ("packet_row", {}, 4, 1, verbs("cash", "choose")),
    "packet-row-fulfil": ("packet_row", {}, 3, 5, verbs("fulfil")),
}


# ---- the page ---------------------------------------------------------------------------------------------


def out_of_view(page: Page, game: str, where: str) -> list[str]:
    """The targets of ``game``'s board outside the window (none found at all is an error too)."""
    got = page.evaluate(OUT_OF_VIEW, TARGETS[game])
    assert got["n"] > 0, f"{where}: the board marks no target"
    return [f"{where}: {x}" for x in got["out"]]


# ---- the tests --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(POSITIONS))
def test_every_target_of_the_decision_is_in_view_at_1280x800(session: dict[str, Any], key: str) -> None:
    page: Page = session["page"]
    game, options, players, seed, stop = POSITIONS[key]
    load(page, record_until(game, players, seed, stop, **options))
    assert page.viewport_size == VIEWPORT
    board = "packet_row" if game == "packet_row" else "speicherstadt"
    bad = out_of_view(page, board, key)
    # loading: each dock cube picked in turn shows where it may go (the board marks those targets)
    cubes = page.locator(".ssl-board .ssl-dock-cubes button.ssl-cube-btn.ssl-legal")
    for label in dict.fromkeys(cubes.nth(k).get_attribute("aria-label") for k in range(cubes.count())):
        page.locator(f'.ssl-board .ssl-dock-cubes button[aria-label="{label}"]').first.click(timeout=TIMEOUT)
        page.wait_for_selector(".ssl-board .ssl-dock-cubes .ssl-selected", timeout=TIMEOUT)
        assert page.locator(".ssl-board .ssl-target").count() > 0, f"{key}: {label} picked, no target marked"
        bad += out_of_view(page, board, f"{key} with {label} picked")
        page.locator(".ssl-board .ssl-dock-cubes .ssl-selected").click(timeout=TIMEOUT)
        page.wait_for_selector(".ssl-board .ssl-dock-cubes .ssl-selected", state="detached", timeout=TIMEOUT)
    assert not bad, "targets out of view at 1280×800:\n" + "\n".join(bad)


def test_the_board_grows_on_a_wide_screen_with_the_side_bar_beside_it(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    load(page, record_until("speicherstadt", 3, 1, loading(5)))
    box = ("() => { const r = s => document.querySelector(s).getBoundingClientRect();"
           " const b = r('.ssl-board'), s = r('.ssl-sidebar'), a = r('.ssl-app');"
           " return {board: b.width, boardRight: b.right, boardTop: b.top, sideLeft: s.left, sideTop: s.top,"
           " app: a.width}; }")
    narrow = page.evaluate(box)
    try:
        page.set_viewport_size(WIDE)
        page.wait_for_function("w => document.querySelector('.ssl-app').getBoundingClientRect().width > w",
                               arg=narrow["app"], timeout=TIMEOUT)
        wide = page.evaluate(box)
        bad = out_of_view(page, "speicherstadt", "1920×1080")
    finally:
        page.set_viewport_size(VIEWPORT)
    assert wide["app"] > 1800, wide  # the app takes the screen's width
    assert wide["board"] > narrow["board"] + 300, (narrow, wide)
    for got in (narrow, wide):  # the side bar beside the board, level with it
        assert got["sideLeft"] >= got["boardRight"] and abs(got["sideTop"] - got["boardTop"]) < 40, got
    assert not bad, "\n".join(bad)


def test_the_kaispeicher_board_is_titled_by_its_variant(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    load(page, record_until("speicherstadt", 3, 1, lambda s: True, expansion="kaispeicher"))
    assert page.locator(".ssl-board .ssl-title-name").inner_text() == "Die Speicherstadt + Kaispeicher"
    load(page, record_until("speicherstadt", 3, 1, lambda s: True))
    assert page.locator(".ssl-board .ssl-title-name").inner_text() == "Die Speicherstadt"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_packet_row_card_titles_fit_and_no_card_is_an_icon_alone(session: dict[str, Any], lang: str) -> None:
    """Every card head of the four boards and of the hands (all shown, small, at the end) shows its whole title;
    a seat's cards in Die Speicherstadt (ships, firemen…) each show a name or a number beside the icon."""
    page: Page = session["page"]
    set_lang(page, lang)
    heads = ("() => [...document.querySelectorAll('.prb-card-head, .prb-card-head *, .prb-c-main, .prb-c-main *')]"
             ".filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)"
             ".map(e => `${e.className} \"${e.innerText}\" ${e.scrollWidth}/${e.clientWidth}`)")
    bad: list[str] = []
    try:
        for stop in (verbs("take", "decline"), lambda s: False):  # a round's supplies; game over: every hand
            load(page, record_until("packet_row", 4, 1, stop))
            bad += page.evaluate(heads)
        load(page, record_until("speicherstadt", 3, 3, lambda s: s.round == 8))
        bad += page.evaluate("() => [...document.querySelectorAll('.ssl-seat .ssl-chip')]"
                             ".filter(c => !/[\\p{L}\\d]/u.test(c.innerText)).map(c => c.title.split('\\n')[0])")
    finally:
        set_lang(page, "en")
    assert not bad, f"{lang}: cut card titles or cards without a name:\n" + "\n".join(bad)


def problems(page: Page, where: str) -> list[str]:
    """Overflowing or clipped text and emoji on the page, each named with ``where``."""
    found = [f"{where}: {x}" for x in page.evaluate(OVERFLOW)]
    found += [f"{where}: needs an emoji font: {c!r}" for c in page.evaluate(EMOJI)]
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_panel_in_both_languages_without_overflow_or_errors(session: dict[str, Any], game: str) -> None:
    page: Page = session["page"]
    open_every_panel(page, game, ".ssl-app button:has-text('Bot move')")  # the explanation panel: the bot's reasons
    bad: list[str] = []
    try:
        for lang in ("en", "de"):
            set_lang(page, lang)
            bad += problems(page, f"{game}/{lang}/lab")
            show_tutorial(page, True)
            bad += problems(page, f"{game}/{lang}/tutorial")
            show_tutorial(page, False)
    finally:  # the lab in English for the next test
        show_tutorial(page, False)
        set_lang(page, "en")
    assert not bad, f"{len(bad)} texts do not fit:\n" + "\n".join(bad)


def test_the_page_logged_no_errors(session: dict[str, Any]) -> None:
    assert session["errors"] == []  # collected by the page's listeners over the whole module
