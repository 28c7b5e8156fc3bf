"""The games that ship with the lab, each in its own package, each registering itself with the engine
(``engine.protocol.register_game``) when imported. A third game: see docs/architecture.md."""

from . import packet_row, speicherstadt

__all__ = ["packet_row", "speicherstadt"]
