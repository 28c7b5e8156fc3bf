"""Game records with variations: a set-up that replays exactly and a tree of decisions.

A :class:`GameRecord` is to this lab what a PGN game is to chess (the tree API follows
``chess.pgn.GameNode``): the set-up with the **materialized** draw order (so a record replays the same
even if the shuffle ever changes), and a tree of :class:`Node` s, one per decision, each with who chose
it, a comment and annotations. The first child of a node is the main line, the others are variations.
A *chance variation* (:meth:`Node.rearrange`) is a child that makes no decision: it keeps every public fact
and sets the hidden, undrawn order by hand (``state.rearranged``), e.g. "what if the 4th fire had come now?".

Everything goes through the state protocol (``new_game``, ``apply``, ``legal_actions``, ``events``,
``describe``, ``score``). The little that depends on the game (which ``new_game`` arguments recreate a
start position, what is hidden and how a seat's export fills it in, the per-seat figures of a
trajectory) sits in one :class:`RecordSupport` per game, registered with :func:`register_record_support`.
The file format is described in ``docs/record-format.md``.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from .engine.errors import IllegalAction, RearrangeError, RecordError
from .engine.errors import setup_error as _setup_error
from .engine.protocol import GameState, get_game, new_game
from .engine.record_support import start_key
from .lazyimport import pandas as pd

RECORD_FORMAT = "speicherstadt-lab/2"
RECORD_VERSION = 2
READ_VERSIONS = (1, 2)  # version 1: the same without chance variations
_FORMAT_RE = re.compile(r"^speicherstadt-lab/(\d+)$")
_TOP_FIELDS = ("format", "game", "setup", "hidden", "headers", "root", "moves")
_NODE_FIELDS = {"action", "by", "comment", "annotations", "variations"}
_CHANCE_FIELDS = {"chance", "by", "comment", "annotations", "variations"}

By = str | dict[str, Any]


# ---- the game-specific part ------------------------------------------------------------------------


class RecordSupport(Protocol):
    """What a record needs to know about one game; everything else is the state protocol.

    Optional: ``scenario_setup(scenario) -> dict``, the set-up (hidden order materialized) of a game started from a
    scenario, for :meth:`GameRecord.from_scenario`."""

    hidden_fields: tuple[str, ...]

    def setup_of(self, state: GameState) -> dict[str, Any]:
        """``new_game`` keyword arguments (hidden orders materialized) that recreate this start position."""
        ...

    def check_setup(self, setup: dict[str, Any]) -> None:
        """Raise :class:`RecordError` naming ``setup.<field>`` for a field of the wrong type."""
        ...

    def reveal(self, setup: dict[str, Any], states: Iterable[GameState], seat: int) -> dict[str, Any]:
        """The part of the hidden orders ``seat`` has seen by any of ``states`` (JSON-ready)."""
        ...

    def fill(self, setup: dict[str, Any], revealed: dict[str, Any]) -> dict[str, Any]:
        """``setup`` with the hidden fields rebuilt: the seen part, then a canonical placeholder."""
        ...

    def mark_observation(self, state: GameState, seat: int) -> GameState:
        """The same position flagged as an observation by ``seat`` (its hidden order is a placeholder)."""
        ...

    def seat_row(self, state: GameState, seat: int) -> dict[str, Any]:
        """Per-seat figures of a trajectory row: name, coins, track, cards, goods."""
        ...


_SUPPORT: dict[str, RecordSupport] = {}


def register_record_support(game: str, support: RecordSupport) -> None:
    """Let records hold games of ``game`` (a game registered with the engine)."""
    _SUPPORT[game] = support


def _support(game: Any) -> RecordSupport:
    if isinstance(game, str) and game not in _SUPPORT:
        _load_support(game)
    if not isinstance(game, str) or game not in _SUPPORT:
        raise RecordError(f"record field 'game': unknown game {game!r}; records know {sorted(_SUPPORT)}")
    return _SUPPORT[game]


def _load_support(game: str) -> None:
    """Register the support the game's plugin offers as its "records" capability (imported on first use)."""
    try:
        factory = get_game(game).capability("records")
    except ValueError:
        return
    if factory is not None:
        register_record_support(game, factory())


# ---- nodes ------------------------------------------------------------------------------------------


