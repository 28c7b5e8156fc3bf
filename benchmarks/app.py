"""App benchmark: the Voilà app in Debian's Chromium against a bare page served the same way, then driven by clicks.

    .venv/bin/python benchmarks/app.py                 # 3 loads of each page, 30 clicks at a human pace (0.5 s
                                                       # apart), 30 back to back, 8 steps for the live analysis
    .venv/bin/python benchmarks/app.py --loads 5 --clicks 60 --pace 1.0 --live 12
    .venv/bin/python benchmarks/app.py --only-live --live 12   # the live analysis after a step only, both games

Both pages are served as ``make app`` serves the app (Voilà with the settings in ``binder/jupyter``), the lab's
modules with their bytecode as an installed package has them (``--no-bytecode``: as a shell with
``PYTHONDONTWRITEBYTECODE`` would leave them, each kernel compiling the lab afresh). It reports:

* opening the page, against a reference measured in the same run: ``benchmarks/bare_page.ipynb``, a notebook
  holding one ipywidgets button. Each load is a fresh browser context (nothing cached: a first visit), the pages
  alternate, and the table gives medians: page load → first widget drawn (the app's board with its water spaces,
  the bare page's button) and its ratio to the bare page's, → charts drawn, the bytes received over the websocket
  before each, and the bytes fetched over HTTP (plotly.js among them: a static file the browser caches);
* the kernel's share of it: importing the app and running the notebook's first cell (``LabApp(...)`` and its widget)
  in a fresh Python process, against importing ipywidgets and making a button;
* click → updated board: measured inside the page, from the click event to the board's DOM being
  replaced by the new model (and to the next animation frame, i.e. painted); median and 95th percentile,
  once with clicks at a human pace (the charts catch up between clicks) and once back to back;
* bytes per step: websocket frames received per click (kernel → browser), split by the widget they
  update (board, charts, move tree, other controls), and sent (browser → kernel);
* live analysis after a step: from the click to the live panel showing the win chances and the top three moves
  of the new position (its ``.ssl-live`` element with the ply's ``data-ply``), painted; beside it, as the reference
  measured in the same run, the same judgement of the same positions computed in this process alone
  (``live_panel.live_analysis``), once cold and once again (the app's kernel has met these positions in the click
  runs before, and the greedy player remembers positions), so the ratio is what the page adds (the step, the
  thread, the messages);
* Packet Row's live analysis after a step (``--live`` steps of a new 3-player Packet Row game, seed 1, the Greedy
  bot's moves as long as they are clicks on the board): from the click to the board's first change painted, to the
  panel's first look painted (``.ssl-live-first`` with ``data-first-ply``) and to the full judgement painted
  (``data-ply``); beside them the same two judgements computed alone in this process (wall and CPU milliseconds).

Targets: first board ≤ 1.3× the bare page's, ≤ 1 MB over the websocket before the first board and the charts are
drawn, click → updated board ≤ 150 ms median, live analysis ≤ 300 ms median (Packet Row's first answer: median and
95th percentile). The clicks are a new 3-player game with human seats (seed 1) played by the Greedy bot's choices:
placements and buy/pass decisions; Packet Row's steps come after a person's pause (``THINK_MS``).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the lab and the tests' helpers (tests.support) from the working tree
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.bots import make_bot  # noqa: E402
from tests.support.browser import VIEWPORT, launch, settle, voila_server  # noqa: E402

TARGET_MS = 150.0
TARGET_LOAD_RATIO = 1.3
TARGET_LOAD_BYTES = 1_000_000
TARGET_LIVE_MS = 300.0
SEED = 1
#: A person's pause between two Packet Row steps (ms): the live panel works out the next first looks meanwhile (its
#: thread's ~40-180 ms of CPU after the full judgement), as it does while a person thinks.
THINK_MS = 1000
BARE_PAGE = ROOT / "benchmarks" / "bare_page.ipynb"
REF_COLD = "computed alone, first time (ms)"
REF_WARM = "computed alone, again (ms)"
BOARD_DRAWN = ".ssl-board .ssl-col"
CHARTS_DRAWN = ".js-plotly-plot .scatterlayer .trace"
BUTTON_DRAWN = ".widget-button"
LOAD_COLUMNS = ["first drawn (s)", "HTML: kernel + cell (s)", "widget states in (s)", "websocket before first (KB)",
                "charts drawn (s)", "websocket before charts (KB)", "HTTP (KB)"]

# Click -> [the first answer on screen, the full judgement on screen, the board's first change on screen] (ms, each
# painted; the board's NaN without a ``board`` selector): Packet Row's live panel shows a first look from fewer
# play-outs (.ssl-live-first, data-first-ply) before the full one (.ssl-live, data-ply); where it shows none, the first
# answer is the full one.
MEASURE_LIVE_STAGES = """async ([selector, ply, timeout, board]) => {
  const target = document.querySelector(selector);
  if (!target) throw new Error('nothing to click at ' + selector);
  const first = `.ssl-live-first[data-first-ply="${ply}"], .ssl-live[data-ply="${ply}"]`;
  const done = `.ssl-live[data-ply="${ply}"]`;
  const drawn = board ? document.querySelector(board) : null;
  return await new Promise((resolve, reject) => {
    let t0 = 0, t1 = null, tb = null;
    const check = (records) => {
      if (tb === null && drawn && records.some(r => drawn.contains(r.target))) {
        tb = -1;  // the board's first change, painted
        requestAnimationFrame(() => { tb = performance.now() - t0; });
      }
      if (t1 === null && document.querySelector(first)) {
        t1 = -1;  // painted: the next animation frame after it appeared
        requestAnimationFrame(() => { t1 = performance.now() - t0; });
      }
      if (!document.querySelector(done)) return;
      obs.disconnect();
      requestAnimationFrame(() => {
        const end = performance.now() - t0;
        resolve([t1 > 0 ? t1 : end, end, tb > 0 ? tb : NaN]);
      });
    };
    const obs = new MutationObserver(check);
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    const fail = () => { obs.disconnect(); reject(new Error(`no live analysis of ply ${ply} within ${timeout} ms`)); };
    setTimeout(fail, timeout);
    t0 = performance.now();
    target.click();
  });
}"""

# the notebook's first cell in a fresh process, against the bare page's (seconds: import, then the whole cell)
KERNEL_CELLS = {
    "bare page (reference)": ("import ipywidgets as w", "w.Button(description='Ready')"),
    "app": ("from speicherstadt_lab.ui.app import LabApp", "LabApp(players=3, seed=1).widget"),
}
# One cell in a fresh process holding what a kernel holds before the cell (IPython, ipykernel): wall clock and CPU
# time of the import and of the whole cell, the function calls (cProfile, a run of its own), the widget models made
# and the bytes of their states (what the page asks for before it draws anything), and the lab's modules imported.
KERNEL_PROBE = """
import cProfile, json, pstats, sys, time
import IPython, comm, ipykernel.ipkernel
profile = {profile}
prof = cProfile.Profile() if profile else None
t0, c0 = time.perf_counter(), time.process_time()
if prof: prof.enable()
{imports}
t1, c1 = time.perf_counter(), time.process_time()
{widget}
if prof: prof.disable()
t2, c2 = time.perf_counter(), time.process_time()
from ipywidgets.widgets.widget import _instances, _remove_buffers
size = 0
for widget in list(_instances.values()):
    state, _paths, buffers = _remove_buffers(widget.get_state())
    size += len(json.dumps(state)) + sum(len(b) for b in buffers)
