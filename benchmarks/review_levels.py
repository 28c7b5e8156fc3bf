"""Review levels against what really happens: does a move the review flags really lose what it says?

    .venv/bin/python benchmarks/review_levels.py                    # 20 games, the app's review (the hybrid)
    .venv/bin/python benchmarks/review_levels.py --value model      # search by random rollouts, model measures
    .venv/bin/python benchmarks/review_levels.py --games 40 --label review-levels-tuning
    .venv/bin/python benchmarks/review_levels.py --compare race,full   # the same decisions both ways, side by side

The app reviews a game that has a value model with the hybrid (``review(value="hybrid")``): every action is
played out ``--search`` times by greedy players to the start of the next round and scored by the model; that
finds the best move and measures what the choice loses, flagged at ``reviewing.HYBRID_LEVELS``.
``--value model`` is the former review (random-rollout search, the model measures, the floors flag);
``--value rollouts`` the review without a model. Held-out games (seeds labelled ``--label``; the line-up
``--lineup`` rotated by game, default two greedy seats and a random one, so that there are real mistakes) are
reviewed that way at every ``--every``-th decision, and each reviewed pair (chosen, best) is played out
``--truth`` times to the end with greedy players from the mover's observation (fair mode, common random
numbers): the *real* loss of the choice, as far as greedy play from there can tell. The tables: the real
loss by the review's loss, by the review's flag, and the straight line through them, with the review loss at
which that line reaches the levels' win floors.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from tqdm import tqdm  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from benchmarks.heldout import game_options, held_out_parser, title  # noqa: E402
from speicherstadt_lab import analysis  # noqa: E402
from speicherstadt_lab.analysis import compare_actions  # noqa: E402
from speicherstadt_lab.bots import greedy, make_bot  # noqa: E402
from speicherstadt_lab.engine.protocol import load_state  # noqa: E402
from speicherstadt_lab.engine.rng import derive_seed  # noqa: E402
from speicherstadt_lab.reviewing import (  # noqa: E402
    FLOORS,
    HYBRID_LEVELS,
    _job,
    classify,
    review_horizon,
    thresholds_for,
)

BINS = (0.0, 0.02, 0.05, 0.10, 0.20, 1.01)


def sample_decisions(game: str, players: int, seed: int, label: str, index: int, lineup: list[str],
                     every: int, options: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """One held-out game: (position before, chosen action, seat) at every ``every``-th real decision."""
    game_seed = derive_seed(seed, label, index)
    specs = [lineup[(index + i) % len(lineup)] for i in range(players)]
    bots = [make_bot(spec, seed=derive_seed(game_seed, "bot", i)) for i, spec in enumerate(specs)]
    state = sl.new_game(game, players=players, seed=game_seed, **(options or {}))
    out = []
    k = 0
    while not state.is_over:
        action = bots[state.to_move].choose(state.observe(state.to_move))
        if len(state.legal_actions()) > 1:
            if k % every == index % every:
                out.append((state.to_json(), str(action), specs[state.to_move]))
            k += 1
        state = state.apply(action)
    return out


def judge(job: tuple[str, str, str, int, str | None, int, int, str | None, int, tuple[str, ...]]
          ) -> list[dict[str, Any]]:
    """The app's review of one decision (once per way of comparing its moves, ``--compare``), and the real loss of
    each one's choice by greedy play-outs (one set of play-outs for every move named best: common random numbers
    make an action's play-outs the same whatever else is played out beside it)."""
    text, chosen, who, search, search_bot, truth, seed, value, horizon, ways = job
    state = load_state(text)
    found = []
    for way in ways:
        for memo in (greedy._CHOICES, analysis._LEAVES):  # each way from the same start: no memo of the other's
            memo.clear()
        cpu = time.process_time()
        rows = _job(("decision", text, search, search_bot, seed, None if value == "rollouts" else value, chosen,
                     horizon, way))
        found.append((way, rows, time.process_time() - cpu))
    named = list(dict.fromkeys([chosen, *(rows[0]["action"] for _way, rows, _cpu in found)]))
    real = None
    if len(named) > 1:
        real = compare_actions(state, rollouts=truth, bot="greedy", seed=derive_seed(seed, "truth"),
                               actions=named).set_index("action")
    out = []
    for way, rows, cpu in found:
        best = rows[0]
        mine = next(r for r in rows if r["action"] == chosen)
        win_loss = max(0.0, best["win_prob"] - mine["win_prob"])
        score_loss = max(0.0, best["score_mean"] - mine["score_mean"])
        row = {"compare": way, "who": who, "round": state.round, "actions": len(rows), "win_loss": win_loss,
               "score_loss": score_loss, "flag": classify(win_loss, score_loss, levels_of(value, search)) or "none",
               "real_win_loss": 0.0, "real_score_loss": 0.0, "cpu s": cpu,
               "rollouts played": sum(r.get("rollouts", search) for r in rows)}
        if best["action"] != chosen and real is not None:
            row["real_win_loss"] = float(real.loc[best["action"], "win_prob"] - real.loc[chosen, "win_prob"])
            row["real_score_loss"] = float(real.loc[best["action"], "score_mean"] - real.loc[chosen, "score_mean"])
        out.append(row)
    return out


def levels_of(value: str, search: int) -> dict[str, dict[str, float]]:
    """The levels ``review`` flags at for this way of measuring."""
    return HYBRID_LEVELS if value == "hybrid" else FLOORS if value == "model" else thresholds_for(search)


