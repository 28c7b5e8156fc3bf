"""Bots: players that see only what their seat may see and return an action."""

from __future__ import annotations

from typing import Any

from .base import Bot, RandomBot, play_game, position_key

_FACTORIES: dict[str, Any] = {"random": RandomBot}


def register_bot(name: str, factory: Any) -> None:
    """Make ``make_bot(name)`` build bots with ``factory(seed=..., **params)``."""
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    """The names ``make_bot`` knows (every registered bot, the lab's own loaded first), sorted."""
    _load_all()
    return sorted(_FACTORIES)


def _load_all() -> None:
    import importlib

    for mod in ("greedy", "mcts", "levels"):
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{mod}":
                raise


def _value(spec: str, text: str) -> Any:
    """A spec parameter: a whole number, a decimal, or a word (``value=model``)."""
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        if text.isidentifier():
            return text
        raise ValueError(f"bot spec {spec!r}: {text!r} is not a number or a word") from None


#: Bots whose spec may name one parameter by its value alone: ``"level:3"`` is ``"level:level=3"``.
_POSITIONAL = {"level": "level"}


def make_bot(spec: str, seed: int = 0, **params: Any) -> Bot:
    """A bot from a short spec: ``"random"``, ``"greedy"``, ``"mcts"``, ``"mcts:iterations=200"``, ``"level:3"``."""
    name, _, rest = spec.strip().lower().partition(":")
    for i, part in enumerate(filter(None, rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq and i == 0 and name in _POSITIONAL:
            key, value = _POSITIONAL[name], part
        elif not eq:
            raise ValueError(f"bot spec {spec!r}: parameters are written key=value")
        params.setdefault(key.strip(), _value(spec, value.strip()))
    if name not in _FACTORIES:
        _load_all()
    if name not in _FACTORIES:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    return _FACTORIES[name](seed=seed, **params)


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "play_game", "position_key", "register_bot"]
