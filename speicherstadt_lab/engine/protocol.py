"""The small state protocol every game implements, and the registry of games.

A game is declared as data first (:class:`GameInfo`: name, players, phases, parameters) and provides
a state type with ``legal_actions``, ``apply``, ``to_move`` and ``is_over`` (OpenSpiel style). Rules are
functions of (state, action) -> new state: ``apply`` never changes the state it is called on.
"""

from __future__ import annotations

import importlib
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .actions import Action
from .datafiles import read_scenario_file
from .errors import RecordError
from .events import Event


@runtime_checkable
class GameState(Protocol):
    """The protocol every game's state implements: all that records, bots, analysis, simulation, review, the
    harness and the app call on a state of any game. A state is immutable from the outside.

    Optional members a game may add (the lab checks for them and does without): ``ranks()`` (its own
    tie-break; else winners first, then by score: :func:`ranks`), ``explain_action(action, lang)`` and
    ``explain(error, lang)`` (plain-language texts), ``_repr_html_()``, ``rounds_left`` (about how many rounds
    follow: the app's progress while bots play on), ``last_round`` (True in the game's last round, once nothing
    is left to draw: a rollout cut short plays it out, ``bots.mcts.playout``), ``rearranged(**parts)`` (a new
    state with the same public facts and the hidden, undrawn order set by hand, e.g. ``pile=[...]``,
    ``bag=[...]``; raises ``RearrangeError`` naming the field and leaves this state unchanged: the chance
    variations of records, ``Node.rearrange``) and ``hidden_parts()`` (JSON-ready: what ``rearranged`` can
    set, in the current order; it reveals the hidden order). Everything else a part of the lab needs from one
    game comes through that game's :class:`GameInfo` (capabilities, metrics, variants).
    """

    game: str  # the registered name (GameInfo.name)
    phase: str  # one of the game's GameInfo.phases
    round: int  # 1-based
    n_players: int
    events: tuple[Event, ...]  # what the last transition did (rendered by describe)
    last_action: str | None  # notation of the action that led here (None at the start)

    @property
    def to_move(self) -> int | None:
        """The seat to decide, None when the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended (nobody is to move)."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a stable order (≥ 2 at a decision: steps without a choice are automatic; a game
        with secrets may ask on public facts alone and then offer one, e.g. Packet Row's ``asked_for_secrecy``)."""
        ...

    def apply(self, action: Action | str) -> GameState:
        """The next state; raises IllegalAction naming the rule and leaves this state unchanged."""
        ...

    def parse_action(self, text: str) -> Action:
        """Notation text to an Action (canonical: ``str(parse_action(t))`` round-trips); IllegalAction if not."""
        ...

    def score(self, seat: int) -> int:
        """Points if the game ended now (final once it is over)."""
        ...

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """``score`` by category (the values add up to it)."""
        ...

    def winners(self) -> list[int]:
        """The seats that win (after the game's tie-break); several share a win."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-ready: what ``seat`` may see (None: a spectator); no hidden order in it."""
        ...

    def determinize(self, seed: int) -> GameState:
        """Same public facts, the hidden information resampled (reproducible for a seed)."""
        ...

    def observe(self, seat: int | None) -> GameState:
        """The position as ``seat`` knows it (hidden parts canonical): what a bot gets."""
        ...

    def fingerprint(self) -> int:
        """A stable 32-bit digest of the public position (equal across determinizations and processes)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data that ``load_state`` turns back into an equal state."""
        ...

    def to_json(self) -> str:
        """``to_dict`` as JSON text: what ``load_state`` reads."""
        ...

    def describe(self, event: Event, lang: str = "en") -> str:
        """An event in plain language ("en" or "de")."""
        ...

    def seat_name(self, seat: int, lang: str = "en") -> str:
        """The seat's name in ``lang`` (a colour, a player's name)."""
        ...


@dataclass(frozen=True)
class Variant:
    """A way to start the game that a chooser offers: ``new_game(game, **options)`` under a title."""

    key: str
    title: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Metric:
    """A per-seat figure a game declares: a column of its trajectories (its record support's ``seat_row``)
    and a line of the charts, with its label in English and German. The first is charted under the score."""

    key: str
    en: str
    de: str

    def label(self, lang: str) -> str:
        """The figure's label in ``lang`` ("en" or "de")."""
        return self.de if lang == "de" else self.en


#: Per-seat figures both shipped games declare, with one label in each language: cards held, goods held.
CARDS_HELD = Metric("cards", "Cards", "Karten")
GOODS_HELD = Metric("goods", "Goods held", "Waren im Besitz")

