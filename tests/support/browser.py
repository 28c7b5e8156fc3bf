"""Shared by the browser tests and the benchmarks: a Voilà server, or Jupyter Server started as Binder starts it, on a
free port, and Debian's Chromium.

Never ``playwright install``: the browser is ``/usr/bin/chromium`` (``make chromium`` installs it).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]  # the repository (this file: tests/support/browser.py)
NOTEBOOK = REPO / "notebooks" / "app.ipynb"
BINDER = REPO / "binder"
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
BOARD_READY = ".ssl-board .ssl-top"
# Voilà's page template asks a CDN for Font Awesome (and MathJax); offline those requests fail. Exactly those
# failures are ignored, nothing else.
OFFLINE_NOISE = "Failed to load resource"


def chromium_path() -> str:
    """Debian's Chromium; a missing browser is an error (the browser tests must not skip)."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        raise RuntimeError("Chromium not found at /usr/bin/chromium: run `make chromium` "
                           "(apt-get install chromium); never `playwright install`")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def voila_command(port: int, notebook: Path = NOTEBOOK) -> list[str]:
    voila = Path(sys.executable).parent / "voila"
    return [str(voila), str(notebook), f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1"]


@contextlib.contextmanager
def voila_server(notebook: Path = NOTEBOOK, timeout: float = 60.0, shipped_settings: bool = False) -> Iterator[str]:
    """Start Voilà on ``notebook`` at a free localhost port, yield its URL once it answers, stop it after.

    Its log goes to ``.pytest_cache/voila-PORT.log`` when that folder exists. ``shipped_settings``: with the settings
    ``make app`` serves (``binder/jupyter`` on ``JUPYTER_CONFIG_PATH``).
    """
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(BINDER / "jupyter")} if shipped_settings else None
    port = free_port()
    with contextlib.ExitStack() as stack:
        cache = REPO / ".pytest_cache"
        log: Any = stack.enter_context(open(cache / f"voila-{port}.log", "wb")) if cache.is_dir() \
            else subprocess.DEVNULL
        proc = subprocess.Popen(voila_command(port, notebook), cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        url = f"http://127.0.0.1:{port}/"
        try:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"voila exited with code {proc.returncode}")
                try:  # any HTTP answer will do (this path is refused with 403: the server is up)
                    with urllib.request.urlopen(url + "voila/static/", timeout=2):
                        break
                except urllib.error.HTTPError:
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"voila did not answer on {url} within {timeout} s") from None
                    time.sleep(0.3)
            yield url
        finally:
            stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End a server this module started: terminate, and kill it if it does not stop within 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


_PINGS = itertools.count(1)


def settle(page: Any, timeout: float = 30_000, idle_timeout: float = 120_000) -> None:
    """Until the kernel has handled every message the page sent so far (the probe answers a fresh ping within
    ``timeout`` ms) and no background job runs (the app's ``ssl-idle``, within ``idle_timeout`` ms)."""
    n = next(_PINGS)
    page.evaluate("n => window.sslPing(n)", n)
    page.wait_for_selector(f'.ssl-probe[data-pong="{n}"]', state="attached", timeout=timeout)
    page.wait_for_selector(".ssl-app.ssl-idle", state="attached", timeout=idle_timeout)


def wait_text(page: Any, selector: str, part: str, timeout: float = 30_000) -> None:
    """Until the first element ``selector`` finds holds ``part`` in its text (the kernel's answer drawn)."""
    page.wait_for_function("([s, t]) => (document.querySelector(s)?.innerText || '').includes(t)", arg=[selector, part],
                           timeout=timeout)


def launch(playwright: Any) -> Any:
    """Chromium through Playwright with the project's launch arguments."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS, headless=True)


def is_offline_noise(text: str, url: str = "") -> bool:
    """Voilà's template failing to fetch Font Awesome or MathJax from its CDN (no network here), nothing else."""
    return text.startswith(OFFLINE_NOISE) and any(k in url.lower() for k in ("fontawesome", "mathjax")) \
        and not url.startswith(("http://127.0.0.1", "http://localhost"))


@contextlib.contextmanager
def app_session(url: str, playwright: Any) -> Iterator[dict[str, Any]]:
    """Chromium on the app at ``url``, once the board is drawn: ``{"page", "errors"}``, where ``errors``
    collects every console error (but the offline noise) and page error the page logs."""
    browser = launch(playwright)
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(f"{m.text} @ {m.location.get('url', '')}")
                if m.type == "error" and not is_offline_noise(m.text, m.location.get("url", "")) else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        page.goto(url, timeout=120_000)
        page.wait_for_selector(BOARD_READY, timeout=120_000)
        yield {"page": page, "errors": errors}
    finally:
        context.close()
        browser.close()


@contextlib.contextmanager
def tutorial_session(playwright: Any, timeout: float = 30_000) -> Iterator[dict[str, Any]]:
    """:func:`app_session` on a fresh Voilà server, switched to the Tutorial page once its lesson board is drawn."""
    with voila_server() as url, app_session(url, playwright) as s:
        s["page"].click(".ssl-topbar .ssl-tutorial-btn")
        s["page"].wait_for_selector(".ssl-lessons .ssl-board .ssl-top", state="visible", timeout=timeout)
        settle(s["page"])
        yield s


#: the process id of each running :func:`binder_server`, by its URL (the memory benchmark sums its kernels)
SERVER_PIDS: dict[str, int] = {}


def get_json(url: str) -> Any:
    """The JSON a local server answers at ``url``."""
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)


@contextlib.contextmanager
def binder_server(*options: str) -> Iterator[str]:
    """``binder/start jupyter server`` on a free port (no token: loopback only) with ``options``, yielding its URL."""
    port = free_port()
    venv_bin = str(Path(sys.executable).parent)
    cmd = [str(BINDER / "start"), f"{venv_bin}/jupyter", "server", f"--port={port}", "--no-browser",
           "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
           f"--ServerApp.root_dir={REPO}", *options]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    env = {**os.environ, "PATH": f"{venv_bin}:{os.environ.get('PATH', '')}"}
    cache = REPO / ".pytest_cache"
    cache.mkdir(exist_ok=True)
    with open(cache / f"jupyter-server-{port}.log", "wb") as log:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        SERVER_PIDS[url] = proc.pid
        try:
            deadline = time.monotonic() + 120
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"jupyter server exited with code {proc.returncode}")
                try:
                    get_json(url + "/api/status")
                    break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    if time.monotonic() > deadline:
                        raise RuntimeError("jupyter server did not answer within 120 s") from None
                    time.sleep(0.3)
            yield url
        finally:
            SERVER_PIDS.pop(url, None)
            stop(proc)
