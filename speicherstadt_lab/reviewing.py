"""Game review: how good was each decision, and how much did the cards and goods help each seat.

``review(record)`` goes along the main line (or the line to ``node``). At every decision it runs
:func:`~speicherstadt_lab.analysis.compare_actions` on the position before it (every legal action played out
from the same determinizations with the same policy streams: common random numbers) and sets the chosen
action against the best one: the *win-probability loss* and the *score loss* of the choice. A loss above the
thresholds in :data:`THRESHOLDS` flags an *inaccuracy* or a *mistake* (``docs/review.md`` gives the method
and the noise measurement behind them).

*Luck* is what the draw did: for each round's supply (cards revealed on the water spaces and, with
Kaispeicher, the top row, the cubes drawn onto ships, fires drawn among them) every seat's win probability
just before the supply (the decision that ended the previous round, with the supply resampled from what no
one can know yet; before round 1: the same set-up with fresh shuffles) is set against the one just after it.

The findings are saved in the record's annotations (``node.annotations["review"]`` per decision,
``node.annotations["luck"]`` on the position right after a supply, the settings on the root), so they
survive ``to_json``/``from_json``; :meth:`Review.from_record` reads them back.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from .analysis import compare_actions, evaluate, hybrid_horizon, leaf_outcome, rollout_seeds, t95
from .bots.mcts import playout, policy_of
from .engine.protocol import GameState, get_game, load_state, new_game
from .engine.rng import Rng, derive_seed
from .lazyimport import pandas as pd
from .records import GameRecord, Node, _support
from .resources import default_processes
from .value.model import load_model

#: Rollouts per action of a review by random rollouts (``value="rollouts"``, the levels' calibration): a 3-player
#: game (~200 decisions, ~800 actions) reviewed in about a minute on one core; see docs/review.md.
DEFAULT_ROLLOUTS = 40

#: Flags by the expected loss of the chosen action against the best one: the win-probability loss (0..1) *or*
#: the score loss (points) reaching a level flags the decision. Measured at CALIBRATED_ROLLOUTS: the action that
#: an independent set of rollouts ranks best is flagged an inaccuracy in about 1% of decisions and a mistake in
#: under 0.1% (docs/review.md).
THRESHOLDS: dict[str, dict[str, float]] = {
    "inaccuracy": {"win": 0.25, "score": 5.0},
    "mistake": {"win": 0.35, "score": 10.0},
}

#: The rollouts at which THRESHOLDS were measured. The noise of a loss falls as 1/sqrt(rollouts), so the levels
#: used scale by sqrt(CALIBRATED_ROLLOUTS / rollouts): wider with fewer rollouts, finer with more (the null flag
#: rate stays about 1% from 10 to 100 rollouts), never below FLOORS.
CALIBRATED_ROLLOUTS = 40

#: ``thresholds_for`` of a measure without sampling noise (the value model): the floors.
NOISELESS = 10**6

#: The smallest levels, however many rollouts: a loss below them is not worth a flag.
FLOORS: dict[str, dict[str, float]] = {
    "inaccuracy": {"win": 0.10, "score": 2.0},
    "mistake": {"win": 0.20, "score": 5.0},
}

#: The levels of a review by the hybrid (``value="hybrid"``). benchmarks/review_levels.py on tuning games (seeds
#: "review-levels-tuning", 672 decisions of two greedy seats and a random one) measured the real loss of a choice
#: (200 greedy play-outs of the chosen and the best move) at 0.85 × the hybrid's loss (correlation 0.70); these
#: are the floors over 0.85, so that a flag's real loss reaches the floors on average.
HYBRID_LEVELS: dict[str, dict[str, float]] = {
    "inaccuracy": {"win": 0.12, "score": 2.4},
    "mistake": {"win": 0.24, "score": 6.0},
}

#: What may measure a review's losses: rollouts (None), the value model, or the hybrid (both find the move too).
VALUES = (None, "model", "hybrid")

#: Rollouts per action by default for each ``value``: the hybrid's 20 are the app's, with which its levels were
#: checked against real losses (docs/review.md).
REVIEW_ROLLOUTS: dict[str | None, int] = {None: DEFAULT_ROLLOUTS, "model": DEFAULT_ROLLOUTS, "hybrid": 20}

#: How the hybrid review compares the moves of a decision (``review(search=...)``): ``"race"`` (the default) plays
#: every action's rollouts in stages and drops, at the checkpoints ``RACE``, an action clearly behind the leader (never
#: the move played); ``"full"`` plays every action all ``rollouts`` times. Both measured on the same held-out decisions
#: by benchmarks/review_levels.py at full size: the race's losses correlate with real losses as well as the full
#: comparison's (paired gap +0.001 in both games) for 0.61-0.64 times the rollouts (docs/review.md, "Runtime").
SEARCHES = ("race", "full")

#: The race's checkpoints (rollouts per action) in the hybrid review's comparison of moves.
RACE: tuple[int, ...] = (3, 6, 10)

#: A review of more steps (decisions and supplies) than this uses a process pool by default.
POOL_FROM = 16

REVIEW_KEY = "review"
# what a decision keeps of compare_actions' table
_COMPARED = ["action", "win_prob", "score_mean", "win_gap_se", "score_gap_se", "rollouts"]
LUCK_KEY = "luck"
_DIGITS = 4

DECISION_COLUMNS = ["ply", "round", "phase", "seat", "action", "best_action", "win_prob", "best_win_prob",
                    "score", "best_score", "win_loss", "score_loss", "flag", "actions"]
LUCK_COLUMNS = ["round", "ply", "seat", "win_before", "win_after", "luck", "score_before", "score_after",
                "score_luck", "revealed"]


# ---- the result ---------------------------------------------------------------------------------


@dataclass
class Review:
    """A game review: ``decisions`` (one row per decision), ``luck`` (one row per supply and seat), and
    ``settings`` (rollouts, bot, seed, thresholds). ``summary()`` sums it up per seat."""

    decisions: pd.DataFrame
    luck: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> pd.DataFrame:
        """Per seat: decisions, share of best moves, accuracy (share not flagged), inaccuracies, mistakes,
        mean win-probability loss, total score loss, and luck with ``luck_margin``.

        Luck is the sum of win-probability and score changes at the supplies; ``luck_margin`` a bound on its 95%
        sampling error (:func:`luck_margin`)."""
        d, lk = self.decisions, self.luck
        n_luck = self.settings.get("luck_rollouts")
        noiseless = self.settings.get("value") == "model"
        seats = sorted(set(d["seat"]).union(lk["seat"] if len(lk) else []))
        rows = []
        for s in seats:
            mine = d[d["seat"] == s]
            n = len(mine)
            luck = lk[lk["seat"] == s] if len(lk) else lk
            rows.append({
                "seat": s,
                "decisions": n,
                "best_moves": float((mine["action"] == mine["best_action"]).mean()) if n else math.nan,
                "accuracy": float((mine["flag"] == "").mean()) if n else math.nan,
                "inaccuracies": int((mine["flag"] == "inaccuracy").sum()),
                "mistakes": int((mine["flag"] == "mistake").sum()),
                "mean_win_loss": float(mine["win_loss"].mean()) if n else math.nan,
                "score_loss": float(mine["score_loss"].sum()),
                "luck": float(luck["luck"].sum()) if len(luck) else 0.0,
                "luck_margin": 0.0 if noiseless or not len(luck) else luck_margin(luck, n_luck),
                "score_luck": float(luck["score_luck"].sum()) if len(luck) else 0.0,
            })
        return pd.DataFrame(rows).set_index("seat")

    def flagged(self) -> pd.DataFrame:
        """The decisions flagged as inaccuracy or mistake, the largest win-probability loss first."""
        d = self.decisions
        return d[d["flag"] != ""].sort_values(["win_loss", "score_loss"], ascending=False, kind="stable")

    @classmethod
    def from_record(cls, record: GameRecord, node: Node | None = None) -> Review:
        """The review saved in ``record``'s annotations along the line to ``node`` (default: the main line)."""
        path = record.path_to(node if node is not None else record.end())
        settings = record.root.annotations.get(REVIEW_KEY)
        if not isinstance(settings, dict):
            raise ValueError("this record holds no review; run sl.review(record) first")
        rows, luck_rows = [], []
        for nd in path:
            luck = nd.annotations.get(LUCK_KEY)
            if isinstance(luck, dict):
                luck_rows.extend(_luck_rows(luck, nd.ply))
            if nd.parent is None:
                continue
            ann = nd.annotations.get(REVIEW_KEY)
            if isinstance(ann, dict):
                rows.append(_decision_row(nd, ann))
        return cls(_decisions_frame(rows), _luck_frame(luck_rows), dict(settings))

    def __repr__(self) -> str:
        flags = self.decisions["flag"].value_counts().to_dict() if len(self.decisions) else {}
        return (f"<Review: {len(self.decisions)} decisions, {flags.get('mistake', 0)} mistakes, "
                f"{flags.get('inaccuracy', 0)} inaccuracies, {self.luck['round'].nunique() if len(self.luck) else 0}"
                f" supplies; rollouts={self.settings.get('rollouts')}>")


