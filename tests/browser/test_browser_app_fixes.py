"""What a user tripped over in the app (issue 23), in a real browser (Voilà, Debian's Chromium):

1. the charts keep following the game after a visit to the Tutorial page (and "New game" after it);
2. ← → Home End step through the record with the focus anywhere on the page (not in a text field), and every
   press counts, however fast: the move list is shown a second time below the app, and still one press is one step;
3. the charts' "now" label never sits on a chart title (nor on the legend), at the start or at the end;
4. the selected move of the move list is readable for every kind of move (main line, variation, chance).

Every wait is on the app's own state: the position line, the chart's marker, the probe's ping.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.charts import TEXTS as CHART_TEXTS
from tests.support.browser import NOTEBOOK, app_session, voila_server
from tests.support.browser import settle as wait_settled

SEED = 1
TIMEOUT = 30_000  # ms for one step
AA_CONTRAST = 4.5  # WCAG AA for normal text


@pytest.fixture(scope="module")
def notebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's notebook, then the move list a second time below it (a widget may be shown twice)."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cell = dict(nb["cells"][0], id="second-view", source=["app.tree  # the move list again\n"])
    nb["cells"].append(cell)
    path = tmp_path_factory.mktemp("nb") / "app_twice.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def session(notebook: Path) -> Iterator[dict[str, Any]]:
    """One page for the module, with every console error and page error it logs."""
    with voila_server(notebook) as url, sync_playwright() as p, app_session(url, p) as s:
        page: Page = s["page"]
        page.wait_for_selector(".ssl-tree >> nth=1", timeout=TIMEOUT)
        yield s


# ---- helpers ------------------------------------------------------------------------------------------

def settle(page: Page) -> None:
    """Until the kernel has caught up and no job runs (``tests.support.browser.settle``)."""
    wait_settled(page, TIMEOUT, TIMEOUT)


def ply_shown(page: Page) -> int:
    """The ply the position line names ("Ply N of M")."""
    text = page.locator(".ssl-position").inner_text()
    assert text.startswith("Ply "), text
    return int(text.split()[1])


def wait_ply(page: Page, ply: int) -> None:
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Ply ${n} of`)",
                           arg=ply, timeout=TIMEOUT)


def wait_chart_at(page: Page, ply: int) -> None:
    """Until the chart's marker stands at ``ply``."""
    page.wait_for_function("n => document.querySelector('.ssl-charts .js-plotly-plot')?.layout?.shapes?.[0]?.x0 === n",
                           arg=ply, timeout=TIMEOUT)


def course_ends(page: Page) -> list[float]:
    """The last x of every main-line course trace the chart draws (score and coins per seat)."""
    return page.evaluate("""() => document.querySelector('.ssl-charts .js-plotly-plot').data
        .filter(t => t.meta && t.meta.line === 'main' && ['projected', 'coins'].includes(t.meta.series))
        .map(t => Math.max(...t.x))""")


def new_game(page: Page) -> None:
    page.click(".ssl-topbar button:has-text('New game')")
    wait_ply(page, 0)
    settle(page)


def click_moves(page: Page, twin: LabApp, n: int) -> None:
    """``n`` moves by clicks on the board (each the first legal placement, purchase or pass), followed by the
    Python twin."""
    for _ in range(n):
        action = str(twin.state.legal_actions()[0])
        verb, *args = action.split()
        if verb == "place":
            page.click(f'.ssl-board .ssl-col[data-space="{args[0]}"]')
        else:
            assert verb in ("buy", "pass"), action
            page.click(f".ssl-board .ssl-btn-{verb}")
        twin.play(action)
        wait_ply(page, twin.node.ply)


def human_twin() -> LabApp:
    twin = LabApp(players=3, seed=SEED, seats=["human"] * 3, threaded=False, chart_delay=0)
    twin.live.value = False
    return twin


def boxes(page: Page) -> dict[str, list[dict[str, float]]]:
    """The chart's annotation texts and legend as boxes on the page, by text ("legend" for the legends)."""
    return page.evaluate("""() => {
        const out = {};
        const add = (key, el) => {
            const r = el.getBoundingClientRect();
            (out[key] = out[key] || []).push({l: r.left, r: r.right, t: r.top, b: r.bottom});
        };
        const plot = document.querySelector('.ssl-charts .js-plotly-plot');
        plot.querySelectorAll('.annotation').forEach(a => add(a.textContent.trim(), a));
        plot.querySelectorAll('.legend .bg').forEach(l => add('legend', l));
        plot.querySelectorAll('.draglayer .nsewdrag').forEach(l => add('plot', l));
        return out;
    }""")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"]


def luminance(css: str) -> float:
    """WCAG relative luminance of an ``rgb(...)``/``rgba(...)`` colour."""
    parts = [float(p) for p in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    lin = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg: str, bg: str) -> float:
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---- 1. the charts after the Tutorial ----------------------------------------------------------------------