def mean_ci(x: np.ndarray) -> str:
    if len(x) == 0:
        return "—"
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
    return f"{x.mean():.3f} ± {half:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = held_out_parser(__doc__, games=20, selfplay=False)
    ap.add_argument("--lineup", default="greedy,greedy,random", help="bots of the seats, rotated by game")
    ap.add_argument("--every", type=int, default=6, help="review every n-th decision with a choice")
    ap.add_argument("--search", type=int, default=20, help="random rollouts per action of the review's search")
    ap.add_argument("--search-bot", default=None, help="the rollout bot of --value model/rollouts (default random)")
    ap.add_argument("--value", default="hybrid", choices=["model", "hybrid", "rollouts"],
                    help="what finds and measures: the hybrid (the app's review), the model, or rollouts")
    ap.add_argument("--horizon", type=int, default=None,
                    help="rounds the review's hybrid rollouts play before the model scores them (default: the game's)")
    ap.add_argument("--truth", type=int, default=200, help="greedy play-outs per action for the real loss")
    ap.add_argument("--label", default="review-levels-benchmark")
    ap.add_argument("--compare", default="race",
                    help="how the hybrid review compares a decision's moves (reviewing.SEARCHES), comma-separated: "
                    "'race,full' reviews the same decisions both ways and prints both")
    args = ap.parse_args(argv)
    ways = tuple(args.compare.split(","))
    lineup = args.lineup.split(",")
    horizon = review_horizon(sl.new_game(args.game, players=args.players, **game_options(args)), args.horizon)
    wall = time.perf_counter()
    jobs = []
    options = game_options(args)
    for g in range(args.games):
        for text, chosen, who in sample_decisions(args.game, args.players, args.seed, args.label, g, lineup,
                                                  args.every, options):
            seed = derive_seed(args.seed, args.label, g, len(jobs))
            jobs.append((text, chosen, who, args.search, args.search_bot, args.truth, seed, args.value, horizon,
                         ways))
    with ProcessPoolExecutor(args.processes) as pool:
        rows = [r for rs in tqdm(pool.map(judge, jobs, chunksize=2), total=len(jobs), desc="decisions",
                                 unit="decision") for r in rs]
    every = pd.DataFrame(rows)
    summary = []
    for way in ways:
        report(every[every["compare"] == way].reset_index(drop=True), args, way, horizon, wall, summary)
    print("\nthe ways side by side (the same decisions; cpu s: the review's CPU seconds over all its decisions in the "
          "worker processes, its rollouts summed over every action):")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(pd.DataFrame(summary).to_string(index=False))
    return 0


def report(df: pd.DataFrame, args: Any, way: str, horizon: int, wall: float, summary: list[dict[str, Any]]) -> None:
    """The tables of one way of comparing the moves; its line of the summary appended to ``summary``."""
    print(f"{title(args)}, {args.games} games ({args.lineup}, rotated), {len(df)} decisions "
          f"reviewed (every {args.every}th), review {args.value}"
          f"{f' ({horizon} rounds deep)' if args.value == 'hybrid' else ''} with {args.search} "
          f"{'greedy' if args.value == 'hybrid' else args.search_bot or 'random'} rollouts per action, truth "
          f"{args.truth} greedy play-outs per action; compared by {way!r}; wall {time.perf_counter() - wall:.0f} s")
    df["bin"] = pd.cut(df["win_loss"], BINS, right=False)
    table = df.groupby("bin", observed=True).agg(decisions=("win_loss", "size"), review_loss=("win_loss", "mean"))
    table["real loss (95%)"] = [mean_ci(df.loc[df["bin"] == b, "real_win_loss"].to_numpy()) for b in table.index]
    table["real points (95%)"] = [mean_ci(df.loc[df["bin"] == b, "real_score_loss"].to_numpy()) for b in table.index]
    print("\nreal win-chance loss by the review's loss:")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(table.to_string())
    flags = []
    for flag in ("none", "inaccuracy", "mistake"):
        sel = df[df["flag"] == flag]
        flags.append({"flag": flag, "decisions": len(sel), "share": len(sel) / max(1, len(df)),
                      "review loss": sel["win_loss"].mean(),
                      "real loss (95%)": mean_ci(sel["real_win_loss"].to_numpy()),
                      "real points (95%)": mean_ci(sel["real_score_loss"].to_numpy())})
    print(f"\nby the review's flag (levels: {levels_of(args.value, args.search)}):")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(pd.DataFrame(flags).to_string(index=False))
    by_who = df.groupby("who").agg(decisions=("flag", "size"), flagged=("flag", lambda f: (f != "none").mean()),
                                   real_loss=("real_win_loss", "mean"))
    print("\nby who played:")
    with pd.option_context("display.float_format", "{:.3f}".format):
        print(by_who.to_string())
    line = {"compare": way, "decisions": len(df), "flagged": float((df["flag"] != "none").mean()),
            "cpu s": float(df["cpu s"].sum()), "rollouts played": int(df["rollouts played"].sum())}
    summary.append(line)
    if df["win_loss"].nunique() < 2 or df["real_win_loss"].nunique() < 2:
        print("\nreal loss ≈ —: the losses have no spread in these decisions")
        return
    slope, intercept = np.polyfit(df["win_loss"], df["real_win_loss"], 1)
    corr = float(np.corrcoef(df["win_loss"], df["real_win_loss"])[0, 1])
    line.update({"correlation": corr, "slope": slope, "intercept": intercept})
    print(f"\nreal loss ≈ {intercept:.3f} + {slope:.2f} × review loss (correlation {corr:.2f}); the review loss at "
          "which that line reaches the win floors: " + ", ".join(
              f"{k} {(v['win'] - intercept) / slope:.3f}" if slope > 0 else f"{k} —" for k, v in FLOORS.items()))


if __name__ == "__main__":
    sys.exit(main())