def luck_margin(luck: pd.DataFrame, rollouts: int | None) -> float:
    """Half the width of a 95% interval for the sum of ``luck`` (rows of one seat) from the rollouts' noise alone.

    Each supply's win chance before and after is a mean of ``rollouts`` values in [0, 1], whose variance is at
    most p(1 − p)/rollouts; p is taken as Agresti and Coull do (two wins and two losses added: (n·p + 2)/(n + 4),
    over n + 4), so that an estimate of 0 or 1 from few rollouts still has a spread. The before and after
    estimates and the supplies are counted as independent. NaN without a rollout count (a review saved without
    it)."""
    if not rollouts:
        return math.nan
    n = float(rollouts)
    adjusted = [(n * p + 2) / (n + 4) for col in ("win_before", "win_after") for p in luck[col].clip(0, 1)]
    return 1.959963984540054 * math.sqrt(sum(q * (1 - q) / (n + 4) for q in adjusted))


# ---- flags --------------------------------------------------------------------------------------


def thresholds_for(rollouts: int) -> dict[str, dict[str, float]]:
    """The levels at ``rollouts``: THRESHOLDS scaled by sqrt(CALIBRATED_ROLLOUTS / rollouts), at least FLOORS."""
    scale = math.sqrt(CALIBRATED_ROLLOUTS / rollouts)
    return {flag: {k: round(max(v * scale, FLOORS[flag][k]), _DIGITS) for k, v in levels.items()}
            for flag, levels in THRESHOLDS.items()}


