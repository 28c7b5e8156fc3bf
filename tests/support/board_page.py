"""A bare page drawing one board widget's assembled module from a model the test gives, without a kernel: what the
board JS draws and sends is checked in Chromium in a second (``window.SENT`` holds the messages it sent)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

ORIGIN = "http://board.test"
TIMEOUT = 30_000
# A stand-in of anywidget's model: get/on/off from the JSON the test gives, send() recorded in window.SENT.
PAGE = """<!doctype html><html><head><link rel="stylesheet" href="board.css"></head><body><div id="host"></div>
<script type="module">
import board from "./board.js";
const data = window.DATA;
window.SENT = [];
const model = { get: (k) => data[k], on: () => {}, off: () => {}, send: (m) => window.SENT.push(m) };
board.render({ model, el: document.getElementById("host") });
document.body.dataset.ready = "1";
</script></body></html>"""


def open_board_page(browser: Any, widget: Any, model: dict[str, Any], ready: str, lang_switch: bool = False,
                    viewport: dict[str, int] | None = None) -> Page:
    """A page drawing ``model`` with the module and stylesheet of the board class ``widget``, once ``ready`` (a CSS
    selector inside the drawn board) is there."""
    page = browser.new_page(**({"viewport": viewport} if viewport else {}))

    def serve(route: Any) -> None:
        name = route.request.url.removeprefix(ORIGIN + "/")
        if name == "index.html":
            route.fulfill(body=PAGE, content_type="text/html")
        else:
            # the widget's own assembled module and stylesheet, as anywidget hands them to the page
            body = {"board.js": widget._esm, "board.css": widget._css}[name]
            route.fulfill(body=body, content_type="text/javascript" if name.endswith(".js") else "text/css")

    page.route(f"{ORIGIN}/**", serve)
    data = {"model": model, "highlight": {}, "error": "", "lang_switch": lang_switch}
    page.add_init_script(f"window.DATA = {json.dumps(data)};")
    page.goto(f"{ORIGIN}/index.html")
    page.wait_for_selector(f"body[data-ready='1'] {ready}", timeout=TIMEOUT)
    return page
