"""How long the app's whole-game review takes: decisions and luck, ``review(value="hybrid")`` with 20 rollouts.

    .venv/bin/python benchmarks/review_speed.py                       # both games, 3 players, one game each
    .venv/bin/python benchmarks/review_speed.py --games speicherstadt --processes 1,2

For each game a 3-player game of greedy self-play (seed ``--seed``) is reviewed as the app reviews it (every
decision, then the luck of every supply), once per process count in ``--processes`` (the pool is what
``review(processes=n)`` starts; ``resources.default_processes()`` sizes the app's). The reference, measured in the
same run and so under the same load: ``--reference`` whole greedy games of the same game and player count played
one after another in this process (seconds per game). The table: seconds of the review, its decisions and
supplies, seconds per decision, the ratio of the review to one reference game, and whether the pooled review's
numbers are those of one process (they must be).

``--memo off,on`` reviews the game also with the greedy player's memo of choices and the value model's memo of leaves
switched off (``bots/memo.py``: what a review cost before them), in the same run, and adds the column "× memo off":
the review without the memos over the review with them, same game and process count. Every row must have the numbers
of the first ("same numbers as the first row": yes), whatever the process count and the memos.

``--search race,full`` reviews the game both ways the hybrid review compares a decision's moves (``review(search=...)``:
the race, the default, and every action played out fully, the method before), in the same run; "× full" is the full
review's time over the race's, in wall seconds and in CPU seconds (this process and its pool's workers: what the load
of other programs does not change). Rows of different searches may differ in their numbers (the race drops moves).

``--before DIR`` sets this tree's code against another's in the same run (DIR holds an older ``speicherstadt_lab``,
e.g. ``git archive HEAD speicherstadt_lab | tar -x -C DIR``): each measurement runs in a fresh process of either
code, the two alternating ``--repeat`` times, so that the load of other programs falls on both alike. Per game:
the review's CPU seconds (that process and its pool's workers; the same review as above, ``--search`` and the first
of ``--processes``), and the greedy player's rollouts per CPU second (the review's hybrid rollouts of
``compare_actions`` at every 16th decision, the memos emptied and switched off: the greedy player and the rules
alone). "× before" is the older code's figure over this code's; "same numbers" whether every number of the review
equals the older code's (it must: a speed change may not change a number).

``--live 40`` measures the app's live analysis after a step instead (``judge_moves`` with the review's setting, as
``ui/app/live_panel.py`` calls it, in one process so that its memos carry over from step to step as in the kernel):
40 positions of a 3-player greedy game (seed 5, plies 21-60) one after the other; the median CPU and wall
milliseconds per step, and the CPU time over one reference greedy game's (its wall and its CPU seconds).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab import analysis  # noqa: E402
from speicherstadt_lab.bots import greedy, make_bot  # noqa: E402
from speicherstadt_lab.resources import default_processes  # noqa: E402
from speicherstadt_lab.reviewing import review  # noqa: E402


def record(game: str, players: int, seed: int) -> sl.GameRecord:
    """A game of greedy self-play, recorded."""
    return sl.record_game(sl.new_game(game, players=players, seed=seed),
                          [make_bot("greedy", seed=s) for s in range(players)])


def reference(game: str, players: int, games: int, seed: int) -> float:
    """Seconds per whole greedy game of ``game`` (the yardstick measured beside the review)."""
    start = time.perf_counter()
    for g in range(games):
        record(game, players, seed + 1000 + g)
    return (time.perf_counter() - start) / games


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (a review's pool, once shut down)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def reviewed(game: str, players: int, seed: int, processes: int, search: str = "race"
             ) -> tuple[float, float, sl.GameRecord, object]:
    """(seconds, CPU seconds, record, review) of the app's review of one game: the decisions, then the luck."""
    rec = record(game, players, seed)
    start, cpu = time.perf_counter(), cpu_seconds()
    rv = review(rec, rollouts=20, value="hybrid", progress=False, luck=False, processes=processes, search=search)
    luck = review(rec, rollouts=20, value="hybrid", progress=False, decisions=False, processes=processes)
    return time.perf_counter() - start, cpu_seconds() - cpu, rec, (rv, luck)


def live(game: str, players: int, steps: int) -> dict[str, float]:
    """Median CPU and wall milliseconds of the live analysis (``judge_moves``, the review's setting) per step."""
    from speicherstadt_lab.analysis import judge_moves
    from speicherstadt_lab.reviewing import review_horizon

    line = record(game, players, 5).mainline()[21:21 + steps]
    cpu, wall = [], []
    for nd in line:
        if nd.state.is_over or nd.state.to_move is None:
            continue
        c, w = time.process_time(), time.perf_counter()
        judge_moves(nd.state, rollouts=20, bot="greedy", method="hybrid", horizon=review_horizon(nd.state))
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return {"steps": len(cpu), "median CPU ms": 1000 * float(pd.Series(cpu).median()),
            "median wall ms": 1000 * float(pd.Series(wall).median())}


