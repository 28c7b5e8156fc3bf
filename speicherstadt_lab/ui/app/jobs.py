"""Background jobs of the app: one at a time, each with a cancel flag and (when threaded) its own thread."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass
class Job:
    """One piece of long work: its kind, a cancel flag and (when threaded) its thread."""

    kind: str
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def plays(self) -> bool:
        """True for work that moves on the board (the board and navigation wait for it)."""
        return self.kind not in ("win", "review")