def classify(win_loss: float, score_loss: float, thresholds: dict[str, dict[str, float]] | None = None) -> str:
    """``"mistake"``, ``"inaccuracy"`` or ``""`` for a choice that loses ``win_loss`` and ``score_loss``."""
    levels = thresholds if thresholds is not None else THRESHOLDS
    for flag in ("mistake", "inaccuracy"):
        t = levels[flag]
        if win_loss >= t["win"] - 1e-9 or score_loss >= t["score"] - 1e-9:
            return flag
    return ""


# ---- the review ---------------------------------------------------------------------------------


def review(record: GameRecord, rollouts: int | None = None, bot: Any = None, seed: int = 0,
           node: Node | None = None, progress: bool = True, processes: int | None = None, luck: bool = True,
           luck_rollouts: int | None = None, since: Node | None = None, value: str | None = "auto",
           horizon: int | None = None, decisions: bool = True, skip: Callable[[Node], bool] | None = None,
           on_result: Callable[[int, int], None] | None = None, cancel: Callable[[], bool] | None = None,
           search: str = "race") -> Review:
    """Review every decision on the main line (or the line to ``node``) and the luck of every supply.

    By default the app's review: ``value="hybrid"`` with 20 rollouts per action when the game has a value model
    (its losses track what a move really lost: correlation 0.93 on held-out Die Speicherstadt games, 0.89 in
    Packet Row; docs/review.md), else random rollouts (40). ``value=None`` (or ``"rollouts"``) asks for the
    rollouts by name: with random players their losses correlated 0.06 with the real ones (the null levels of
    ``THRESHOLDS`` were measured with them at 40 rollouts; docs/review.md, "The noise measurement").

    ``rollouts``: per action at each decision (common random numbers, ``seed`` for every decision; default
    ``REVIEW_ROLLOUTS[value]``); ``bot``: the rollout player (``None``: random, fastest; a spec such as
    ``"greedy"``; the hybrid's are always greedy); ``processes``: a process pool over the decisions and supplies
    (same numbers as one process; ``bot`` must then be a spec or picklable); ``None``: as many as
    ``resources.default_processes()`` allows for a whole game (more than ``POOL_FROM`` steps), else one;
    ``luck_rollouts``: per evaluation of a supply (default ``4 * rollouts``); ``since``: review only the
    decisions and supplies after this node of the line (e.g. a variation's branch point). ``value="model"``:
    search (the rollouts) still finds the better move, but the learned value model measures what a choice
    loses (win chance and points after the chosen and the best move, on the mover's observation) and the luck
    of each supply (the model after it against its mean over the draws that could have come), without noise.
    ``value="hybrid"`` (the app's review when the game has a model): every action is played out ``rollouts``
    times by greedy players ``horizon`` rounds on and scored by the model (``compare_actions(...,
    method="hybrid")``, common random numbers); that finds the best move and measures the losses, flagged at
    ``HYBRID_LEVELS``; the luck of a supply by the same kind of rollouts (``luck_rollouts`` of them after it,
    one per redraw before it, the game's ``hybrid_horizon`` deep; ``benchmarks/luck.py``: what follows a draw
    tracks this luck, slope ~0.9, where the model's alone told nothing). ``horizon``: the rounds the
    comparison of moves plays (default: the game's ``GameInfo.review_horizon``, else its ``hybrid_horizon``;
    chosen on tuning games). ``decisions=False`` measures only the luck (the app
    reviews the decisions one by one, then the luck). Its losses are checked against real play-outs in
    ``benchmarks/review_levels.py`` (docs/review.md). ``skip``: decisions for which it says True keep their
    annotations and are not judged again; ``on_result(done, total)`` is called as each decision or supply is
    judged (its annotation already written: a progressive view); ``cancel()`` returning True stops the review
    (what was judged stays in the record; the steps not started are dropped, ``settings["cancelled"]``).
    ``search`` (the hybrid's comparison of moves): ``"race"`` (the default) plays the actions' rollouts in stages and
    drops an action clearly behind the leader at the checkpoints ``RACE`` (never the move played; an action dropped
    keeps the numbers of its rollouts, listed in the decision's ``"screened"``); the actions that run to the end have
    exactly the full comparison's numbers. ``"full"`` plays every action ``rollouts`` times. On the same held-out
    decisions of ``benchmarks/review_levels.py`` (20 games / 652 decisions of Die Speicherstadt, 12 / 237 of Packet
    Row, 200 greedy play-outs an action for the real loss) the race's losses correlated with real losses 0.948 against
    the full comparison's 0.947, and 0.881 against 0.880 (paired gaps +0.001, 95% intervals -0.000 to +0.003 and
    -0.016 to +0.015), for 0.61 and 0.64 times the rollouts (docs/review.md, "Runtime").
    Fair mode throughout: no rollout knows the hidden order. The results are also written into the record's
    annotations. A chance node on the line (``Node.rearrange``) is no decision and is not reviewed.
    """
    if value == "auto":
        value = "hybrid" if _has_model(record.root.state) else None
    elif value == "rollouts":
        value = None
    if value not in VALUES:
        raise ValueError(f"value: must be 'auto', 'rollouts' (or None), 'model' or 'hybrid', not {value!r}")
    if search not in SEARCHES:
        raise ValueError(f"search: must be one of {SEARCHES}, not {search!r}")
    if rollouts is None:
        rollouts = REVIEW_ROLLOUTS[value]
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 2:
        raise ValueError(f"rollouts: must be a whole number ≥ 2, not {rollouts!r}")
    horizon = review_horizon(record.root.state, horizon)
    luck_horizon = hybrid_horizon(record.root.state)  # as benchmarks/luck.py checked it
    luck_n = luck_rollouts if luck_rollouts is not None else 4 * rollouts
    path = record.path_to(node if node is not None else record.end())
    first = 0
    if since is not None:
        if not any(nd is since for nd in path):
            raise ValueError(f"since: {since!r} is not on the line reviewed")
        first = since.ply
    # a chance node decides nothing
    chosen = [nd for nd in path[1:] if nd.ply > first and nd.chance is None and not (skip and skip(nd))
              ] if decisions else []
    jobs: list[tuple[Any, ...]] = [("decision", _before(nd).to_json(), rollouts, bot, seed, value, nd.action,
                                    horizon, search) for nd in chosen]
    supplies = [(r, k, j) for r, k, j in _supplies(path) if k > first or (k == 0 and since is None)] if luck else []
    for _rnd, k, j in supplies:
        after = path[j].state.to_json()
        if k == 0:
            jobs.append(("luck_setup", record.game, _setup_kwargs(record), after, luck_n, bot, seed, value,
                         luck_horizon))
        else:
            jobs.append(("luck", _before(path[k]).to_json(), path[k].action, after, luck_n, bot, seed, value,
                         luck_horizon))
    start = time.perf_counter()
    levels = HYBRID_LEVELS if value == "hybrid" else thresholds_for(NOISELESS if value == "model" else rollouts)
    n_chosen = len(chosen)

    def store(i: int, res: Any) -> None:  # each result into the record as it comes: a progressive view
        if i < n_chosen:
            chosen[i].annotations[REVIEW_KEY] = _decision_annotation(chosen[i], res, levels, rollouts)
        else:
            rnd, _k, j = supplies[i - n_chosen]
            path[j].annotations[LUCK_KEY] = {"round": rnd, "revealed": _chance(record.game).revealed(path[j].state),
                                             **res}

    if processes is None:
        processes = default_processes() if len(jobs) > POOL_FROM else 1
    results = _run_jobs(jobs, processes, progress, store, on_result, cancel)
    elapsed = time.perf_counter() - start

    # The model measures without sampling noise, the limit of ever more rollouts: the levels' floors. (With the
    # rollout-scaled levels a review by the model flagged nothing in games of a random seat against greedy ones;
    # with the floors it flagged the random seat's moves more often: 7% against 1.5-5.5%, 3 games.)
    rollout_bot = "greedy" if value == "hybrid" else _label(bot)  # the hybrid always rolls out with greedy players
    settings = {"rollouts": rollouts, "luck_rollouts": luck_n if luck else None, "bot": rollout_bot, "seed": seed,
                "mode": "fair", "thresholds": levels, "seconds": round(elapsed, 1), "value": value or "rollouts",
                **({"horizon": horizon, "search": search} if value == "hybrid" else {}),
                **({"cancelled": True} if any(r is None for r in results) else {})}
    rows = [_decision_row(nd, nd.annotations[REVIEW_KEY])
            for nd, res in zip(chosen, results[:n_chosen], strict=True) if res is not None]
    luck_rows = []
    for (_rnd, _k, j), res in zip(supplies, results[n_chosen:], strict=True):
        if res is not None:
            luck_rows.extend(_luck_rows(path[j].annotations[LUCK_KEY], path[j].ply))
    record.root.annotations[REVIEW_KEY] = settings
    return Review(_decisions_frame(rows), _luck_frame(luck_rows), settings)


