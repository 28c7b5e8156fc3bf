"""What a Binder pod holds: memory of Jupyter Server with the app's kernels, one visitor at a time, as Binder serves it.

    .venv/bin/python benchmarks/binder.py                # 6 visitors, each playing a few moves
    .venv/bin/python benchmarks/binder.py --visitors 10

Jupyter Server is started through ``binder/start`` (the shipped settings), each visitor opens the app through the
``/voila/render/notebooks/app.ipynb`` route in its own browser context and plays two bot moves, and after each
arrival the benchmark sums the proportional set size (PSS: shared pages split between the processes sharing them,
which is what a pod's memory limit counts) of the server and all its kernels. Then every page is closed and it
measures how long the kernels take to be shut down (the shipped culling: 120 s idle with no page connected).

The table: visitors, server + kernels in MB, and the mean per kernel; the last line, how many visitors a 2 GB pod
holds at that rate (leaving the server's own memory and 10% headroom).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the lab and the tests' helpers (tests.support) from the working tree
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
import psutil  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.browser import BOARD_READY, SERVER_PIDS, VIEWPORT, binder_server, get_json, launch  # noqa: E402

POD_MB = 2048


def pss_mb(pid: int) -> tuple[float, int]:
    """PSS of ``pid`` and all its descendants in MB, and how many processes that is."""
    root = psutil.Process(pid)
    total = 0
    procs = [root, *root.children(recursive=True)]
    for p in procs:
        try:
            total += p.memory_full_info().pss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total / 2**20, len(procs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--visitors", type=int, default=6)
    ap.add_argument("--cull-wait", type=float, default=300, help="seconds to wait for the kernels to be shut down")
    args = ap.parse_args()
    rows = []
    with binder_server() as url, sync_playwright() as pw:
        pid = SERVER_PIDS[url]
        base, _ = pss_mb(pid)
        rows.append({"visitors": 0, "MB": round(base), "MB per kernel": None, "kernels": 0})
        browser = launch(pw)
        contexts = []
        for v in range(1, args.visitors + 1):
            ctx = browser.new_context(viewport=VIEWPORT)
            page = ctx.new_page()
            page.goto(f"{url}/voila/render/notebooks/app.ipynb", timeout=300_000)
            page.wait_for_selector(BOARD_READY, timeout=300_000)
            for _ in range(2):  # a visitor who plays: the bots move, the charts and the live panel follow
                page.locator(".ssl-app button", has_text="Bot").first.click()
                page.wait_for_selector(".ssl-app.ssl-idle", timeout=120_000)
            contexts.append(ctx)
            mb, _n = pss_mb(pid)
            kernels = len(get_json(url + "/api/kernels"))
            rows.append({"visitors": v, "MB": round(mb), "MB per kernel": round((mb - base) / max(1, kernels)),
                         "kernels": kernels})
            print(rows[-1], flush=True)
        for ctx in contexts:
            ctx.close()
        browser.close()
        t0 = time.monotonic()
        while get_json(url + "/api/kernels") and time.monotonic() - t0 < args.cull_wait:
            time.sleep(2)
        left = len(get_json(url + "/api/kernels"))
        culled = time.monotonic() - t0
        after, _ = pss_mb(pid)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    per = table["MB per kernel"].dropna()
    per_kernel = float(per.iloc[-1]) if len(per) else float("nan")
    holds = int((POD_MB * 0.9 - base) // per_kernel) if per_kernel > 0 else 0
    print(f"server alone {base:.0f} MB; {per_kernel:.0f} MB per visitor's kernel; a {POD_MB} MB pod holds about "
          f"{holds} visitors at once (10% headroom)")
    print(f"after the pages closed: {left} kernel(s) left after {culled:.0f} s, server + kernels {after:.0f} MB")


if __name__ == "__main__":
    main()