watch = ("pandas", "numpy", "plotly", "speicherstadt_lab.games.packet_row", "speicherstadt_lab.analysis",
         "speicherstadt_lab.reviewing", "speicherstadt_lab.puzzle_lessons", "speicherstadt_lab.scenarios")
print(json.dumps({{"import (s)": t1 - t0, "first cell (s)": t2 - t0, "import CPU (s)": c1 - c0,
                   "first cell CPU (s)": c2 - c0, "calls": pstats.Stats(prof).total_calls if prof else 0,
                   "widgets": len(_instances), "widget states (KB)": size / 1e3,
                   "imported": [m.rsplit(".", 1)[-1] for m in watch if m in sys.modules]}}))
"""

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
CHART_PATCH = re.compile(rb'"kind":\s*"patch"')


def kind_of(payload: str | bytes) -> str:
    """Which widget a kernel → browser frame updates, from the first key of its state (the chart's patches are
    messages of their own)."""
    data = payload.encode() if isinstance(payload, str) else payload
    if CHART_PATCH.search(data):
        return "charts"
    found = STATE_KEY.search(data)
    key = found.group(1).decode() if found else ""
    if key in ("model", "highlight", "error"):
        return "board"
    if key == "figure":
        return "charts"
    if key in ("tree", "current", "seats", "labels"):
        return "tree"
    return "other"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def page_load(browser: Browser, url: str, ready: str, charts: bool) -> dict[str, float]:
    """One first visit (a fresh context): seconds to ``ready`` (and to the charts), websocket bytes received
    before each, HTTP bytes fetched."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    received: list[int] = []
    arrived: list[float] = []  # when each frame came (the biggest: the widgets' states the page asked for)
    requests: list[Any] = []

    def frame(payload: str | bytes) -> None:
        received.append(len(payload))
        arrived.append(time.perf_counter())

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.on("requestfinished", lambda request: requests.append(request))
    t0 = time.perf_counter()
    page.goto(url, timeout=180_000)
    try:
        page.wait_for_selector(ready, timeout=180_000)
    except PlaywrightError as err:  # Voilà shows a failed cell's traceback on the page
        raise RuntimeError(f"{url}: {ready} not drawn; the page says:\n{page.inner_text('body')[:3000]}") from err
    drawn = time.perf_counter() - t0
    # the stages: Voilà sends the page's HTML once the kernel has started and run the cell; the page then loads
    # Voilà's JavaScript, opens the websocket and asks for every widget's state, and draws them
    html_done = page.evaluate("performance.getEntriesByType('navigation')[0].responseEnd") / 1e3
    states = arrived[max(range(len(received)), key=received.__getitem__)] - t0 if received else float("nan")
    out = {"first drawn (s)": drawn, "HTML: kernel + cell (s)": html_done, "widget states in (s)": states,
           "websocket before first (KB)": sum(received) / 1e3}
    if charts:
        page.wait_for_selector(CHARTS_DRAWN, state="attached", timeout=180_000)
        out["charts drawn (s)"] = time.perf_counter() - t0
        out["websocket before charts (KB)"] = sum(received) / 1e3
    out["HTTP (KB)"] = sum(r.sizes()["responseBodySize"] for r in requests) / 1e3
    context.close()
    return out


