"""Binder as a class meets it: Jupyter Server started through ``binder/start`` (the shipped settings), every notebook
opened through the ``/voila/render/...`` route Binder's links use, and the kernels of closed pages shut down.

A page error or console error (but Voilà's offline CDN requests) in any notebook fails; so does a kernel that
outlives its page. The notebooks are served with the shipped settings as they are; the culling test shortens the
delays on the command line (the shipped 120 s would make it wait minutes), every other setting comes from
``binder/jupyter``, and the shipped values are checked on their own.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from traitlets.config.loader import PyFileConfigLoader

from tests.support.browser import BINDER, BOARD_READY, NOTEBOOK, VIEWPORT, binder_server, get_json, is_offline_noise

NOTEBOOKS = sorted(p.name for p in NOTEBOOK.parent.glob("*.ipynb"))
# Rendered: Voilà has run every cell (its spinner is gone), its page has turned every cell output it sent into an
# output area (none of its output scripts is left: the spinner goes before they are turned, and an empty page would
# pass "every area holds something"), and every output area holds what it shows.
RENDERED = """() => !document.querySelector('#loading') &&
  !document.querySelector('script[type="application/vnd.voila.cell-output+json"]') &&
  document.querySelectorAll('.jp-OutputArea-output').length > 0 &&
  [...document.querySelectorAll('.jp-OutputArea-output')].every(o => o.childElementCount > 0 || o.textContent.trim())"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with binder_server() as url:
        yield url


def test_the_shipped_settings_cull_idle_kernels_of_closed_pages() -> None:
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(BINDER / "jupyter")).load_config()
    kernels = config.MappingKernelManager
    assert kernels.cull_connected is False  # an open page keeps its kernel
    assert 30 <= kernels.cull_idle_timeout <= 600 and kernels.cull_interval <= kernels.cull_idle_timeout
    start = (BINDER / "start").read_text(encoding="utf-8")
    assert "JUPYTER_CONFIG_PATH" in start and os.access(BINDER / "start", os.X_OK)


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_notebook_renders_through_the_binder_route_without_a_page_error(server: str, browser: Any,
                                                                             notebook: str) -> None:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(f"{m.text} @ {m.location.get('url', '')}") if m.type == "error"
                and not is_offline_noise(m.text, m.location.get("url", "")) else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        page.goto(f"{server}/voila/render/notebooks/{notebook}", timeout=300_000)
        page.wait_for_function(RENDERED, timeout=300_000)
        if notebook == "app.ipynb":
            page.wait_for_selector(BOARD_READY, timeout=120_000)
        assert page.locator(".jp-OutputArea-output").count() > 0
        assert not errors, f"{notebook}: {errors}"
    finally:
        context.close()


@pytest.fixture()
def quick_culling() -> Iterator[str]:
    # 10 s, not less: the culler also cuts a kernel still starting, and on a loaded machine a kernel took over 2 s
    with binder_server("--MappingKernelManager.cull_idle_timeout=10", "--MappingKernelManager.cull_interval=1") as url:
        yield url


def test_the_kernels_of_closed_pages_are_shut_down(quick_culling: str, browser: Any) -> None:
    server = quick_culling
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{server}/voila/render/notebooks/app.ipynb", timeout=300_000)
    page.wait_for_selector(BOARD_READY, timeout=120_000)
    assert get_json(server + "/api/kernels"), "the open page has a kernel"
    context.close()
    deadline = time.monotonic() + 90  # culled 10 s after the page is gone, looked at every second
    while get_json(server + "/api/kernels"):
        assert time.monotonic() < deadline, "a closed page's kernel was not shut down"
        time.sleep(0.5)
