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
layout is a small schema per game: numbers
as they are, booleans 0/1, a categorical field one-hot (with a last "none" cell), a list of ids as counts per
id, positional lists (seats, water spaces, supply slots) padded to a fixed length. Texts (names, events, the
last action) are left out: the information-state string carries the history. Each game declares its layout as
the capability ``observation`` (``games/<game>/observation.py``, in the vocabulary of ``engine/observation.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.observation import Field
from ..engine.protocol import GameState, get_game, grammar_of, new_game


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


def observation_layout(game: str, state: GameState) -> Field:
    """The layout game ``game`` declares for the variant and player count of ``state`` (its capability
    "observation", ``engine/observation.py``); ValueError naming the capability for a game without one."""
    info = get_game(game)
    layout = info.capability("observation")
    if layout is None:
        raise ValueError(f"game: {info.title} declares no observation layout (capability 'observation')")
    return layout(state)  # type: ignore[no-any-return]


class ObservationEncoder:
    """``view(seat)`` as a flat float32 vector of fixed length (see the module docstring and the schemas)."""

    def __init__(self, game: str = "speicherstadt", players: int = 3, expansion: str | None = None) -> None:
        self.schema = observation_layout(game, _start(game, players, expansion))
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