# Run in a fresh process of either code (``--before``): only what both have (``review``, ``compare_actions``, the
# memos), and the results as JSON on stdout.
_MEASURE = r"""
import hashlib, json, resource, sys, time, warnings
sys.path.insert(0, sys.argv[1])
warnings.simplefilter("ignore")
import speicherstadt_lab as sl
from speicherstadt_lab import analysis
from speicherstadt_lab.analysis import compare_actions
from speicherstadt_lab.bots import greedy, make_bot
from speicherstadt_lab.reviewing import review, review_horizon
what, game, players, seed, processes, search = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), \
    int(sys.argv[6]), sys.argv[7]
assert sl.__file__.startswith(sys.argv[1]), sl.__file__
rec = sl.record_game(sl.new_game(game, players=players, seed=seed),
                     [make_bot("greedy", seed=s) for s in range(players)])
def cpu():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
out = {}
if what == "review":
    c = cpu()
    rv = review(rec, rollouts=20, value="hybrid", progress=False, luck=False, processes=processes, search=search)
    lk = review(rec, rollouts=20, value="hybrid", progress=False, decisions=False, processes=processes)
    out["cpu"] = cpu() - c
    out["numbers"] = hashlib.sha256((rv.decisions.to_json() + lk.luck.to_json()).encode()).hexdigest()
    out["decisions"], out["supplies"] = len(rv.decisions), int(lk.luck["round"].nunique())
else:
    for m in (greedy._CHOICES, analysis._LEAVES):
        m.clear()
        m.enabled = False
    n, c = 0, time.process_time()
    for nd in rec.mainline()[1::16]:
        st = nd.parent.state
        df = compare_actions(st, rollouts=20, bot="greedy", seed=0, method="hybrid", horizon=review_horizon(st))
        n += 20 * len(df)
    out["cpu"], out["rollouts"] = time.process_time() - c, n
print(json.dumps(out))
"""


