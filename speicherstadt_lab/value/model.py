"""A value model read from plain JSON (never pickle) and evaluated with numpy."""

from __future__ import annotations

import json
import math
import os
import warnings
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..engine.errors import RecordError
from ..engine.protocol import GameState, get_game
from ..lazyimport import numpy as np
from ..lazyimport import pandas as pd
from .intervals import METHODS as INTERVAL_METHODS
from .intervals import Intervals

MODEL_FORMAT = "speicherstadt-lab/value-model/1"


def model_name(game: str, players: int, expansion: str | None = None) -> str:
    """The file name of a shipped model: ``speicherstadt-3p.json``, ``speicherstadt+kaispeicher-4p.json``."""
    return f"{game}{'+' + expansion if expansion else ''}-{players}p.json"


def model_path(game: str, players: int, expansion: str | None = None) -> Path:
    """Where the package keeps the model for a game, expansion and player count (it may not exist)."""
    return Path(str(resources.files("speicherstadt_lab.data").joinpath("models", model_name(game, players,
                                                                                              expansion))))


def features_of(state: GameState) -> tuple[tuple[str, ...], np.ndarray]:
    """The game's features of ``state`` (its "features" capability): names and a seats × features array."""
    fn = get_game(state.game).capability("features")
    if fn is None:
        raise ValueError(f"game: {state.game!r} declares no features for a value model (no 'features' capability)")
    names, rows = fn(state)
    return tuple(names), np.asarray(rows, dtype=float)


def _field(d: dict[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise RecordError(f"value model field '{where}{key}' is missing")
    return d[key]


def _vector(d: dict[str, Any], key: str, where: str, n: int) -> np.ndarray:
    v = _field(d, key, where)
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, int | float) and math.isfinite(x) for x in v):
        raise RecordError(f"value model field '{where}{key}': must be {n} finite numbers")
    return np.asarray(v, dtype=float)