def load_table(browser: Browser, urls: dict[str, str], loads: int) -> pd.DataFrame:
    """Median of ``loads`` first visits of each page (alternating), the app's ratio to the bare page's."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in urls}
    for _ in range(loads):
        for name, url in urls.items():
            app = name == "app"
            runs[name].append(page_load(browser, url, BOARD_DRAWN if app else BUTTON_DRAWN, charts=app))
    table = pd.DataFrame({name: pd.DataFrame(r).median() for name, r in runs.items()}).T
    table = table[[c for c in LOAD_COLUMNS if c in table.columns]]
    table.insert(1, "ratio", table["first drawn (s)"] / table.loc["bare page (reference)", "first drawn (s)"])
    return table


def kernel_probe(imports: str, widget: str, profile: bool = False) -> dict[str, Any]:
    """One run of :data:`KERNEL_PROBE` in a fresh process (``profile``: under cProfile, for the call count)."""
    code = KERNEL_PROBE.format(imports=imports, widget=widget, profile=profile)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return dict(json.loads(out.splitlines()[-1]))


def kernel_table(repeats: int = 3) -> pd.DataFrame:
    """The notebooks' first cells in fresh processes (median of ``repeats``, alternating): import and the whole cell,
    wall clock and CPU time; the calls, widget models and widget-state bytes, which the machine's load does not move."""
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in KERNEL_CELLS}
    for _ in range(repeats):
        for name, (imports, widget) in KERNEL_CELLS.items():
            got[name].append(kernel_probe(imports, widget))
    rows = {}
    for name, (imports, widget) in KERNEL_CELLS.items():
        runs = got[name]
        row: dict[str, Any] = {key: statistics.median(r[key] for r in runs) for key in
                               ("import (s)", "first cell (s)", "import CPU (s)", "first cell CPU (s)")}
        counted = kernel_probe(imports, widget, profile=True)
        row.update({"calls": counted["calls"], "widgets": runs[0]["widgets"],
                    "widget states (KB)": runs[0]["widget states (KB)"]})
        rows[name] = row
        if name == "app":
            print("the lab's modules imported by the app's first cell:", ", ".join(runs[0]["imported"]) or "none")
    table = pd.DataFrame(rows).T
    table.insert(4, "CPU ratio", table["first cell CPU (s)"] / table.loc["bare page (reference)", "first cell CPU (s)"])
    return table