class Node:
    """One decision in a record (the root: the start position). ``children[0]`` continues the main line.

    A chance node (``chance`` not None, made by :meth:`rearrange`) is no decision: ``chance`` holds the
    hidden parts it set (JSON-ready ``state.rearranged`` arguments), ``action`` a short text for lists and
    trees (``"~ pile: contract_a2 fire_1; bag: coffee"``), ``actor`` is None. It counts as a ply like a move.
    """

    __slots__ = ("_state", "action", "actor", "annotations", "by", "chance", "children", "comment", "parent",
                 "ply", "record")

    def __init__(self, record: GameRecord | None, parent: Node | None, action: str | None, by: By | None,
                 actor: int | None, comment: str | None = None, annotations: dict[str, Any] | None = None,
                 chance: dict[str, Any] | None = None) -> None:
        self.record = record
        self.parent = parent
        self.action = action
        self.chance = chance  # a chance node's rearranged hidden parts; None for a decision (and the root)
        self.by = by
        self.actor = actor  # the seat that chose the action (None at the root)
        self.comment = comment
        self.annotations: dict[str, Any] = annotations if annotations is not None else {}
        self.children: list[Node] = []
        self.ply = 0 if parent is None else parent.ply + 1
        self._state: GameState | None = None

    @property
    def variations(self) -> list[Node]:
        """The children, main line first (python-chess name)."""
        return self.children

    @property
    def state(self) -> GameState:
        """The position after this node's action (cached, or rebuilt from the nearest cached ancestor)."""
        return self._owner()._state_of(self)

    def _owner(self) -> GameRecord:
        if self.record is None:
            raise ValueError(f"node at ply {self.ply} ({self.action!r}) was removed from its record")
        return self.record

    def play(self, action: Any, by: By = "human", comment: str | None = None,
             applied: tuple[GameState, GameState] | None = None) -> Node:
        """The child reached by ``action``: an existing one with that action, else a new last variation.

        The action is checked by the engine: an illegal one raises :class:`IllegalAction` and changes
        nothing. A reused child keeps its own ``by`` and comment. ``applied``: (this node's state, the state
        after ``action``) when the caller applied it already (a board's click): taken as the child's state when the
        first is this very node's state, so the action is applied once.
        """
        record = self._owner()
        state = record._state_of(self)
        if applied is not None and applied[0] is state and str(applied[1].last_action) == str(action):
            action = applied[1].last_action  # canonical: the engine wrote it
        else:
            applied = None
        text = str(state.parse_action(action))
        for child in self.children:
            if child.chance is None and child.action == text:
                return child
        _check_by(by, "by")
        if comment is not None and not isinstance(comment, str):
            raise ValueError(f"comment: must be text or None, not {type(comment).__name__}")
        new_state = applied[1] if applied is not None else state.apply(text)
        child = Node(record, self, text, _copy_by(by), state.to_move, comment)
        self.children.append(child)
        record._keep(child, new_state)
        return child

    def rearrange(self, by: By = "human", comment: str | None = None, **parts: Any) -> Node:
        """A chance variation here: a child whose state is ``state.rearranged(**parts)`` (same public facts, the
        hidden, undrawn order set by hand). Parts given as None are left out.

        E.g. ``node.rearrange(pile=["fire_1"], bag=["coffee"])`` in Die Speicherstadt, ``node.rearrange(decks={"guild":
        [...]})`` in Packet Row.

        An existing chance child with the same parts is returned instead (it keeps its ``by`` and comment);
        otherwise the new child becomes the last variation. A rearrangement that does not fit the public facts
        raises :class:`RearrangeError` naming the field, and nothing changes. Play on from the child as from any
        node. A chance variation names hidden order, so a seat's export leaves it out (``docs/record-format.md``).
        """
        record = self._owner()
        state = record._state_of(self)
        rearranged = getattr(state, "rearranged", None)
        if rearranged is None:
            raise ValueError(f"rearrange: {state.game} has no hidden order to rearrange")
        parts = {k: v for k, v in parts.items() if v is not None}
        if not parts:
            raise ValueError("rearrange: name at least one hidden part to set (for example pile=[...])")
        _check_by(by, "by")
        if comment is not None and not isinstance(comment, str):
            raise ValueError(f"comment: must be text or None, not {type(comment).__name__}")
        new_state = rearranged(**parts)
        try:
            chance = json.loads(json.dumps(parts))  # JSON-ready as saved (tuples as lists, keys as texts)
        except (TypeError, ValueError) as e:
            raise ValueError(f"rearrange: the parts must be plain JSON data (lists, objects, texts): {e}") from None
        for child in self.children:
            if child.chance == chance:
                return child
        if rearranged(**chance).to_dict() != new_state.to_dict():  # what a file replays must be this state
            raise ValueError(f"rearrange: the parts {chance} do not survive a JSON round trip unchanged")
        child = Node(record, self, chance_text(chance), _copy_by(by), None, comment, chance=chance)
        self.children.append(child)
        record._keep(child, new_state)
        return child

    def play_out(self, bots: Sequence[Any], max_steps: int = 10_000) -> Node:
        """Let one bot per seat play on to the end (each sees only ``observe(seat)``); the last node."""
        node = self
        for _ in range(max_steps):
            state = node.state
            if state.is_over:
                return node
            seat = state.to_move
            assert seat is not None
            bot = bots[seat]
            node = node.play(bot.choose(state.observe(seat)), by=dict(bot.params()))
        if node.state.is_over:
            return node
        raise RuntimeError(f"game did not end within {max_steps} decisions")

    def next(self) -> Node | None:
        """The main-line child, or None at the end of a line."""
        return self.children[0] if self.children else None

    def is_mainline(self) -> bool:
        """True if every step from the root to here is a first child."""
        node = self
        while node.parent is not None:
            if not node.parent.children or node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    def __repr__(self) -> str:
        if self.parent is None:
            return "<Node root>"
        if self.chance is not None:
            return f"<Node ply {self.ply} chance: {self.action!r}>"
        return f"<Node ply {self.ply} seat {self.actor}: {self.action!r}>"