OKABE_ITO = ("#D55E00", "#0072B2", "#009E73", "#E6B800", "#CC79A7")  # seat colours, colour-blind safe

#: What a game plugin may offer besides its rules, each as a lazy "module:attribute" (or "module") reference
#: (imported on first use, so registering a game imports nothing heavy; a module starting with "." is relative to
#: the game's ``module``, as in a relative import):
CAPABILITIES = {
    "records": "a factory of the game's RecordSupport (speicherstadt_lab.records): set-up, hidden fields",
    "conformance": "conformance_adapter(**options) -> engine.conformance.ConformanceAdapter",
    "heuristic": "a class Heuristic(state) with values(state, actions) for the GreedyBot",
    "board": "the board widget class (an anywidget GameBoard subclass) that draws the game",
    "metrics": "seat_metrics(state, seat) -> {name: number}: per-seat figures of a finished game for simulate",
    "chance": "an object with settling(state) and revealed(state): the chance steps the review measures luck at",
    "features": "seat_features(state) -> (names, rows): per-seat numbers of a position for a learned value model",
    "card_kinds": "card_kinds(state, lang) -> [{kind_name, name, text}]: what each kind of card does (rules panel)",
    "grammar": "the game's action grammar (engine.grammar.Grammar), read with the state's ``notation`` as its context"
               ": parsing, board clicks, written forms, the interop action catalogue",
    "puzzles": "a module with THEMES (theme ids) and theme(state, action) -> theme id: what a puzzle is about",
    "observation": "observation_layout(state) -> engine.observation.Field: view(seat) as a flat vector of numbers for "
                   "the variant and player count of a start position (the interop observation tensor)",
    "scenario": "scenario_of(state, hidden=False) -> dict: the position as a scenario for new_game(game, scenario=...)"
                "; with the record support's scenario_setup(scenario), records start there (and from_state anywhere)",
}


@dataclass(frozen=True)
class GameInfo:
    """A game declared as data: what it is before how it plays. The game's own package registers it
    (:func:`register_game`); everything outside the game finds the game's parts through it."""

    name: str
    title: str
    min_players: int
    max_players: int
    phases: tuple[str, ...]
    parameters: dict[str, str]
    module: str  # imported lazily; provides new_game(**kw) and from_dict(data)
    expansions: tuple[str, ...] = ()
    capabilities: dict[str, str] = field(default_factory=dict)  # name (see CAPABILITIES) -> "[.]module:attr"
    variants: tuple[Variant, ...] = ()  # what a game chooser offers; default: the game itself
    rollout: str = "random"  # the bot MCTS rolls out with by default
    hybrid_horizon: int = 1  # rounds a hybrid rollout (quick judgement, luck) plays before the model scores it
    review_horizon: int | None = None  # the same for the review's comparison of moves (None: hybrid_horizon)
    seat_colours: tuple[str, ...] = OKABE_ITO
    metrics: tuple[Metric, ...] = ()  # per-seat figures along a game (trajectory columns, chart lines)

    def impl(self) -> Any:
        """The game's module (imported now): its ``new_game(**kw)`` and ``from_dict(data)``."""
        return importlib.import_module(self.module)

    def capability(self, name: str) -> Any:
        """The object behind capability ``name``, imported now; None if the game does not offer it."""
        ref = self.capabilities.get(name)
        if ref is None:
            return None
        module, _, attr = ref.partition(":")
        found = importlib.import_module(module, package=self.module)
        return getattr(found, attr) if attr else found  # "module" alone: the module itself

    def choices(self) -> tuple[Variant, ...]:
        """The variants a chooser offers (the game itself when it declares none)."""
        return self.variants or (Variant(self.name, self.title),)


_GAMES: dict[str, GameInfo] = {}
# Games known by the module that registers them, imported when the game is first asked for (``register_later``).
_LATER: dict[str, str] = {}
_LATER_LOCK = threading.RLock()


def register_game(info: GameInfo) -> None:
    """Make a game known to the lab (records, bots, simulation, the app): called by the game's own package."""
    unknown = set(info.capabilities) - set(CAPABILITIES)
    if unknown:
        raise ValueError(f"capabilities: unknown {sorted(unknown)}; known: {', '.join(CAPABILITIES)}")
    _GAMES[info.name] = info


def register_later(name: str, module: str) -> None:
    """Make the game ``name`` known by the ``module`` that registers it, imported (once, whichever thread asks first)
    when the game is first asked for: by name, or by listing every game (``games()``, ``game_names()``)."""
    if name not in _GAMES:
        _LATER[name] = module


