"""Actions: small immutable values whose ``str`` is the notation, like python-chess moves."""

from __future__ import annotations

from typing import Any


class Action:
    """A decision: a verb and its arguments. Equal and hashed by its canonical text.

    Games construct actions through their own ``parse`` so the text is always canonical;
    ``Action("place", (2,))`` prints ``place 2``.
    """

    __slots__ = ("_hash", "args", "kind", "text")

    def __init__(self, kind: str, args: tuple[Any, ...] = ()) -> None:
        self.kind = kind
        self.args = args
        self.text = " ".join([kind, *map(str, args)])
        self._hash = hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == " ".join(other.lower().split())
        return NotImplemented

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.kind, self.args))


def normalize(text: str) -> str:
    """Lower case, single spaces: the form notation is compared in."""
    return " ".join(text.lower().split())
