"""MCTSBot: single-observer information-set MCTS (SO-ISMCTS) over the game protocol.

Each iteration samples a full state consistent with the bot's observation (``determinize``), walks
the shared tree with UCB over the actions legal in that sample (children are scored by the seat that
chose them, with availability counts as in Cowling et al. 2012), adds one node, plays the rest of the
game with a fast rollout policy and backs up a reward per seat: win share blended with a score-margin
term, both in [0, 1]. Rollouts may stop after a few rounds and let the rollout bot project the final
scores. Nothing here is specific to Die Speicherstadt: only the rollout bot is, and ``auto_rollout``
names which bot ``rollout="auto"`` uses for which game.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..engine.actions import Action
from ..engine.protocol import GameState, get_game
from ..engine.rng import Rng, derive_seed
from ..lazyimport import pandas as pd
from . import make_bot, register_bot
from .base import position_key

Policy = Callable[[GameState, Rng], Action]


def auto_rollout(game: str) -> str:
    """The rollout bot ``rollout="auto"`` uses for ``game``: the one its plugin declares (``GameInfo.rollout``)."""
    try:
        return get_game(game).rollout
    except ValueError:
        return "random"


def auto_horizon(game: str) -> int:
    """The rounds a rollout plays under ``horizon="auto"`` before it is judged: the game's ``GameInfo.hybrid_horizon``.

    That is the depth at which the game's quick judgement was found to track real play-outs (1 round in Die
    Speicherstadt; 6 in Packet Row, whose rounds are only 3-5 decisions: judged after 1 round, search there was no
    stronger with more iterations, docs/bots.md). A game the registry does not know gets 1.
    """
    try:
        return get_game(game).hybrid_horizon
    except ValueError:
        return 1


def check_horizon(horizon: Any) -> int | str | None:
    """``horizon`` as the search uses it: ``"auto"``, a whole number of rounds, or None (0 or None: to the end)."""
    if horizon == "auto" or horizon is None:
        return horizon
    if isinstance(horizon, bool) or not isinstance(horizon, int | float) or horizon != int(horizon):
        raise ValueError(f"horizon: must be 'auto', a whole number of rounds or 0 (to the end), not {horizon!r}")
    return None if horizon <= 0 else int(horizon)


def random_policy(state: GameState, rng: Rng) -> Action:
    """Uniformly random legal action (the cheapest rollout policy)."""
    actions = state.legal_actions()
    return actions[rng.below(len(actions))]


def policy_of(bot: Any) -> Policy:
    """A rollout policy from ``None``/``"random"``, a bot spec (``"greedy"``), a bot or a callable.

    Bots with an ``act(state, rng)`` fast path use it directly; other bots are asked through the
    protocol (``choose(state.observe(seat))``), which is correct but slower.
    """
    if bot is None or bot == "random":
        return random_policy
    if isinstance(bot, str):
        bot = make_bot(bot)
    if hasattr(bot, "act"):
        return bot.act
    if hasattr(bot, "choose"):
        return lambda state, rng: bot.choose(state.observe(state.to_move))
    if callable(bot):
        return bot
    raise TypeError(f"not a rollout policy: {bot!r}")


def playout(state: GameState, policy: Policy, rng: Rng, until_round: int | None = None,
            max_steps: int = 100_000) -> GameState:
    """Play ``state`` with ``policy`` to the end, or until round ``until_round`` begins (random: inlined).

    A game's last round (the optional state member ``last_round``: nothing is left to draw) is always played
    to the end: there the real result costs about as much as a guess at it and is exact (a value model scored
    Die Speicherstadt's last round 0.15 Brier above the truth; ``docs/review.md``, "The last round").
    """
    steps = 0
    stop = until_round if until_round is not None else math.inf
    random = policy is random_policy
    while not state.is_over and (state.round < stop or getattr(state, "last_round", False)):
        if random:
            actions = state.legal_actions()
            state = state.apply(actions[rng.below(len(actions))])
        else:
            state = state.apply(policy(state, rng))
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"playout did not end within {max_steps} decisions")
    return state


def outcome(final: GameState, evaluator: Callable[[GameState], list[float]] | None = None
            ) -> tuple[list[float], list[int]]:
    """(scores, winners) of a finished game, or projected by ``evaluator`` for an unfinished one."""
    if final.is_over or evaluator is None:
        return [float(final.score(i)) for i in range(final.n_players)], final.winners()
    scores = evaluator(final)
    best = max(scores)
    return scores, [i for i, v in enumerate(scores) if v >= best - 1e-9]


def soft_rewards(scores: list[float], shares: list[float], margin_weight: float = 0.25,
                 margin_scale: float = 20.0) -> list[float]:
    """``rewards`` with win probabilities (a value model's) in place of a decided winner."""
    n = len(scores)
    out = []
    for i in range(n):
        best_other = max(scores[j] for j in range(n) if j != i)
        margin = math.tanh((scores[i] - best_other) / margin_scale)
        out.append((1 - margin_weight) * shares[i] + margin_weight * 0.5 * (1 + margin))
    return out


def rewards(scores: list[float], winners: list[int], margin_weight: float = 0.25,
            margin_scale: float = 20.0) -> list[float]:
    """Per seat reward in [0, 1]: win share (ties split) blended with the score margin to the best rival.

    The margin is squashed with tanh (not clipped), so even a seat far ahead or far behind still
    prefers more points: search keeps a gradient in decided games.
    """
    n = len(scores)
    out = []
    for i in range(n):
        win = 1.0 / len(winners) if i in winners else 0.0
        best_other = max(scores[j] for j in range(n) if j != i)
        margin = math.tanh((scores[i] - best_other) / margin_scale)
        out.append((1 - margin_weight) * win + margin_weight * 0.5 * (1 + margin))
    return out


class _Node:
    """A tree node: statistics of the action that led here, for the seat that chose it."""

    __slots__ = ("avail", "children", "reward", "score", "seat", "visits", "win")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.score = 0.0
        self.win = 0.0


class MCTSBot:
    """Information-set MCTS. Budget: ``iterations`` (reproducible) or ``seconds`` (wall clock, not reproducible).

    ``rollout`` is ``"auto"`` (the bot the game's plugin declares, ``GameInfo.rollout``), ``"random"``, a
    bot spec such as ``"greedy:epsilon=0.1"``, a bot, or a policy ``(state, rng) -> action``. ``horizon``
    (rounds) cuts rollouts short: the round in progress plus ``horizon - 1`` more are played, then the
    rollout bot's ``projected_scores(state)`` (or the plain ``score``) stands in for the final scores;
    ``"auto"`` means the game's ``GameInfo.hybrid_horizon`` (:func:`auto_horizon`: 1 round in Die Speicherstadt, 6
    in Packet Row) when the rollout bot can project scores or the value model judges, and to the end otherwise; 0
    or None: to the end. ``value="model"`` scores a rollout cut short by ``horizon`` with the learned value model
    (``speicherstadt_lab.value``: win probabilities and expected final scores) instead (with 0 or None: 1 round).
    ``c`` is the UCB exploration constant for rewards in [0, 1]. ``search_share`` (0 to 1, default 1) is the share of
    decisions it searches: at the others (drawn per position from the seed, so a position is answered the same every
    time) it plays its rollout bot's move, a strength between the two (opponent levels, ``bots.levels``).
    After ``choose``, ``last_stats`` holds the root statistics; ``explain(obs)`` returns them as a table.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 150, seconds: float | None = None, c: float = 0.7,
                 rollout: Any = "auto", horizon: int | str | None = "auto", margin_weight: float = 0.25,
                 margin_scale: float = 20.0, value: str | None = None, search_share: float = 1.0) -> None:
        if value not in (None, "model"):
            raise ValueError(f"value must be None or 'model', not {value!r}")
        if isinstance(search_share, bool) or not isinstance(search_share, int | float) or not 0 <= search_share <= 1:
            raise ValueError(f"search_share: must be a number from 0 to 1 (the share of decisions searched), "
                             f"not {search_share!r}")
        self.search_share = float(search_share)
        self.value = value
        self.seed = seed
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        self.rollout = rollout
        self.margin_weight = float(margin_weight)
        self.margin_scale = float(margin_scale)
        self.horizon = check_horizon(horizon)
        self._resolved: dict[str, tuple[Policy, Callable[[GameState], list[float]] | None, int | None]] = {}
        self._rollout_bots: dict[str, Any] = {}
        self.last_stats: pd.DataFrame | None = None
        self._last_key: str | None = None

    def params(self) -> dict[str, Any]:
        """Every setting of the search (budget, exploration, rollout, horizon, value model, margin): enough to make this
        bot again."""
        return {"bot": self.name, "seed": self.seed, "iterations": self.iterations, "seconds": self.seconds,
                "c": self.c, "rollout": self.rollout if isinstance(self.rollout, str) else repr(self.rollout),
                "horizon": self.horizon, **({"value": self.value} if self.value else {}),
                **({"search_share": self.search_share} if self.search_share < 1 else {}),
                "margin_weight": self.margin_weight, "margin_scale": self.margin_scale}

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else f"iterations={self.iterations}"
        return f"MCTSBot(seed={self.seed}, {budget}, rollout={self.rollout!r})"

    # -- search -----------------------------------------------------------------------------------

    def _setup(self, game: str) -> tuple[Policy, Callable[[GameState], list[float]] | None, int | None]:
        """(rollout policy, evaluator, horizon) for ``game``, resolving the "auto" settings once."""
        hit = self._resolved.get(game)
        if hit is None:
            spec = auto_rollout(game) if self.rollout == "auto" else self.rollout
            bot = make_bot(spec) if isinstance(spec, str) and spec != "random" else spec
            evaluator = getattr(bot, "projected_scores", None)
            horizon = self.horizon_for(game, evaluator is not None)
            hit = self._resolved[game] = (policy_of(bot), evaluator, horizon)
            self._rollout_bots[game] = bot
        return hit

    def searches(self, obs: GameState, key: str | None = None) -> bool:
        """Whether this bot searches at ``obs`` (``search_share``); if not, it plays its rollout bot's move there."""
        if self.search_share >= 1:
            return True
        key = position_key(obs) if key is None else key
        return Rng(self.seed, "mcts-share", key).random() < self.search_share

    def _quick(self, obs: GameState, key: str) -> Action:
        """The rollout bot's move at ``obs`` (a decision this bot does not search), seeded by the position."""
        return self._setup(obs.game)[0](obs, Rng(self.seed, "mcts-quick", key))

    def horizon_for(self, game: str, judged: bool | None = None) -> int | None:
        """The rounds this bot's rollouts play in ``game`` before they are judged (None: to the end).

        ``horizon="auto"``: the game's :func:`auto_horizon` when something judges the cut (the rollout bot's
        projection, or the value model), to the end otherwise. ``judged`` None: ask the rollout bot.
        """
        if self.horizon != "auto":
            return self.horizon if self.horizon is not None or self.value != "model" else 1
        if judged is None:
            judged = self._setup(game)[1] is not None
        return auto_horizon(game) if judged or self.value == "model" else None

    def search(self, obs: GameState, key: str | None = None) -> _Node:
        """Run the search from ``obs`` and return the root (its children are the legal actions)."""
        key = position_key(obs) if key is None else key
        base = derive_seed(self.seed, "mcts", key)
        root = _Node(None)
        c = self.c
        policy, evaluator, horizon = self._setup(obs.game)
        model = None
        if self.value == "model":
            from ..value.model import features_of, load_model  # the value package reads numpy; only when asked

            model = load_model(obs)
            horizon = self.horizon_for(obs.game, True)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        it = 0
        while True:
            if deadline is None:
                if it >= self.iterations:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            rng = Rng(base, it)
            state = obs.determinize(rng.next64())
            node = root
            path = [root]
            while not state.is_over:
                actions = state.legal_actions()
                children = node.children
                untried = [a for a in actions if a not in children]
                for a in actions:
                    child = children.get(a)
                    if child is not None:
                        child.avail += 1
                if untried:
                    a = untried[rng.below(len(untried))]
                    child = _Node(state.to_move)
                    child.avail = 1
                    children[a] = child
                    state = state.apply(a)
                    path.append(child)
                    break
                best, best_a = -1.0, None
                for a in actions:
                    ch = children[a]
                    log = math.log(ch.avail)
                    u = ch.reward / ch.visits + c * math.sqrt(log / ch.visits)
                    if u > best:
                        best, best_a = u, a
                node = children[best_a]
                state = state.apply(best_a)
                path.append(node)
            until = None if horizon is None else obs.round + horizon
            final = playout(state, policy, rng, until)
            if model is not None and not final.is_over:
                x = features_of(final)[1]
                scores, shares = model.scores(x).tolist(), model.win_probs(x).tolist()
                rw = soft_rewards(scores, shares, self.margin_weight, self.margin_scale)
            else:
                scores, winners = outcome(final, evaluator)
                rw = rewards(scores, winners, self.margin_weight, self.margin_scale)
                shares = [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]
            root.visits += 1
            for node in path[1:]:
                s = node.seat
                node.visits += 1
                node.reward += rw[s]
                node.score += scores[s]
                node.win += shares[s]
            it += 1
        return root

    def _stats(self, obs: GameState, root: _Node) -> pd.DataFrame:
        rows = []
        for a in obs.legal_actions():
            ch = root.children.get(a)
            n = ch.visits if ch else 0
            rows.append({
                "action": str(a),
                "visits": n,
                "value": ch.reward / n if n else float("nan"),
                "mean_score": ch.score / n if n else float("nan"),
                "win_share": ch.win / n if n else float("nan"),
            })
        df = pd.DataFrame(rows, columns=["action", "visits", "value", "mean_score", "win_share"])
        df = df.sort_values(["visits", "value"], ascending=False, kind="stable").reset_index(drop=True)
        df.attrs["iterations"] = root.visits
        return df

    def choose(self, obs: GameState) -> Action:
        """The most visited root action (ties: higher mean reward, then notation order)."""
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        key = position_key(obs)
        if not self.searches(obs, key):
            self.last_stats, self._last_key = None, None
            return self._quick(obs, key)
        root = self.search(obs, key)
        self.last_stats = self._stats(obs, root)
        self._last_key = key

        def rank(a: Action) -> tuple[int, float]:
            ch = root.children.get(a)
            return (ch.visits, ch.reward / ch.visits) if ch and ch.visits else (0, 0.0)

        return max(actions, key=rank)

    def explain(self, obs: GameState) -> pd.DataFrame:
        """Per legal action: visits, mean reward, mean final score and win share of the mover (most visited first).

        Reuses the statistics of the last ``choose`` at this position, otherwise searches. At a position it does not
        search (``search_share``), the rollout bot's explanation instead, its name in ``attrs["bot"]``.
        """
        key = position_key(obs)
        if len(obs.legal_actions()) > 1 and not self.searches(obs, key):
            self._setup(obs.game)
            bot = self._rollout_bots.get(obs.game)
            if hasattr(bot, "explain"):
                df = bot.explain(obs)
                df.attrs["bot"] = bot.name
                return df
        if self.last_stats is None or key != self._last_key:
            self.last_stats = self._stats(obs, self.search(obs, key))
            self._last_key = key
        return self.last_stats.copy()


register_bot("mcts", MCTSBot)
