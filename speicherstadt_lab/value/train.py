"""Training a value model from self-play (needs scikit-learn: ``pip install 'speicherstadt-lab[train]'``).

    speicherstadt-lab train --game speicherstadt --players 3 --games 3000 --seed 1

Games are self-play of the given bot (greedy by default) with seeds derived from ``--seed`` and the
purpose ("train" or "calibrate"), so the held-out calibration games never share a seed with the training
games (and benchmarks use other seeds again). Positions are taken at the first decision of every phase of
every round; each seat's row is labelled with whether it won and its final score. scikit-learn fits the win
head on standardized features: by default (``head="mlp"``) a small neural network that reads every seat's
features at once (turned so that each seat is first once) and says who wins, or (``head="logistic"``) one
logistic regression per seat; and a ridge regression for the final score. The file keeps only numbers
(JSON), the training set-up and the held-out Brier score. The command line then measures the model's 95%
intervals on other held-out games (``speicherstadt_lab.heldout``; they play the lab's quick judgement, which
lives above this package).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..bots import make_bot
from ..engine.protocol import GameState, new_game
from ..engine.rng import derive_seed
from ..parallel import executor_for_processes, run_parts
from .model import MODEL_FORMAT, ValueModel, features_of, model_path, turned_inputs

T = TypeVar("T")

CHUNK = 50
HEADS = ("mlp", "logistic")


def sample_positions(game: str, players: int, seed: int, games: range, bot: str = "greedy",
                     options: dict[str, Any] | None = None) -> dict[str, list[Any]]:
    """Self-play ``games`` (indices) and return the sampled positions' rows: features, won, score, game, round."""
    out: dict[str, list[Any]] = {"x": [], "won": [], "score": [], "game": [], "round": []}
    for g in games:
        game_seed = derive_seed(seed, "game", g)
        bots = [make_bot(bot, seed=derive_seed(seed, "game", g, "bot", i)) for i in range(players)]
        state = new_game(game, players=players, seed=game_seed, **(options or {}))
        taken: list[GameState] = []
        key = None
        while not state.is_over:
            now = (state.round, state.phase)
            if now != key:
                taken.append(state)
                key = now
            state = state.apply(bots[state.to_move].choose(state.observe(state.to_move)))
        winners = state.winners()
        final = [float(state.score(i)) for i in range(players)]
        for st in taken:
            _names, x = features_of(st)
            for i in range(players):
                out["x"].append(x[i].tolist())
                out["won"].append(1.0 / len(winners) if i in winners else 0.0)
                out["score"].append(final[i])
                out["game"].append(g)
                out["round"].append(st.round)
    return out


def over_games(job: Callable[[range], T], games: int, chunk: int, processes: int | None = None,
               progress: bool = True, desc: str = "games", executor: Any = None) -> list[T]:
    """``job`` on ranges of ``chunk`` game indices covering ``games``, the results in order, with a progress bar;
    the numbers are the same wherever it runs (each game has its own seeds).

    Where: ``executor`` (``parallel.EXECUTOR_HELP``: a local pool, this process, any Executor, a dask.distributed
    Client), or when it is None, ``processes`` processes (default
    :func:`~speicherstadt_lab.resources.default_processes`; 1: in this process).

    ``job`` must pickle (a module-level function, or a ``functools.partial`` of one)."""
    chunks = [range(start, min(games, start + chunk)) for start in range(0, games, chunk)]
    where = executor if executor is not None else executor_for_processes(processes)
    return run_parts(job, chunks, where, sizes=[len(ch) for ch in chunks], progress=progress, desc=desc)


def collect(game: str, players: int, seed: int, games: int, bot: str = "greedy",
            options: dict[str, Any] | None = None, processes: int | None = None,
            progress: bool = True, desc: str = "self-play", executor: Any = None) -> dict[str, np.ndarray]:
    """``sample_positions`` over ``games`` games, on ``executor`` or ``processes`` processes (``over_games``)."""
    job = partial(sample_positions, game, players, seed, bot=bot, options=options)
    parts = over_games(job, games, CHUNK, processes, progress, desc, executor)
    return {k: np.asarray([v for p in parts for v in p[k]], dtype=float) for k in parts[0]}


def model_json(model: ValueModel) -> str:
    """The model's file text: one top-level field per line (weights stay on their line; exact values)."""
    d = model.to_dict()
    fields = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in d.items()]
    return "{\n" + ",\n".join(fields) + "\n}\n"


def brier(probs: np.ndarray, won: np.ndarray, players: int) -> float:
    """Mean over positions of the sum over seats of (p - outcome)²; rows are seats, ``players`` per position."""
    return float(((probs - won) ** 2).reshape(-1, players).sum(axis=1).mean())


def _turned_training_set(xs: np.ndarray, won: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray]:
    """Inputs, labels (which turned seat won) and weights (a shared win split) for the mlp head."""
    k = xs.shape[1]
    blocks, wins = xs.reshape(-1, players, k), won.reshape(-1, players)
    inputs, labels, weights = [], [], []
    for z, w in zip(blocks, wins, strict=True):
        turned = turned_inputs(z)
        for r in range(players):
            for j in range(players):
                share = w[(r + j) % players]
                if share > 0:
                    inputs.append(turned[r])
                    labels.append(j)
                    weights.append(share)
    return np.asarray(inputs), np.asarray(labels), np.asarray(weights)


