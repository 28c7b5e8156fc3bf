"""What-if analysis by rollouts: who is likely to win from here, and which action is best.

``evaluate`` plays a position to the end many times and reports, per seat, the win probability (with a
95% Wilson interval) and the final score's mean and spread. ``compare_actions`` does the same after each
legal action of the seat to move. Both work on the game protocol only.

Fair mode (the default) never uses what no player can know: every rollout starts from the public
observation with the hidden order (draw pile, bag) resampled by ``determinize``. Oracle mode plays from
the true state, hidden order included. Rollout *i* uses the same determinization seed and the same
policy random stream in both modes and for every action compared (common random numbers), so
differences between actions are not blurred by different luck.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .bots.mcts import playout, policy_of
from .bots.memo import DecisionMemo, public_key
from .engine.actions import Action
from .engine.protocol import GameState, get_game, load_state
from .engine.rng import Rng, derive_seed
from .lazyimport import pandas as pd
from .value.model import ValueModel, features_of, load_model

MODES = ("fair", "oracle")
METHODS = ("rollouts", "model", "hybrid")
#: What ``evaluate``'s columns count (its ``attrs["units"]``).
UNITS = {"win_prob": "probability 0..1 (ties split)", "win_lo": "probability", "win_hi": "probability",
         "score_mean": "points", "score_std": "points"}


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion ``p`` observed over ``n`` trials (95% for z = 1.96)."""
    if n <= 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


#: Student's t 0.975 quantiles for 1..4 degrees of freedom; from 5 on :func:`t95` uses the Cornish-Fisher series
#: (within 0.0003 of the exact value).
_T95_SMALL = (12.706, 4.303, 3.182, 2.776)


def t95(dof: int) -> float:
    """The two-sided 95% quantile of Student's t with ``dof`` degrees of freedom (1.96 as ``dof`` grows)."""
    if dof < 1:
        return math.inf
    if dof <= len(_T95_SMALL):
        return _T95_SMALL[dof - 1]
    z, v = 1.959963984540054, float(dof)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


def rollout_seeds(seed: int, r: int) -> tuple[int, Rng]:
    """(determinization seed, policy generator) of rollout ``r``: shared by every action and both modes."""
    return derive_seed(seed, "determinize", r), Rng(seed, "policy", r)


def _start(state: GameState, public: GameState | None, det_seed: int) -> GameState:
    return state if public is None else public.determinize(det_seed)


Leaf = tuple[list[float], list[float], bool]  # (final scores, win shares) per seat; True if the model scored it


class Cancelled(Exception):
    """A judgement stopped by its ``cancel`` callable before its last rollout (nothing of it is returned)."""


def _rollouts(state: GameState, actions: list[Action | None], rollouts: range, bot: Any, mode: str,
              seed: int, viewer: int | None = None, horizon: int | None = None,
              model: ValueModel | None = None, cancel: Callable[[], bool] | None = None) -> list[list[Leaf]]:
    """For each action (None: none), each rollout's leaf (:func:`leaf_outcome`); raises :class:`Cancelled` when
    ``cancel()`` returns True before a rollout.

    Fair mode samples what ``viewer`` cannot see (None: what nobody can see, e.g. the pile order). With a
    ``horizon`` (rounds), a rollout stops when that many more rounds have begun and the value model scores
    the position it reached (its win probabilities as shares, its expected final scores); a rollout that
    reaches the game's last round plays it out (``playout``). ``model``: the value model (default: the shipped one).
    """
    policy = policy_of(_make(bot, seed))
    public = state.observe(viewer) if mode == "fair" else None
    model = (model or load_model(state)) if horizon is not None else None
    until = None if horizon is None else state.round + horizon
    out: list[list[Leaf]] = [[] for _ in actions]
    # A rollout from the very same start as an earlier one, whose player drew nothing from its stream there (the
    # greedy bot without ties), plays the very same game: its leaf is reused, exactly. That happens when the
    # hidden order has one arrangement left (the last rounds; oracle mode; the luck after a supply, whose
    # rollouts stop before the next draw). Starts are compared by their full text (~0.3 ms); after
    # ``_PROBE`` rollouts without a repeat no more are compared.
    deterministic = isinstance(bot, str) and bot.partition(":")[0] == "greedy"  # a function of state and stream
    keys: set[str] | None = set() if deterministic else None
    known: dict[tuple[str, int], Leaf] = {}
    repeated = False
    for r in rollouts:
        if cancel is not None and cancel():
            raise Cancelled(f"cancelled before rollout {r}")
        det_seed, rng = rollout_seeds(seed, r)
        start = _start(state, public, det_seed)
        s0 = rng.next64()  # the policy stream of this rollout, restarted for every action
        key = None
        if keys is not None:
            key = "" if public is None else start.to_json()
            if key in keys:
                repeated = True
            elif len(keys) >= _PROBE and not repeated:
                keys, key = None, None
            else:
                keys.add(key)
        for k, a in enumerate(actions):
            leaf = known.get((key, k)) if key is not None else None
            if leaf is None:
                s = start if a is None else start.apply(a)
                stream = Rng(s0)
                leaf = leaf_outcome(playout(s, policy, stream, until_round=until), model)
                if key is not None and stream.state() == s0:  # nothing drawn: the game depends on the start only
                    known[(key, k)] = leaf
            out[k].append(leaf)
    return out


