"""The small state protocol every game implements, and the registry of games.

A game is declared as data first (:class:`GameInfo`: name, players, phases, parameters) and provides
a state type with ``legal_actions``, ``apply``, ``to_move`` and ``is_over`` (OpenSpiel style). Rules are
functions of (state, action) -> new state: ``apply`` never changes the state it is called on.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .actions import Action
from .errors import RecordError
from .events import Event


@runtime_checkable
class GameState(Protocol):
    """What bots, records, analysis and views rely on, for every game."""

    game: str
    phase: str
    round: int
    n_players: int
    events: tuple[Event, ...]
    last_action: str | None

    @property
    def to_move(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, action: Action | str) -> GameState: ...
    def parse_action(self, text: str) -> Action: ...
    def score(self, seat: int) -> int: ...
    def score_breakdown(self, seat: int) -> dict[str, int]: ...
    def winners(self) -> list[int]: ...
    def view(self, seat: int | None) -> dict[str, Any]: ...
    def determinize(self, seed: int) -> GameState: ...
    def observe(self, seat: int | None) -> GameState: ...
    def fingerprint(self) -> int: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def describe(self, event: Event, lang: str = "en") -> str: ...


@dataclass(frozen=True)
class GameInfo:
    """A game declared as data: what it is before how it plays."""

    name: str
    title: str
    min_players: int
    max_players: int
    phases: tuple[str, ...]
    parameters: dict[str, str]
    module: str  # imported lazily; provides new_game(**kw) and from_dict(data)
    expansions: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def impl(self) -> Any:
        return importlib.import_module(self.module)


_GAMES: dict[str, GameInfo] = {}


def register_game(info: GameInfo) -> None:
    _GAMES[info.name] = info


def game_names() -> list[str]:
    return sorted(_GAMES)


def get_game(name: str) -> GameInfo:
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def new_game(game: str = "speicherstadt", **kwargs: Any) -> GameState:
    """A new game's first decision state. ``game`` defaults to Die Speicherstadt."""
    info = get_game(game)
    players = kwargs.get("players", 4)
    if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        span = f"{info.min_players} to {info.max_players}"
        raise ValueError(f"players: {info.title} is for {span} players, not {players!r}")
    return info.impl().new_game(**kwargs)


def state_from_dict(data: Any) -> GameState:
    if not isinstance(data, dict):
        raise RecordError("state: the top level must be an object")
    name = data.get("game")
    if not isinstance(name, str) or name not in _GAMES:
        raise RecordError(f"state field 'game': unknown game {name!r}")
    return _GAMES[name].impl().from_dict(data)


def load_state(text: str | bytes) -> GameState:
    """A state from its ``to_json`` text; a malformed or inconsistent one raises :class:`RecordError`."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as e:
        raise RecordError(f"state: not valid JSON ({e})") from None
    return state_from_dict(data)


register_game(
    GameInfo(
        name="speicherstadt",
        title="Die Speicherstadt",
        min_players=2,
        max_players=5,
        phases=("demand", "purchase", "loading", "over"),
        parameters={
            "players": "2-5",
            "seed": "int: set-up shuffle of the pile and the bag",
            "first_player": "seat holding the metal coin in round 1",
            "deck": "stacked draw pile, top first (card ids)",
            "bag": "stacked bag, first drawn first (good ids)",
            "catalog": "path or data of a card catalogue",
            "expansion": "None or 'kaispeicher'",
        },
        module="speicherstadt_lab.games.speicherstadt",
        expansions=("kaispeicher",),
    )
)

register_game(
    GameInfo(
        name="packet_row",
        title="Packet Row",
        min_players=2,
        max_players=5,
        phases=("choose", "decide", "final", "over"),
        parameters={
            "players": "2-5",
            "seed": "int: set-up shuffle of the four decks and the starting contracts",
            "first_player": "seat of the harbour master in round 1",
            "decks": "stacked decks: board -> card ids, top first (or a list in board order)",
            "start_contracts": "stacked deal of the starting contracts (card ids, seat 0 first)",
            "catalog": "path or data of a card catalogue",
            "names": "seat names",
        },
        module="speicherstadt_lab.games.packet_row",
    )
)
