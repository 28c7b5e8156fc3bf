"""Calibration: how good are the lab's win chances, measured on held-out games against who really won.

    .venv/bin/python benchmarks/calibration.py                          # 150 greedy self-play games, 3 players
    .venv/bin/python benchmarks/calibration.py --games 40 --selfplay mcts:iterations=30
    .venv/bin/python benchmarks/calibration.py --game speicherstadt --players 4 --expansion kaispeicher

Held-out games use seeds derived from ``--seed`` with the label "calibration-benchmark": never the seeds
the shipped models were trained or calibrated on ("train", "calibrate"). At the first decision of rounds
3, 6 and 9 (``--rounds``) every method gives each seat's win probability; the Brier score (sum over seats of
(p - won)², averaged over positions; lower is better) is printed per round and overall, with the time per
position, beside two references measured in the same run: 1/n for everyone and "the leader now wins".
Methods: ``evaluate`` with 400 random rollouts (the app's former default), 100 greedy rollouts, the value
model alone, and the hybrid: the lab's quick judgement (``analysis.QUICK``, what the live panel shows: 12
greedy rollouts the game's ``hybrid_horizon`` rounds deep, scored by the model; the setting was chosen on
other seeds, "tuning-hybrid" and ``--seed 7``, not on these). A
reliability table (predicted vs observed in bins) follows for the model and the hybrid. With ``--reference N``,
each position's true win chance under greedy play is also estimated by N greedy play-outs, and the share of
seats whose truth lay inside each method's 95% interval (``win_lo``..``win_hi``) is printed with the interval's
mean width: on greedy self-play the model's and the quick judgement's measured intervals should hold about 95%.
"""

from __future__ import annotations

import json
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
from speicherstadt_lab.analysis import QUICK  # noqa: E402
from speicherstadt_lab.bots import make_bot  # noqa: E402
from speicherstadt_lab.engine.rng import derive_seed  # noqa: E402

METHODS: dict[str, dict[str, Any]] = {
    "random rollouts (400)": {"method": "rollouts", "rollouts": 400, "bot": None},
    "greedy rollouts (100)": {"method": "rollouts", "rollouts": 100, "bot": "greedy"},
    "model": {"method": "model"},
    "hybrid": dict(QUICK),
}


def play_game(game: str, players: int, options: dict[str, Any], seed: int, index: int, selfplay: str,
              rounds: tuple[int, ...], hybrid: int, horizon: int = 0, reference: int = 0) -> list[dict[str, Any]]:
    """One held-out game: the positions at the chosen rounds, every method's probabilities, who won."""
    game_seed = derive_seed(seed, "calibration-benchmark", index)
    bots = [make_bot(selfplay, seed=derive_seed(game_seed, "bot", i)) for i in range(players)]
    state = sl.new_game(game, players=players, seed=game_seed, **options)
    positions = {}
    while not state.is_over:
        if state.round in rounds and state.round not in positions:
            positions[state.round] = state
        state = state.apply(bots[state.to_move].choose(state.observe(state.to_move)))
    winners = state.winners()
    won = [1.0 / len(winners) if i in winners else 0.0 for i in range(players)]
    rows = []
    for rnd, pos in positions.items():
        row: dict[str, Any] = {"game": index, "round": rnd, "won": won}
        scores = [pos.score(i) for i in range(players)]
        best = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == best]
        row["1/n for all"] = ([1 / players] * players, 0.0)
        row["leader now wins"] = ([1 / len(leaders) if i in leaders else 0.0 for i in range(players)], 0.0)
        if reference:
            truth = sl.evaluate(pos, rollouts=reference, bot="greedy", seed=derive_seed(game_seed, "truth", rnd))
            row["truth"] = truth["win_prob"].tolist()
        for name, kw in METHODS.items():
            if kw["method"] == "hybrid":  # the game's own horizon unless --horizon says otherwise
                kw = dict(kw, **({"rollouts": hybrid} if hybrid else {}), horizon=horizon or None)
            t = time.perf_counter()
            df = sl.evaluate(pos, seed=derive_seed(game_seed, "eval", rnd), **kw)
            row[name] = (df["win_prob"].tolist(), time.perf_counter() - t, df["win_lo"].tolist(),
                         df["win_hi"].tolist())
        rows.append(row)
    return rows


