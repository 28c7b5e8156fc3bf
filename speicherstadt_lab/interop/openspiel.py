"""Our games as OpenSpiel Python games: ``python_speicherstadt``, ``python_kaispeicher``, ``python_packet_row``.

``import speicherstadt_lab.interop.openspiel`` registers them; then
``pyspiel.load_game("python_speicherstadt", {"players": 3})`` (parameter: ``players``, 2–5). What is declared
and why (``docs/interop.md``):

- sequential; ``EXPLICIT_STOCHASTIC`` with one chance node, the first: the set-up seed, uniform over
  :data:`SETUP_SEEDS` seeds. Our engine resolves every chance event (pile, bag, decks) from the seed of
  ``new_game`` and keeps the drawn order hidden in the state, so that one node is all the chance there is.
  (``SAMPLED_STOCHASTIC`` would need the game's RNG state serialized, which OpenSpiel's Python games cannot
  provide: ``serialize_game_and_state`` fails with "GetRNGState unimplemented".) No seat sees the seed.
- ``IMPERFECT_INFORMATION``; ``CONSTANT_SUM`` with returns that sum to 1: the winners (after the game's own
  tie-break) share 1 equally, everyone else gets 0. Rewards only at the end.
- information state string: the seat's ``view`` (JSON) plus the history of actions so far, which every seat
  sees (our games announce every move; chance outcomes appear only as far as the view shows them);
  observation string: the view alone. Both tensors are :mod:`.encoding`'s observation tensor of the view.
- action ids: :mod:`.encoding`'s action catalogue, action strings our notation.
- ``serialize()`` / ``game.deserialize_state(text)``: the engine's JSON (``to_json`` / ``load_state``) and the
  history, never pickle.
"""

from __future__ import annotations

import json
from typing import Any

from . import INSTALL_HINT

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(f"speicherstadt_lab.interop.openspiel needs OpenSpiel: {INSTALL_HINT}") from e

from ..engine.protocol import GameState, load_state, new_game
from .encoding import action_catalogue, observation_encoder

#: OpenSpiel short name -> (our game, expansion, long name).
GAMES: dict[str, tuple[str, str | None, str]] = {
    "python_speicherstadt": ("speicherstadt", None, "Die Speicherstadt"),
    "python_kaispeicher": ("speicherstadt", "kaispeicher", "Die Speicherstadt with Kaispeicher"),
    "python_packet_row": ("packet_row", None, "Packet Row"),
}


def openspiel_name(game: str, options: dict[str, Any] | None = None) -> str:
    """The OpenSpiel short name of our ``game`` started with ``options`` (``{"expansion": ...}``); a ValueError naming
    the field ``game`` for one the adapter does not offer."""
    expansion = (options or {}).get("expansion")
    for short, (name, exp, _long) in GAMES.items():
        if (name, exp) == (game, expansion):
            return short
    raise ValueError(f"game: {game!r} (expansion {expansion!r}) is not offered to OpenSpiel; "
                     f"offered: {', '.join(GAMES)}")


MAX_GAME_LENGTH = 3000  # decisions; random games take 100-300
SETUP_SEEDS = 1 << 16  # outcomes of the set-up chance node
_VARIANTS: dict[tuple[str, int], SpielGame] = {}  # (short name, players) -> the game (states look it up)


def utility(state: GameState) -> list[float]:
    """The returns of a finished game: the winners share 1, the others get 0 (all share if none is named)."""
    n = state.n_players
    winners = state.winners() or list(range(n))
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(n)]


def _game_type(short: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=GAMES[short][2],
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 3},
    )


