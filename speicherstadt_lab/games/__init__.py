"""The games that ship with the lab, each in its own package, each registering itself with the engine
(``engine.protocol.register_game``) when imported. A third game: see docs/architecture.md.

Die Speicherstadt, the default game, is imported with this package; every other game's package (named as its game)
is imported when that game is first asked for (``engine.protocol.register_later``): the app's first board does not
wait for Packet Row's rules, catalogue and texts.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from ..engine.protocol import register_later
from . import speicherstadt

for _found in pkgutil.iter_modules(__path__):
    if _found.ispkg and _found.name != "speicherstadt":
        register_later(_found.name, f"{__name__}.{_found.name}")


def __getattr__(name: str) -> ModuleType:
    """A game's package (``games.packet_row``), imported on first use."""
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["packet_row", "speicherstadt"]
