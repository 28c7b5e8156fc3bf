"""Action catalogues and observation tensors shared by the OpenSpiel and PettingZoo adapters (numpy only).

**Action catalogue** (:class:`ActionCatalogue`, one per game variant and player count): a fixed enumeration of
action texts in our notation (``docs/notation.md``) ↔ integer ids, built by the game's declared grammar
(``Grammar.catalogue``, ``engine/grammar.py``) from the finite argument domains of each verb (spaces, levels, goods,
contract slots, seats, boards, slots, money values). Die Speicherstadt and Kaispeicher are enumerated completely.
Packet Row's ``fulfil …`` is a combination of cards from a hand and has no practical closed enumeration: its verb
declares 64 *slot* ids, slot k meaning the k-th ``fulfil`` action in the state's stable ``legal_actions()`` order
(its text is shown as ``fulfil #k`` only when no state is at hand). Every other id means the same text in every
state.

**Observation tensor** (:class:`ObservationEncoder`): a flat float32 vector of ``view(seat)``, fixed length per
variant and player count. It reads nothing but ``view(seat)``, so it holds exactly what the seat may see. The
layout is a small schema per game (see :func:`_speicherstadt_schema`, :func:`_packet_row_schema`): numbers
as they are, booleans 0/1, a categorical field one-hot (with a last "none" cell), a list of ids as counts per
id, positional lists (seats, water spaces, supply slots) padded to a fixed length. Texts (names, events, the
last action) are left out: the information-state string carries the history.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.protocol import GameState, get_game, grammar_of, new_game

_SPACES = 6  # water spaces (Die Speicherstadt has players + 1, at most 6)
_LEVELS = 8  # workers per water space
_CONTRACT_SLOTS = 10  # a seat's contracts (``contract GOOD K``: K is a 0-based index)
_SUPPLY_SLOTS = 4  # Packet Row: slots per supply row (2 in the published game)


def variant_key(game: str, expansion: str | None) -> str:
    """``speicherstadt``, ``kaispeicher`` or ``packet_row``: the variant a catalogue and an encoder are for."""
    return expansion or game


def _start(game: str, players: int, expansion: str | None) -> GameState:
    kw: dict[str, Any] = {"players": players, "seed": 0}
    if expansion:
        kw["expansion"] = expansion
    return new_game(game, **kw)


@dataclass(frozen=True)
class ActionCatalogue:
    """Action texts ↔ ids for one variant and player count (see the module docstring). ``slotted``: the verbs
    without a closed domain (Packet Row's ``fulfil``), whose ids ``VERB #k`` mean the k-th legal one."""

    variant: str
    players: int
    texts: tuple[str, ...]
    slotted: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.texts)})
        first = {v: self.texts.index(f"{v} #0") for v in self.slotted}
        count = {v: sum(1 for t in self.texts if t.startswith(f"{v} #")) for v in self.slotted}
        object.__setattr__(self, "_first", first)
        object.__setattr__(self, "_count", count)

    @property
    def size(self) -> int:
        """How many actions the catalogue numbers (the size of the action space)."""
        return len(self.texts)

    def _slotted(self, state: GameState, verb: str) -> list[str]:
        return [str(a) for a in state.legal_actions() if a.kind == verb]

    def id_of(self, state: GameState, action: Any) -> int:
        """The id of a legal action (an Action or notation text) in ``state``; KeyError if it has none."""
        a = state.parse_action(str(action))
        text = str(a)
        if a.kind in self._first:  # type: ignore[attr-defined]
            k = self._slotted(state, a.kind).index(text)
            if k >= self._count[a.kind]:  # type: ignore[attr-defined]
                raise KeyError(f"{text!r}: more than {self._count[a.kind]} {a.kind} actions")  # type: ignore[attr-defined]
            return self._first[a.kind] + k  # type: ignore[attr-defined,no-any-return]
        return self._index[text]  # type: ignore[attr-defined,no-any-return]

    def text_of(self, state: GameState | None, action_id: int) -> str:
        """The notation text of an id (a slot id needs ``state``: the k-th legal action of its verb)."""
        text = self.texts[action_id]
        verb = text.split(" ", 1)[0]
        if verb in self._first and state is not None:  # type: ignore[attr-defined]
            legal = self._slotted(state, verb)
            k = action_id - self._first[verb]  # type: ignore[attr-defined]
            if k < len(legal):
                return legal[k]
        return text

    def legal_ids(self, state: GameState) -> list[int]:
        """The ids of ``state``'s legal actions, ascending (slots beyond the catalogue's are left out)."""
        index = self._index  # type: ignore[attr-defined]
        first, count = self._first, self._count  # type: ignore[attr-defined]
        out: list[int] = []
        seen = dict.fromkeys(first, 0)
        for a in state.legal_actions():
            if a.kind in first:
                k = seen[a.kind]
                if k < count[a.kind]:
                    out.append(first[a.kind] + k)
                seen[a.kind] = k + 1
            else:
                out.append(index[str(a)])
        return sorted(out)

    def mask(self, state: GameState) -> np.ndarray:
        """An int8 vector of catalogue size: 1 at the legal ids."""
        m = np.zeros(self.size, dtype=np.int8)
        if not state.is_over:
            m[self.legal_ids(state)] = 1
        return m