def chance_text(chance: dict[str, Any]) -> str:
    """The short text of a chance node: ``"~ pile: a b; bag: coffee"``, ``"~ decks: guild x y; contracts: 1 z"``."""

    def part(v: Any) -> str:
        if isinstance(v, dict):
            return ", ".join(f"{k} {part(x)}" for k, x in v.items()) or "-"
        if isinstance(v, list):
            return " ".join(part(x) for x in v) or "-"
        return str(v)

    return "~ " + "; ".join(f"{k}: {part(v)}" for k, v in chance.items())


def _check_by(by: Any, where: str) -> None:
    if isinstance(by, str) and by:
        return
    if isinstance(by, dict) and all(isinstance(k, str) for k in by):
        return
    raise ValueError(f"{where}: must be 'human' (or another name) or a dict of bot parameters, not {by!r}")


def _copy_by(by: By) -> By:
    return dict(by) if isinstance(by, dict) else by


# ---- the record -------------------------------------------------------------------------------------


class GameRecord:
    """A game's set-up and a tree of decisions with variations, comments and annotations.

    States: with ``cache_every=1`` (the default) every node keeps its state (about 1.3 KiB each, since
    states share unchanged data); with ``k > 1`` only every k-th ply does, the others are rebuilt by
    replay from the nearest cached ancestor and kept in a small LRU.
    """

    def __init__(self, game: str, setup: dict[str, Any], initial: GameState, *, seed: int | str | None = None,
                 hidden: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
                 cache_every: int = 1, lru_size: int = 256) -> None:
        """Use :meth:`new`, :meth:`from_state` or :meth:`from_json`; this trusts its arguments."""
        if not isinstance(cache_every, int) or cache_every < 1:
            raise ValueError(f"cache_every: must be a whole number ≥ 1, not {cache_every!r}")
        self.game = game
        self.seed = seed
        self._setup = setup
        self.hidden = hidden  # {"seat": k, <hidden field>: seen part, ...} for an export as seat k saw it
        self.headers: dict[str, str] = dict(headers or {})
        self.cache_every = cache_every
        self._lru: OrderedDict[Node, GameState] = OrderedDict()
        self._lru_size = lru_size
        self.root = Node(self, None, None, None, None)
        self.root._state = initial

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int = 4, seed: int | str = 1, *, game: str = "speicherstadt",
            headers: dict[str, str] | None = None, cache_every: int = 1, **kwargs: Any) -> GameRecord:
        """A record of a new game: ``new_game(game, players=..., seed=..., **kwargs)``."""
        state = new_game(game, players=players, seed=seed, **kwargs)
        return cls.from_state(state, seed=seed, headers=headers, cache_every=cache_every)

    @classmethod
    def from_state(cls, state: GameState, *, seed: int | str | None = None, headers: dict[str, str] | None = None,
                   cache_every: int = 1) -> GameRecord:
        """A record starting at ``state``: a game's start position (as ``new_game`` returns it; its set-up is
        ``new_game``'s arguments), or any other legal position of a game with scenarios.

        Such a record's set-up is the position as a scenario with its whole hidden order (``scenario_of(state,
        hidden=True)``, as :meth:`from_scenario` keeps it), so the file replays exactly; its root is the position
        rebuilt from that set-up (the same position, without the events that led to it). ValueError for an observation
        or a position the game cannot describe as a scenario."""
        support = _support(state.game)
        setup: dict[str, Any] | None
        try:
            setup = support.setup_of(state)
            if new_game(state.game, **setup).to_dict() != state.to_dict():
                setup = None
        except ValueError:  # not a start position, or a set-up new_game refuses (a position rigged by hand)
            setup = None
        if setup is not None:
            return cls(state.game, setup, state, seed=seed, headers=headers, cache_every=cache_every)
        setup, initial = _scenario_start(support, state)
        return cls(state.game, setup, initial, seed=seed, headers=headers, cache_every=cache_every)

    @classmethod
    def from_scenario(cls, scenario: Any, *, headers: dict[str, str] | None = None,
                      cache_every: int = 1) -> GameRecord:
        """A record whose root is the position ``scenario`` describes (a dict, or the path of a ``.json`` file; see
        ``docs/record-format.md``, *Scenarios*).

        Its set-up keeps the scenario and the whole hidden order at its start, so the file replays exactly; ``headers``
        default to the scenario's English title. A wrong scenario raises
        :class:`~speicherstadt_lab.engine.ScenarioError` naming the field.
        """
        from .engine.datafiles import read_scenario_file
        from .engine.errors import ScenarioError

        data = read_scenario_file(scenario) if isinstance(scenario, str | Path) else scenario
        if not isinstance(data, dict):
            raise ScenarioError("", f"must be an object (JSON), not {type(data).__name__}")
        game = data.get("game")
        try:
            support = _support(game)
        except RecordError:
            raise ScenarioError("game", f"no game {game!r} with scenarios; known: {sorted(_SUPPORT)}") from None
        make = getattr(support, "scenario_setup", None)
        if make is None:
            raise ScenarioError("game", f"{game} has no scenarios yet")
        setup = make(data)
        state = new_game(game, **setup)
        if headers is None:
            title = data.get("title") or {}
            headers = {"scenario": title["en"]} if isinstance(title.get("en"), str) else {}
        # make() has checked the scenario: its title and seed are of the right types
        return cls(game, setup, state, seed=data.get("seed"), headers=headers, cache_every=cache_every)

    # -- states -------------------------------------------------------------------------------------

    def _keep(self, node: Node, state: GameState) -> None:
        if node.ply % self.cache_every == 0:
            node._state = state
            return
        self._lru[node] = state
        if len(self._lru) > self._lru_size:
            self._lru.popitem(last=False)

    def _state_of(self, node: Node) -> GameState:
        if node._state is not None:
            return node._state
        hit = self._lru.get(node)
        if hit is not None:
            self._lru.move_to_end(node)
            return hit
        chain: list[Node] = []
        n = node
        while n._state is None and n not in self._lru:
            chain.append(n)
            assert n.parent is not None
            n = n.parent
        state = n._state if n._state is not None else self._lru[n]
        for m in reversed(chain):
            if m.chance is not None:
                state = state.rearranged(**m.chance)  # type: ignore[attr-defined]
            else:
                assert m.action is not None
                state = state.apply(m.action)
            self._keep(m, state)
        return state

    @property
    def initial(self) -> GameState:
        """The start position (the root's state)."""
        return self.root.state

    @property
    def setup(self) -> dict[str, Any]:
        """The ``new_game`` arguments that recreate the start position (a copy; in a seat's export the
        hidden orders are None)."""
        setup = json.loads(json.dumps(self._setup))
        if self.hidden is not None:
            setup.update({k: None for k in _support(self.game).hidden_fields})
        return setup

    @property
    def is_observation(self) -> bool:
        """True for a record loaded from a seat's export: hidden orders past what was seen are placeholders."""
        return self.hidden is not None

    # -- the tree -----------------------------------------------------------------------------------

    def end(self) -> Node:
        """The last node of the main line."""
        node = self.root
        while node.children:
            node = node.children[0]
        return node

    def mainline(self) -> list[Node]:
        """The nodes of the main line, from the root."""
        out = [self.root]
        while out[-1].children:
            out.append(out[-1].children[0])
        return out

    def path_to(self, node: Node) -> list[Node]:
        """The nodes from the root to ``node`` (inclusive); ValueError if it is not in this record."""
        path = [node]
        while path[-1].parent is not None:
            parent = path[-1].parent
            if not any(c is path[-1] for c in parent.children):
                break
            path.append(parent)
        if path[-1] is not self.root or node.record is not self:
            raise ValueError(f"{node!r} is not a node of this record")
        path.reverse()
        return path

    def nodes(self) -> list[Node]:
        """Every node, depth-first, main line first at each branch."""
        out: list[Node] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(node.children))
        return out

    def branch_points(self) -> list[Node]:
        """The nodes with two or more children (in :meth:`nodes` order)."""
        return [n for n in self.nodes() if len(n.children) >= 2]

    def promote_to_main(self, node: Node) -> None:
        """Make the line through ``node`` the main line (each step becomes a first child)."""
        path = self.path_to(node)
        for parent, child in itertools.pairwise(path):
            parent.children.remove(child)
            parent.children.insert(0, child)

    def remove(self, node: Node) -> None:
        """Delete ``node`` and everything after it; the removed nodes can no longer be used."""
        path = self.path_to(node)
        if len(path) == 1:
            raise ValueError("the root cannot be removed")
        parent = path[-2]
        parent.children = [c for c in parent.children if c is not node]
        stack = [node]
        while stack:
            n = stack.pop()
            n.record = None
            self._lru.pop(n, None)
            stack.extend(n.children)

    def __len__(self) -> int:
        return len(self.nodes())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameRecord) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<GameRecord {self.game} {self.initial.n_players}p: {len(self.mainline()) - 1} plies in "
                f"the main line, {len(self.branch_points())} branch points>")

    # -- JSON ---------------------------------------------------------------------------------------

    def to_dict(self, as_seat: int | None = None) -> dict[str, Any]:
        """The record as JSON-ready data; ``as_seat=k``: without the hidden order k never saw (and without the
        chance variations, which name hidden order; see ``docs/record-format.md``)."""
        setup = dict(self._setup)
        hidden = self.hidden
        seed = self.seed
        support = _support(self.game)
        # An export of a full record leaves the chance variations out: they name the true hidden order. A record
        # that is already an observation keeps them (they rearrange its placeholder order and reveal nothing).
        export = as_seat is not None and hidden is None
        keep = _no_chance if export else _any_node
        if as_seat is not None or hidden is not None:
            n = self.initial.n_players
            if as_seat is not None and (not isinstance(as_seat, int) or isinstance(as_seat, bool)
                                        or not 0 <= as_seat < n):
                raise ValueError(f"as_seat: must be a seat 0..{n - 1}, not {as_seat!r}")
            if hidden is None:
                seen = support.reveal(setup, (nd.state for nd in _kept_nodes(self.root, keep)),
                                      as_seat)  # type: ignore[arg-type]
            else:
                seen = {k: v for k, v in hidden.items() if k != "seat"}
            hidden = {"seat": as_seat if as_seat is not None else hidden["seat"], **seen}  # type: ignore[index]
            for key in support.hidden_fields:
                setup[key] = None
            seed = None  # the seed would give the order away
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "setup": {"seed": seed, **json.loads(json.dumps(setup))},
            "hidden": json.loads(json.dumps(hidden)) if hidden is not None else None,
            "headers": dict(self.headers),
            "root": {"comment": self.root.comment, "annotations": self.root.annotations},
            "moves": _write_children(self.root, keep),
        }

    def to_json(self, as_seat: int | None = None, pretty: bool = False) -> str:
        """The record as JSON text (see ``docs/record-format.md``); ``pretty``: one line per field and move."""
        data = self.to_dict(as_seat)
        try:
            if not pretty:
                return json.dumps(data, ensure_ascii=False, allow_nan=False)
            dump = lambda v: json.dumps(v, ensure_ascii=False, allow_nan=False)  # noqa: E731
            parts = [f" {dump(k)}: {dump(v)}" for k, v in data.items() if k != "moves"]
            moves = ",\n".join(f"  {dump(m)}" for m in data["moves"])
            parts.append(f' "moves": [\n{moves}\n ]' if moves else ' "moves": []')
            return "{\n" + ",\n".join(parts) + "\n}"
        except (TypeError, ValueError) as e:
            raise ValueError(f"record: comments, annotations and bot parameters must be plain JSON data ({e})") \
                from None

    def save(self, path: str | Path, as_seat: int | None = None) -> None:
        """Write the record (readable layout: one line per move of the main line)."""
        Path(path).write_text(self.to_json(as_seat, pretty=True) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, cache_every: int = 1) -> GameRecord:
        """The record in the JSON file ``path`` (``cache_every``: keep every n-th state, as ``from_json``)."""
        return cls.from_json(Path(path).read_text(encoding="utf-8"), cache_every=cache_every)

    @classmethod
    def from_json(cls, text: str | bytes, cache_every: int = 1) -> GameRecord:
        """A record from its JSON text, checked completely (every action replayed); else :class:`RecordError`."""
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (ValueError, TypeError, RecursionError) as e:
            raise RecordError(f"record: not valid JSON ({e})") from None
        return cls.from_dict(data, cache_every=cache_every)

    @classmethod
    def from_dict(cls, data: Any, cache_every: int = 1) -> GameRecord:
        """A record from :meth:`to_dict` data; see :meth:`from_json`."""
        if not isinstance(data, dict):
            raise RecordError("record: the top level must be an object")
        if "format" not in data:
            raise RecordError("record field 'format' is missing")
        fmt = data["format"]
        m = _FORMAT_RE.match(fmt) if isinstance(fmt, str) else None
        if m is None:
            raise RecordError(f"record field 'format': not a speicherstadt-lab record ({fmt!r})")
        version = int(m.group(1))
        if version not in READ_VERSIONS:
            known = ", ".join(f"'speicherstadt-lab/{v}'" for v in READ_VERSIONS)
            raise RecordError(f"record field 'format': version {m.group(1)} is not one this lab reads ({known})")
        for key in _TOP_FIELDS:
            if key not in data:
                raise RecordError(f"record field '{key}' is missing")
        unknown = set(data) - set(_TOP_FIELDS)
        if unknown:
            raise RecordError(f"record: unknown field(s) {sorted(unknown)}")
        game = data["game"]
        support = _support(game)
        try:
            get_game(game)
        except ValueError:
            raise RecordError(f"record field 'game': unknown game {game!r}") from None
        setup = data["setup"]
        if not isinstance(setup, dict):
            raise RecordError("record field 'setup' has the wrong type (must be an object)")
        seed = setup.get("seed")
        if "seed" not in setup or not (seed is None or isinstance(seed, str)
                                       or (isinstance(seed, int) and not isinstance(seed, bool))):
            raise RecordError("record field 'setup.seed': must be a number, a text or null")
        setup = {k: v for k, v in setup.items() if k != "seed"}
        if version < 2 and "scenario" in setup:
            raise RecordError("record field 'setup.scenario': a scenario's set-up needs format 'speicherstadt-lab/2'")
        headers = _check_headers(data["headers"])
        hidden = data["hidden"]
        if hidden is None:
            support.check_setup(setup)
            kwargs = setup
        else:
            if not isinstance(hidden, dict):
                raise RecordError("record field 'hidden' has the wrong type (must be an object or null)")
            for key in support.hidden_fields:
                if setup.get(key) is not None:
                    raise RecordError(f"record field 'setup.{key}': must be null in a seat's export")
                if not isinstance(hidden.get(key), list):
                    raise RecordError(f"record field 'hidden.{key}': must be a list")
            check = dict(setup)
            for key in support.hidden_fields:
                check[key] = hidden[key]
            support.check_setup(check)
            kwargs = support.fill({k: v for k, v in setup.items() if k not in support.hidden_fields}, hidden)
        try:
            initial = new_game(game, **kwargs)
        except (ValueError, TypeError) as e:
            raise _setup_error(e) from None
        if hidden is not None:
            seat = hidden.get("seat")
            n = initial.n_players
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                raise RecordError(f"record field 'hidden.seat': must be a seat 0..{n - 1}")
            if set(hidden) != {"seat", *support.hidden_fields}:
                raise RecordError(f"record field 'hidden': has exactly the fields seat, "
                                  f"{', '.join(support.hidden_fields)}")
            initial = support.mark_observation(initial, seat)
        record = cls(game, kwargs, initial, seed=seed,
                     hidden=json.loads(json.dumps(hidden)) if hidden is not None else None, headers=headers,
                     cache_every=cache_every)
        root = data["root"]
        if not isinstance(root, dict) or set(root) - {"comment", "annotations"}:
            raise RecordError("record field 'root': must be an object with 'comment' and 'annotations'")
        record.root.comment = _check_comment(root.get("comment"), "root.comment")
        record.root.annotations = _check_annotations(root.get("annotations", {}), "root.annotations")
        moves = data["moves"]
        if not isinstance(moves, list):
            raise RecordError("record field 'moves' has the wrong type (must be a list)")
        _read_tree(record, moves, version)
        return record

    # -- tables -------------------------------------------------------------------------------------

    def trajectory(self, node: Node | None = None) -> pd.DataFrame:
        """One row per seat per step along the path to ``node`` (default: the end of the main line),
        and one more per seat when a round ends (income paid), for charts and analysis.

        Columns: ply, round, phase, kind ("step" or "round_end"), action, actor, seat, the game's per-seat
        figures (its record support's ``seat_row``: name, coins, track, cards, goods for both shipped games),
        projected (``state.score(seat)``: the score if the game ended now).
        A round-end row shows the position right after the transition that paid the income: its
        ``round`` is the round that ended (the position may already show the next round's cards). A chance
        node is a step row like a move (``action`` its ``~ ...`` text, ``actor`` missing): its public figures are
        those of the position before it.
        """
        support = _support(self.game)
        path = self.path_to(node if node is not None else self.end())
        rows: list[dict[str, Any]] = []
        prev: GameState | None = None
        for nd in path:
            st = nd.state
            ended: list[int] = []
            if prev is not None:
                ended = list(range(prev.round, st.round))
                if st.is_over and not prev.is_over and prev.round == st.round:
                    ended.append(st.round)
            per_seat = []
            for seat in range(st.n_players):
                row = {"seat": seat, **support.seat_row(st, seat), "projected": st.score(seat)}
                per_seat.append(row)
                rows.append({"ply": nd.ply, "round": st.round, "phase": st.phase, "kind": "step",
                             "action": nd.action, "actor": nd.actor, **row})
            for r in ended:
                for row in per_seat:
                    rows.append({"ply": nd.ply, "round": r, "phase": st.phase, "kind": "round_end",
                                 "action": nd.action, "actor": nd.actor, **row})
            prev = st
        figures = list(support.seat_row(path[0].state, 0))  # the game's per-seat columns, in its order
        cols = ["ply", "round", "phase", "kind", "action", "actor", "seat", *figures, "projected"]
        df = pd.DataFrame(rows, columns=cols)
        df["actor"] = df["actor"].astype("Int64")
        return df

    def events(self, node: Node | None = None, lang: str = "en") -> pd.DataFrame:
        """The event log along the path to ``node`` (default: the end of the main line).

        Columns: ply, round, phase, action, actor, key, text (in ``lang``), args. ``round`` and
        ``phase`` are those in which the action was taken; an event that starts a round (its args
        hold ``round``) moves ``round`` on for the events after it. A chance node adds no events.
        """
        path = self.path_to(node if node is not None else self.end())
        rows: list[dict[str, Any]] = []
        prev: GameState | None = None
        for nd in path:
            st = nd.state
            if nd.chance is not None:  # no transition: the state keeps the events of the move before it
                prev = st
                continue
            ref = prev if prev is not None else st
            rnd, phase = ref.round, ref.phase
            if prev is None:
                rnd = 0  # the set-up events come before round 1 starts
            for ev in st.events:
                r = ev.args.get("round") if isinstance(ev.args, dict) else None
                if isinstance(r, int) and not isinstance(r, bool):
                    rnd = r
                rows.append({"ply": nd.ply, "round": rnd, "phase": phase, "action": nd.action, "actor": nd.actor,
                             "key": ev.key, "text": st.describe(ev, lang), "args": ev.args})
            prev = st
        df = pd.DataFrame(rows, columns=["ply", "round", "phase", "action", "actor", "key", "text", "args"])
        df["actor"] = df["actor"].astype("Int64")
        return df


