"""Remembered decisions of a player that is a function of the public position (the greedy bot).

A greedy player's choice depends only on the public facts of the position (its heuristic reads no hidden order) and,
for ties, on its random stream. Rollouts replay the same public positions again and again: the 20 rollouts of one
action share every move up to the next draw, and a review's neighbouring decisions play through each other's
positions. :func:`public_key` names a position by its public facts, read from the state's declared fields
(``engine/schema.py``): every field but the generation, the cached legal actions, the events and the last action,
the seats and the expansion's part by their fields, and a hidden field by its multiset (what ``observe`` keeps of it:
more than the greedy player reads, never less). :class:`DecisionMemo` keeps, per key, the tied best actions, so a
remembered choice draws from the stream exactly as the heuristic's own would: the same moves, exactly.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from typing import Any

#: Fields that are no part of the position a player judges: the copy-on-write generation, the legal actions' cache
#: (derived), what the last transition did (events, last action: no rule or heuristic reads them).
_SKIP = frozenset({"_gen", "_legal", "events", "last_action"})

# Context objects (the catalogue, the notation, the rules' hooks) are named by identity: hashing a catalogue by value
# cost ~0.5 ms. Each one named is kept alive here, so that no other object can take its identity later.
_CONTEXTS: dict[int, Any] = {}


def identity(value: Any) -> int:
    """A hashable stand-in for a context field: its identity (the object pinned)."""
    i = id(value)
    if i not in _CONTEXTS:
        _CONTEXTS[i] = value
    return i


def _multiset(value: Any) -> Any:
    """A hidden order's public part: its multiset (sorted), per part for a tuple of parts (Packet Row's decks)."""
    if value and isinstance(value[0], tuple):
        return tuple(_multiset(v) for v in value)
    return tuple(sorted(value))


def _fields_of(schema: Any) -> tuple[str, ...]:
    return tuple(f.name for f in schema.fields if f.name not in _SKIP)


def classify_fields(schema: Any) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """A state schema's fields as a key reads them, seats and skipped fields left out: (plain values, hidden fields,
    lists, copy-on-write parts, context objects), each in the schema's order."""
    plain: list[str] = []
    hidden: list[str] = []
    lists: list[str] = []
    parts: list[str] = []
    contexts: list[str] = []
    for f in schema.fields:
        if f.name in _SKIP or f.name == "seats":
            continue
        if f.hidden:
            hidden.append(f.name)
        elif f.copy == "list":
            lists.append(f.name)
        elif f.copy == "cow":
            parts.append(f.name)
        elif f.type is object:
            contexts.append(f.name)
        else:
            plain.append(f.name)
    return plain, hidden, lists, parts, contexts


def _keyer(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """``key(state)`` for states of ``cls``, made once per class from its schema."""
    plain, hidden, lists, parts, contexts = classify_fields(cls.schema)  # type: ignore[attr-defined]
    get_plain = operator.attrgetter(*plain) if plain else (lambda st: ())
    seat_cache: dict[type, Callable[[Any], Any]] = {}

    def fields_getter(obj: Any) -> Any:  # a seat's or the expansion's part's fields, by its own schema
        get = seat_cache.get(type(obj))
        if get is None:
            names = _fields_of(type(obj).schema)
            get = seat_cache[type(obj)] = operator.attrgetter(*names) if len(names) > 1 else (
                lambda o, n=names[0]: (getattr(o, n),))
        return get(obj)

    # A hidden field's multiset changes only with a draw, and consecutive positions share the very tuple: the last one
    # sorted is kept per field (sorting the pile and the bag was ~1/4 of a key).
    # (Each is one (tuple, multiset) pair, replaced whole: threads never read a pair half written.)
    last: list[tuple[Any, Any]] = [(None, None) for _ in hidden]

    def multisets(st: Any) -> tuple[Any, ...]:
        out = []
        for i, n in enumerate(hidden):
            v = getattr(st, n)
            pair = last[i]
            if pair[0] is not v:
                pair = last[i] = (v, _multiset(v))
            out.append(pair[1])
        return tuple(out)

    # The contexts read by one attrgetter and named by their ids, pinned once per combination seen (a comprehension
    # calling ``identity`` on each was ~1/5 of a key in the profile of a review; the same ids).
    get_contexts = operator.attrgetter(*contexts) if len(contexts) > 1 else (
        (lambda st, n=contexts[0]: (getattr(st, n),)) if contexts else (lambda st: ()))
    pinned: set[tuple[int, ...]] = set()

    def key(st: Any) -> tuple[Any, ...]:
        objs = get_contexts(st)
        ids = tuple(map(id, objs))
        if ids not in pinned:
            for o in objs:
                identity(o)
            pinned.add(ids)
        return (get_plain(st),
                ids,
                multisets(st),
                tuple([tuple(getattr(st, n)) for n in lists]),
                tuple([None if (p := getattr(st, n)) is None else fields_getter(p) for n in parts]),
                tuple(map(fields_getter, st.seats)))

    return key


_KEYERS: dict[type, Callable[[Any], tuple[Any, ...] | None]] = {}


def public_key(state: Any) -> tuple[Any, ...] | None:
    """A hashable name of ``state``'s public facts (equal for states that differ only in hidden order), or None for
    a state that declares no schema."""
    keyer = _KEYERS.get(state.__class__)
    if keyer is None:
        try:
            keyer = _keyer(state.__class__)
        except (AttributeError, TypeError):  # no declared schema (a hand-written state): nothing is remembered
            keyer = _no_key
        _KEYERS[state.__class__] = keyer
    return keyer(state)


def _no_key(state: Any) -> None:
    return None


class DecisionMemo:
    """Values by public position, e.g. the tied best actions of a deterministic heuristic (bounded; safe across
    threads).

    ``size``: the positions kept; when full it starts afresh (a review's neighbouring decisions are what reuse it)."""

    def __init__(self, size: int = 12_000) -> None:
        self.size = size
        self.enabled = True  # False: remembers nothing (benchmarks/review_speed.py measures the difference)
        self._values: dict[Any, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The value remembered for ``key``, or None."""
        return self._values.get(key)

    def put(self, key: Any, value: Any) -> None:
        """Remember ``value`` for ``key`` (nothing when not ``enabled``)."""
        if not self.enabled:
            return
        with self._lock:
            if len(self._values) >= self.size:
                self._values = {}
            self._values[key] = value

    def clear(self) -> None:
        """Forget everything remembered (the results stay the same: only the time changes)."""
        with self._lock:
            self._values = {}

    def __len__(self) -> int:
        return len(self._values)