def measure(root: Path, what: str, game: str, players: int, seed: int, processes: int, search: str
            ) -> dict[str, object]:
    """One measurement (``"review"`` or ``"rollouts"``) in a fresh process of the code in ``root``."""
    import json
    import subprocess

    done = subprocess.run([sys.executable, "-c", _MEASURE, str(root), what, game, str(players), str(seed),
                           str(processes), search], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def against(before: Path, game: str, players: int, seed: int, processes: int, search: str, repeat: int
            ) -> list[dict[str, object]]:
    """Rows of this code and the code in ``before``, measured alternately ``repeat`` times (medians)."""
    runs: dict[str, dict[str, list[dict[str, object]]]] = {"before": {}, "now": {}}
    for _ in range(repeat):
        for label, root in (("before", before), ("now", ROOT)):
            for what in ("review", "rollouts"):
                runs[label].setdefault(what, []).append(measure(root, what, game, players, seed, processes, search))
    rows = []
    for label in ("before", "now"):
        rev, rol = runs[label]["review"], runs[label]["rollouts"]
        rows.append({"game": game, "code": label, "processes": processes, "search": search,
                     "review CPU s": float(pd.Series([r["cpu"] for r in rev]).median()),
                     "decisions": rev[0]["decisions"], "supplies": rev[0]["supplies"],
                     "greedy rollouts / CPU s": float(pd.Series([r["rollouts"] / r["cpu"] for r in rol]).median()),
                     "same numbers": "—" if label == "before" else (
                         "yes" if {r["numbers"] for r in rev} == {r["numbers"] for r in runs["before"]["review"]}
                         else "NO")})
    rows[1]["× before (review CPU)"] = rows[0]["review CPU s"] / rows[1]["review CPU s"]
    rows[1]["× before (rollouts/s)"] = rows[1]["greedy rollouts / CPU s"] / rows[0]["greedy rollouts / CPU s"]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="speicherstadt,packet_row")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--processes", default=f"1,{default_processes()}",
                    help="process counts to review with (default: 1 and resources.default_processes())")
    ap.add_argument("--reference", type=int, default=10, help="greedy games timed as the reference")
    ap.add_argument("--memo", default="on", help="'on', 'off' or 'off,on': the memos of bots/memo.py switched on/off")
    ap.add_argument("--search", default="race", help="'race', 'full' or 'race,full': how the review compares moves")
    ap.add_argument("--live", type=int, default=0, help="measure the live analysis over this many steps instead")
    ap.add_argument("--before", type=Path, default=None,
                    help="a directory holding an older speicherstadt_lab: set this code against it, same run")
    ap.add_argument("--repeat", type=int, default=1, help="with --before: alternations of the two codes (medians)")
    args = ap.parse_args(argv)
    searches = args.search.split(",")
    if args.before is not None:
        processes = int(args.processes.split(",")[0])
        load0 = os.getloadavg()
        rows = []
        for game in args.games.split(","):
            rows += against(args.before, game, args.players, args.seed, processes, searches[0], args.repeat)
        load = os.getloadavg()
        print(f"The app's review (hybrid, 20 rollouts, decisions + luck) of a {args.players}-player greedy game, this "
              f"code against {args.before}, alternating, {args.repeat} time(s) each; load average "
              f"{load0[0]:.1f} at the start, {load[0]:.1f} {load[1]:.1f} at the end")
        with pd.option_context("display.width", 250, "display.float_format", "{:.2f}".format):
            print(pd.DataFrame(rows).to_string(index=False))
        return 0
    if args.live:
        rows = []
        for game in args.games.split(","):
            cpu = time.process_time()
            ref = reference(game, args.players, args.reference, args.seed)
            ref_cpu = (time.process_time() - cpu) / args.reference  # CPU: what other programs' load changes least
            row = {"game": game, **live(game, args.players, args.live), "greedy game s": ref,
                   "greedy game CPU s": ref_cpu}
            row["CPU ms / greedy game s"] = row["median CPU ms"] / ref
            row["CPU ms / greedy game CPU s"] = row["median CPU ms"] / ref_cpu
            rows.append(row)
        load = os.getloadavg()
        print(f"The live analysis after a step (judge_moves, 20 rollouts, the review's horizon), {args.players} "
              "players; "
              f"load average {load[0]:.1f} {load[1]:.1f}")
        with pd.option_context("display.width", 200, "display.float_format", "{:.2f}".format):
            print(pd.DataFrame(rows).to_string(index=False))
        return 0
    counts = sorted({int(p) for p in args.processes.split(",")})
    memos = args.memo.split(",")
    rows = []
    for game in args.games.split(","):
        ref = reference(game, args.players, args.reference, args.seed)
        first = None
        for search in searches:
            for memo in memos:
                for n in counts:
                    for m in (greedy._CHOICES, analysis._LEAVES):  # a pool's workers are forked: they inherit this
                        m.clear()
                        m.enabled = memo == "on"
                    seconds, cpu, _rec, (rv, luck) = reviewed(game, args.players, args.seed, n, search)
                    same = "—" if first is None else ("yes" if rv.decisions.equals(first[0].decisions)
                                                      and luck.luck.equals(first[1].luck) else "NO")
                    first = first or (rv, luck)
                    row = {"game": game, "search": search, "memo": memo, "processes": n, "review s": seconds,
                           "review CPU s": cpu, "decisions": len(rv.decisions),
                           "supplies": luck.luck["round"].nunique(), "ms/decision": 1000 * seconds / len(rv.decisions),
                           "greedy game s": ref, "review / greedy game": seconds / ref,
                           "same numbers as the first row": same}
                    rows.append(row)
        for row in rows:  # the full comparison over the race, same game, memo and process count
            twin = next((r for r in rows if r["game"] == game and r["search"] == "full" and r["memo"] == row["memo"]
                         and r["processes"] == row["processes"]), None)
            if row["game"] == game and row["search"] == "race" and twin is not None:
                row["× full"] = twin["review s"] / row["review s"]
                row["× full (CPU)"] = twin["review CPU s"] / row["review CPU s"]
        for row in rows:  # either order of --memo: the review without the memos over the one with them
            twin = next((r for r in rows if r["game"] == game and r["memo"] == "off"
                         and r["processes"] == row["processes"] and r["search"] == row["search"]), None)
            if row["game"] == game and row["memo"] == "on" and twin is not None:
                row["× memo off"] = twin["review s"] / row["review s"]
        ref_after = reference(game, args.players, args.reference, args.seed)
        rows[-1]["greedy game s (after)"] = ref_after
    load = os.getloadavg()
    print(f"The app's review (hybrid, 20 rollouts, decisions + luck) of a {args.players}-player greedy game; "
          f"uptime load at the end {load[0]:.1f}; "
          f"reference: {args.reference} greedy games in the same run; load average {load[0]:.1f} {load[1]:.1f}")
    with pd.option_context("display.width", 200, "display.float_format", "{:.2f}".format):
        print(pd.DataFrame(rows).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
