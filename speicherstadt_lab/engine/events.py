"""Events: plain-language facts produced by transitions, rendered in English or German."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """``key`` names a message template; ``args`` holds JSON-ready values (seats, card ids, goods)."""

    key: str
    args: dict[str, Any]

    def to_json(self) -> list[Any]:
        """The event as JSON data, ``[key, {args}]``."""
        return [self.key, self.args]

    @staticmethod
    def from_json(data: Any) -> Event:
        """An event from its ``to_json`` data; ValueError for anything else."""
        if (
            not isinstance(data, list | tuple)
            or len(data) != 2
            or not isinstance(data[0], str)
            or not isinstance(data[1], dict)
        ):
            raise ValueError("an event is [key, {args}]")
        return Event(data[0], dict(data[1]))


# make_event(Event, (key, args)) builds an Event without NamedTuple's Python-level __new__: 161 instead of
# 251 ns a call, ~4% of a random game (benchmarks/engine.py); the rules' hot paths use it, nothing else.
make_event = tuple.__new__