def _import_later(name: str | None = None) -> None:
    """Import the module of the game ``name`` registered for later (None: of every such game)."""
    if not _LATER or (name is not None and name not in _LATER):
        return
    with _LATER_LOCK:
        for later in [name] if name is not None else list(_LATER):
            module = _LATER.get(later)
            if module is None:
                continue  # another thread imported it meanwhile
            importlib.import_module(module)
            del _LATER[later]
            if later not in _GAMES:
                raise ValueError(f"game {later!r}: importing {module} registered no game of that name")


def grammar_of(game: str) -> Any:
    """The action grammar a game declares (its "grammar" capability, ``engine/grammar.py``); ValueError naming the
    game when it declares none."""
    grammar = get_game(game).capability("grammar")
    if grammar is None:
        raise ValueError(f"grammar: {get_game(game).title} declares no action grammar (capability 'grammar')")
    return grammar


def ranks(state: GameState) -> list[int]:
    """1-based rank of each seat at the end: the game's own ``ranks()`` (with its tie-break) when it has one,
    else the winners first and the others by score; equal seats share a rank."""
    own = getattr(state, "ranks", None)
    if own is not None:
        return list(own())
    winners = set(state.winners())
    keys = [(i in winners, state.score(i)) for i in range(state.n_players)]
    return [1 + sum(1 for o in keys if o > k) for k in keys]


def games() -> list[GameInfo]:
    """Every registered game, by name."""
    return [_GAMES[n] for n in game_names()]


def games_imported() -> list[GameInfo]:
    """The registered games whose modules are imported already, by name (none is imported here)."""
    return [_GAMES[n] for n in sorted(_GAMES)]


def game_variants(imported: bool = False) -> dict[str, tuple[GameInfo, Variant]]:
    """Every variant of every registered game by key ("speicherstadt", "kaispeicher", "packet_row"): what the app's
    game chooser offers and what benchmarks and adapters start (``imported``: of the games imported so far only)."""
    return {v.key: (info, v) for info in (games_imported() if imported else games()) for v in info.choices()}


def find_variant(key: str) -> tuple[GameInfo, Variant]:
    """The game and variant of ``key`` (a game registered for later is imported only if no game imported so far has
    that key); a ValueError naming the field ``game`` for a key no game offers."""
    found = game_variants(imported=True).get(key)
    if found is None:
        found = game_variants().get(key)
    if found is None:
        raise ValueError(f"game: {key!r} is not a variant of a registered game; known: {', '.join(game_variants())}")
    return found


def variant_start(key: str) -> tuple[str, dict[str, Any]]:
    """(game name, ``new_game`` options) of the variant ``key``: ``("speicherstadt", {"expansion": "kaispeicher"})``."""
    info, variant = find_variant(key)
    return info.name, dict(variant.options)


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    _import_later()
    return sorted(_GAMES)


def get_game(name: str) -> GameInfo:
    """The registered game ``name``; ValueError listing the known games if there is none."""
    if isinstance(name, str):
        _import_later(name)
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def new_game(game: str | None = None, **kwargs: Any) -> GameState:
    """A new game's first decision state.

    ``scenario=...`` (a dict or a ``.json`` path) starts from a described position instead, for a game with the
    "scenario" capability. ``game`` defaults to the game the scenario names (when it is a registered game with
    scenarios), else Die Speicherstadt."""
    if game is None:
        game = "speicherstadt"
        if kwargs.get("scenario") is not None:
            data = kwargs["scenario"] = scenario_data(kwargs["scenario"])  # a file is read once, here
            named = data.get("game") if isinstance(data, dict) else None
            if isinstance(named, str):
                _import_later(named)
            if isinstance(named, str) and "scenario" in getattr(_GAMES.get(named), "capabilities", {}):
                game = named
    info = get_game(game)
    if kwargs.get("scenario") is not None and "scenario" not in info.capabilities:
        raise ValueError(f"scenario: {info.title} has no scenarios yet")
    players = kwargs.get("players", 4)
    if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        span = f"{info.min_players} to {info.max_players}"
        raise ValueError(f"players: {info.title} is for {span} players, not {players!r}")
    return info.impl().new_game(**kwargs)


def scenario_data(source: Any) -> Any:
    """A scenario's data: ``source`` itself, or the content of the ``.json`` file a path names (read with json only;
    ScenarioError if it cannot be read)."""
    return read_scenario_file(source) if isinstance(source, str | Path) else source


def state_from_dict(data: Any) -> GameState:
    """A state from its ``to_dict`` data, by the game it names; RecordError naming the field for malformed data."""
    if not isinstance(data, dict):
        raise RecordError("state: the top level must be an object")
    name = data.get("game")
    if isinstance(name, str):
        _import_later(name)
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