#: Rollout starts compared before giving up on finding repeats (see ``_rollouts``).
_PROBE = 4

#: The value model's leaves by (model, public position) (``leaf_outcome``; a review's decision reaches ~80). A leaf's
#: lists are never changed.
_LEAVES = DecisionMemo(4_000)


def leaf_outcome(final: GameState, model: Any = None) -> Leaf:
    """(final scores, win shares, cut) per seat where a rollout stopped: the game's own result when it is over,
    else the value model's expected scores and win probabilities (a hybrid rollout cut short: ``cut`` True)."""
    if model is not None and not final.is_over:
        # The model scores the public features only, so a leaf is remembered by its public position: a review's
        # neighbouring decisions reach the same leaves (the next decision's move of the greedy player replays this
        # one's rollouts), and reading a leaf's features cost ~1/7 of a review (docs/review.md).
        # (An entry holds its model, so no other model can take that model's id while the entry lives.)
        key = public_key(final)
        if key is not None:
            key = (id(model), key)
            hit = _LEAVES.get(key)
            if hit is not None and hit[0] is model:
                return hit[1]  # type: ignore[no-any-return]
        x = features_of(final)[1]
        leaf = (model.scores(x).tolist(), model.win_probs(x).tolist(), True)
        if key is not None:
            _LEAVES.put(key, (model, leaf))
        return leaf
    n = final.n_players
    winners = final.winners()
    return ([float(final.score(i)) for i in range(n)], [1.0 / len(winners) if i in winners else 0.0 for i in range(n)],
            False)


def _make(bot: Any, seed: int) -> Any:
    if isinstance(bot, str) and bot != "random":
        from .bots import make_bot

        return make_bot(bot, seed=derive_seed(seed, "bot"))
    return bot


def _job(args: tuple[str, list[str | None], int, int, Any, str, int, int | None, int | None, ValueModel | None]
         ) -> list[list[Leaf]]:
    text, actions, start, stop, bot, mode, seed, viewer, horizon, model = args
    state = load_state(text)
    acts = [None if a is None else state.parse_action(a) for a in actions]
    return _rollouts(state, acts, range(start, stop), bot, mode, seed, viewer, horizon, model)


def _run(state: GameState, actions: list[Action | None], rollouts: int, bot: Any, mode: str, seed: int,
         processes: int | None, viewer: int | None = None, horizon: int | None = None,
         model: ValueModel | None = None, cancel: Callable[[], bool] | None = None) -> list[list[Leaf]]:
    """Each action's leaves (:func:`_rollouts`), in ``processes`` processes (``cancel`` heard in one process only)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if rollouts < 1:
        raise ValueError("rollouts must be at least 1")
    if not processes or processes <= 1:
        return _rollouts(state, actions, range(rollouts), bot, mode, seed, viewer, horizon, model, cancel)
    bounds = [rollouts * k // processes for k in range(processes + 1)]
    text = state.to_json()
    texts = [None if a is None else str(a) for a in actions]
    jobs = [(text, texts, bounds[k], bounds[k + 1], bot, mode, seed, viewer, horizon, model)
            for k in range(processes)]
    out: list[list[Leaf]] = [[] for _ in actions]
    with ProcessPoolExecutor(processes) as pool:
        for part in pool.map(_job, jobs):  # in order: the same numbers as one process
            for k in range(len(actions)):
                out[k].extend(part[k])
    return out


def _summary(results: list[Leaf], seat: int) -> dict[str, float]:
    n = len(results)
    scores = [r[0][seat] for r in results]
    p = sum(r[1][seat] for r in results) / n
    lo, hi = wilson(p, n)
    mean = sum(scores) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
    return {"win_prob": p, "win_lo": lo, "win_hi": hi, "score_mean": mean, "score_std": std}


def _paired_se(top: list[Leaf], other: list[Leaf], seat: int, k: int) -> float:
    """Standard error of the mean of ``top − other`` over paired rollouts (the same determinization and policy
    stream, common random numbers): ``k`` 0 the seat's final score, 1 its win share. NaN with one rollout."""
    d = [a[k][seat] - b[k][seat] for a, b in zip(top, other, strict=True)]
    n = len(d)
    if n < 2:
        return math.nan
    mean = sum(d) / n
    return math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _label(bot: Any) -> str:
    return "random" if bot is None else bot if isinstance(bot, str) else repr(bot)