def _has_model(state: GameState) -> bool:
    """Whether the lab ships a value model for ``state``'s game, player count and expansion."""
    try:
        load_model(state)
    except (ValueError, FileNotFoundError):
        return False
    return True


def review_horizon(state: GameState, horizon: int | None = None) -> int:
    """The rounds the hybrid review's comparison of moves plays: ``horizon``, or the game's ``review_horizon``
    (else its ``hybrid_horizon``)."""
    return hybrid_horizon(state, horizon if horizon is not None else get_game(state.game).review_horizon)


def _before(nd: Node) -> GameState:
    """The position in which ``nd``'s action was chosen."""
    assert nd.parent is not None
    return nd.parent.state


def _label(bot: Any) -> str:
    return "random" if bot is None else bot if isinstance(bot, str) else repr(bot)


def _setup_kwargs(record: GameRecord) -> dict[str, Any]:
    """``new_game`` arguments of the record without its hidden orders (so a seed shuffles them afresh)."""
    hidden = _support(record.game).hidden_fields
    return {k: v for k, v in record.setup.items() if k not in hidden}


class _NoChanceSteps:
    """For a game that declares no "chance" capability: a round's chance step is complete at once and
    reveals nothing by name."""

    @staticmethod
    def settling(state: GameState) -> bool:
        return False

    @staticmethod
    def revealed(state: GameState) -> list[str]:
        return []