class SpielGame(pyspiel.Game):
    """One of our games as an OpenSpiel game (the variant is fixed by the registered name)."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 3))
        self.game_name, self.expansion, _ = GAMES[self.short_name]
        self.catalogue = action_catalogue(self.game_name, players, self.expansion)
        self.encoder = observation_encoder(self.game_name, players, self.expansion)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.catalogue.size,
            max_chance_outcomes=SETUP_SEEDS,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.short_name), info, {"players": players})
        _VARIANTS[(self.short_name, players)] = self

    def new_state(self, seed: int) -> GameState:
        """A new engine state of this variant from ``seed``."""
        kw: dict[str, Any] = {"players": self.num_players(), "seed": seed}
        if self.expansion:
            kw["expansion"] = self.expansion
        return new_game(self.game_name, **kw)

    def new_initial_state(self) -> SpielState:
        """A new game before its set-up: the chance node of the seed."""
        return SpielState(self, None)

    def deserialize_state(self, text: str) -> SpielState:
        """A state from :meth:`SpielState.serialize` (the engine's JSON and the history)."""
        data = json.loads(text)
        state = None if data["state"] is None else load_state(data["state"])
        return SpielState(self, state, [tuple(h) for h in data["history"]])

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer (perfect recall: the information state; else the observation)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return Observer(self, perfect_recall)


class _Shared:
    """Holds an immutable engine state: OpenSpiel clones a Python state by deep-copying its attributes, and an
    immutable state need not be copied."""

    __slots__ = ("state",)

    def __init__(self, state: GameState | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class SpielState(pyspiel.State):
    """An OpenSpiel state: the set-up chance node (no engine state yet), then an engine state and the moves."""

    def __init__(self, game: SpielGame, state: GameState | None, history: list[tuple[int, str]] | None = None) -> None:
        super().__init__(game)
        self._key = (game.short_name, game.num_players())
        self._engine = _Shared(state)
        self.moves: list[tuple[int, str]] = list(history or [])  # (seat, notation) of every action so far

    @property
    def game_variant(self) -> SpielGame:
        """The OpenSpiel game this state belongs to (players, expansion)."""
        return _VARIANTS[self._key]

    @property
    def state(self) -> GameState | None:
        """The engine state (None before the set-up chance node)."""
        return self._engine.state

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's CHANCE before the set-up is drawn and TERMINAL at the end."""
        state = self.state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.is_over:
            return pyspiel.PlayerId.TERMINAL
        return int(state.to_move)  # type: ignore[arg-type]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The set-up seeds, uniform."""
        p = 1.0 / SETUP_SEEDS
        return [(k, p) for k in range(SETUP_SEEDS)]

    def _legal_actions(self, player: int) -> list[int]:
        state = self.state
        if state is None or state.is_over or player != state.to_move:
            return []
        return self.game_variant.catalogue.legal_ids(state)

    def _apply_action(self, action: int) -> None:
        state = self.state
        if state is None:
            self._engine = _Shared(self.game_variant.new_state(int(action)))
            return
        text = self.game_variant.catalogue.text_of(state, action)
        seat = int(state.to_move)  # type: ignore[arg-type]
        self._engine = _Shared(state.apply(text))
        self.moves.append((seat, text))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.state
        if player == pyspiel.PlayerId.CHANCE or state is None:
            return f"setup seed {action}"
        return self.game_variant.catalogue.text_of(None if state.is_over else state, action)

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.state is not None and self.state.is_over

    def returns(self) -> list[float]:
        """Each seat's utility at the end (zeros while the game runs)."""
        state = self.state
        if state is None or not state.is_over:
            return [0.0] * self.get_game().num_players()
        return utility(state)

    def serialize(self) -> str:
        """The engine's JSON and the history (never pickle)."""
        state = self.state
        return json.dumps({"state": None if state is None else state.to_json(), "history": self.moves})

    def __str__(self) -> str:
        state = self.state
        return "set-up" if state is None else json.dumps(state.view(None), sort_keys=True)


class Observer:
    """OpenSpiel's PyObserver for our games: a flat tensor of the view and a string (see the module docstring)."""

    def __init__(self, game: SpielGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` observes in ``state`` (zeros before the set-up)."""
        if state.state is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.game.encoder.encode(state.state, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """What ``player`` observes as text: its view as JSON (with perfect recall, the moves so far too)."""
        if state.state is None:
            return "set-up"
        view = json.dumps(state.state.view(player), sort_keys=True)
        if not self.perfect_recall:
            return view
        history = " | ".join(f"{seat}:{text}" for seat, text in state.moves)
        return f"{view}\nhistory: {history}"


def _register() -> None:
    for short in GAMES:
        cls = type(f"SpielGame_{short}", (SpielGame,), {"short_name": short})
        pyspiel.register_game(_game_type(short), cls)


_register()