def live_reference(actions: list[str]) -> dict[str, list[float]]:
    """The live panel's judgement of each position after ``actions`` (ms), computed in this process alone, a first
    and a second time (the value model loaded once beforehand, as the app's kernel has it by the first step)."""
    from speicherstadt_lab.ui.app.live_panel import live_analysis

    state = sl.new_game(players=3, seed=SEED)
    live_analysis(state)
    states = []
    for action in actions:
        state = state.apply(action)
        states.append(state)
    out: dict[str, list[float]] = {}
    for name in (REF_COLD, REF_WARM):
        out[name] = []
        for st in states:
            t0 = time.perf_counter()
            live_analysis(st)
            out[name].append((time.perf_counter() - t0) * 1e3)
    return out


def live_table(live: list[float], reference: dict[str, list[float]]) -> pd.DataFrame:
    """Click → live analysis on screen against the same judgement computed alone (medians, 95th percentiles and
    the ratio of the medians to the cold computation's)."""
    rows = {"in the page: click → painted (ms)": live, **reference}
    table = pd.DataFrame({name: {"median": statistics.median(v), "p95": percentile(v, 0.95), "max": max(v)}
                          for name, v in rows.items()}).T
    table["ratio (median)"] = table["median"] / table.loc[REF_COLD, "median"]
    table["target (ms)"] = [TARGET_LIVE_MS] + [float("nan")] * len(reference)
    return table


def run_live(page: Page, actions: list[str]) -> list[float]:
    """Click → live analysis of the new position on screen (ms), one step at a time, the kernel idle between."""
    out = []
    for ply, action in enumerate(actions, start=1):
        out.append(page.evaluate(MEASURE_LIVE_STAGES, [selector(action), ply, 30_000, None])[1])  # the full one
        settle(page)
    return out


def plan_packet_row(n: int) -> list[str]:
    """Up to ``n`` Packet Row decisions from the start of a 3-player game (seed ``SEED``): the Greedy bot's, as long
    as each is a click on the board (taking, choosing, declining, passing)."""
    from tests.support.move_clicks import clickable

    state = sl.new_game("packet_row", players=3, seed=SEED)
    bot = make_bot("greedy", seed=SEED)
    out: list[str] = []
    while len(out) < n and not state.is_over:
        action = str(bot.choose(state.observe(state.to_move)))
        if not clickable(action):
            break
        out.append(action)
        state = state.apply(action)
    return out


def run_live_packet_row(browser: Browser, url: str, actions: list[str]) -> list[list[float]]:
    """Click → [first answer, full judgement, board] of Packet Row's live panel (and board) on screen (ms), one step at
    a time, in a new Packet Row game of the app (every seat a person), a person's pause (``THINK_MS``) between."""
    from tests.support.move_clicks import target

    page = browser.new_page(viewport=VIEWPORT)
    page.goto(f"{url}?game=packet_row&players=3&seed={SEED}", timeout=180_000)
    page.wait_for_selector(".prb-board", timeout=180_000)
    page.wait_for_selector('.ssl-live[data-ply="0"]', timeout=180_000)
    settle(page)
    out = []
    for ply, action in enumerate(actions, start=1):
        out.append(page.evaluate(MEASURE_LIVE_STAGES, [target(".prb-board", action), ply, 60_000, ".prb-board"]))
        settle(page)
        page.wait_for_timeout(THINK_MS)
    page.close()
    return out