def hybrid_horizon(state: GameState, horizon: int | None = None) -> int:
    """The rounds a hybrid rollout plays: ``horizon``, or the game's own (``GameInfo.hybrid_horizon``)."""
    h = get_game(state.game).hybrid_horizon if horizon is None else horizon
    if isinstance(h, bool) or not isinstance(h, int) or h < 1:
        raise ValueError(f"horizon: must be a whole number of rounds ≥ 1, not {horizon!r}")
    return h


def evaluate(state: GameState, rollouts: int | None = None, bot: Any = None, mode: str = "fair", seed: int = 0,
             processes: int | None = None, method: str | None = None, horizon: int | None = None,
             model: ValueModel | None = None) -> pd.DataFrame:
    """Per seat: win probability (ties split) with a 95% interval, final score mean and std.

    Without ``method``, ``rollouts`` or ``bot``: the lab's quick judgement (:func:`quick_evaluate`: 12 greedy
    rollouts the game's ``hybrid_horizon`` rounds deep scored by the value model, ~15-45 ms), the best the
    calibration benchmark found at ≤ 50 ms (Brier 0.46 on held-out 3-player games against 0.58 for 1,000 random
    rollouts; docs/review.md, "Calibration"); a game without a value model gets 1,000 random rollouts instead.

    ``method``: ``"rollouts"`` plays the position to the end ``rollouts`` times (default 1,000; ``rollouts`` or
    ``bot`` given without a method mean this). With random players (``bot=None``) it is the lab's roughest
    judgement: on held-out 3-player games of greedy self-play 400 random rollouts scored Brier 0.58-0.60 (one
    second a position), worse than the value model alone, and their Wilson band held greedy play's win chance
    for only 14-28% of the seats; ``bot="greedy"`` (100 rollouts, ~0.7 s) is the accurate, slow one.
    ``"model"`` asks the learned value model (``speicherstadt_lab.value``; a millisecond); ``"hybrid"`` plays
    ``rollouts`` rollouts (default 1,000) until ``horizon`` more rounds have begun (default: the game's
    ``hybrid_horizon``) and lets the model score where they got. ``bot``: the rollout player for every seat:
    ``None`` (uniformly random, fastest), a bot spec such as ``"greedy"``, a bot, or a policy
    ``(state, rng) -> action``. ``mode``: ``"fair"`` resamples the
    hidden order per rollout from the public facts; ``"oracle"`` plays from the true state. ``processes`` > 1
    spreads the rollouts over a process pool (same numbers as one process). ``model``: the value model of
    ``"model"`` and ``"hybrid"`` (default: the shipped one for the state's game).

    The interval (``attrs["interval"]``): ``"measured"`` for the model and for the quick judgement's setting
    (:func:`quick_evaluate`) where the model file holds widths measured on held-out games (``value.intervals``:
    the win chance of greedy play lay inside it for 95% of held-out seats; ``"measured for other cards"`` when the
    state's catalogue is not the one they were measured with); ``"exact"`` for the model on a
    finished game; ``"calibration bins"`` for a model file without measured widths; else ``"sampling"``, the
    rollouts' own (Wilson 95% over the rollouts: for a hybrid it leaves out what the model gets wrong at the
    leaves).
    """
    if method is None:
        if rollouts is None and bot is None:
            try:
                vm = model or load_model(state)
            except (ValueError, FileNotFoundError):  # no value model for this game or player count: the rollouts
                method = "rollouts"
            else:
                df = evaluate(state, seed=seed, mode=mode, processes=processes, horizon=horizon, model=vm, **QUICK)
                df.attrs["judgement"] = "quick"
                return df
        else:
            method = "rollouts"
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    if rollouts is None:
        rollouts = 1000
    if method == "model":
        df = (model or load_model(state)).predict(state)
        df.attrs.update({"mode": mode, "units": UNITS})
        return df
    vm = None
    if method == "hybrid":
        horizon = hybrid_horizon(state, horizon)
        vm = model or load_model(state)
    res = _run(state, [None], rollouts, bot, mode, seed, processes,
               horizon=horizon if method == "hybrid" else None, model=vm)[0]
    rows = [{"seat": i, **_summary(res, i)} for i in range(state.n_players)]
    df = pd.DataFrame(rows).set_index("seat")
    interval = "sampling"
    if vm is not None:  # the spread of the final score beyond the leaves the model scored: the model's own
        cut = sum(leaf[2] for leaf in res) / len(res)
        df["score_std"] = (df["score_std"] ** 2 + cut * vm.score_std**2) ** 0.5
        measured = vm.intervals.get("quick")
        if (mode == "fair" and not state.is_over and measured is not None
                and measured.settings == quick_settings(rollouts, bot, horizon)):
            lo, hi = measured.bounds(df["win_prob"].to_numpy(), state.round)
            df["win_lo"], df["win_hi"] = lo, hi
            interval = vm.interval_kind(state, "quick")
    games = len({(tuple(leaf[0]), tuple(leaf[1])) for leaf in res})
    if rollouts > 1 and games == 1 and interval == "sampling":
        # every rollout was the same game (deterministic players from one order: oracle mode, greedy bots): one
        # sample, not ``rollouts``; a Wilson band over n rollouts would claim a precision nobody measured
        for i in df.index:
            df.loc[i, ["win_lo", "win_hi"]] = wilson(float(df.loc[i, "win_prob"]), 1)
        interval = "one game: every rollout the same"
        warnings.warn(f"evaluate: all {rollouts} rollouts played the same game (mode={mode!r}, bot={_label(bot)!r}); "
                      "the result is one game's, its interval that of a single sample", RuntimeWarning, stacklevel=2)
    df.attrs.update({"rollouts": rollouts, "mode": mode, "seed": seed, "bot": _label(bot), "method": method,
                     "interval": interval, "units": UNITS, "games": games,
                     **({"horizon": horizon} if method == "hybrid" else {})})
    return df


