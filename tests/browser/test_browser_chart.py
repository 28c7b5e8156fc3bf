"""The chart widget in the browser (Voilà + Chromium): plotly.js comes as the static file the package installs, not
through the websocket; a page that cannot fetch it gets it from the kernel; a click on a point reaches Python as a
checked message; an update travels as a patch and the page draws it.

Every wait is on the page's own state (the plotted data, a widget's text), never on time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from speicherstadt_lab.ui.chart_widget import PLOTLY_PATH
from tests.support.browser import VIEWPORT, is_offline_noise, voila_server

TIMEOUT = 120_000
CELL = """
import ipywidgets as w
from speicherstadt_lab.ui.chart_widget import Chart

def spec(y):
    return {"data": [{"type": "scatter", "x": [0, 1, 2], "y": y, "mode": "markers", "marker": {"size": 24},
                      "customdata": [10, 11, 12]}],
            "layout": {"height": 300, "hovermode": "closest", "margin": {"l": 40, "r": 10, "t": 10, "b": 30},
                       "xaxis": {"range": [-1, 3]}, "yaxis": {"range": [0, 4]}}}

chart = Chart(spec([1, 3, 2]), plotly_path=PATH)
said = w.HTML("none")
said.add_class("ssl-said")

def clicked(trace, point):
    said.value = str(trace["customdata"][point])
    chart.update(spec([1, 3, 3.5]))  # the page redraws from a patch

chart.on_click(clicked)
w.VBox([chart, said])
"""


def notebook(folder: Path, plotly_path: str) -> Path:
    """A notebook showing one chart that reports clicks, its plotly.js looked for at ``plotly_path``."""
    source = f"PATH = {plotly_path!r}\n" + CELL
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [],
                     "source": source}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path = folder / "chart.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def open_chart(browser: Any, url: str) -> tuple[Page, dict[str, list[Any]]]:
    page = browser.new_page(viewport=VIEWPORT)
    seen: dict[str, list[Any]] = {"errors": [], "plotly": [], "received": []}
    page.on("console", lambda m: seen["errors"].append(f"{m.text} @ {m.location.get('url', '')}")
            if m.type == "error" and not is_offline_noise(m.text, m.location.get("url", "")) else None)
    page.on("pageerror", lambda e: seen["errors"].append(f"pageerror: {e}"))
    page.on("response", lambda r: seen["plotly"].append((r.url, r.status)) if r.url.endswith(".js")
            and "plotly" in r.url else None)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: seen["received"].append(len(payload))))
    page.goto(url, timeout=TIMEOUT)
    page.wait_for_selector(".ssl-chart.js-plotly-plot .scatterlayer .trace", state="attached", timeout=TIMEOUT)
    return page, seen


def click_point(page: Page, i: int) -> None:
    """A real mouse click on point ``i`` of the first trace, where plotly.js drew it."""
    x, y = page.evaluate("""i => {
        const gd = document.querySelector('.ssl-chart.js-plotly-plot');
        const {xaxis, yaxis} = gd._fullLayout, box = gd.getBoundingClientRect();
        return [box.left + xaxis._offset + xaxis.d2p(gd.data[0].x[i]),
                box.top + yaxis._offset + yaxis.d2p(gd.data[0].y[i])];
    }""", i)
    page.mouse.move(x - 5, y - 5)
    page.mouse.click(x, y)


def check_click_and_patch(page: Page) -> None:
    click_point(page, 2)
    page.wait_for_function("() => document.querySelector('.ssl-said')?.innerText.trim() === '12'", timeout=TIMEOUT)
    page.wait_for_function("() => document.querySelector('.ssl-chart.js-plotly-plot').data[0].y[2] === 3.5",
                           timeout=TIMEOUT)


def test_plotly_js_comes_as_a_static_file_and_clicks_reach_python(browser: Any, tmp_path: Path) -> None:
    with voila_server(notebook(tmp_path, PLOTLY_PATH)) as url:
        page, seen = open_chart(browser, url)
        assert [s for u, s in seen["plotly"] if u.endswith("/voila/labextensions/" + PLOTLY_PATH)] == [200]
        assert sum(seen["received"]) < 1_000_000, "plotly.js did not come through the websocket"
        check_click_and_patch(page)
        assert seen["errors"] == []
        page.close()


def test_a_page_that_cannot_fetch_plotly_js_gets_it_from_the_kernel(browser: Any, tmp_path: Path) -> None:
    with voila_server(notebook(tmp_path, "no-such-folder/plotly.min.js")) as url:
        page, seen = open_chart(browser, url)
        assert [s for u, s in seen["plotly"] if "no-such-folder" in u] == [404]
        assert sum(seen["received"]) > 4_000_000, "the kernel sent plotly.js"
        check_click_and_patch(page)
        assert [e for e in seen["errors"] if "no-such-folder" not in e and "404" not in e] == [], \
            "no error but the missing file's"
        page.close()