def _chance(game: str) -> Any:
    return get_game(game).capability("chance") or _NoChanceSteps


def _supplies(path: list[Node]) -> list[tuple[int, int, int]]:
    """(round, k, j) per round reached on ``path``: ``path[k]`` is the first node in that round (its action
    started the round's chance step; 0 for round 1), ``path[j]`` the first one with it complete (the game's
    ``settling`` says when it is not, e.g. a fire still to be decided)."""
    out: list[tuple[int, int, int]] = []
    k = 0
    rnd = path[0].state.round
    settling = _chance(path[0].state.game).settling
    while k < len(path):
        j = k
        while j < len(path) and settling(path[j].state) and path[j].state.round == rnd:
            j += 1
        if j < len(path) and path[j].state.round == rnd and not path[j].state.is_over:
            out.append((rnd, k, j))
        nxt = next((i for i in range(k + 1, len(path)) if path[i].state.round > rnd), None)
        if nxt is None:
            break
        k, rnd = nxt, path[nxt].state.round
    return out


# ---- jobs (run here or in worker processes) -------------------------------------------------------


def _run_jobs(jobs: list[tuple[Any, ...]], processes: int | None, progress: bool,
              store: Callable[[int, Any], None] | None = None, on_result: Callable[[int, int], None] | None = None,
              cancel: Callable[[], bool] | None = None) -> list[Any]:
    """Every job's result in order (None for a job dropped by ``cancel``); ``store(i, result)`` and
    ``on_result(done, total)`` as each comes in. A pool's processes end with the review, cancelled or not.

    With several processes each worker walks a stretch of neighbouring jobs (:class:`_Stretches`), so that its memos
    (``bots/memo.py``) hold the positions its next decision meets again: handed out one at a time to whichever
    worker was free, neighbours landed on different workers and every worker met cold positions."""
    from tqdm.auto import tqdm  # here, not at the top: the app imports this module and never shows a bar

    bar = tqdm(total=len(jobs), desc="review", unit="step", disable=not progress)
    results: list[Any] = [None] * len(jobs)
    done = 0

    def finished(i: int, res: Any) -> None:
        nonlocal done
        results[i] = res
        done += 1
        if store is not None:
            store(i, res)
        bar.update(1)
        if on_result is not None:
            on_result(done, len(jobs))

    try:
        if not processes or processes <= 1 or len(jobs) <= 1:
            for i, job in enumerate(jobs):
                if cancel is not None and cancel():
                    break
                finished(i, _job(job))
            return results
        n = min(processes, len(jobs))
        stretches = _Stretches(len(jobs), n)
        # one single-process pool per worker: a job goes to the worker whose stretch it is in
        pools = [ProcessPoolExecutor(1) for _ in range(n)]
        try:
            pending: dict[Future[Any], tuple[int, int]] = {}

            def feed(w: int) -> None:  # keeps a worker QUEUED jobs ahead, so it never waits for this process
                while sum(1 for _i, v in pending.values() if v == w) < QUEUED:
                    i = stretches.next(w)
                    if i is None:
                        return
                    pending[pools[w].submit(_job, jobs[i])] = (i, w)

            for w in range(n):
                feed(w)
            while pending:
                ready, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for fut in sorted(ready, key=lambda f: pending[f][0]):
                    i, w = pending.pop(fut)
                    finished(i, fut.result())
                if cancel is not None and cancel():
                    for fut in pending:
                        fut.cancel()
                    break
                for w in range(n):
                    feed(w)
        finally:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)
        return results
    finally:
        bar.close()