def live_reference_packet_row(actions: list[str]) -> dict[str, list[float]]:
    """Packet Row's live judgement of each position after ``actions`` computed in this process alone (wall and CPU
    ms): the first look's and the full one's, the full one after the first look as the panel runs them."""
    from speicherstadt_lab.ui.app.live_panel import LIVE_FIRST, live_analysis

    state = sl.new_game("packet_row", players=3, seed=SEED)
    live_analysis(state)
    stages = {f"first look, {LIVE_FIRST} play-outs": LIVE_FIRST, "full judgement": None}
    out: dict[str, list[float]] = {f"alone: {name} ({unit})": [] for name in stages for unit in ("ms", "CPU ms")}
    for action in actions:
        state = state.apply(action)
        for name, n in stages.items():
            t0, c0 = time.perf_counter(), time.process_time()
            live_analysis(state) if n is None else live_analysis(state, n)
            out[f"alone: {name} (ms)"].append((time.perf_counter() - t0) * 1e3)
            out[f"alone: {name} (CPU ms)"].append((time.process_time() - c0) * 1e3)
    return out


def run_clicks(page: Page, frames: list[tuple[str, str, int]], actions: list[str], pace: float) -> dict[str, Any]:
    dom, painted, received, sent, by_kind = [], [], [], [], {"board": [], "charts": [], "tree": [], "other": []}
    for ply, action in enumerate(actions, start=1):
        start = len(frames)
        d, p = page.evaluate(MEASURE_CLICK, [selector(action), 10_000])
        dom.append(d)
        painted.append(p)
        wait_ply(page, ply)  # the kernel has taken the move (a busy machine lags): the next click is on its board
        page.wait_for_timeout(pace * 1000 if pace else 60)
        step = frames[start:]
        received.append(sum(size for way, _, size in step if way == "in"))
        sent.append(sum(size for way, _, size in step if way == "out"))
        for kind in by_kind:
            by_kind[kind].append(sum(size for way, k, size in step if way == "in" and k == kind))
    return {"dom": dom, "painted": painted, "received": received, "sent": sent, "by_kind": by_kind}


def wait_ply(page: Page, ply: int) -> None:
    """Until the position line says ``Ply {ply} of``."""
    page.wait_for_function("n => (document.querySelector('.ssl-position')?.innerText || '').startsWith(`Ply ${n} of`)",
                           arg=ply, timeout=60_000)