def compare_lines(lines: Sequence[Any], mode: str = "oracle", seed: int = 0) -> pd.DataFrame:
    """Each line's outlook, side by side: one row per line and seat (``line``, ``seat``, ``win_prob`` with its
    95% interval, ``score_mean``) from the quick judgement.

    ``lines``: states, or record nodes (a chance variation and the line it rearranges, say). ``mode="oracle"`` (the
    default here) plays each line's rollouts on its own hidden order, which is what tells chance lines apart; ``"fair"``
    resamples that order from the public facts, so lines that differ only in it get the same numbers: that is warned
    about, not hidden. ``attrs["note"]`` says which it was."""
    states = [getattr(x, "state", x) for x in lines]
    if not states:
        raise ValueError("lines: give at least one state or node")
    if mode == "fair" and len(states) > 1 and len({st.fingerprint() for st in states}) == 1:
        warnings.warn("compare_lines: these lines share every public fact and differ only in hidden order; fair mode "
                      "resamples that order, so their numbers come out the same. Use mode='oracle'.",
                      RuntimeWarning, stacklevel=2)
    frames = []
    for k, st in enumerate(states):
        ev = quick_evaluate(st, seed=seed, mode=mode)
        frames.append(ev.reset_index().assign(line=k))
    df = pd.concat(frames, ignore_index=True)
    df = df[["line", "seat", *[c for c in df.columns if c not in ("line", "seat")]]]
    df.attrs.update({"mode": mode, "seed": seed, "method": "quick", "note": (
        "each line on its own hidden order (oracle)" if mode == "oracle" else
        "hidden order resampled from the public facts (fair): lines differing only in it look the same")})
    return df


def quick_settings(rollouts: int, bot: Any, horizon: int | None) -> dict[str, Any]:
    """A hybrid's setting as a model file records the quick judgement's (``intervals.quick.settings``)."""
    return {"rollouts": rollouts, "bot": _label(bot), "horizon": horizon}


