"""speicherstadt_lab: a notebook-native lab for Die Speicherstadt (and Packet Row).

    import speicherstadt_lab as sl
    state = sl.new_game(players=4, seed=7)
    state = state.apply("place 2")
    lesson = sl.new_game(scenario="lesson.json")    # a described position (docs/record-format.md, Scenarios)

Records, analysis and simulation (which need pandas) are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from .engine import Action, CatalogError, Event, GameState, IllegalAction, RecordError, Rng, ScenarioError, load_state
from .engine import new_game as _new_game
from .games.speicherstadt import Catalog, default_catalog, load_catalog, standard_deck
from .lessons import Lesson, LessonError, lessons, load_lesson  # the function shadows the module's name on purpose

__version__ = "0.1.0"


def new_game(game: str | None = None, **kwargs: Any) -> Any:
    """A new game at its first decision: ``"speicherstadt"`` (the default) or ``"packet_row"``; ``scenario=...`` (a
    dict or a ``.json`` path) starts from a described position, of the game it names unless ``game`` is given."""
    return _new_game(game, **kwargs)


_LAZY = {
    "GameRecord": "records",
    "Node": "records",
    "record_game": "records",
    "RECORD_FORMAT": "records",
    "evaluate": "analysis",
    "compare_actions": "analysis",
    "compare_lines": "analysis",
    "quick_evaluate": "analysis",
    "simulate": "simulation",
    "review": "reviewing",
    "Review": "reviewing",
    "RandomBot": "bots",
    "GreedyBot": "bots.greedy",
    "MCTSBot": "bots.mcts",
    "make_bot": "bots",
    "play_game": "bots",
    "scenario_of": "scenarios",
    "load_scenario": "scenarios",
    "shipped_scenario": "scenarios",
    "shipped_scenarios": "scenarios",
    "card_table": "cardref",
    "hint": "hints",
    "load_puzzles": "puzzles",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'speicherstadt_lab' has no attribute {name!r}")


def __dir__() -> list[str]:
    """Every public name, the lazily imported ones included, so tab completion offers them before first use."""
    return sorted(set(__all__) | {n for n in globals() if not n.startswith("_")})


__all__ = [
    "RECORD_FORMAT",
    "Action",
    "Catalog",
    "CatalogError",
    "Event",
    "GameRecord",
    "GameState",
    "GreedyBot",
    "IllegalAction",
    "Lesson",
    "LessonError",
    "MCTSBot",
    "Node",
    "RandomBot",
    "RecordError",
    "Review",
    "Rng",
    "ScenarioError",
    "card_table",
    "compare_actions",
    "compare_lines",
    "default_catalog",
    "evaluate",
    "hint",
    "lessons",
    "load_catalog",
    "load_lesson",
    "load_puzzles",
    "load_scenario",
    "load_state",
    "make_bot",
    "new_game",
    "play_game",
    "quick_evaluate",
    "record_game",
    "review",
    "scenario_of",
    "shipped_scenario",
    "shipped_scenarios",
    "simulate",
    "standard_deck",
]
