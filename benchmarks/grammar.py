"""Grammar benchmark: what reading the declared action grammar costs (issue 24), per game variant.

    .venv/bin/python benchmarks/grammar.py              # a few seconds
    .venv/bin/python benchmarks/grammar.py --repeat 9   # steadier on a busy machine

The texts are every legal action met along one seeded random 4-player game of each variant. Per variant it reports
µs per text for: a parse that misses the cache (the grammar reads the words; a text's first parse, and a record's
replay after the cache is full), a parse that hits the cache (every later one), a board click checked by the grammar
(``Notation.click``: the message of ``Grammar.fields_of``), and ``fields_of`` itself (the model lists one per legal
action). The column "× cached" is each against the cached parse measured in the same run, which the machine's load
slows alike; the best of ``--repeat`` rounds is kept.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.engine.protocol import game_variants, variant_start  # noqa: E402

#: name on the command line -> (game, ``new_game`` options): the registered variants
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {key: variant_start(key) for key in game_variants()}


class _Refused(ValueError):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)


def positions(game: str, options: dict[str, Any], seed: int = 4) -> list[tuple[Any, list[Any]]]:
    """Each position of one random 4-player game with its legal actions."""
    state = sl.new_game(game, players=4, seed=seed, **options)
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        legal = state.legal_actions()
        out.append((state, legal))
        state = state.apply(rng.choice(legal))
    return out


def best_us(run: Callable[[], int], repeat: int) -> float:
    """The best of ``repeat`` rounds, µs per item."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        n = run()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def measure(name: str, repeat: int) -> dict[str, Any]:
    game, options = VARIANTS[name]
    seen = positions(game, options)
    notation = seen[0][0].notation
    grammar = notation.grammar
    texts = [str(a) for _, legal in seen for a in legal]
    clicks = [(state, grammar.fields_of(a)) for state, legal in seen for a in legal]

    def uncached() -> int:
        for t in texts:
            notation._cache.pop(t, None)
            notation.parse(t)
        return len(texts)

    def cached() -> int:
        for t in texts:
            notation.parse(t)
        return len(texts)

    def click() -> int:
        for state, msg in clicks:
            notation.click(state, msg, _Refused)
        return len(clicks)

    def fields() -> int:
        for _, legal in seen:
            for a in legal:
                grammar.fields_of(a)
        return len(texts)

    cached()
    ref = best_us(cached, repeat)
    row = {"variant": name, "texts": len(texts), "cached parse µs": ref}
    for label, run in (("uncached parse", uncached), ("click check", click), ("fields_of", fields)):
        us = best_us(run, repeat)
        row[f"{label} µs"] = us
        row[f"{label} × cached"] = us / ref
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds per measurement (the best is kept)")
    args = parser.parse_args()
    table = pd.DataFrame([measure(name, args.repeat) for name in VARIANTS]).set_index("variant")
    with pd.option_context("display.float_format", "{:.2f}".format, "display.width", 200,
                           "display.max_columns", None):
        print(table)


if __name__ == "__main__":
    main()
