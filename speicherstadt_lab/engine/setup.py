"""Checks every game makes when it sets a game up (``new_game``'s arguments: a ``ValueError`` naming the argument)
and when it loads a state from its ``to_dict`` data (``from_dict``: a :class:`RecordError` naming the field).

A game's own ``setup.py`` checks what only it has (decks, a bag, boards, ...) and builds the state; the fields
every state has (format, catalogue, players' names, phase, round, events, last action, observer) are read here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import RecordError
from .events import Event


def _is_int(value: Any) -> bool:
    """A whole number, and not a bool (JSON's true is no count and no seat)."""
    return isinstance(value, int) and not isinstance(value, bool)


# ---- new_game's arguments ---------------------------------------------------------------------


def check_seats(n: int, first_player: Any, names: Any) -> tuple[str, ...] | None:
    """Check ``first_player`` (a seat of an ``n``-player game) and ``names`` (None: the colours; else one non-empty
    text per seat); ValueError naming the argument. Returns the names as a tuple (or None)."""
    if not _is_int(first_player) or not 0 <= first_player < n:
        raise ValueError(f"first_player: must be a seat 0..{n - 1}, not {first_player!r}")
    if names is None:
        return None
    if not isinstance(names, list | tuple) or len(names) != n or not all(isinstance(x, str) and x for x in names):
        raise ValueError(f"names: give {n} non-empty seat names")
    return tuple(names)


def started(st: Any, ev: list[Event]) -> Any:
    """``st``, a game's first position as its ``new_game`` built it, after the steps that need no decision
    (``_advance``: the first supply, say), which ``ev`` and its events record."""
    st._advance(ev)
    st.events = tuple(ev)
    return st


# ---- loading a state --------------------------------------------------------------------------


def state_field(d: dict[str, Any], key: str, types: type | tuple[type, ...], where: str = "state") -> Any:
    """``d[key]``, which must be there and of ``types`` (a bool only where ``types`` names bool)."""
    if key not in d:
        raise RecordError(f"{where} field '{key}' is missing")
    v = d[key]
    allowed = types if isinstance(types, tuple) else (types,)
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in allowed):
        raise RecordError(f"{where} field '{key}' has the wrong type ({type(v).__name__})")
    return v


def state_catalog(d: dict[str, Any], fmt: str, load_catalog: Callable[[Any], Any]) -> Any:
    """The catalogue of state data ``d`` after its ``format`` is checked to be ``fmt``: ``"default"`` or the
    catalogue's data (a state file never names a path to read)."""
    if d.get("format") != fmt:
        raise RecordError(f"state field 'format': expected {fmt!r}, got {d.get('format')!r}")
    catalog = d.get("catalog")
    if catalog != "default" and not isinstance(catalog, dict):
        raise RecordError("state field 'catalog': must be \"default\" or the catalogue's data (an object)")
    try:
        return load_catalog(None if catalog == "default" else catalog)
    except (ValueError, TypeError) as e:
        raise RecordError(f"state field 'catalog': {e}") from None


def state_start(st: Any, d: dict[str, Any], n: int, phases: Sequence[str]) -> None:
    """Set the fields every state has from its data ``d``.

    They are ``n_players`` (checked by the caller), ``names``, ``round`` (≥ 1), ``phase`` (one of ``phases``),
    ``events``, ``last_action`` and ``observer`` (a seat, or -1 for a spectator's observation)."""
    phase = state_field(d, "phase", str)
    if phase not in phases:
        raise RecordError(f"state field 'phase': must be one of {tuple(phases)}, not {phase!r}")
    names = d.get("names")
    if names is not None and not (isinstance(names, list) and len(names) == n
                                  and all(isinstance(x, str) and x for x in names)):
        raise RecordError("state field 'names': must be null or one name per seat")
    st.names = tuple(names) if names else None
    st.n_players = n
    st.round = state_field(d, "round", int)
    if st.round < 1:
        raise RecordError("state field 'round': must be at least 1")
    st.phase = phase
    evs = state_field(d, "events", list)
    try:
        st.events = tuple(Event.from_json(e) for e in evs)
    except ValueError as e:
        raise RecordError(f"state field 'events': {e}") from None
    la = d.get("last_action")
    if la is not None and not isinstance(la, str):
        raise RecordError("state field 'last_action': must be text or null")
    st.last_action = la
    obs = d.get("observer")
    if obs is not None and (not _is_int(obs) or not -1 <= obs < n):
        raise RecordError("state field 'observer': must be null, -1 (a spectator) or a seat")
    st.observer = obs


def state_seat(v: Any, key: str, n: int, *, null: bool = False) -> int | None:
    """``v``, the value of field ``key``, as a seat of an ``n``-player game (``null``: or None, where the data may
    have null)."""
    if v is None and null:
        return None
    if not _is_int(v) or not 0 <= v < n:
        raise RecordError(f"state field '{key}': not a seat 0..{n - 1}")
    return v  # type: ignore[no-any-return]


def seat_entries(d: dict[str, Any], n: int) -> list[tuple[str, dict[str, Any]]]:
    """``(where, entry)`` of each seat's object in ``d["seats"]``, which must hold one per seat."""
    seats = state_field(d, "seats", list)
    if len(seats) != n:
        raise RecordError(f"state field 'seats': one entry per player ({n})")
    out = []
    for i, s in enumerate(seats):
        where = f"state seats[{i}]"
        if not isinstance(s, dict):
            raise RecordError(f"{where}: must be an object")
        out.append((where, s))
    return out


def consistent(st: Any, check_invariants: Callable[[Any], list[str]]) -> Any:
    """``st`` if the game's invariants hold in it, else a RecordError naming the first problems."""
    problems = check_invariants(st)
    if problems:
        raise RecordError("state is inconsistent: " + "; ".join(problems[:3]))
    return st


def state_from_data(cls: Any, d: dict[str, Any], n: int, phases: Sequence[str], context: dict[str, Any],
                    check_invariants: Callable[[Any], list[str]], at: Sequence[str] | None = None) -> Any:
    """A state of type ``cls`` rebuilt from its ``to_dict`` data ``d`` (``n`` players, checked by the caller).

    Read in order: ``context`` (its catalogue and what follows from it), the fields every state has (``phases``:
    the game's), then the game's own as its schema declares them (``at``: the places read, default all); a
    RecordError names the field at fault or the first invariants (``check_invariants``) violated."""
    st = cls.__new__(cls)
    for key, value in {**context, "_gen": 0, "_legal": None}.items():
        setattr(st, key, value)
    state_start(st, d, n, phases)  # the fields every game's state has
    if at is None:
        cls.schema.decode(d, st)
    else:
        cls.schema.decode(d, st, at=at)
    missing = cls.schema.missing(st)
    if missing:
        raise AssertionError(f"from_dict sets no value for the declared field(s) {missing}")
    return consistent(st, check_invariants)