#: Jobs queued ahead per worker of a pooled review: one running, one waiting, so no worker waits for the parent.
QUEUED = 2


class _Stretches:
    """Which job each of ``workers`` workers takes next: worker w starts at the w-th of ``workers`` equal stretches of
    the line and walks on; a worker whose stretch is used up takes the back half of the longest stretch left (the
    last job of it when one is left), so all finish together and each keeps walking between neighbours."""

    def __init__(self, jobs: int, workers: int) -> None:
        self.spans = [[w * jobs // workers, (w + 1) * jobs // workers] for w in range(workers)]

    def next(self, w: int) -> int | None:
        """The next job for worker ``w``, or None when every job is handed out."""
        lo, hi = self.spans[w]
        if lo >= hi:
            v = max(range(len(self.spans)), key=lambda u: self.spans[u][1] - self.spans[u][0])
            vlo, vhi = self.spans[v]
            if vlo >= vhi:
                return None
            mid = (vlo + vhi) // 2
            self.spans[v][1] = mid
            self.spans[w] = [mid, vhi]
            lo = mid
        self.spans[w][0] = lo + 1
        return lo


def _job(job: tuple[Any, ...]) -> Any:
    kind = job[0]
    if kind == "decision":
        _, text, rollouts, bot, seed, value, chosen, horizon, *rest = job
        search = rest[0] if rest else "full"
        state = load_state(text)
        if value == "hybrid":  # greedy rollouts ``horizon`` rounds on, scored by the model: find and measure
            df = compare_actions(state, rollouts=rollouts, bot="greedy", seed=seed, method="hybrid", horizon=horizon,
                                 race=RACE if search == "race" else None, keep=[chosen])
            return df[_COMPARED].to_dict("records")
        df = compare_actions(state, rollouts=rollouts, bot=bot, seed=seed)
        rows = df[_COMPARED].to_dict("records")
        if value == "model":  # search ranks the moves; the model measures the chosen and the best one
            for r in rows:  # without sampling noise: no interval from the rollouts
                r["win_gap_se"] = r["score_gap_se"] = None
            model = load_model(state)
            mover = state.to_move
            obs = state.observe(mover)
            for r in rows:
                if r["action"] in (rows[0]["action"], chosen):
                    after = model.predict(obs.apply(r["action"]))
                    r["win_prob"] = float(after.loc[mover, "win_prob"])
                    r["score_mean"] = float(after.loc[mover, "score_mean"])
        return rows
    if kind == "luck":
        _, before_text, action, after_text, n, bot, seed, value, horizon = job
        before = load_state(before_text).observe(None)
        return _luck(lambda d: before.determinize(d).apply(action), load_state(after_text), n, bot, seed, value,
                     horizon)
    _, game, kwargs, after_text, n, bot, seed, value, horizon = job
    return _luck(lambda d: new_game(game, seed=d, **kwargs), load_state(after_text), n, bot, seed, value, horizon)


def _luck(make_before: Callable[[int], GameState], after: GameState, n: int, bot: Any, seed: int,
          value: str | None = None, horizon: int | None = None) -> dict[str, Any]:
    """Per seat, win probability and mean score just before (rollouts from ``make_before(det_seed)``, or the
    value model's mean over those draws) and after (``evaluate``, or the model) a supply. The hybrid: one
    greedy rollout ``horizon`` rounds deep per draw before, ``n`` of them after, each scored by the model."""
    if value == "hybrid":
        win_b, score_b = outcomes(make_before, n, "greedy", seed, horizon=horizon)
        ev = evaluate(after, rollouts=n, bot="greedy", seed=seed, method="hybrid", horizon=horizon)
        return {"win_before": _r(win_b), "score_before": _r(score_b),
                "win_after": _r(list(ev["win_prob"])), "score_after": _r(list(ev["score_mean"]))}
    if value == "model":  # the model: no sampling noise in the luck
        model = load_model(after)
        draws = [model.predict(make_before(derive_seed(seed, "determinize", r))) for r in range(n)]
        win_b = [sum(float(d.loc[i, "win_prob"]) for d in draws) / n for i in range(after.n_players)]
        score_b = [sum(float(d.loc[i, "score_mean"]) for d in draws) / n for i in range(after.n_players)]
        ev = model.predict(after)
        return {"win_before": _r(win_b), "score_before": _r(score_b),
                "win_after": _r(list(ev["win_prob"])), "score_after": _r(list(ev["score_mean"]))}
    win_b, score_b = outcomes(make_before, n, bot, seed)
    ev = evaluate(after, rollouts=n, bot=bot, seed=seed)
    return {"win_before": _r(win_b), "score_before": _r(score_b),
            "win_after": _r(list(ev["win_prob"])), "score_after": _r(list(ev["score_mean"]))}


def outcomes(make_start: Callable[[int], GameState], rollouts: int, bot: Any, seed: int,
             horizon: int | None = None) -> tuple[list[float], list[float]]:
    """Per seat (win share, mean final score) over rollouts from ``make_start(det_seed)``.

    Rollout *r* starts from ``make_start(d_r)`` and plays with the policy stream of rollout *r*, the seeds
    :func:`~speicherstadt_lab.analysis.evaluate` uses, so ``make_start = state.observe(None).determinize``
    gives exactly ``evaluate(state)``'s numbers. With a ``horizon`` a rollout stops when that many more rounds
    have begun and the value model scores it, as ``evaluate(state, method="hybrid")`` does.
    """
    policy = policy_of(make_bot_for(bot, seed))
    wins: list[float] = []
    scores: list[float] = []
    model = None
    for r in range(rollouts):
        det_seed, rng = rollout_seeds(seed, r)
        start = make_start(det_seed)
        if horizon is not None and model is None:
            model = load_model(start)
        until = None if horizon is None else start.round + horizon
        score, share, _cut = leaf_outcome(playout(start, policy, Rng(rng.next64()), until_round=until), model)
        if not wins:
            wins, scores = [0.0] * len(share), [0.0] * len(share)
        for i, (w, sc) in enumerate(zip(share, score, strict=True)):
            wins[i] += w
            scores[i] += sc
    return [w / rollouts for w in wins], [s / rollouts for s in scores]


def make_bot_for(bot: Any, seed: int) -> Any:
    """The rollout bot as ``evaluate`` builds it: a spec becomes a bot seeded from ``(seed, "bot")``."""
    if isinstance(bot, str) and bot != "random":
        from .bots import make_bot

        return make_bot(bot, seed=derive_seed(seed, "bot"))
    return bot


# ---- annotations and tables -----------------------------------------------------------------------


def _r(xs: list[float]) -> list[float]:
    return [round(float(x), _DIGITS) for x in xs]


def gain_interval(gain: float, se: float | None, rollouts: int) -> list[float] | None:
    """The 95% interval of a gap measured over ``rollouts`` paired rollouts: ``gain ± t(rollouts − 1) · se``
    (Student's t: the standard error is itself estimated from the rollouts); None without a standard error."""
    if se is None or not math.isfinite(se) or rollouts < 2:
        return None
    half = t95(rollouts - 1) * se
    return [round(gain - half, _DIGITS), round(gain + half, _DIGITS)]


def _decision_annotation(nd: Node, rows: list[dict[str, Any]], levels: dict[str, dict[str, float]],
                         rollouts: int = 0) -> dict[str, Any]:
    """The JSON-ready finding for one decision from compare_actions' rows (best first). ``gain_ci``: the 95%
    intervals of the best action's lead over the chosen one (win share and points, from the standard error
    of their paired difference over the ``rollouts`` rollouts), when the rollouts measured it; ``screened``: the
    actions a race judged with fewer rollouts, and how many."""
    best = rows[0]
    chosen = next(r for r in rows if r["action"] == nd.action)
    # a race (``search="race"``): the chosen move runs it to the end, beside the best unless it is the best itself
    screened = {r["action"]: int(r["rollouts"]) for r in rows if r.get("rollouts", rollouts) < rollouts}
    rollouts = int(chosen.get("rollouts", rollouts))
    win_loss = max(0.0, best["win_prob"] - chosen["win_prob"])
    score_loss = max(0.0, best["score_mean"] - chosen["score_mean"])  # the best action is never flagged
    win_ci = gain_interval(best["win_prob"] - chosen["win_prob"], chosen.get("win_gap_se"), rollouts)
    score_ci = gain_interval(best["score_mean"] - chosen["score_mean"], chosen.get("score_gap_se"), rollouts)
    ci = {"gain_ci": {"win": win_ci, "score": score_ci, "rollouts": rollouts}} if win_ci and score_ci else {}
    return {
        "best": best["action"],
        "win_prob": round(chosen["win_prob"], _DIGITS),
        "score": round(chosen["score_mean"], _DIGITS),
        "best_win_prob": round(best["win_prob"], _DIGITS),
        "best_score": round(best["score_mean"], _DIGITS),
        "win_loss": round(win_loss, _DIGITS),
        "score_loss": round(score_loss, _DIGITS),
        "flag": classify(win_loss, score_loss, levels),
        "actions": {r["action"]: [round(r["win_prob"], _DIGITS), round(r["score_mean"], _DIGITS)] for r in rows},
        **ci,
        **({"screened": screened} if screened else {}),
    }


def _decision_row(nd: Node, ann: dict[str, Any]) -> dict[str, Any]:
    before = _before(nd)
    return {"ply": nd.ply, "round": before.round, "phase": before.phase, "seat": nd.actor, "action": nd.action,
            "best_action": ann["best"], "win_prob": ann["win_prob"], "best_win_prob": ann["best_win_prob"],
            "score": ann["score"], "best_score": ann["best_score"], "win_loss": ann["win_loss"],
            "score_loss": ann["score_loss"], "flag": ann["flag"], "actions": len(ann.get("actions", {}))}


def _luck_rows(ann: dict[str, Any], ply: int) -> list[dict[str, Any]]:
    rows = []
    for s, (wb, wa, sb, sa) in enumerate(zip(ann["win_before"], ann["win_after"], ann["score_before"],
                                             ann["score_after"], strict=True)):
        rows.append({"round": ann["round"], "ply": ply, "seat": s, "win_before": wb, "win_after": wa,
                     "luck": round(wa - wb, _DIGITS), "score_before": sb, "score_after": sa,
                     "score_luck": round(sa - sb, _DIGITS), "revealed": ", ".join(ann.get("revealed", []))})
    return rows


def _decisions_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=DECISION_COLUMNS)
    return df.astype({"ply": "int64", "round": "int64", "seat": "int64", "actions": "int64"})


def _luck_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=LUCK_COLUMNS)
    return df.astype({"round": "int64", "ply": "int64", "seat": "int64"})


__all__ = ["DEFAULT_ROLLOUTS", "FLOORS", "REVIEW_ROLLOUTS", "THRESHOLDS", "Review", "classify", "gain_interval",
           "luck_margin", "outcomes",
           "review", "thresholds_for"]