# ---- writing and reading the tree -----------------------------------------------------------------


def _node_dict(node: Node) -> dict[str, Any]:
    by = _copy_by(node.by)  # type: ignore[arg-type]
    d: dict[str, Any] = ({"action": node.action, "by": by} if node.chance is None
                         else {"chance": json.loads(json.dumps(node.chance)), "by": by})
    if node.comment is not None:
        d["comment"] = node.comment
    if node.annotations:
        d["annotations"] = node.annotations
    return d


def _any_node(node: Node) -> bool:
    return True


def _no_chance(node: Node) -> bool:
    return node.chance is None


def _kept_nodes(root: Node, keep: Callable[[Node], bool]) -> list[Node]:
    """The nodes reached from ``root`` through nodes that ``keep`` accepts (depth-first, main line first)."""
    out: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed([c for c in node.children if keep(c)]))
    return out


def _write_children(parent: Node, keep: Callable[[Node], bool]) -> list[dict[str, Any]]:
    """The line that continues at ``parent`` (its first kept child on; empty when none is kept)."""
    kids = [c for c in parent.children if keep(c)]
    return _write_line(kids[0], keep, kids[1:]) if kids else []


def _write_line(first: Node, keep: Callable[[Node], bool], siblings: Sequence[Node] = ()) -> list[dict[str, Any]]:
    """``first`` and its main continuation (the first kept child each time); a node that has kept siblings
    lists them as its variations (like PGN)."""
    line: list[dict[str, Any]] = []
    node: Node | None = first
    alternatives = list(siblings)
    while node is not None:
        d = _node_dict(node)
        if alternatives:
            d["variations"] = [_write_line(sib, keep) for sib in alternatives]
        line.append(d)
        kids = [c for c in node.children if keep(c)]
        node, alternatives = (kids[0], kids[1:]) if kids else (None, [])
    return line


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _check_headers(headers: Any) -> dict[str, str]:
    if not isinstance(headers, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in headers.items()):
        raise RecordError("record field 'headers': must be an object of texts")
    return dict(headers)


