"""The vocabulary of an observation layout: how a game lays ``view(seat)`` out as a flat vector of numbers.

A game declares its layout as the capability ``observation`` (``games/<game>/observation.py``): a function of a
start position (a variant and player count) that returns a :class:`Field` mirroring the view dict, built from the
parts below. ``interop/encoding.py`` reads it for every game alike (the observation tensor of OpenSpiel and
PettingZoo). Numbers are written as they are, booleans 0/1, a categorical value one-hot with a last "none" cell, a
list of ids as counts per id, positional lists (seats, water spaces, supply slots) padded to a fixed length.

``encode(value, cells)`` writes into ``cells``, a slice of the tensor that is a view of it (a numpy float array: this
module indexes it and imports nothing), all zeros to begin with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Encode = Callable[[Any, Any], None]


@dataclass(frozen=True)
class Field:
    """One part of the tensor: ``width`` cells filled by ``encode(value, cells)`` (cells start at 0)."""

    name: str
    width: int
    encode: Encode


def num(name: str) -> Field:
    """A number as it is (None: 0; a boolean 0/1)."""

    def enc(v: Any, out: Any) -> None:
        out[0] = 0.0 if v is None else float(v)

    return Field(name, 1, enc)


def onehot(name: str, vocab: Sequence[Any]) -> Field:
    """One cell per vocabulary value and a last cell for None (or a value outside it)."""
    index = {v: i for i, v in enumerate(vocab)}

    def enc(v: Any, out: Any) -> None:
        out[index.get(tuple(v) if isinstance(v, list) else v, len(vocab))] = 1.0

    return Field(name, len(vocab) + 1, enc)


def counts(name: str, vocab: Sequence[Any]) -> Field:
    """How often each vocabulary value occurs in a list (ids outside it are not counted)."""
    index = {v: i for i, v in enumerate(vocab)}

    def enc(v: Any, out: Any) -> None:
        for x in v or ():
            i = index.get(tuple(x) if isinstance(x, list) else x)
            if i is not None:
                out[i] += 1.0

    return Field(name, len(vocab), enc)


def length(name: str) -> Field:
    """The length of a list."""

    def enc(v: Any, out: Any) -> None:
        out[0] = float(len(v or ()))

    return Field(name, 1, enc)


def mapping(name: str, keys: Sequence[str]) -> Field:
    """A dict of numbers by fixed keys (missing keys: 0)."""

    def enc(v: Any, out: Any) -> None:
        for i, k in enumerate(keys):
            out[i] = float((v or {}).get(k, 0) or 0)

    return Field(name, len(keys), enc)


def padded(name: str, n: int, item: Field) -> Field:
    """A positional list, ``n`` items of ``item`` (longer lists cut, shorter padded with zeros)."""

    def enc(v: Any, out: Any) -> None:
        for i, x in enumerate(list(v or ())[:n]):
            item.encode(x, out[i * item.width : (i + 1) * item.width])

    return Field(name, n * item.width, enc)


def record(name: str, fields: Sequence[tuple[str | int, Field]]) -> Field:
    """A dict (by key) or a tuple (by position) of fields."""
    width = sum(f.width for _, f in fields)

    def enc(v: Any, out: Any) -> None:
        at = 0
        for key, f in fields:
            if v is not None:
                f.encode(v[key] if isinstance(key, int) else v.get(key), out[at : at + f.width])
            at += f.width

    return Field(name, width, enc)
