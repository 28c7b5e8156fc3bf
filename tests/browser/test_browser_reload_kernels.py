"""A reload leaves no kernel behind: the page that is left shuts its kernel down at once, under plain Voilà with the
settings ``make app`` serves and through Jupyter Server's ``/voila/render/...`` route (Binder's).

Voilà's page posts ``/voila/api/shutdown/KERNEL`` when it is left, with the ``_xsrf`` cookie's value as its token;
without the shipped settings' hook (``binder/jupyter``) no such cookie was ever issued, the post was refused with a 403
and the old kernel lived on until the cull, two minutes later. Each test polls the server's kernels API with a
deadline.
"""

from __future__ import annotations

import time
import urllib.error
from collections.abc import Callable
from typing import Any

from tests.support.browser import BOARD_READY, VIEWPORT, binder_server, get_json, voila_server

KERNEL_ID = "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
GONE_WITHIN = 30.0  # seconds: the post is sent as the page unloads; the cull (120 s) would be far later


def kernel_exists(server: str, kernel: str) -> bool:
    """Whether the server still runs ``kernel`` (``GET /api/kernels/ID``: 404 once it is shut down)."""
    try:
        get_json(f"{server}/api/kernels/{kernel}")
    except urllib.error.HTTPError as err:
        if err.code == 404:
            return False
        raise
    return True


def wait_until(done: Callable[[], bool], what: str, timeout: float = GONE_WITHIN) -> None:
    """Poll ``done`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def reload_and_check(browser: Any, server: str, page_url: str) -> tuple[str, str]:
    """Open the app at ``page_url``, reload it, and wait until the first kernel is gone: (first, second) kernel ids.
    The shutdown post must not be refused."""
    context = browser.new_context(viewport=VIEWPORT)
    refused: list[str] = []
    try:
        page = context.new_page()
        page.on("response", lambda r: refused.append(f"{r.status} {r.url}")
                if "/voila/api/shutdown/" in r.url and r.status >= 400 else None)
        page.goto(page_url, timeout=300_000)
        page.wait_for_selector(BOARD_READY, timeout=120_000)
        first = page.evaluate(KERNEL_ID)
        assert kernel_exists(server, first)
        page.reload(timeout=300_000)
        page.wait_for_selector(BOARD_READY, timeout=120_000)
        second = page.evaluate(KERNEL_ID)
        assert second != first, "the reload was served the old kernel"
        wait_until(lambda: not kernel_exists(server, first), f"the first page's kernel {first} outlived the reload")
        assert kernel_exists(server, second), "the reloaded page lost its own kernel"
        assert not refused, f"the server refused the page's shutdown: {refused}"
        return first, second
    finally:
        context.close()


def test_a_reload_under_plain_voila_shuts_the_old_kernel_down(browser: Any) -> None:
    with voila_server(shipped_settings=True) as url:
        reload_and_check(browser, url.rstrip("/"), url)


def test_a_reload_through_the_binder_route_shuts_the_old_kernel_down(browser: Any) -> None:
    with binder_server() as server:
        _first, second = reload_and_check(browser, server, f"{server}/voila/render/notebooks/app.ipynb")
        assert [k["id"] for k in get_json(server + "/api/kernels")] == [second]  # nothing else left behind


def test_the_shipped_hook_asks_the_page_handler_for_its_xsrf_token() -> None:
    """The setting itself, without a server: Voilà's prelaunch hook reads the handler's token (which sets the cookie)
    and leaves the notebook as it is."""
    from traitlets.config.loader import PyFileConfigLoader

    from tests.support.browser import BINDER

    config = PyFileConfigLoader("jupyter_server_config.py", path=str(BINDER / "jupyter")).load_config()
    hook = config.VoilaConfiguration.prelaunch_hook
    asked: list[str] = []

    class Handler:
        @property
        def xsrf_token(self) -> bytes:
            asked.append("xsrf_token")
            return b"2|token"

    assert hook(Handler(), notebook={"cells": []}, cwd="notebooks") is None
    assert asked == ["xsrf_token"]
