"""The app for a class, in a real browser (Voilà serving notebooks/app.ipynb, Debian's Chromium): links that open what
their query string names (and name a bad setting), the rules panel of the game on the board, the cards' rule texts on
hover, moves in words in German (move list, log, bot reasons; the notation on hover), the projector mode at 1280×800
and 1920×1080, and a link through Jupyter Server's ``/voila/render/...`` route, the one Binder uses.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.ui.app.texts import TEXTS
from tests.support.browser import BOARD_READY, NOTEBOOK, VIEWPORT, binder_server, is_offline_noise, settle, voila_server

TIMEOUT = 60_000
ANY_BOARD = f"{BOARD_READY}, .prb-board .prb-top"
# The notation's verbs: a move shown in words starts with none of them.
VERBS = re.compile(r"^(place|reserve|break|stop|spy|buy|pass|double|insure|contract|sell|store|keep|take|convert|"
                   r"hallsell|done|deliver|auction|smuggle|truck|choose|decline|cash|fulfil)\b")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with voila_server() as url:
        yield url


class Opened:
    """A page of the app opened at a link, with the errors it logs."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int] | None = None) -> None:
        self.context = browser.new_context(viewport=viewport or VIEWPORT)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     and not is_offline_noise(m.text, m.location.get("url", "")) else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.goto(url, timeout=120_000)
        self.page.wait_for_selector(ANY_BOARD, timeout=120_000)
        settle(self.page)

    def close(self) -> None:
        self.context.close()


@pytest.fixture()
def opened(browser: Any) -> Iterator[list[Opened]]:
    pages: list[Opened] = []
    yield pages
    for p in pages:
        p.close()


def open_at(browser: Any, opened: list[Opened], url: str, viewport: dict[str, int] | None = None) -> Page:
    got = Opened(browser, url, viewport)
    opened.append(got)
    return got.page