def _check_comment(comment: Any, where: str) -> str | None:
    if comment is not None and not isinstance(comment, str):
        raise RecordError(f"record field '{where}' has the wrong type (must be text or null)")
    return comment


def _check_annotations(annotations: Any, where: str) -> dict[str, Any]:
    if not isinstance(annotations, dict):
        raise RecordError(f"record field '{where}' has the wrong type (must be an object)")
    return annotations


def _read_tree(record: GameRecord, moves: list[Any], version: int = RECORD_VERSION) -> None:
    """Replay every line into ``record``, checking each node; raises :class:`RecordError` naming the node.

    A version 1 file has no chance nodes (a ``chance`` field there is an unknown field, as it was)."""
    tasks: deque[tuple[Node, list[Any], str, bool]] = deque([(record.root, moves, "moves", False)])
    while tasks:
        parent, line, where, is_variation = tasks.popleft()
        if is_variation and not line:
            raise RecordError(f"record field '{where}': a variation cannot be empty")
        node = parent
        for i, obj in enumerate(line):
            at = f"{where}[{i}]"
            if not isinstance(obj, dict):
                raise RecordError(f"record field '{at}': must be an object")
            is_chance = version >= 2 and "chance" in obj
            if is_chance and "action" in obj:
                raise RecordError(f"record field '{at}': a move has either 'action' or 'chance', not both")
            unknown = set(obj) - (_CHANCE_FIELDS if is_chance else _NODE_FIELDS)
            if unknown:
                raise RecordError(f"record field '{at}': unknown field(s) {sorted(unknown)}")
            action = obj.get("action")
            if not is_chance and not isinstance(action, str):
                raise RecordError(f"record field '{at}.action': must be text")
            by = obj.get("by", "human")
            try:
                _check_by(by, "by")
            except ValueError:
                raise RecordError(f"record field '{at}.by': must be a name such as 'human' or an object of bot "
                                  "parameters") from None
            comment = _check_comment(obj.get("comment"), f"{at}.comment")
            annotations = _check_annotations(obj.get("annotations", {}), f"{at}.annotations")
            variations = obj.get("variations", [])
            if not isinstance(variations, list) or not all(isinstance(v, list) for v in variations):
                raise RecordError(f"record field '{at}.variations': must be a list of lines (lists)")
            if variations and (i == 0 and is_variation):
                raise RecordError(f"record field '{at}.variations': the first move of a variation cannot have "
                                  "variations (list them with the main move)")
            state = record._state_of(node)
            if is_chance:
                chance, new_state = _read_chance(state, obj["chance"], f"{at}.chance", node.ply + 1)
                if any(c.chance == chance for c in node.children):
                    raise RecordError(f"record field '{at}.chance': the same chance variation appears twice at "
                                      f"ply {node.ply + 1}")
                child = Node(record, node, chance_text(chance), _copy_by(by), None, comment, annotations,
                             chance=chance)
            else:
                try:
                    text = str(state.parse_action(action))
                    new_state = state.apply(text)
                except IllegalAction as e:
                    raise RecordError(f"record field '{at}.action': {action!r} is illegal at ply {node.ply + 1} "
                                      f"(rule {e.rule}): {e}") from None
                if any(c.chance is None and c.action == text for c in node.children):
                    raise RecordError(f"record field '{at}.action': {text!r} appears twice among the variations "
                                      f"at ply {node.ply + 1}")
                child = Node(record, node, text, _copy_by(by), state.to_move, comment, annotations)
            node.children.append(child)
            record._keep(child, new_state)
            for k, var in enumerate(variations):
                tasks.append((node, var, f"{at}.variations[{k}]", True))
            node = child


