"""pandas and numpy, imported on first use: ``from .lazyimport import pandas as pd`` costs nothing until ``pd.X``.

Importing the two takes about half of the app's start in the kernel (``benchmarks/app.py``, the kernel's share),
and the app's first board needs neither: the board, the move list and the controls are drawn before anything
computes a table. Annotations name them freely (every module has ``from __future__ import annotations``).
"""

from __future__ import annotations

import importlib
import threading
import types
from typing import Any


class LazyModule(types.ModuleType):
    """A stand-in for the module ``name``: the first attribute read imports it (once, thread-safe: the app's
    background threads may be first) and every name read is then kept on the stand-in, as fast as the module's own."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._lock = threading.Lock()
        self._module: types.ModuleType | None = None

    def _load(self) -> types.ModuleType:
        module = self._module
        if module is None:
            with self._lock:
                module = self._module
                if module is None:
                    module = self._module = importlib.import_module(self.__name__)
        return module

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._load(), attr)
        if not attr.startswith("__"):
            setattr(self, attr, value)
        return value

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<lazy module {self.__name__!r} ({state})>"


pandas = LazyModule("pandas")
numpy = LazyModule("numpy")

__all__ = ["LazyModule", "numpy", "pandas"]
