"""A benchmark script (``benchmarks/NAME.py``) loaded as a module, so tests call its functions without running it."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.support.paths import REPO


def load_benchmark(name: str, alias: str | None = None) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``alias`` (default ``bench_<name>``), registered in ``sys.modules``
    under that name: a process pool pickles the module's functions by it."""
    spec = importlib.util.spec_from_file_location(alias or f"bench_{name}", REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