def test_the_charts_follow_the_game_after_a_visit_to_the_tutorial(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    errors: list[str] = session["errors"]
    new_game(page)
    twin = human_twin()
    click_moves(page, twin, 3)
    wait_chart_at(page, 3)
    width = page.evaluate("() => document.querySelector('.ssl-charts .js-plotly-plot')._fullLayout.width")

    page.click("button.ssl-tutorial-btn")
    back = page.locator("button:has-text('← back to the lab')")
    back.wait_for(timeout=TIMEOUT)
    settle(page)
    back.click()
    page.wait_for_selector(".ssl-app .ssl-board .ssl-top", state="visible", timeout=TIMEOUT)
    settle(page)

    click_moves(page, twin, 1)  # one more move: the charts follow
    wait_chart_at(page, 4)
    settle(page)
    assert set(course_ends(page)) == {4.0}
    assert page.evaluate("() => document.querySelector('.ssl-charts .js-plotly-plot')._fullLayout.width") == width
    assert errors == []

    new_game(page)  # and "New game" after it
    wait_chart_at(page, 0)
    assert set(course_ends(page)) == {0.0}
    assert errors == []
    twin.close()


# ---- 2. the keys ------------------------------------------------------------------------------------------


def test_every_key_press_steps_with_the_focus_anywhere_on_the_page(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    new_game(page)
    twin = human_twin()
    click_moves(page, twin, 10)
    settle(page)
    page.evaluate("() => document.activeElement?.blur()")  # the focus on the page, not on the board or the tree
    assert page.evaluate("() => document.activeElement === document.body")

    for _ in range(8):  # fast: no wait between the presses
        page.keyboard.press("ArrowLeft")
    settle(page)
    assert ply_shown(page) == 2
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    settle(page)
    assert ply_shown(page) == 3
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert ply_shown(page) == 9

    # a click on a move of the move list's second view, then keys: still one step per press
    page.click('.ssl-tree >> nth=1 >> button.ssl-t-move[data-ply="6"]')
    settle(page)
    assert ply_shown(page) == 6
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    settle(page)
    assert ply_shown(page) == 2

    # text fields keep their keys
    for field in (".ssl-comment textarea", ".ssl-topbar input[type=number] >> nth=1"):
        page.focus(field)
        for key in ("ArrowLeft", "ArrowRight", "Home", "End", "ArrowRight"):
            page.keyboard.press(key)
        settle(page)
        assert ply_shown(page) == 2, field
    page.evaluate("() => document.activeElement?.blur()")
    settle(page)
    assert page.locator(".ssl-app .ssl-msg .ssl-err").count() == 0
    twin.close()


# ---- 3. the "now" label -----------------------------------------------------------------------------------


def test_the_now_label_never_sits_on_a_title(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    now_text = CHART_TEXTS["en"]["now"]
    new_game(page)
    twin = human_twin()
    for ply in (0, 1, 2, 5):
        click_moves(page, twin, ply - twin.node.ply)
        wait_chart_at(page, ply)
        settle(page)
        if ply:  # the line goes on to `ply`: the label at its start, then back at its end
            page.click("button.ssl-navbtn:has-text('«')")
            wait_chart_at(page, 0)
            check_now_label(page, now_text, 0)
            page.click("button.ssl-navbtn:has-text('»')")
            wait_chart_at(page, ply)
        check_now_label(page, now_text, ply)
    twin.close()


def check_now_label(page: Page, now_text: str, ply: int) -> None:
    """The "now" labels (one per chart) overlap no other text of the chart (its titles, the note) nor the
    legend, and lie inside a plot area (not cut off at its edge)."""
    settle(page)
    got = boxes(page)
    nows = got.pop(now_text, [])
    plots = got.pop("plot")
    assert len(nows) == 2, (ply, list(got))
    for now in nows:
        for key, others in got.items():
            for other in others:
                assert not overlap(now, other), (ply, key, now, other)
        assert any(p["l"] <= now["l"] and now["r"] <= p["r"] and p["t"] <= now["t"] and now["b"] <= p["b"]
                   for p in plots), (ply, now, plots)


# ---- 4. the selected move in the move list ------------------------------------------------------------------


def variations_record() -> tuple[GameRecord, dict[str, int]]:
    """Five plies of main line, a variation at ply 3 and a chance variation at ply 4; the plies to click."""
    record = GameRecord.new(players=3, seed=SEED)
    node = record.root
    for _ in range(5):
        node = node.play(str(node.state.legal_actions()[0]))
    third = record.mainline()[3]
    alt = third.parent.play(str(third.parent.state.legal_actions()[1]))  # a variation
    bag = third.state.hidden_parts()["bag"]
    chance = third.rearrange(bag=[next(g for g in bag if g != bag[0])])  # a chance variation
    assert alt.ply == 3 and chance.ply == 4 and chance.chance is not None
    return record, {"main": 2, "variation": alt.ply, "chance": chance.ply}


def test_the_selected_move_is_readable_for_every_kind(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    record, plies = variations_record()
    with page.expect_file_chooser(timeout=TIMEOUT) as chooser:
        page.click(".ssl-topbar button.ssl-load")
    chooser.value.set_files(files=[{"name": "vars.json", "mimeType": "application/json",
                                    "buffer": record.to_json().encode("utf-8")}])
    wait_ply(page, 5)
    settle(page)
    tree = ".ssl-app .ssl-tree"
    choose = {"main": f'{tree} .ssl-t-line:not(.ssl-t-var) > .ssl-t-rnd > button.ssl-t-move[data-ply="2"]',
              "variation": f'{tree} .ssl-t-var:not(.ssl-t-chancevar) button.ssl-t-move[data-ply="3"]',
              "chance": f'{tree} .ssl-t-chancevar button.ssl-chance[data-ply="4"]'}
    for kind, selector in choose.items():
        page.click(selector)
        wait_ply(page, plies[kind])
        page.wait_for_selector(f"{selector}.ssl-t-cur", timeout=TIMEOUT)
        page.mouse.move(0, 0)  # no hover on the move
        colours = page.evaluate("""s => [s, s + ' .ssl-t-act'].map(q => {
            const e = document.querySelector(q);
            return [getComputedStyle(e).color, getComputedStyle(document.querySelector(s)).backgroundColor];
        })""", selector)
        for fg, bg in colours:
            assert contrast(fg, bg) >= AA_CONTRAST, (kind, fg, bg)


def test_the_page_logged_no_errors_from_our_code(session: dict[str, Any]) -> None:
    assert session["errors"] == []
