"""Packet Row's state fields, declared once (``engine/schema.py``): each field of a position and of a seat with its
type, whether it is hidden, how a transition copies it and how a state file writes it. The state's slots and clone,
``to_dict``/``from_dict``, the set-up's and a scenario's new position and what ``rearranged``/``determinize`` may
change come from :data:`STATE_FIELDS` and :data:`SEAT_FIELDS`. (``view`` is the game's own: which hand cards are
secret depends on the seat asking.)

Inside, cards are card-type indices (-1: an empty slot) and boards their index in ``BOARDS``; the codecs write ids
and board names, as the state format always has (``docs/record-format.md``).
"""

from __future__ import annotations

from typing import Any

from ...engine.basestate import base_fields
from ...engine.errors import RecordError
from ...engine.schema import INT, SEAT, SEAT_OR_NONE, Codec, Field, Schema
from ...engine.setup import seat_entries, state_field, state_seat
from .catalog import BOARDS
from .notation import CURRENT, FUTURE

#: What the per-board fields are called inside each board's object of a state file.
BOARD_PARTS = ("deck", "removed", "current", "future", "discard")
_SLOTS = ("current", "future")  # rows of slots: a taken card leaves null


def _cards(v: Any, field: str, st: Any, where: str, slots: bool = False) -> tuple[int, ...]:
    by_id = st.cat.by_id
    if not (isinstance(v, list) and all((x is None and slots) or (isinstance(x, str) and x in by_id) for x in v)):
        raise RecordError(f"{where} field '{field}': must be a list of card ids of the catalogue"
                          + (" or null" if slots else ""))
    return tuple(-1 if x is None else by_id[x].idx for x in v)


def _ids(xs: tuple[int, ...], st: Any) -> list[str | None]:
    ids = st.nt.ids
    return [ids[c] if c >= 0 else None for c in xs]


def _board(v: Any, field: str, where: str, allow_none: bool = False) -> int:
    if v is None and allow_none:
        return -1
    if not isinstance(v, str) or v not in BOARDS:
        raise RecordError(f"{where} field '{field}': {v!r} is not a board {list(BOARDS)}")
    return BOARDS.index(v)


def _boards_out(parts: tuple[Any, ...], st: Any) -> dict[str, Any]:
    return {name: {k: _ids(part[b], st) for k, part in zip(BOARD_PARTS, parts, strict=True)}
            for b, name in enumerate(BOARDS)}


def _boards_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[Any, ...]:
    boards = state_field(d, key, dict, where)
    if set(boards) != set(BOARDS):
        raise RecordError(f"{where} field '{key}': must hold exactly {list(BOARDS)}")
    parts: dict[str, list[tuple[int, ...]]] = {k: [] for k in BOARD_PARTS}
    for b in BOARDS:
        if not isinstance(boards[b], dict):
            raise RecordError(f"{where} field '{key}.{b}': must be an object")
        for k in parts:
            parts[k].append(_cards(boards[b].get(k), f"{key}.{b}.{k}", st, where, slots=k in _SLOTS))
    return tuple(tuple(parts[k]) for k in BOARD_PARTS)


def _pawn_out(pawn: Any, st: Any) -> list[Any] | None:
    return None if pawn is None else [BOARDS[pawn[0]], ("current", "future")[pawn[1]], pawn[2]]


def _pawn_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[int, int, int] | None:
    pawn = d.get(key)
    if pawn is None:
        return None
    if not (isinstance(pawn, list) and len(pawn) == 3 and pawn[1] in ("current", "future")
            and isinstance(pawn[2], int) and not isinstance(pawn[2], bool)):
        raise RecordError(f"{where} field '{key}': must be null or [board, current|future, slot]")
    return _board(pawn[0], key, where), CURRENT if pawn[1] == "current" else FUTURE, pawn[2]


def _seats_in(d: dict[str, Any], key: str, st: Any, where: str) -> list[Any]:
    out = []
    for w, s in seat_entries(d, st.n_players):
        seat = st.seat_type(0)  # the rules' seat type; its fields are declared here
        SEAT_FIELDS.decode(s, seat, state=st, where=w)
        out.append(seat)
    return out


HAND = Codec(_ids, lambda d, k, st, w: tuple(sorted(_cards(d.get(k), k, st, w))))  # sorted card types
CARDS = Codec(_ids, lambda d, k, st, w: _cards(d.get(k), k, st, w))
BOARD_LIST = Codec(lambda bs, st: [BOARDS[b] for b in bs],
                   lambda d, k, st, w: tuple(_board(x, k, w) for x in state_field(d, k, list, w)))

#: A seat's fields.
SEAT_FIELDS = Schema(
    Field("_gen", int, copy="generation", default=0),
    Field("money", int, INT),
    Field("hand", tuple, HAND, default=()),  # sorted card types, ships excluded (a secret starting contract among them)
    Field("ships", tuple, HAND, default=()),  # sorted ship types, lying open
    Field("pawn", tuple | None, Codec(_pawn_out, _pawn_in), default=None),  # (board, CURRENT/FUTURE, slot)
)

#: A position's fields, in the order of the state file.
STATE_FIELDS = Schema(
    *base_fields(),
    Field("nt", object),  # the catalogue's notation and tables (the game's context, never written)
    Field("hm", int, SEAT, key="harbour_master"),  # the harbour master
    Field("to_move", int | None, SEAT_OR_NONE, default=None),
    # the four boards' parts, by board, written together in the object "boards"
    Field("decks", tuple, Codec(_boards_out, _boards_in), key="boards", hidden="deck orders",
          together=("removed", "current", "future", "discard")),
    Field("removed", tuple, hidden="removed cards"),  # with 2 players, cards out of the game, unseen
    Field("current", tuple),  # the current supply's slots (-1: taken)
    Field("future", tuple),  # the future supply's slots (-1: taken)
    Field("discard", tuple, default=((),) * len(BOARDS)),
    Field("box", tuple, CARDS),  # the unused starting contracts (secret)
    Field("chosen", tuple, BOARD_LIST, default=()),  # the boards chosen this round
    Field("board", int, Codec(lambda b, st: BOARDS[b] if b >= 0 else None,
                              lambda d, k, st, w: _board(d.get(k), k, w, allow_none=True)), default=-1),
    Field("pending", tuple, Codec(lambda p, st: list(p),
                                  lambda d, k, st, w: tuple(state_seat(x, k, st.n_players)  # type: ignore[misc]
                                                            for x in state_field(d, k, list, w))), default=()),
    Field("short", tuple, BOARD_LIST, default=()),  # boards that cannot be filled any more
    Field("bank", int, INT, default=0),  # the general supply's balance
    Field("seats", list, Codec(lambda ss, st: [SEAT_FIELDS.encode(s, state=st) for s in ss], _seats_in),
          copy="list"),  # copy-on-write seats (BaseState._seat)
)