# The lab's quick judgement (the live panel, the calibration benchmark's "hybrid"): greedy rollouts the game's
# ``hybrid_horizon`` rounds deep, scored by the value model. Chosen on tuning games (seeds "tuning-hybrid" and
# calibration.py --seed 7, never the benchmark's): in Die Speicherstadt one round deep beat two or three, and
# more than 12 rollouts gained nothing (the model's error at the leaves, not the rollouts' noise, is what is
# left); ~20 ms a position. Packet Row's rounds are short: 6 deep (Brier 0.528 against 0.575 one deep), ~40 ms.
QUICK: dict[str, Any] = {"method": "hybrid", "bot": "greedy", "rollouts": 12}


def quick_evaluate(state: GameState, seed: int = 0, mode: str = "fair", model: ValueModel | None = None
                   ) -> pd.DataFrame:
    """``evaluate`` with the lab's quick setting (``QUICK``, the game's ``hybrid_horizon``): win chances in tens
    of milliseconds, with the 95% interval measured for this setting on held-out games (fair mode).

    ``benchmarks/calibration.py`` measures them on held-out games. ``mode="oracle"`` plays the rollouts from the true
    hidden order (a chance variation's "what if"). Raises like ``load_model`` for a game or player count without
    a value model."""
    return evaluate(state, seed=seed, mode=mode, model=model, **QUICK)


def compare_actions(state: GameState, rollouts: int = 200, bot: Any = None, mode: str = "fair", seed: int = 0,
                    actions: list[Action | str] | None = None, processes: int | None = None,
                    method: str = "rollouts", horizon: int | None = None, race: tuple[int, ...] | None = None,
                    keep: Sequence[Action | str] = ()) -> pd.DataFrame:
    """Each legal action of the seat to move (or ``actions``), with that seat's win probability and
    expected final score after it, best first (win probability, then score).

    ``win_gap_se`` and ``score_gap_se``: the standard error of the top action's lead over this one (its win share and
    final score minus this action's, over the same paired rollouts; 0 for the top action itself), for an interval of the
    gap. ``rollouts`` (column): how many rollouts judged the action.

    Every action is played out from the same determinizations with the same policy random streams
    (common random numbers), so the ranking reflects the actions, not the luck of the draw. ``method="hybrid"``
    stops each rollout when ``horizon`` more rounds have begun (default: the game's ``hybrid_horizon``) and
    lets the value model score it, as ``evaluate`` does (``"model"`` is not offered: one position's features
    after a move say too little).

    ``race``: checkpoints (rollout counts, e.g. ``(3, 6, 10)``; those over half of ``rollouts`` are skipped) at which
    an action clearly behind the leader is dropped (:func:`race_drops`: the paired gap over ``RACE_Z`` standard
    errors), except those in ``keep``; it keeps the numbers of the rollouts it had, and the table lists the actions
    judged longest first. The race ends when one action is left. The actions that run the whole race have exactly
    the numbers of the full comparison (the same rollouts); only a dropped one would differ. Runs in this process
    (``processes`` ignored)."""
    return _compare(state, rollouts, bot, mode, seed, actions, processes, method, horizon, race, keep)[0]