def _layers(win: dict[str, Any], inputs: int, players: int) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The checked layers of an ``mlp`` win head: weights (in × out) and bias, in → ... → ``players``."""
    raw = win.get("layers")
    if not isinstance(raw, list) or not raw:
        raise RecordError("value model field 'win.layers': must be a list of layers")
    out: list[tuple[np.ndarray, np.ndarray]] = []
    width = inputs
    for k, layer in enumerate(raw):
        where = f"win.layers[{k}]."
        if not isinstance(layer, dict):
            raise RecordError(f"value model field 'win.layers[{k}]': must be an object")
        w = _field(layer, "weights", where)
        if (not isinstance(w, list) or len(w) != width or not w or not all(isinstance(r, list) for r in w)
                or len({len(r) for r in w}) != 1):
            raise RecordError(f"value model field '{where}weights': must be {width} rows of equal length")
        cols = len(w[0])
        rows = [_vector({"r": r}, "r", f"{where}weights", cols) for r in w]
        out.append((np.vstack(rows), _vector(layer, "bias", where, cols)))
        width = cols
    if width != players:
        raise RecordError(f"value model field 'win.layers': the last layer must give {players} numbers, not {width}")
    return tuple(out)


@dataclass(frozen=True)
class ValueModel:
    """Win probability per seat and expected final score (a linear model) on standardized features.

    ``intervals`` (measured on held-out games, :mod:`.intervals`): how far the model's win chances, and the
    quick judgement's (``analysis.quick_evaluate``), lay from the truth at each round; the 95% intervals
    ``predict`` gives. A file without them (made before they were measured) falls back to the model's
    calibration bins: the observed win rate (Wilson 95%) of held-out positions it rated alike, which says how
    often such positions were won, not how far this position's chance may be off.

    The win head is either ``logistic`` (one logistic model per seat, normalized over the seats) or ``mlp``
    (a small ReLU network that reads every seat's features, turned so that each seat is first once, and
    says which of them wins; a seat's probability is the mean over the turns)."""

    game: str
    expansion: str | None
    players: int
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    win_coef: np.ndarray
    win_intercept: float
    score_coef: np.ndarray
    score_intercept: float
    score_std: float
    edges: np.ndarray  # calibration bins of the predicted probability
    observed: np.ndarray  # the held-out win rate in each bin
    count: np.ndarray  # held-out positions in each bin
    catalog: str  # digest of the catalogue it was trained with
    training: dict[str, Any]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...] = ()  # the mlp win head; empty: logistic
    intervals: dict[str, Intervals] = field(default_factory=dict)  # "model", "quick": measured 95% widths

    @classmethod
    def from_dict(cls, d: Any) -> ValueModel:
        """A model from its JSON data; a malformed file raises RecordError naming the field."""
        if not isinstance(d, dict) or d.get("format") != MODEL_FORMAT:
            raise RecordError(f"value model field 'format': expected {MODEL_FORMAT!r}")
        names = _field(d, "features", "")
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names) or not names:
            raise RecordError("value model field 'features': must be a list of feature names")
        k = len(names)
        win, score, cal = (_field(d, key, "") for key in ("win", "score", "calibration"))
        if not all(isinstance(x, dict) for x in (win, score, cal)):
            raise RecordError("value model fields 'win', 'score', 'calibration': must be objects")
        edges = _vector(cal, "edges", "calibration.", len(cal.get("edges", [])))
        bins = len(edges) - 1
        if bins < 1 or np.any(np.diff(edges) <= 0):
            raise RecordError("value model field 'calibration.edges': must rise, at least two of them")
        players = _field(d, "players", "")
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 10:
            raise RecordError("value model field 'players': must be a player count")
        kind = win.get("kind", "logistic")
        if kind not in ("logistic", "mlp"):
            raise RecordError("value model field 'win.kind': must be 'logistic' or 'mlp'")
        layers = _layers(win, k * players, players) if kind == "mlp" else ()
        raw = d.get("intervals", {})
        if not isinstance(raw, dict) or set(raw) - set(INTERVAL_METHODS):
            raise RecordError(f"value model field 'intervals': must be an object with keys among {INTERVAL_METHODS}")
        intervals = {m: Intervals.from_dict(v, f"intervals.{m}") for m, v in raw.items()}
        return cls(
            game=str(_field(d, "game", "")), expansion=d.get("expansion"), players=players, features=tuple(names),
            mean=_vector(d, "mean", "", k), scale=_vector(d, "scale", "", k),
            win_coef=_vector(win, "coef", "win.", k), win_intercept=float(_vector(win, "intercept", "win.", 1)[0]),
            score_coef=_vector(score, "coef", "score.", k),
            score_intercept=float(_vector(score, "intercept", "score.", 1)[0]),
            score_std=float(_vector(score, "std", "score.", 1)[0]),
            edges=edges, observed=_vector(cal, "observed", "calibration.", bins),
            count=_vector(cal, "count", "calibration.", bins), catalog=str(d.get("catalog", "")),
            training=dict(d.get("training", {})), layers=layers, intervals=intervals,
        )

    def to_dict(self) -> dict[str, Any]:
        """The model as JSON-ready data: the model file's content."""
        return {
            "format": MODEL_FORMAT, "game": self.game, "expansion": self.expansion, "players": self.players,
            "features": list(self.features), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
            "win": {"kind": "mlp" if self.layers else "logistic", "coef": self.win_coef.tolist(),
                    "intercept": [self.win_intercept],
                    **({"layers": [{"weights": w.tolist(), "bias": b.tolist()} for w, b in self.layers]}
                       if self.layers else {})},
            "score": {"coef": self.score_coef.tolist(), "intercept": [self.score_intercept], "std": [self.score_std]},
            "calibration": {"edges": self.edges.tolist(), "observed": self.observed.tolist(),
                            "count": self.count.tolist()},
            "catalog": self.catalog, "training": self.training,
            **({"intervals": {m: v.to_dict() for m, v in self.intervals.items()}} if self.intervals else {}),
        }

    def win_probs(self, x: np.ndarray) -> np.ndarray:
        """Normalized win probabilities of the seats (rows of ``x``, raw features)."""
        z = (x - self.mean) / self.scale
        if self.layers:
            return turned_probs(self.layers, z)
        u = z @ self.win_coef + self.win_intercept
        p = 1.0 / (1.0 + np.exp(-np.clip(u, -30, 30)))
        return p / p.sum()

    def scores(self, x: np.ndarray) -> np.ndarray:
        """The predicted final score of each row of features ``x``."""
        return ((x - self.mean) / self.scale) @ self.score_coef + self.score_intercept

    def predict(self, state: GameState) -> pd.DataFrame:
        """Per seat: win_prob, win_lo, win_hi, score_mean, score_std (the columns ``evaluate`` returns)."""
        names, x = features_of(state)
        if names != self.features:
            raise ValueError(f"value model: trained on features {self.features}, the game gives {names}")
        if state.is_over:
            winners = state.winners()
            p = np.array([1.0 / len(winners) if i in winners else 0.0 for i in range(state.n_players)])
            lo, hi = p, p
            mean = np.array([float(state.score(i)) for i in range(state.n_players)])
            std = np.zeros(state.n_players)
        else:
            p = self.win_probs(x)
            if "model" in self.intervals:
                lo, hi = self.intervals["model"].bounds(p, state.round)
            else:
                lo, hi = self.bin_bounds(p)
            mean = self.scores(x)
            std = np.full(state.n_players, self.score_std)
        df = pd.DataFrame({"seat": range(state.n_players), "win_prob": p, "win_lo": lo, "win_hi": hi,
                           "score_mean": mean, "score_std": std}).set_index("seat")
        df.attrs.update({"method": "model", "model": model_name(self.game, self.players, self.expansion),
                         "interval": "exact" if state.is_over else self.interval_kind(state, "model")})
        return df

    def cards_match(self, state: GameState) -> bool:
        """Whether ``state`` plays with the cards the model was trained (and its intervals measured) with."""
        cat = getattr(state, "cat", None)
        return cat is None or not self.catalog or getattr(cat, "digest", self.catalog) == self.catalog

    def interval_kind(self, state: GameState, method: str) -> str:
        """What ``method``'s band for ``state`` rests on: ``"measured"`` (held-out games, these cards),
        ``"measured for other cards"`` or ``"calibration bins"``.

        ``"measured for other cards"``: a user catalogue, the band holds for the default cards; ``"calibration
        bins"``: a file without measured widths."""
        if method not in self.intervals:
            return "calibration bins"
        return "measured" if self.cards_match(state) else "measured for other cards"

    def bin_bounds(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The fallback interval of a file without measured ones: the held-out win rate of positions the model
        rated alike (Wilson 95%), widened to include ``p`` itself."""
        bins = np.clip(np.searchsorted(self.edges, p, side="right") - 1, 0, len(self.observed) - 1)
        lo, hi = np.empty_like(p), np.empty_like(p)
        for i, b in enumerate(bins):
            blo, bhi = _wilson(self.observed[b], self.count[b])
            lo[i], hi[i] = min(p[i], blo), max(p[i], bhi)
        return lo, hi


def turned_inputs(z: np.ndarray) -> np.ndarray:
    """Row ``r``: every seat's standardized features, seat ``r`` first and the others in turn order."""
    n = len(z)
    return np.stack([np.roll(z, -r, axis=0).ravel() for r in range(n)])


def turned_probs(layers: tuple[tuple[np.ndarray, np.ndarray], ...], z: np.ndarray) -> np.ndarray:
    """An mlp win head on ``z`` (seats × features): the mean over the seats' turns of who wins."""
    h = turned_inputs(z)
    for k, (w, b) in enumerate(layers):
        h = h @ w + b
        if k < len(layers) - 1:
            h = np.maximum(h, 0.0)
    h = np.exp(h - h.max(axis=1, keepdims=True))
    q = h / h.sum(axis=1, keepdims=True)  # q[r, j]: turn r's chance that seat (r + j) mod n wins
    n = len(z)
    turns = np.arange(n)[:, None]
    p = q[turns, (np.arange(n)[None, :] - turns) % n].mean(axis=0)
    return p / p.sum()


def _wilson(p: float, n: float, z: float = 1.96) -> tuple[float, float]:
    if n <= 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@cache
def _load(path: str, stamp: tuple[int, ...]) -> ValueModel:
    """The model in the file at ``path``, read once per version of the file (``stamp``: its inode, times and
    size, so that a file rewritten or replaced is read again)."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except ValueError as e:
            raise RecordError(f"value model: not valid JSON ({e})") from None
    return ValueModel.from_dict(data)


def load_model(state: GameState | None = None, *, path: str | Path | None = None) -> ValueModel:
    """The model for ``state``'s game, expansion and player count (shipped in the package), or the file at
    ``path``. Warns when the state's catalogue is not the one the model was trained with."""
    if path is None:
        if state is None:
            raise ValueError("load_model: give a state or a path")
        if get_game(state.game).capability("features") is None:
            raise ValueError(f"game: {state.game!r} declares no features for a value model "
                             "(no 'features' capability)")
        expansion = getattr(state, "expansion", None)
        path = model_path(state.game, state.n_players, expansion)
        if not path.is_file():
            raise FileNotFoundError(f"no value model for {model_name(state.game, state.n_players, expansion)}; "
                                    "make one with `speicherstadt-lab train`")
    st = os.stat(path)
    model = _load(str(path), (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size))
    if not model.cards_match(state):
        warnings.warn("value model: it was trained with the default cards, and this game uses another catalogue; "
                      "its numbers may be off. Retrain with `speicherstadt-lab train --catalog FILE`.",
                      stacklevel=2)
    return model