def train(game: str = "speicherstadt", players: int = 3, games: int = 3000, seed: int = 1, bot: str = "greedy",
          expansion: str | None = None, calibrate_games: int | None = None, processes: int | None = None,
          progress: bool = True, out: str | Path | None = None, catalog: str | None = None,
          head: str = "mlp", hidden: int = 32, write: bool = True, executor: Any = None) -> ValueModel:
    """Self-play, fit, calibrate on held-out games, write the JSON file (default: the package's model path;
    ``write=False``: only return the model).

    The self-play runs on ``executor`` (``parallel.EXECUTOR_HELP``: a dask.distributed Client spreads it over a
    cluster), else on ``processes`` local processes (1: this process); the model is the same wherever it ran.

    Its 95% intervals are not measured here: ``heldout.measure_intervals`` (the command line does both, and writes once,
    at the end).

    ``head``: ``"mlp"`` (one hidden layer of ``hidden`` units) or ``"logistic"``."""
    if head not in HEADS:
        raise ValueError(f"head must be one of {HEADS}, not {head!r}")
    try:
        from sklearn import __version__ as sklearn_version
        from sklearn.linear_model import LogisticRegression, Ridge
        from sklearn.neural_network import MLPClassifier
        from sklearn.preprocessing import StandardScaler
    except ImportError:  # an optional extra: say what to install
        raise ImportError("training a value model needs scikit-learn: pip install 'speicherstadt-lab[train]'") from None
    options: dict[str, Any] = {}
    if expansion:
        options["expansion"] = expansion
    if catalog:
        options["catalog"] = catalog
    start = time.perf_counter()
    data = collect(game, players, derive_seed(seed, "train"), games, bot, options, processes, progress, "train",
                   executor)
    held = collect(game, players, derive_seed(seed, "calibrate"), calibrate_games or max(200, games // 5), bot,
                   options, processes, progress, "calibrate", executor)
    scaler = StandardScaler().fit(data["x"])
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    xs = (data["x"] - scaler.mean_) / scale
    winner = (data["won"] > 0).astype(int)
    logit = LogisticRegression(C=1.0, max_iter=2000).fit(xs, winner, sample_weight=np.where(winner, data["won"], 1))
    layers: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    if head == "mlp":
        inputs, labels, weights = _turned_training_set(xs, data["won"], players)
        net = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=1e-3, max_iter=60, early_stopping=True,
                            random_state=derive_seed(seed, "mlp") % 2**32)
        net.fit(inputs, labels, sample_weight=weights)
        layers = tuple((np.asarray(w), np.asarray(b)) for w, b in zip(net.coefs_, net.intercepts_, strict=True))
        if players == 2:  # scikit-learn's binary head is one logistic unit z; softmax over (0, z) is the same
            w, b = layers[-1]
            layers = (*layers[:-1], (np.hstack([np.zeros_like(w), w]), np.concatenate([[0.0], b])))
    ridge = Ridge(alpha=1.0).fit(xs, data["score"])
    probe = new_game(game, players=players, seed=0, **options)
    names, _ = features_of(probe)
    model = ValueModel(
        game=game, expansion=expansion, players=players, features=names, mean=scaler.mean_, scale=scale,
        win_coef=logit.coef_[0], win_intercept=float(logit.intercept_[0]), score_coef=ridge.coef_,
        score_intercept=float(ridge.intercept_), score_std=0.0, edges=np.linspace(0, 1, 11),
        observed=np.zeros(10), count=np.zeros(10), catalog=getattr(getattr(probe, "cat", None), "digest", ""),
        training={}, layers=layers,
    )
    # calibration and spread on the held-out games
    p = np.concatenate([model.win_probs(block) for block in held["x"].reshape(-1, players, len(names))])
    edges = np.linspace(0, 1, 11)
    bins = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 9)
    won = held["won"]
    count = np.bincount(bins, minlength=10).astype(float)
    observed = np.divide(np.bincount(bins, weights=won, minlength=10), count, out=np.zeros(10), where=count > 0)
    resid = held["score"] - model.scores(held["x"])
    by_round = {int(r): round(brier(p[held["round"] == r], won[held["round"] == r], players), 4)
                for r in sorted(set(held["round"].astype(int)))}
    training = {
        "bot": bot, "seed": seed, "games": games, "head": head, **({"hidden": hidden} if head == "mlp" else {}),
        "calibrate_games": calibrate_games or max(200, games // 5),
        "positions": int(len(data["x"]) // players), "held_out_positions": int(len(held["x"]) // players),
        "held_out_brier": round(brier(p, won, players), 4), "held_out_brier_by_round": by_round,
        "uniform_brier": round(brier(np.full_like(p, 1 / players), won, players), 4),
        "sklearn": sklearn_version, "seconds": round(time.perf_counter() - start, 1),
        "sampling": "first decision of every phase of every round", "options": {k: v for k, v in options.items()
                                                                               if k != "catalog"},
    }
    model = ValueModel(**{**model.__dict__, "score_std": float(resid.std()), "edges": edges, "observed": observed,
                          "count": count, "training": training})
    if write:
        write_model(model, Path(out) if out is not None else model_path(game, players, expansion))
    return model


def write_model(model: ValueModel, path: str | Path) -> None:
    """Write ``model`` to ``path`` whole or not at all: a temporary file beside it, then an atomic rename (an
    interrupted write never leaves a half-written model behind)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(model_json(model), encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


__all__ = ["MODEL_FORMAT", "brier", "collect", "model_json", "over_games", "sample_positions", "train", "write_model"]
