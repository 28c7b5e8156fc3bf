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

``--results FILE`` keeps each judged decision as a line of JSON (the key of its job, which holds the position, the
settings and the seeds, and its rows), so a long run can stop and go on later, in this session or the next: a re-run
takes the decisions the file holds and plays only the rest. The file's first line stamps the code that played: a
hash of a few greedy self-play games of the variant and of the shipped value model; a file whose stamp differs (the
rules, the bots or the model changed how they play) is refused, as is a line that is cut or altered, naming the line
and the field, before anything is played. With two ways (``--compare race,full``) the summary adds the paired
difference of their correlations with the real loss and its 95% bootstrap interval over the decisions (the same
decisions and the same real losses both ways, so the difference is far tighter than either correlation).
"""

from __future__ import annotations

import hashlib
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

#: A results row's fields and their types (``bool`` is no number here).
ROW_FIELDS: dict[str, type | tuple[type, ...]] = {
    "compare": str, "who": str, "round": int, "actions": int, "win_loss": float, "score_loss": float, "flag": str,
    "real_win_loss": float, "real_score_loss": float, "cpu s": float, "rollouts played": int}


class ResultsError(ValueError):
    """A results file that cannot be used: the message names the line and the field."""


def job_key(job: tuple[Any, ...]) -> str:
    """The key of one decision's job: a hash of the position, the choice, the settings and the seeds."""
    return hashlib.sha256(json.dumps(list(job), sort_keys=True).encode("utf-8")).hexdigest()[:24]


def play_stamp(game: str, players: int, options: dict[str, Any]) -> str:
    """A hash of how this code plays the variant: three greedy self-play games (every action, the final scores) and
    the shipped value model's file, so that results of code that plays differently are never mixed in."""
    h = hashlib.sha256()
    for g in range(3):
        state = sl.new_game(game, players=players, seed=derive_seed(0, "review-levels-stamp", g), **options)
        bots = [make_bot("greedy", seed=derive_seed(g, "stamp-bot", i)) for i in range(players)]
        while not state.is_over:
            action = bots[state.to_move].choose(state.observe(state.to_move))
            h.update(str(action).encode("utf-8"))
            state = state.apply(action)
        h.update(json.dumps([state.score(i) for i in range(players)]).encode("utf-8"))
    variant = game + (f"+{options['expansion']}" if options.get("expansion") else "")
    model = ROOT / "speicherstadt_lab" / "data" / "models" / f"{variant}-{players}p.json"
    h.update(model.read_bytes() if model.is_file() else b"no model")
    return h.hexdigest()[:24]


def check_row(row: Any, where: str) -> dict[str, Any]:
    """One stored row checked field by field (:class:`ResultsError` naming ``where`` and the field)."""
    if not isinstance(row, dict):
        raise ResultsError(f"{where}: a row must be an object")
    for name, kind in ROW_FIELDS.items():
        if name not in row:
            raise ResultsError(f"{where}: {name}: missing")
        value = row[name]
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)) if kind is float else (
            isinstance(value, kind) and not isinstance(value, bool))
        if not ok:
            raise ResultsError(f"{where}: {name}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    extra = sorted(set(row) - set(ROW_FIELDS))
    if extra:
        raise ResultsError(f"{where}: {extra[0]}: not a field of a results row")
    return row


def read_results(path: Path, stamp: str) -> dict[str, list[dict[str, Any]]]:
    """The rows a results file holds by job key; an empty dict for a missing or empty file (:class:`ResultsError`
    naming the line and the field for a file that cannot be used)."""
    if not path.exists() or path.stat().st_size == 0:
        return {}
    done: dict[str, list[dict[str, Any]]] = {}
    with path.open(encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            where = f"line {number}"
            try:
                line = json.loads(text)
            except json.JSONDecodeError as err:
                raise ResultsError(f"{where}: not JSON ({err.msg}); a cut line? remove it and run again") from None
            if not isinstance(line, dict):
                raise ResultsError(f"{where}: a results line must be an object")
            if number == 1:
                if line.get("stamp") != stamp:
                    raise ResultsError(f"{where}: stamp: {line.get('stamp')!r} is not this code's {stamp!r} (the "
                                       "rules, the bots or the value model play differently): start a new file")
                continue
            if set(line) != {"key", "rows"}:
                extra = sorted(set(line) ^ {"key", "rows"})
                raise ResultsError(f"{where}: {extra[0]}: a results line has exactly the fields key and rows")
            if not isinstance(line["key"], str) or not isinstance(line["rows"], list) or not line["rows"]:
                raise ResultsError(f"{where}: key/rows: a key string and a non-empty list of rows")
            done[line["key"]] = [check_row(r, f"{where}, row {i + 1}") for i, r in enumerate(line["rows"])]
    return done


def append_line(path: Path, line: dict[str, Any]) -> None:
    """Append one line of JSON in a single write."""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line, sort_keys=True) + "\n")