_CATALOGUES: dict[tuple[str, str | None, int], ActionCatalogue] = {}


def action_catalogue(game: str = "speicherstadt", players: int = 3, expansion: str | None = None) -> ActionCatalogue:
    """The (cached) action catalogue of a variant and player count."""
    key = (game, expansion, players)
    if key not in _CATALOGUES:
        state = _start(game, players, expansion)
        grammar = grammar_of(game)
        texts = grammar.catalogue(state.notation, players, expansion)  # type: ignore[attr-defined]
        if len(set(texts)) != len(texts):
            raise AssertionError("action catalogue: duplicate texts")
        slotted = tuple(v.verb for v in grammar.verbs if v.slots)
        _CATALOGUES[key] = ActionCatalogue(variant_key(game, expansion), players, tuple(texts), slotted)
    return _CATALOGUES[key]


# --- observation tensor --------------------------------------------------------------------------------------

# A schema mirrors the view dict; each leaf is a Field: (width, encode(value, out_slice)).
Encode = Callable[[Any, np.ndarray], None]


@dataclass(frozen=True)
class Field:
    """One part of the tensor: ``width`` cells filled by ``encode(value, cells)`` (cells start at 0)."""

    name: str
    width: int
    encode: Encode


def _num(name: str) -> Field:
    def enc(v: Any, out: np.ndarray) -> None:
        out[0] = 0.0 if v is None else float(v)

    return Field(name, 1, enc)


def _onehot(name: str, vocab: Sequence[Any]) -> Field:
    """One cell per vocabulary value and a last cell for None (or a value outside it)."""
    index = {v: i for i, v in enumerate(vocab)}

    def enc(v: Any, out: np.ndarray) -> None:
        out[index.get(tuple(v) if isinstance(v, list) else v, len(vocab))] = 1.0

    return Field(name, len(vocab) + 1, enc)


def _counts(name: str, vocab: Sequence[Any]) -> Field:
    """How often each vocabulary value occurs in a list (ids outside it are not counted)."""
    index = {v: i for i, v in enumerate(vocab)}

    def enc(v: Any, out: np.ndarray) -> None:
        for x in v or ():
            i = index.get(tuple(x) if isinstance(x, list) else x)
            if i is not None:
                out[i] += 1.0

    return Field(name, len(vocab), enc)


def _length(name: str) -> Field:
    """The length of a list."""

    def enc(v: Any, out: np.ndarray) -> None:
        out[0] = float(len(v or ()))

    return Field(name, 1, enc)


def _mapping(name: str, keys: Sequence[str]) -> Field:
    """A dict of numbers by fixed keys (missing keys: 0)."""

    def enc(v: Any, out: np.ndarray) -> None:
        for i, k in enumerate(keys):
            out[i] = float((v or {}).get(k, 0) or 0)

    return Field(name, len(keys), enc)


def _padded(name: str, n: int, item: Field) -> Field:
    """A positional list, ``n`` items of ``item`` (longer lists cut, shorter padded with zeros)."""

    def enc(v: Any, out: np.ndarray) -> None:
        for i, x in enumerate(list(v or ())[:n]):
            item.encode(x, out[i * item.width : (i + 1) * item.width])

    return Field(name, n * item.width, enc)


def _record(name: str, fields: Sequence[tuple[str | int, Field]]) -> Field:
    """A dict (by key) or a tuple (by position) of fields."""
    width = sum(f.width for _, f in fields)

    def enc(v: Any, out: np.ndarray) -> None:
        at = 0
        for key, f in fields:
            if v is not None:
                f.encode(v[key] if isinstance(key, int) else v.get(key), out[at : at + f.width])
            at += f.width

    return Field(name, width, enc)