def brier(p: list[float], won: list[float]) -> float:
    return float(sum((a - b) ** 2 for a, b in zip(p, won, strict=True)))


GREEDY = "greedy rollouts (100)"


def print_against_greedy(rows: list[dict[str, Any]], rounds: tuple[int, ...], draws: int = 2000) -> None:
    """Paired differences against 100 greedy rollouts (negative: better), with 95% intervals from resampling
    the games, and the greedy rollouts' Brier with their sampling noise removed: Σ p(1-p)/(n-1) estimates it
    without bias, so that line is what infinitely many greedy rollouts would score (on greedy self-play the
    best any judgement of the public facts can do, since the rollouts replay the very policy that plays)."""
    games = sorted({row["game"] for row in rows})
    index = {g: k for k, g in enumerate(games)}
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(games), size=(draws, len(games)))
    n = METHODS[GREEDY]["rollouts"]
    table: dict[str, dict[str, str]] = {}
    for name in ("model", "hybrid"):
        line = {}
        for r in (*rounds, "all"):
            sel = [row for row in rows if r == "all" or row["round"] == r]
            per_game = np.zeros(len(games))
            count = np.zeros(len(games))
            for row in sel:
                per_game[index[row["game"]]] += brier(row[name][0], row["won"]) - brier(row[GREEDY][0], row["won"])
                count[index[row["game"]]] += 1
            boot = per_game[picks].sum(axis=1) / np.maximum(count[picks].sum(axis=1), 1)
            lo, hi = np.percentile(boot, [2.5, 97.5])
            line[f"round {r}" if r != "all" else "all"] = f"{per_game.sum() / count.sum():+.3f} ({lo:+.3f}..{hi:+.3f})"
        table[f"{name} - greedy (100)"] = line
    floor = {}
    for r in (*rounds, "all"):
        sel = [row for row in rows if r == "all" or row["round"] == r]
        noise = np.mean([sum(p * (1 - p) for p in row[GREEDY][0]) / (n - 1) for row in sel])
        floor[f"round {r}" if r != "all" else "all"] = (
            f"{np.mean([brier(row[GREEDY][0], row['won']) for row in sel]) - noise:.3f}")
    table["greedy rollouts without their noise (n → ∞)"] = floor
    print("\nagainst 100 greedy rollouts, paired (negative: better; 95% interval over games):")
    with pd.option_context("display.width", 200):
        print(pd.DataFrame(table).T.to_string())


def coverage(p: np.ndarray, truth: np.ndarray, lo: np.ndarray, hi: np.ndarray, reference: int
             ) -> tuple[float, float]:
    """(share of ``truth`` inside [lo, hi], the same with the reference's own noise allowed for). ``truth`` is a
    share of ``reference`` play-outs, spread around the real win chance by τ = sqrt(t(1 - t)/(n - 1)); a raw count
    understates the coverage of a narrow interval. The second number widens each side's distance from ``p`` in
    quadrature by 1.96 τ: for normal errors that is exactly the coverage of the real win chance."""
    inside = float(np.mean((lo <= truth) & (truth <= hi)))
    tau = 1.96 * np.sqrt(truth * (1 - truth) / (reference - 1))
    below = p - np.sqrt((p - lo) ** 2 + tau**2)
    above = p + np.sqrt((hi - p) ** 2 + tau**2)
    return inside, float(np.mean((below <= truth) & (truth <= above)))


def print_coverage(rows: list[dict[str, Any]], rounds: tuple[int, ...], reference: int) -> None:
    """Per method and round: the share of seats whose truth (``reference`` greedy play-outs) lay inside the
    method's 95% interval (raw / allowing for the truth's noise), and the interval's mean width."""
    table: dict[str, dict[str, str]] = {}
    for name in METHODS:
        line = {}
        for r in (*rounds, "all"):
            sel = [row for row in rows if r == "all" or row["round"] == r]
            truth = np.array([t for row in sel for t in row["truth"]])
            p = np.array([x for row in sel for x in row[name][0]])
            lo = np.array([x for row in sel for x in row[name][2]])
            hi = np.array([x for row in sel for x in row[name][3]])
            raw, aware = coverage(p, truth, lo, hi, reference)
            line[f"round {r}" if r != "all" else "all"] = f"{raw:.2f} / {aware:.2f} (width {np.mean(hi - lo):.2f})"
        table[name] = line
    print(f"\n95% intervals: share of seats whose win chance under greedy play ({reference} greedy play-outs, "
          "fair mode) lay inside, raw / allowing for those play-outs' own noise, and the mean width:")
    with pd.option_context("display.width", 200):
        print(pd.DataFrame(table).T.to_string())