def test_a_link_opens_the_game_players_seed_and_language_it_names(server: str, browser: Any,
                                                                  opened: list[Opened]) -> None:
    page = open_at(browser, opened, server + "?game=packet_row&players=4&seed=5&lang=de")
    page.wait_for_selector(".prb-board", timeout=TIMEOUT)
    assert page.locator(".ssl-seats .ssl-seat-kind:visible").count() == 4
    assert page.inner_text(".ssl-position").startswith("Zug 0 von")
    assert page.locator(".ssl-link-problems").count() == 0
    page.click(".ssl-share-btn", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-share-query", timeout=TIMEOUT)
    query = page.inner_text(".ssl-share-query")
    assert query == "?lang=de&game=packet_row&players=4&seed=5", query
    link = page.get_attribute(".ssl-share-link", "href") or ""
    assert link.startswith(server) and link.endswith(query), link
    assert not opened[-1].errors


def test_a_bad_setting_is_named_and_a_normal_game_opens(server: str, browser: Any, opened: list[Opened]) -> None:
    page = open_at(browser, opened, server + "?game=chess&players=3&seed=2")
    page.wait_for_selector(".ssl-link-problems", state="visible", timeout=TIMEOUT)
    said = page.inner_text(".ssl-link-problems")
    assert "game: 'chess' is not one of" in said and "speicherstadt" in said, said
    assert page.locator(BOARD_READY).count() == 1  # Die Speicherstadt, the normal game
    assert page.inner_text(".ssl-position").startswith("Ply 0 of")
    assert not opened[-1].errors


def test_a_shipped_scenario_opens_by_name_and_the_share_link_names_it(server: str, browser: Any,
                                                                      opened: list[Opened]) -> None:
    page = open_at(browser, opened, server + "?scenario=tutorial-3-fire")
    page.wait_for_selector(".ssl-scenario-note", state="visible", timeout=TIMEOUT)
    page.click(".ssl-share-btn", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-share-query", timeout=TIMEOUT)
    assert page.inner_text(".ssl-share-query") == "?lang=en&scenario=tutorial-3-fire"


def test_the_rules_panel_of_packet_row_is_packet_rows_with_the_phase_first(server: str, browser: Any,
                                                                          opened: list[Opened]) -> None:
    page = open_at(browser, opened, server + "?game=packet_row")
    assert page.locator(".ssl-rules-panel").is_hidden()
    page.click(".ssl-rules-btn", timeout=TIMEOUT)
    page.wait_for_selector('.ssl-rules[data-game="packet_row"]', state="visible", timeout=TIMEOUT)
    title = page.inner_text(".ssl-rules-panel .jupyter-widget-Collapse-header")
    assert "Packet Row" in title and "Speicherstadt" not in title
    first = page.locator(".ssl-rules .ssl-rule").first
    assert first.get_attribute("data-key") == "pr_choose" and "ssl-rule-now" in (first.get_attribute("class") or "")
    body = page.inner_text(".ssl-rules")
    assert "harbour master" in body and "metal coin" not in body and "Kaispeicher" not in body
    # it sits right under the top bar, in view without scrolling
    box = page.locator(".ssl-rules").bounding_box()
    assert box is not None and box["y"] < VIEWPORT["height"] / 2


def test_the_rules_of_the_base_game_leave_kaispeicher_out_and_the_expansion_adds_it(server: str, browser: Any,
                                                                                   opened: list[Opened]) -> None:
    page = open_at(browser, opened, server + "?game=speicherstadt&lang=de")
    page.click(".ssl-rules-btn", timeout=TIMEOUT)
    page.wait_for_selector('.ssl-rules[data-game="speicherstadt"]', state="visible", timeout=TIMEOUT)
    body = page.inner_text(".ssl-rules")
    assert body.splitlines()[0].startswith("Nachfrage.")  # round 1 starts with demand: its part first
    assert "Kaispeicher" not in body and "Spitzel" not in body and "Lagerarbeiter" not in body
    page.select_option(".ssl-topbar select", label="Die Speicherstadt + Kaispeicher")
    page.click(".ssl-topbar .jupyter-button.mod-warning", timeout=TIMEOUT)  # "new game"
    page.wait_for_function("() => (document.querySelector('.ssl-rules')?.innerText || '').includes('Kaispeicher')",
                           timeout=TIMEOUT)


@pytest.mark.parametrize(("query", "card", "rule"), [
    ("game=speicherstadt", ".ssl-board .ssl-card", "Rule – "),
    ("game=kaispeicher&lang=de", ".ssl-board .ssl-card", "Regel – "),
    ("game=packet_row", ".prb-board .prb-cur .prb-card", "Rule – "),
])
def test_every_card_on_the_board_shows_its_rule_text_on_hover(server: str, browser: Any, opened: list[Opened],
                                                              query: str, card: str, rule: str) -> None:
    page = open_at(browser, opened, f"{server}?{query}")
    cards = page.locator(card)
    assert cards.count() >= 3
    cards.first.hover(timeout=TIMEOUT)
    for k in range(cards.count()):
        title = cards.nth(k).get_attribute("title") or ""
        assert rule in title, (k, title)
    assert not opened[-1].errors


def _record_file(game: str) -> tuple[str, sl.GameRecord]:
    """A record of a few rounds of greedy play, as a file beside the notebook (the kernel's folder)."""
    players = 3
    state = sl.new_game(game, players=players, seed=4)
    record = sl.record_game(state, [make_bot("greedy", seed=s) for s in range(players)])
    name = f"ssl-test-classroom-{game}-{os.getpid()}.json"
    record.save(str(NOTEBOOK.parent / name))
    return name, record


@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_in_german_the_moves_are_words_with_card_and_price_and_the_notation_on_hover(
        server: str, browser: Any, opened: list[Opened], game: str) -> None:
    name, record = _record_file(game)
    try:
        line = record.mainline()
        ply = min(30, len(line) - 2)
        page = open_at(browser, opened, f"{server}?lang=de&record={name}&ply={ply}")
        page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '')"
                               ".startsWith(`Zug ${n} von`)", arg=ply, timeout=TIMEOUT)
    finally:
        (NOTEBOOK.parent / name).unlink()
    moves = ".ssl-tree .ssl-t-move:not(.ssl-chance):not(.ssl-t-start)"
    chips = page.eval_on_selector_all(moves, """bs => bs.map(b => ({
        ply: +b.dataset.ply, shown: b.querySelector('.ssl-t-act').textContent,
        notation: b.dataset.notation,
        title: b.title}))""")
    assert len(chips) == len(line) - 1
    by_ply = {n.ply: n for n in line}
    for chip in chips:
        node = by_ply[chip["ply"]]
        assert chip["notation"] == node.action and f"[{node.action}]" in chip["title"]
        assert chip["shown"] == node.parent.state.phrase_action(node.action, "de"), chip
        assert not VERBS.match(chip["shown"]), chip
    log = page.eval_on_selector_all(".ssl-log-action, .prb-log-action", "cs => cs.map(c => [c.textContent, c.title])")
    assert log and [x for x in log if x[1] and (x[0] == x[1] or VERBS.match(x[0]))] == [], log
    # a bot's reasons, in German: the move it chose and its candidates as words, the notation on hover
    page.click(f".ssl-app button:has-text('{TEXTS['de']['bot']}')", timeout=TIMEOUT)
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Zug ${n} `)",
                           arg=ply + 1, timeout=TIMEOUT)
    settle(page)
    why = page.inner_text(".ssl-why")
    assert why.startswith("Warum ") and "diesen Zug wählte: " in why
    assert not VERBS.match(why.split("wählte: ", 1)[1]), why
    cells = page.eval_on_selector_all(".ssl-explain table tr td:first-child",
                                      "ts => ts.map(t => [t.textContent, t.title])")
    assert cells and [c for c in cells if not c[1] or VERBS.match(c[0])] == [], cells


@pytest.mark.parametrize("viewport", [{"width": 1920, "height": 1080}, {"width": 1280, "height": 800}])
def test_the_projector_mode_enlarges_the_app_and_fits_without_scrolling_sideways(
        server: str, browser: Any, opened: list[Opened], viewport: dict[str, int]) -> None:
    page = open_at(browser, opened, server + "?projector=0", viewport)
    measure = """() => { const b = document.querySelector('.ssl-board .ssl-top').getBoundingClientRect();
        const t = document.querySelector('.ssl-t-move, .ssl-position').getBoundingClientRect();
        return {board: b.height, text: t.height, scroll: document.documentElement.scrollWidth,
                width: document.documentElement.clientWidth,
                right: Math.max(...[...document.querySelectorAll('.ssl-board, .ssl-sidebar, .ssl-topbar')]
                  .map(e => e.getBoundingClientRect().right))}; }"""
    before = page.evaluate(measure)
    page.click(".ssl-projector-btn", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-app.ssl-projector", timeout=TIMEOUT)
    settle(page)
    after = page.evaluate(measure)
    assert after["board"] > before["board"] * 1.1 and after["text"] > before["text"] * 1.1, (before, after)
    assert after["scroll"] <= after["width"] and after["right"] <= after["width"] + 1, after
    page.click(".ssl-share-btn", timeout=TIMEOUT)
    page.wait_for_selector(".ssl-share-query", timeout=TIMEOUT)
    assert page.inner_text(".ssl-share-query").endswith("&projector=1")
    assert not opened[-1].errors


def test_a_link_through_the_binder_route_opens_what_it_names(browser: Any, opened: list[Opened]) -> None:
    with binder_server() as url:
        page = open_at(browser, opened, f"{url}/voila/render/notebooks/app.ipynb?game=packet_row&lang=de&players=2")
        page.wait_for_selector(".prb-board", timeout=TIMEOUT)
        assert page.inner_text(".ssl-position").startswith("Zug 0 von")
        page.click(".ssl-share-btn", timeout=TIMEOUT)
        page.wait_for_selector(".ssl-share-link", timeout=TIMEOUT)
        link = page.get_attribute(".ssl-share-link", "href") or ""
        assert link.startswith(f"{url}/voila/render/notebooks/app.ipynb?lang=de&game=packet_row&players=2"), link
        assert not opened[-1].errors
        opened.pop().close()  # before the server stops