def _speicherstadt_schema(state: Any, kai: bool) -> Field:
    cat = state.cat
    n = state.n_players
    seats = list(range(n))
    goods = [g.id for g in cat.goods]
    cards = [c.id for c in cat.cards]
    phases = list(get_game("speicherstadt").phases)
    seasons = sorted({c.season for c in cat.cards if c.season})
    seat = _record("seat", [
        ("coins", _num("coins")), ("track", _num("track")), ("cards", _counts("cards", cards)),
        ("contracts", _padded("contracts", _CONTRACT_SLOTS, _record("contract", [
            (0, _onehot("card", cards)), (1, _counts("goods", goods))]))),
        ("warehouse", _counts("warehouse", goods)), ("hall", _counts("hall", goods)),
        ("unload", _counts("unload", goods)), ("breaks", _num("breaks")), ("grey", _num("grey")),
        ("delivered", _num("delivered")),
    ])
    fields: list[tuple[str | int, Field]] = [
        ("seat", _onehot("seat", seats)), ("round", _num("round")), ("phase", _onehot("phase", phases)),
        ("first", _onehot("first", seats)), ("to_move", _onehot("to_move", seats)),
        ("last_round", _num("last_round")),
        ("pile", _record("pile", [("count", _num("count")), ("by_season", _mapping("by_season", seasons)),
                                  ("fires", _counts("fires", cards)), ("unseen", _counts("unseen", cards))])),
        ("bag", _record("bag", [("count", _num("count")), ("goods", _mapping("goods", goods))])),
        ("stock", _mapping("stock", goods)), ("discard", _counts("discard", cards)),
        ("removed", _counts("removed", cards)),
        ("offer", _padded("offer", _SPACES, _onehot("card", cards))),
        ("cargo", _padded("cargo", _SPACES, _counts("goods", goods))),
        ("columns", _padded("columns", _SPACES, _padded("workers", _LEVELS, _onehot("worker", seats)))),
        ("placed", _num("placed")), ("space", _num("space")), ("bought", _counts("bought", list(range(_SPACES)))),
        ("loading_turn", _num("loading_turn")), ("dock", _counts("dock", goods)),
        ("moved", _counts("moved", [(d, w, g) for d in ("in", "out") for w in ("warehouse", "hall") for g in goods])),
        ("seats", _padded("seats", n, seat)),
    ]
    if kai:
        fields.append(("kai", _record("kai", [
            ("top", _padded("top", _SPACES, _onehot("card", cards))),
            ("top_cargo", _padded("top_cargo", _SPACES, _counts("goods", goods))),
            ("reserved", _padded("reserved", _SPACES, _record("reserved", [
                (0, _onehot("card", cards)), (1, _onehot("worker", seats)), (2, _counts("goods", goods))]))),
            ("left", _padded("left", n, _num("left"))), ("stopped", _counts("stopped", seats)),
            ("turn", _num("turn")), ("rpos", _num("rpos")), ("spy_turn", _num("spy_turn")),
            ("truck", _num("truck")), ("pending", _onehot("pending", goods)),
            ("fire", _record("fire", [
                (0, _onehot("card", cards)), (1, _onehot("context", ("supply", "end"))), (2, _length("queue"))])),
        ])))
    return _record("view", fields)


def _packet_row_schema(state: Any) -> Field:
    cat = state.cat
    n = state.n_players
    seats = list(range(n))
    boards = list(cat.boards) if isinstance(cat.boards[0], str) else [b.id for b in cat.boards]
    cards = sorted({c.id for c in cat.cards})
    phases = list(get_game("packet_row").phases)
    supply = _record("supply", [
        ("current", _padded("current", _SUPPLY_SLOTS, _onehot("card", cards))),
        ("future", _padded("future", _SUPPLY_SLOTS, _onehot("card", cards))),
        ("deck", _num("deck")), ("removed", _num("removed")),
        ("unseen", _counts("unseen", cards)), ("discard", _counts("discard", cards)),
    ])
    seat = _record("seat", [
        ("money", _num("money")), ("ships", _counts("ships", cards)), ("hand", _counts("hand", cards)),
        ("secret", _num("secret")), ("pawn", _onehot("pawn", [(b, r, k) for b in boards for r in ("current", "future")
                                                      for k in range(_SUPPLY_SLOTS)])),
    ])
    return _record("view", [
        ("seat", _onehot("seat", seats)), ("round", _num("round")), ("phase", _onehot("phase", phases)),
        ("harbour_master", _onehot("harbour_master", seats)), ("to_move", _onehot("to_move", seats)),
        ("chosen", _counts("chosen", boards)), ("board", _onehot("board", boards)),
        ("pending", _counts("pending", seats)), ("short", _counts("short", boards)), ("bank", _num("bank")),
        ("boards", _record("boards", [(b, supply) for b in boards])),
        ("start_contracts_unseen", _counts("start_contracts_unseen", cards)),
        ("seats", _padded("seats", n, seat)),
    ])


_SCHEMAS: dict[str, Callable[[Any, str | None], Field]] = {
    "speicherstadt": lambda state, expansion: _speicherstadt_schema(state, kai=expansion is not None),
    "packet_row": lambda state, expansion: _packet_row_schema(state),
}


class ObservationEncoder:
    """``view(seat)`` as a flat float32 vector of fixed length (see the module docstring and the schemas)."""

    def __init__(self, game: str = "speicherstadt", players: int = 3, expansion: str | None = None) -> None:
        state = _start(game, players, expansion)
        schema = _SCHEMAS.get(game)
        if schema is None:
            raise ValueError(f"game: no observation layout for {game!r}; layouts: {', '.join(_SCHEMAS)}")
        self.schema = schema(state, expansion)
        self.size = self.schema.width

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The tensor of what ``seat`` sees in ``state`` (reads ``state.view(seat)`` only)."""
        out = np.zeros(self.size, dtype=np.float32)
        view = state.view(seat)
        view = {**view, "seat": seat}
        self.schema.encode(view, out)
        return out


_ENCODERS: dict[tuple[str, str | None, int], ObservationEncoder] = {}


def observation_encoder(
    game: str = "speicherstadt", players: int = 3, expansion: str | None = None
) -> ObservationEncoder:
    """The (cached) observation encoder of a variant and player count."""
    key = (game, expansion, players)
    if key not in _ENCODERS:
        _ENCODERS[key] = ObservationEncoder(game, players, expansion)
    return _ENCODERS[key]