def judge_moves(state: GameState, rollouts: int = 200, bot: Any = None, mode: str = "fair", seed: int = 0,
                actions: list[Action | str] | None = None, processes: int | None = None,
                method: str = "rollouts", horizon: int | None = None, race: tuple[int, ...] | None = None,
                cancel: Callable[[], bool] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One judgement of a position, as its mover sees it: ``compare_actions``' table and, from the very same
    rollouts, every seat's win probability and final score after the top action (``attrs["action"]``).

    The win probabilities carry a Wilson 95% interval over the rollouts; the mover's row there is the top action's
    row of the table. ``cancel()`` returning True before a rollout (in one process, no race) raises
    :class:`Cancelled`: the live panel drops a judgement the board has moved on from."""
    df, top = _compare(state, rollouts, bot, mode, seed, actions, processes, method, horizon, race, cancel=cancel)
    seats = pd.DataFrame([{"seat": i, **_summary(top, i)} for i in range(state.n_players)]).set_index("seat")
    seats.attrs.update({**df.attrs, "action": str(df.loc[0, "action"]), "interval": "sampling"})
    return df, seats


def _compare(state: GameState, rollouts: int, bot: Any, mode: str, seed: int, actions: list[Action | str] | None,
             processes: int | None, method: str, horizon: int | None, race: tuple[int, ...] | None = None,
             keep: Sequence[Action | str] = (), cancel: Callable[[], bool] | None = None
             ) -> tuple[pd.DataFrame, list[Leaf]]:
    """``compare_actions``' table and the top action's rollouts."""
    if method not in ("rollouts", "hybrid"):
        raise ValueError(f"method must be 'rollouts' or 'hybrid', not {method!r}")
    seat = state.to_move
    if seat is None:
        raise ValueError("compare_actions: nobody is to move (the game is over)")
    if method == "hybrid":
        horizon = hybrid_horizon(state, horizon)
    acts = state.legal_actions() if actions is None else [state.parse_action(a) for a in actions]
    # The mover knows its own hidden cards (Packet Row's hand): sample only what the mover cannot see.
    if race:
        kept = {str(state.parse_action(a)) for a in keep}
        res = _race(state, list(acts), rollouts, bot, mode, seed, seat, horizon if method == "hybrid" else None,
                    race, [str(a) in kept for a in acts])
    else:
        res = _run(state, list(acts), rollouts, bot, mode, seed, processes, viewer=seat,
                   horizon=horizon if method == "hybrid" else None, cancel=cancel)
    rows = [{"action": str(a), **_summary(r, seat), "rollouts": len(r)} for a, r in zip(acts, res, strict=True)]
    df = pd.DataFrame(rows).sort_values(["rollouts", "win_prob", "score_mean"], ascending=False, kind="stable")
    top = res[int(df.index[0])] if len(df) else []
    df["win_gap_se"] = [_paired_se(top[:len(res[int(i)])], res[int(i)], seat, 1) for i in df.index]
    df["score_gap_se"] = [_paired_se(top[:len(res[int(i)])], res[int(i)], seat, 0) for i in df.index]
    df = df.reset_index(drop=True)
    df.insert(0, "rank", range(1, len(df) + 1))
    df.attrs.update({"seat": seat, "rollouts": rollouts, "mode": mode, "seed": seed, "bot": _label(bot),
                     "method": method, **({"horizon": horizon} if method == "hybrid" else {}),
                     **({"race": tuple(race)} if race else {})})
    return df, top


#: How many standard errors of the paired gap put an action "clearly behind" the leader in a race (``race_drops``).
#: Chosen on tuning decisions (docs/review.md, "Runtime"): 1.5 dropped no action whose full comparison changed a flag.
RACE_Z = 1.5


def race_drops(leader: list[Leaf], other: list[Leaf], seat: int, z: float | None = RACE_Z) -> bool:
    """Whether ``other`` is clearly behind ``leader`` over their paired rollouts (the race of ``compare_actions``).

    Behind: the leader's lead in win share is more than ``z`` standard errors (None: Student's t 95%) above 0, or,
    where the win shares never differ, its lead in points is."""
    n = len(other)
    t = t95(n - 1) if z is None else z
    d = [a[1][seat] - b[1][seat] for a, b in zip(leader, other, strict=True)]
    if any(d):
        return sum(d) / n - t * _paired_se(leader, other, seat, 1) > 0
    return sum(a[0][seat] - b[0][seat] for a, b in zip(leader, other, strict=True)) / n \
        - t * _paired_se(leader, other, seat, 0) > 0


def _race(state: GameState, actions: list[Action], rollouts: int, bot: Any, mode: str, seed: int, seat: int,
          horizon: int | None, stages: tuple[int, ...], kept: list[bool]) -> list[list[Leaf]]:
    """Each action's leaves from a race (``compare_actions``' ``race``): every action still in it gets the next
    rollouts (the very same ones the full comparison plays: common random numbers); at each checkpoint the actions
    clearly behind the leader, not ``kept``, drop out with what they had."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    if rollouts < 1:
        raise ValueError("rollouts must be at least 1")
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 2 for n in stages):
        raise ValueError(f"race: checkpoints must be whole numbers ≥ 2, not {stages!r}")
    model = load_model(state) if horizon is not None else None
    out: list[list[Leaf]] = [[] for _ in actions]
    live = list(range(len(actions)))
    done = 0
    # a checkpoint counts where at least as many rollouts are left after it: a race of a few rollouts is a full one
    for stop in [*sorted(n for n in set(stages) if 2 * n <= rollouts), rollouts]:
        part = _rollouts(state, [actions[k] for k in live], range(done, stop), bot, mode, seed, seat, horizon, model)
        for k, leaves in zip(live, part, strict=True):
            out[k].extend(leaves)
        done = stop
        if stop == rollouts:
            break
        lead = max(live, key=lambda k: (_summary(out[k], seat)["win_prob"], _summary(out[k], seat)["score_mean"]))
        live = [k for k in live if k == lead or kept[k] or not race_drops(out[lead], out[k], seat)]
        if len(live) == 1:
            break
    return out
