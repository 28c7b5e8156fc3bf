"""App benchmark: the Voilà app in Debian's Chromium, driven by clicks on the board.

    .venv/bin/python benchmarks/app.py                 # 30 clicks at a human pace (0.5 s apart), then 30 back to back
    .venv/bin/python benchmarks/app.py --clicks 60 --pace 1.0

It reports:

* page load → board drawn: from ``page.goto`` to the first board with its water spaces in the DOM (Voilà
  starts a kernel, runs ``notebooks/app.ipynb`` and renders the widgets), and → charts drawn;
* click → updated board: measured inside the page, from the click event to the board's DOM being
  replaced by the new model (and to the next animation frame, i.e. painted); median and 95th percentile,
  once with clicks at a human pace (the charts catch up between clicks) and once back to back;
* bytes per step: websocket frames received per click (kernel → browser), split by the widget they
  update (board, charts, move tree, other controls), and sent (browser → kernel).

Target: click → updated board ≤ 150 ms median. The clicks are a new 3-player game with human seats
(seed 1) played by the Greedy bot's choices: placements and buy/pass decisions.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from browser_util import VIEWPORT, launch, voila_server  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.bots import make_bot  # noqa: E402

TARGET_MS = 150.0
SEED = 1

MEASURE_CLICK = """async ([selector, timeout]) => {
  const board = document.querySelector('.ssl-board');
  const target = document.querySelector(selector);
  if (!target) throw new Error('nothing to click at ' + selector);
  return await new Promise((resolve, reject) => {
    let t0 = 0;
    const obs = new MutationObserver(() => {
      const dom = performance.now() - t0;
      obs.disconnect();
      requestAnimationFrame(() => resolve([dom, performance.now() - t0]));
    });
    obs.observe(board, { childList: true });
    setTimeout(() => { obs.disconnect(); reject(new Error('no board update within ' + timeout + ' ms')); }, timeout);
    t0 = performance.now();
    target.click();
  });
}"""


def selector(action: str) -> str:
    verb, *args = action.split()
    if verb == "place":
        return f'.ssl-board .ssl-col[data-space="{args[0]}"]'
    return f".ssl-board .ssl-btn-{verb}"


def plan(n: int) -> list[str]:
    """``n`` one-click decisions from the start of the game (loading turns: Done)."""
    state = sl.new_game(players=3, seed=SEED)
    bot = make_bot("greedy", seed=SEED)
    out: list[str] = []
    while len(out) < n and not state.is_over:
        legal = [str(a) for a in state.legal_actions()]
        loading = state.phase == "loading" and "done" in legal
        action = "done" if loading else str(bot.choose(state.observe(state.to_move)))
        out.append(action)
        state = state.apply(action)
    return out


STATE_KEY = re.compile(rb'"state":\s*\{\s*"([^"]+)"')


def kind_of(payload: str | bytes) -> str:
    """Which widget a kernel → browser frame updates, from the first key of its state."""
    data = payload.encode() if isinstance(payload, str) else payload
    found = STATE_KEY.search(data)
    key = found.group(1).decode() if found else ""
    if key in ("model", "highlight", "error"):
        return "board"
    if key.startswith(("_py2js", "_js2py", "_last_")):
        return "charts"
    if key in ("tree", "current", "seats", "labels"):
        return "tree"
    return "other"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def run_clicks(page: Page, frames: list[tuple[str, str, int]], actions: list[str], pace: float) -> dict[str, Any]:
    dom, painted, received, sent, by_kind = [], [], [], [], {"board": [], "charts": [], "tree": [], "other": []}
    for action in actions:
        start = len(frames)
        d, p = page.evaluate(MEASURE_CLICK, [selector(action), 10_000])
        dom.append(d)
        painted.append(p)
        page.wait_for_timeout(pace * 1000 if pace else 60)
        step = frames[start:]
        received.append(sum(size for way, _, size in step if way == "in"))
        sent.append(sum(size for way, _, size in step if way == "out"))
        for kind in by_kind:
            by_kind[kind].append(sum(size for way, k, size in step if way == "in" and k == kind))
    return {"dom": dom, "painted": painted, "received": received, "sent": sent, "by_kind": by_kind}


def new_game(page: Page) -> None:
    page.click("button:has-text('New game')")
    page.wait_for_function("() => (document.querySelector('.ssl-position')?.innerText || '').startsWith('Ply 0 of')")
    page.wait_for_timeout(500)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="clicks per run (default 30)")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between clicks in the paced run")
    args = parser.parse_args(argv)
    actions = plan(args.clicks)
    with voila_server() as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=VIEWPORT)
        frames: list[tuple[str, str, int]] = []

        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: frames.append(("in", kind_of(payload), len(payload))))
            ws.on("framesent", lambda payload: frames.append(("out", "", len(payload))))

        page.on("websocket", on_socket)
        t0 = time.perf_counter()
        page.goto(url, timeout=180_000)
        page.wait_for_selector(".ssl-board .ssl-col", timeout=180_000)
        board_s = time.perf_counter() - t0
        page.wait_for_selector(".js-plotly-plot .scatterlayer .trace", state="attached", timeout=180_000)
        charts_s = time.perf_counter() - t0
        load_bytes = sum(size for way, _, size in frames if way == "in")
        page.wait_for_timeout(1000)

        runs = {}
        for name, pace in (("human pace", args.pace), ("back to back", 0.0)):
            new_game(page)
            runs[name] = run_clicks(page, frames, actions, pace)
        browser.close()

    print(f"Speicherstadt Lab app in Voilà + Chromium {VIEWPORT['width']}×{VIEWPORT['height']}, "
          f"{len(actions)} clicks per run (Python {sys.version.split()[0]})")
    print(f"  page load → board drawn       {board_s:8.2f} s")
    print(f"  page load → charts drawn      {charts_s:8.2f} s   ({load_bytes / 1e6:.1f} MB over the websocket)")
    print()
    print(f"  {'click → updated board':<28}{'median':>10}{'p95':>10}{'max':>10}")
    for name, r in runs.items():
        for label, key in (("DOM", "dom"), ("painted", "painted")):
            v = r[key]
            print(f"  {name + ', ' + label:<28}{statistics.median(v):8.1f}ms{percentile(v, 0.95):8.1f}ms"
                  f"{max(v):8.1f}ms")
    print()
    print(f"  {'bytes per step (median)':<28}{'received':>10}{'board':>10}{'charts':>10}{'tree':>10}{'other':>10}"
          f"{'sent':>10}")
    for name, r in runs.items():
        med = {k: statistics.median(v) for k, v in r["by_kind"].items()}
        print(f"  {name:<28}{statistics.median(r['received']):10.0f}{med['board']:10.0f}{med['charts']:10.0f}"
              f"{med['tree']:10.0f}{med['other']:10.0f}{statistics.median(r['sent']):10.0f}")
    paced = statistics.median(runs["human pace"]["dom"])
    verdict = "met" if paced <= TARGET_MS else "MISSED"
    print()
    print(f"target: click → updated board ≤ {TARGET_MS:.0f} ms median (human pace): {paced:.1f} ms, {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