def paired_correlation_gap(a: pd.DataFrame, b: pd.DataFrame, draws: int = 2000, seed: int = 0
                           ) -> tuple[float, float, float]:
    """corr(a) - corr(b) of the review loss with the real loss over the same decisions (row i of each), and its 95%
    bootstrap interval (decisions resampled together, ``draws`` times, numpy's generator seeded ``seed``)."""
    x1, y1 = a["win_loss"].to_numpy(float), a["real_win_loss"].to_numpy(float)
    x2, y2 = b["win_loss"].to_numpy(float), b["real_win_loss"].to_numpy(float)

    def corr(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # row by row: every resample at once
        x = x - x.mean(axis=-1, keepdims=True)
        y = y - y.mean(axis=-1, keepdims=True)
        den = np.sqrt((x * x).sum(axis=-1) * (y * y).sum(axis=-1))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, (x * y).sum(axis=-1) / np.where(den > 0, den, 1.0), np.nan)

    gap = float(corr(x1, y1) - corr(x2, y2))
    i = np.random.default_rng(seed).integers(0, len(x1), (draws, len(x1)))
    gaps = corr(x1[i], y1[i]) - corr(x2[i], y2[i])
    finite = gaps[np.isfinite(gaps)]
    if len(finite) == 0:  # too few decisions with a spread in both losses
        return gap, float("nan"), float("nan")
    lo, hi = np.percentile(finite, [2.5, 97.5])
    return gap, float(lo), float(hi)


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
    ap.add_argument("--results", type=Path, default=None,
                    help="keep each judged decision in this JSON-lines file and take those already there (resumable)")
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
    done: dict[str, list[dict[str, Any]]] = {}
    if args.results is not None:
        stamp = play_stamp(args.game, args.players, options)
        try:
            done = read_results(args.results, stamp)
        except (ResultsError, OSError) as err:  # named, nothing played
            ap.error(f"{args.results}: {err}")
        if not args.results.exists() or args.results.stat().st_size == 0:
            append_line(args.results, {"stamp": stamp})
    keys = [job_key(job) for job in jobs]
    todo = [job for job, key in zip(jobs, keys, strict=True) if key not in done]
    with ProcessPoolExecutor(args.processes) as pool:
        for job, rs in tqdm(zip(todo, pool.map(judge, todo, chunksize=2), strict=True), total=len(todo),
                            desc="decisions", unit="decision"):
            done[job_key(job)] = rs
            if args.results is not None:
                append_line(args.results, {"key": job_key(job), "rows": rs})
    print(f"{len(jobs)} decisions: {len(jobs) - len(todo)} taken from {args.results}, {len(todo)} judged now")
    every = pd.DataFrame([r for key in keys for r in done[key]])
    summary = []
    for way in ways:
        report(every[every["compare"] == way].reset_index(drop=True), args, way, horizon, wall, summary)
    print("\nthe ways side by side (the same decisions; cpu s: the review's CPU seconds over all its decisions in the "
          "worker processes, its rollouts summed over every action):")
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        print(pd.DataFrame(summary).to_string(index=False))
    if len(ways) == 2 and len(jobs) > 2:
        a, b = (every[every["compare"] == way].reset_index(drop=True) for way in ways)
        gap, lo, hi = paired_correlation_gap(a, b)
        print(f"\ncorrelation with the real loss, {ways[0]} minus {ways[1]} on the same {len(a)} decisions: "
              f"{gap:+.3f} (95% bootstrap interval {lo:+.3f} to {hi:+.3f})")
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