def _read_chance(state: GameState, chance: Any, at: str, ply: int) -> tuple[dict[str, Any], GameState]:
    """A chance entry checked and replayed: (its parts, the rearranged state); else a RecordError naming the
    field inside it (``moves[5].chance.pile[0]``)."""
    rearranged = getattr(state, "rearranged", None)
    if rearranged is None:
        raise RecordError(f"record field '{at}': {state.game} has no hidden order to rearrange")
    if not isinstance(chance, dict) or not chance:
        raise RecordError(f"record field '{at}': must be an object of the hidden parts set (for example "
                          "{\"pile\": [...]})")
    for key, value in chance.items():
        if value is None:
            raise RecordError(f"record field '{at}.{key}': must not be null (leave out a part that stays)")
    params = inspect.signature(rearranged).parameters
    names = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        for key in chance:
            if key not in names:
                raise RecordError(f"record field '{at}.{key}': not a hidden part of {state.game} "
                                  f"(its parts are {', '.join(names)})")
    try:
        new_state = rearranged(**chance)
    except RearrangeError as e:
        raise RecordError(f"record field '{at}.{e.field}': {e.detail} (at ply {ply})") from None
    except (TypeError, ValueError) as e:
        raise RecordError(f"record field '{at}': {e} (at ply {ply})") from None
    return json.loads(json.dumps(chance)), new_state