def main(argv: list[str] | None = None) -> int:
    ap = held_out_parser(__doc__, games=150)
    ap.add_argument("--rounds", default="3,6,9")
    ap.add_argument("--hybrid", type=int, default=0,
                    help="greedy rollouts of the hybrid (default: the lab's quick setting, analysis.QUICK)")
    ap.add_argument("--horizon", type=int, default=0,
                    help="rounds the hybrid's rollouts play (default: the lab's quick setting for the game)")
    ap.add_argument("--rows", default=None, help="also write every position's numbers to this JSON file")
    ap.add_argument("--reference", type=int, default=0,
                    help="greedy play-outs per position for its true win chance, to check the 95%% intervals (0: no)")
    args = ap.parse_args(argv)
    if args.reference < 0 or args.reference == 1:
        ap.error(f"--reference: 0 (no check) or at least 2 play-outs, not {args.reference}")
    options = game_options(args)
    rounds = tuple(int(r) for r in args.rounds.split(","))
    rows: list[dict[str, Any]] = []
    wall = time.perf_counter()
    with ProcessPoolExecutor(args.processes) as pool:
        futures = [pool.submit(play_game, args.game, args.players, options, args.seed, g, args.selfplay, rounds,
                               args.hybrid, args.horizon, args.reference) for g in range(args.games)]
        for fut in tqdm(futures, desc="held-out games", unit="game"):
            rows.extend(fut.result())
    if args.rows:
        Path(args.rows).write_text(json.dumps(rows), encoding="utf-8")
    names = ["1/n for all", "leader now wins", *METHODS]
    table = {}
    times = {}
    for name in names:
        per_round = {r: np.mean([brier(row[name][0], row["won"]) for row in rows if row["round"] == r])
                     for r in rounds}
        per_round["all"] = np.mean([brier(row[name][0], row["won"]) for row in rows])
        table[name] = per_round
        times[name] = 1000 * np.mean([row[name][1] for row in rows])
    df = pd.DataFrame(table).T
    df.columns = [f"round {c}" if c != "all" else "all" for c in df.columns]
    df["ms/position"] = pd.Series(times)
    print(f"Brier score of each seat's win probability (lower is better) on {args.games} held-out games of "
          f"{args.selfplay} self-play, {title(args)}; {len(rows)} positions; wall {time.perf_counter() - wall:.0f} s")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(df.to_string())
    ref = df.loc["1/n for all", "all"]
    print("ratio to 1/n (all rounds): " + ", ".join(f"{n} {df.loc[n, 'all'] / ref:.3f}" for n in names[2:]))
    print_against_greedy(rows, rounds)
    if args.reference:
        print_coverage(rows, rounds, args.reference)
        if args.hybrid or args.horizon:
            print("(--hybrid/--horizon: not the quick judgement's setting, so the hybrid's band is its rollouts' "
                  "Wilson interval, not the measured one)")
    for name in ("model", "hybrid"):
        p = np.array([x for row in rows for x in row[name][0]])
        won = np.array([x for row in rows for x in row["won"]])
        edges = np.linspace(0, 1, 6)
        bins = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 4)
        rel = pd.DataFrame({"bin": [f"{edges[b]:.1f}-{edges[b + 1]:.1f}" for b in range(5)],
                            "predicted": [p[bins == b].mean() if (bins == b).any() else np.nan for b in range(5)],
                            "observed": [won[bins == b].mean() if (bins == b).any() else np.nan for b in range(5)],
                            "seats": [int((bins == b).sum()) for b in range(5)]})
        print(f"\nreliability of the {name}:")
        with pd.option_context("display.float_format", "{:.3f}".format):
            print(rel.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