def new_game(page: Page) -> None:
    page.click("button:has-text('New game')")
    wait_ply(page, 0)
    settle(page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3, help="first visits of each page (default 3)")
    parser.add_argument("--clicks", type=int, default=30, help="clicks per run (default 30)")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between clicks in the paced run")
    parser.add_argument("--live", type=int, default=8, help="steps timed for the live analysis (default 8)")
    parser.add_argument("--only-load", action="store_true",
                        help="opening the page and the kernel's share only (no clicks, no live analysis)")
    parser.add_argument("--only-live", action="store_true",
                        help="the live analysis after a step only, both games (no page loads, no click runs)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE if set: every kernel compiles the lab's sources afresh")
    args = parser.parse_args(argv)
    actions = plan(max(args.clicks, args.live))
    # served as `make app` serves the app (binder/jupyter: Voilà's settings), both pages alike
    os.environ["JUPYTER_CONFIG_PATH"] = str(ROOT / "binder" / "jupyter")
    print("load average before:", os.getloadavg())
    print(bytecode(keep_env=args.no_bytecode))
    pd.set_option("display.width", 200)
    if args.only_live:
        return live_only(actions[:args.live])
    print("The kernel's share: the notebook's first cell in a fresh process (medians of 3, alternating)")
    kernel = kernel_table()
    print(kernel.round(3).to_string(), flush=True)
    print()
    with voila_server() as url, voila_server(BARE_PAGE) as bare, sync_playwright() as p:
        browser = launch(p)
        loads = load_table(browser, {"bare page (reference)": bare, "app": url}, args.loads)
        print(f"Speicherstadt Lab app in Voilà + Chromium {VIEWPORT['width']}×{VIEWPORT['height']}, "
              f"{args.loads} first visits of each page, {args.clicks} clicks per run (Python {sys.version.split()[0]})")
        print()
        print("Opening the page (medians; ratio: to the bare page's first drawn widget, measured in the same run)")
        print(loads.round(2).to_string())
        print("load average after the visits:", os.getloadavg(), flush=True)
        if args.only_load:
            browser.close()
            return load_verdict(loads)
        page = browser.new_page(viewport=VIEWPORT)
        frames: list[tuple[str, str, int]] = []

        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: frames.append(("in", kind_of(payload), len(payload))))
            ws.on("framesent", lambda payload: frames.append(("out", "", len(payload))))

        page.on("websocket", on_socket)
        page.goto(url, timeout=180_000)
        page.wait_for_selector(BOARD_DRAWN, timeout=180_000)
        page.wait_for_selector(CHARTS_DRAWN, state="attached", timeout=180_000)
        settle(page)

        runs = {}
        for name, pace in (("human pace", args.pace), ("back to back", 0.0)):
            new_game(page)
            runs[name] = run_clicks(page, frames, actions[:args.clicks], pace)
        new_game(page)
        settle(page)
        live = run_live(page, actions[:args.live])
        pr_actions = plan_packet_row(args.live)
        pr_live = run_live_packet_row(browser, url, pr_actions) if pr_actions else []
        browser.close()
    reference = live_reference(actions[:args.live])
    pr_reference = live_reference_packet_row(pr_actions)

    print()
    print(f"  {'click → updated board':<28}{'median':>10}{'p95':>10}{'max':>10}")
    for name, r in runs.items():
        for label, key in (("DOM", "dom"), ("painted", "painted")):
            v = r[key]
            print(f"  {name + ', ' + label:<28}{statistics.median(v):8.1f}ms{percentile(v, 0.95):8.1f}ms"
                  f"{max(v):8.1f}ms")
    print(f"  {'live analysis after a step':<28}{statistics.median(live):8.1f}ms{percentile(live, 0.95):8.1f}ms"
          f"{max(live):8.1f}ms")
    live_checks = live_report(live, reference, pr_live, pr_reference)
    print()
    print(f"  {'bytes per step (median)':<28}{'received':>10}{'board':>10}{'charts':>10}{'tree':>10}{'other':>10}"
          f"{'sent':>10}")
    for name, r in runs.items():
        med = {k: statistics.median(v) for k, v in r["by_kind"].items()}
        print(f"  {name:<28}{statistics.median(r['received']):10.0f}{med['board']:10.0f}{med['charts']:10.0f}"
              f"{med['tree']:10.0f}{med['other']:10.0f}{statistics.median(r['sent']):10.0f}")
    paced = statistics.median(runs["human pace"]["dom"])
    checks = [(f"click → updated board ≤ {TARGET_MS:.0f} ms median (human pace)", f"{paced:.1f} ms",
               paced <= TARGET_MS), *live_checks]
    return load_verdict(loads, checks)


def live_only(actions: list[str]) -> int:
    """``--only-live``: the live analysis after each of ``actions`` in Die Speicherstadt and after as many Packet Row
    steps, each against the same judgements computed alone in this process (as a full run measures them)."""
    pr_actions = plan_packet_row(len(actions))
    with voila_server() as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url, timeout=180_000)
        page.wait_for_selector(BOARD_DRAWN, timeout=180_000)
        page.wait_for_selector(CHARTS_DRAWN, state="attached", timeout=180_000)
        page.wait_for_selector('.ssl-live[data-ply="0"]', timeout=180_000)
        settle(page)
        live = run_live(page, actions)
        page.close()
        pr_live = run_live_packet_row(browser, url, pr_actions) if pr_actions else []
        browser.close()
    print("load average after the page's steps:", os.getloadavg())
    checks = live_report(live, live_reference(actions), pr_live, live_reference_packet_row(pr_actions))
    return load_verdict(None, checks)