def _scenario_start(support: RecordSupport, state: GameState) -> tuple[dict[str, Any], GameState]:
    """The set-up and root of a record that starts at ``state``, a position that is no game's start: the position as
    a scenario with its whole hidden order (``GameRecord.from_state``). ValueError if the game has no scenarios, for
    an observation (its hidden order is a placeholder), and for a position the scenario does not rebuild."""
    info = get_game(state.game)
    make = getattr(support, "scenario_setup", None)
    describe = info.capability("scenario")
    if make is None or describe is None:
        raise ValueError(f"from_state: the state is not the start of a game, and {info.title} has no scenarios to "
                         "start a record anywhere else; give a game's start position")
    if getattr(state, "is_observation", False):
        raise ValueError("from_state: the state is an observation (its hidden order is a placeholder); give the full "
                         "position")
    try:
        setup = make(describe(state, hidden=True))
    except ValueError as e:
        raise ValueError(f"from_state: this position cannot be a scenario ({e})") from None
    initial = new_game(state.game, **setup)
    key = getattr(support, "start_key", start_key)
    if key(initial) != key(state):
        raise ValueError("from_state: the position rebuilt from its scenario is not this one; give a game's start "
                         "position or a position the rules reach")
    return setup, initial


def record_game(state: GameState, bots: Sequence[Any], max_steps: int = 10_000,
                headers: dict[str, str] | None = None) -> GameRecord:
    """Play a game from its start position with one bot per seat into a record (``by`` = ``bot.params()``)."""
    if len(bots) != state.n_players:
        raise ValueError(f"bots: give one bot per seat ({state.n_players}), not {len(bots)}")
    record = GameRecord.from_state(state, headers=headers)
    record.root.play_out(bots, max_steps=max_steps)
    return record


__all__ = ["RECORD_FORMAT", "GameRecord", "Node", "RecordSupport", "chance_text", "record_game",
           "register_record_support"]
