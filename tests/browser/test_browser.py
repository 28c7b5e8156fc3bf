"""The app in a real browser: Voilà serves notebooks/app.ipynb, Debian's Chromium clicks through a round.

The scenario starts a 3-player game with every seat human, lets the bots play the rounds without ships
("To end of round"), then plays a whole round with ships by clicking on the board: 9 workers, buy or pass
on each card, one cube per loading seat (cube, then destination), Done. It steps back, branches, and
checks that the board, the tree and the charts follow, that a record downloads and a malformed upload is
refused, and that the page logged no error from our code. A Python twin of the app, driven the same way,
says what the board must show after every click.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.errors import RecordError
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.model import board_model
from tests.support.browser import app_session, voila_server

SEED = 1
TIMEOUT = 30_000  # ms for one step; the whole file stays well under two minutes
CUBE_MOVES = ("contract", "sell", "store", "keep")
COURSE = ("projected", "coins")  # the chart's series of the game's course (the others: win chances)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    with voila_server() as url:
        yield url


@pytest.fixture(scope="module")
def session(server: str) -> Iterator[dict[str, Any]]:
    """One page for the module, with every console error and page error it logs."""
    with sync_playwright() as p, app_session(server, p) as s:
        yield s


# ---- helpers ------------------------------------------------------------------------------------------


def wait_ply(page: Page, ply: int) -> None:
    """Until the app says the board shows ply ``ply`` (the board message comes before this text)."""
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Ply ${n} of`)",
                           arg=ply, timeout=TIMEOUT)


def shown(page: Page) -> dict[str, Any]:
    """What the board in the page shows: round, phase, prompt, workers on the building spaces."""
    return page.evaluate("""() => ({
        round: document.querySelector('.ssl-board .ssl-round')?.textContent,
        phase: document.querySelector('.ssl-board .ssl-phase.ssl-current')?.textContent,
        prompt: document.querySelector('.ssl-board .ssl-prompt')?.lastElementChild?.textContent,
        workers: document.querySelectorAll('.ssl-board .ssl-building .ssl-worker').length,
        coins: [...document.querySelectorAll('.ssl-board .ssl-seat .ssl-stat-value')]
                 .filter((_, i) => i % 4 === 0).map(e => e.textContent),
    })""")


def expected(state: Any) -> dict[str, Any]:
    m = board_model(state, "en")
    return {
        "round": m["round_label"],
        "phase": next(p["name"] for p in m["phases"] if p["current"]),
        "prompt": m["prompt"],
        "workers": sum(len(s["workers"]) for s in m["spaces"]),
        "coins": [str(s["coins"]) for s in m["seats"]],
    }


def check_board(page: Page, state: Any) -> None:
    want = expected(state)
    page.wait_for_function("p => document.querySelector('.ssl-board .ssl-prompt')?.lastElementChild?.textContent === p",
                           arg=want["prompt"], timeout=TIMEOUT)
    assert shown(page) == want


def click_action(page: Page, state: Any, action: str) -> None:
    """Carry out ``action`` with the clicks a player would make on the board."""
    verb, *args = action.split()
    if verb == "place":
        page.click(f'.ssl-board .ssl-col[data-space="{args[0]}"]')
    elif verb in ("buy", "pass", "done"):
        page.click(f".ssl-board .ssl-btn-{verb}")
    elif verb == "reserve":  # Kaispeicher: the top row's card N
        page.click(f".ssl-board .ssl-top-card >> nth={args[0]}")
    elif verb in CUBE_MOVES:
        page.click(f'.ssl-board .ssl-dock-cubes button[aria-label="{state.good_name(args[0], "en")}"] >> nth=0')
        page.click(f'.ssl-board button.ssl-target[aria-label="{action}"]')
    else:
        raise AssertionError(f"the scenario has no clicks for {action!r}")


def round_plan(state: Any) -> list[str]:
    """The decisions of one round: the greedy bot's, except that ships are bought when possible and each
    loading seat moves one cube (the first it may) before Done."""
    greedy = make_bot("greedy", seed=5)
    plan: list[str] = []
    moved: set[int] = set()
    start = state.round
    while state.round == start and not state.is_over:
        legal = [str(a) for a in state.legal_actions()]
        seat = state.to_move
        if state.phase == "loading":
            cubes = [a for a in legal if a.split()[0] in CUBE_MOVES]
            action = cubes[0] if cubes and seat not in moved else "done"
            moved.add(seat)
        elif state.phase == "purchase" and "buy" in legal and state.cat.card(state.offer[state.space]).kind == "ship":
            action = "buy"
        else:
            action = str(greedy.choose(state.observe(seat)))
        plan.append(action)
        state = state.apply(action)
    return plan


def chart_traces(page: Page) -> list[dict[str, Any]]:
    """The traces plotly.js draws (one figure: the course on the left, the win chances on the right)."""
    return page.evaluate("""() => document.querySelector('.js-plotly-plot').data.map(t => ({
        meta: t.meta || {}, x: Array.from(t.x || []), dash: (t.line || {}).dash || null}))""")


def marker(page: Page) -> float:
    """Where the chart marks the node on the board."""
    return page.evaluate("() => document.querySelector('.js-plotly-plot').layout.shapes[0].x0")


# ---- the scenario -------------------------------------------------------------------------------------------


def test_a_round_by_clicks_then_a_variation(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    twin = LabApp(players=3, seed=SEED, seats=["human"] * 3, threaded=False, chart_delay=0)

    # a new 3-player game, every seat human, a fixed seed
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Players') input", "3")
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Seed') input", str(SEED))
    page.keyboard.press("Tab")
    assert page.locator(".ssl-app select").nth(0).input_value() == "Die Speicherstadt"  # the game chooser
    assert page.locator(".ssl-seat-kind-0 select").input_value() == "Human"  # the first seat
    page.click("button:has-text('New game')")
    wait_ply(page, 0)
    check_board(page, twin.state)

    # the bots play the rounds before the first ship comes up
    while not any(twin.state.cat.card(c).kind == "ship" for c in twin.state.offer if c):
        page.click("button:has-text('To end of round')")
        twin.play_to_round_end()
        wait_ply(page, twin.node.ply)
        check_board(page, twin.state)
    start_ply = twin.node.ply
    state = twin.state

    # one whole round by clicks
    plan = round_plan(state)
    assert sum(len(state.offer) for _ in [0]) and plan.count("done") >= 1
    assert any(a.split()[0] in CUBE_MOVES for a in plan), "the round must load a cube"
    assert sum(a.startswith("place ") for a in plan) == 9
    for k, action in enumerate(plan, start=1):
        click_action(page, state, action)
        state = state.apply(action)
        wait_ply(page, start_ply + k)
        check_board(page, state)
    end_ply = start_ply + len(plan)
    assert shown(page)["round"] == f"Round {state.round}" and state.round == twin.state.round + 1

    # the charts follow the main line
    page.wait_for_function("n => document.querySelector('.js-plotly-plot').layout.shapes[0].x0 === n",
                           arg=end_ply, timeout=TIMEOUT)
    main = [t for t in chart_traces(page) if t["meta"].get("line") == "main" and t["meta"].get("series") in COURSE]
    assert len(main) == 6 and all(max(t["x"]) == end_ply for t in main)

    # back into the round (the tree, then the back button) and branch with another placement
    page.click(f'.ssl-tree .ssl-t-move[title^="{start_ply + 2}. "]')
    wait_ply(page, start_ply + 2)
    page.click("button.ssl-navbtn >> text=‹")
    wait_ply(page, start_ply + 1)
    at = twin.record.mainline()[start_ply]
    line = [at.state]
    for action in plan[:1]:
        line.append(line[-1].apply(action))
    check_board(page, line[1])
    other = next(str(a) for a in line[1].legal_actions() if str(a) != plan[1])
    click_action(page, line[1], other)
    branch = line[1].apply(other)
    wait_ply(page, start_ply + 2)
    check_board(page, branch)
    assert page.locator(".ssl-position .ssl-variation").count() == 1
    title = page.locator(".ssl-tree .ssl-t-var .ssl-t-move").first.get_attribute("title")
    assert f"[{other}]" in title or title.endswith(f": {other}")  # the move in words, its notation in brackets
    assert page.locator(".ssl-tree .ssl-t-fork").count() == 1

    # the chart overlays the variation, dashed, and marks the node on the board
    page.wait_for_function("""() => document.querySelector('.js-plotly-plot').data
        .filter(t => (t.meta || {}).line === 'branch' && (t.meta || {}).series === 'coins').length === 3""",
                           timeout=TIMEOUT)
    dashed = [t for t in chart_traces(page) if t["meta"].get("line") == "branch" and t["meta"].get("series") in COURSE]
    assert len(dashed) == 6
    assert all(t["dash"] == "dash" and min(t["x"]) == start_ply + 1 and max(t["x"]) == start_ply + 2
               for t in dashed)
    assert marker(page) == start_ply + 2

    # and the board follows navigation back onto the main line
    page.click(f'.ssl-tree .ssl-t-move[title^="{end_ply}. "]')
    wait_ply(page, end_ply)
    check_board(page, state)


def test_save_downloads_the_record_and_a_bad_upload_is_refused(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    before = page.locator(".ssl-position").inner_text()
    with page.expect_download(timeout=TIMEOUT) as info:
        page.click("button.ssl-save")
    record = GameRecord.from_json(Path(info.value.path()).read_text(encoding="utf-8"))
    assert len(record.branch_points()) == 1 and record.initial.n_players == 3 and record.seed == SEED

    bad = b'{"format": "speicherstadt-lab/1", "game": "speicherstadt"}'
    with pytest.raises(RecordError) as err:
        GameRecord.from_json(bad)
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "bad.json", "mimeType": "application/json", "buffer": bad}])
    page.wait_for_selector(".ssl-msg .ssl-err", timeout=TIMEOUT)
    message = page.locator(".ssl-msg .ssl-err").inner_text()
    assert str(err.value) in message and message.startswith("Could not load the file")
    assert page.locator(".ssl-position").inner_text() == before
    assert json.loads(json.dumps(record.to_dict()))["moves"]


def test_an_expansion_round_by_clicks(session: dict[str, Any]) -> None:
    """Kaispeicher: choose it at "new game", then a whole first round by clicks: placements, reservations of
    top-row cards, and the purchase of the water spaces and then of the reservation column."""
    page: Page = session["page"]
    twin = LabApp(players=3, seed=SEED, seats=["human"] * 3, threaded=False, chart_delay=0)
    twin.new_game(players=3, seed=SEED, game="kaispeicher", seats=["human"] * 3)
    page.select_option(".ssl-topbar select >> nth=0", label="Die Speicherstadt + Kaispeicher")
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Players') input", "3")
    page.fill(".ssl-topbar .widget-inline-hbox:has-text('Seed') input", str(SEED))
    page.keyboard.press("Tab")
    page.click("button:has-text('New game')")
    wait_ply(page, 0)
    page.wait_for_selector(".ssl-board .ssl-kai-top", timeout=TIMEOUT)
    state = twin.state
    check_board(page, state)

    greedy = make_bot("greedy", seed=5)
    plan: list[str] = []
    s = state
    while s.round == state.round and not s.is_over:
        legal = [str(a) for a in s.legal_actions()]
        reserves = [a for a in legal if a.startswith("reserve")]
        action = reserves[0] if s.phase == "demand" and len(plan) in (0, 4) and reserves else str(
            greedy.choose(s.observe(s.to_move)))
        plan.append(action)
        s = s.apply(action)
    assert sum(a.startswith("reserve") for a in plan) >= 2
    assert sum(a.startswith(("place", "reserve")) for a in plan) == 12
    for k, action in enumerate(plan, start=1):
        click_action(page, state, action)
        state = state.apply(action)
        wait_ply(page, k)
        check_board(page, state)
    assert state.round == 2 and shown(page)["round"] == "Round 2"
    assert page.locator(".ssl-board .ssl-kai-top").count() == 1


def test_live_analysis_follows_the_board(session: dict[str, Any]) -> None:
    """The live panel shows the win chances and the best moves of the position on the board, by itself, and
    moves along when the board does (the app marks the ply it shows: data-ply)."""
    page: Page = session["page"]
    text = page.locator(".ssl-position").inner_text()
    ply = int(text.split()[1])
    page.wait_for_selector(f'.ssl-live[data-ply="{ply}"]', timeout=TIMEOUT)
    live = page.locator(".ssl-live").inner_text()
    assert "%" in live and "points" in live
    page.click("button.ssl-navbtn >> text=‹")
    wait_ply(page, ply - 1)
    page.wait_for_selector(f'.ssl-live[data-ply="{ply - 1}"]', timeout=TIMEOUT)
    assert 1 <= page.locator(".ssl-live-best li").count() <= 3  # the best three, or every move there is


def test_the_review_shows_each_seats_flags_and_luck(session: dict[str, Any]) -> None:
    """The review button reviews the main line in the background, then measures the luck of its supplies; the
    panel's per-seat summary marks that it holds the luck (data-luck="1") and has a row per seat."""
    page: Page = session["page"]
    page.fill(".ssl-review-rollouts input", "4")  # few rollouts: this checks the wiring, not the judgement
    page.press(".ssl-review-rollouts input", "Enter")
    page.click(".ssl-review-btn")
    page.wait_for_selector('.ssl-review-summary[data-luck="1"]', timeout=8 * TIMEOUT)
    assert page.locator(".ssl-review-summary tr").count() == 1 + 3  # the header and the three seats
    summary = page.locator(".ssl-review-summary").inner_text()
    assert "luck" in summary and "best moves" in summary and "%" in summary


def test_the_page_logged_no_errors_from_our_code(session: dict[str, Any]) -> None:
    assert session["errors"] == []  # collected by the page's listeners over the whole module
