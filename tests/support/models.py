"""Reading the board models the views receive (plain JSON-ready data)."""

from __future__ import annotations


def all_texts(obj: object) -> list[str]:
    """Every string inside ``obj`` (dicts' values, lists and tuples, nested), in order: what a model could show."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in all_texts(v)]
    if isinstance(obj, list | tuple):
        return [t for v in obj for t in all_texts(v)]
    return []