def live_report(live: list[float], reference: dict[str, list[float]], pr_live: list[list[float]],
                pr_reference: dict[str, list[float]]) -> list[tuple[str, str, bool]]:
    """Print the live analysis's tables (Die Speicherstadt's, Packet Row's with its stages), give their targets."""
    print()
    print(f"Live analysis after a step ({len(live)} steps; reference: the same judgement computed alone, this run)")
    print(live_table(live, reference).round(2).to_string())
    checks = [(f"live analysis after a step ≤ {TARGET_LIVE_MS:.0f} ms median", f"{statistics.median(live):.0f} ms",
               statistics.median(live) <= TARGET_LIVE_MS)]
    if not pr_live:
        return checks
    print()
    print(f"Packet Row's live analysis after a step ({len(pr_live)} steps): click → the board's first change, → first "
          "answer and → full judgement painted in the page; reference: the same judgements computed alone, this run; "
          f"load average {os.getloadavg()[0]:.1f}")
    first = [v[0] for v in pr_live]
    pr_rows = {"in the page: click → board updated (ms)": [v[2] for v in pr_live],
               "in the page: click → first answer (ms)": first,
               "in the page: click → full judgement (ms)": [v[1] for v in pr_live], **pr_reference}
    print(pd.DataFrame({k: {"median": statistics.median(v), "p95": percentile(v, 0.95), "max": max(v)}
                        for k, v in pr_rows.items()}).T.round(1).to_string())
    return [*checks,
            (f"Packet Row: first live answer ≤ {TARGET_LIVE_MS:.0f} ms median", f"{statistics.median(first):.0f} ms",
             statistics.median(first) <= TARGET_LIVE_MS),
            (f"Packet Row: first live answer ≤ {TARGET_LIVE_MS:.0f} ms p95", f"{percentile(first, 0.95):.0f} ms",
             percentile(first, 0.95) <= TARGET_LIVE_MS)]


def bytecode(keep_env: bool = False) -> str:
    """Serve the lab as an installed one runs: with its modules' bytecode (pip compiles it at install, Binder's image
    among them; ``make app``'s editable install writes it on first use). A shell with ``PYTHONDONTWRITEBYTECODE`` set
    would make every kernel (Voilà's and ``kernel_table``'s) compile the lab's sources afresh, about 0.3 s of CPU
    that the bare page, whose packages are installed with their bytecode, never pays. ``keep_env``: measure that way."""
    if keep_env and os.environ.get("PYTHONDONTWRITEBYTECODE"):
        for cache in (ROOT / "speicherstadt_lab").rglob("__pycache__"):  # written by an earlier run, read if left
            shutil.rmtree(cache, ignore_errors=True)
        return "bytecode: PYTHONDONTWRITEBYTECODE kept, every kernel compiles the lab's sources (--no-bytecode)"
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(ROOT / "speicherstadt_lab", quiet=1)  # the __pycache__ folders (git ignores them)
    return "bytecode: the lab's modules compiled beforehand, as an installed package has them"


def load_verdict(loads: pd.DataFrame | None, more: Sequence[tuple[str, str, bool]] = ()) -> int:
    """Print each target with its figure and whether it is met (the page's opening first, unless ``loads`` is None,
    then ``more``)."""
    checks = list(more)
    if loads is not None:
        app = loads.loc["app"]
        ws = max(app["websocket before first (KB)"], app["websocket before charts (KB)"]) * 1e3
        checks[:0] = [
            (f"first board ≤ {TARGET_LOAD_RATIO}× the bare page's", f"{app['ratio']:.2f}×",
             app["ratio"] <= TARGET_LOAD_RATIO),
            (f"≤ {TARGET_LOAD_BYTES / 1e6:.0f} MB over the websocket before the board and charts are drawn",
             f"{ws / 1e6:.2f} MB", ws <= TARGET_LOAD_BYTES),
        ]
    print()
    for label, value, ok in checks:
        print(f"target: {label}: {value}, {'met' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
