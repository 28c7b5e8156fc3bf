"""Scenarios: start a game from a described situation, without code.

A scenario is a small JSON file that says what a teacher would say about a position — the player count, the
cards on the water, the next cards of the pile and goods of the bag, each seat's coins, cards and goods (in Packet
Row: the boards' supplies, each seat's money, hand and ships, the harbour master) — and leaves the rest to a normal
set-up (``docs/record-format.md``, *Scenarios*)::

    import speicherstadt_lab as sl
    from speicherstadt_lab.records import GameRecord
    from speicherstadt_lab.scenarios import scenario_of, save_scenario, shipped_scenario

    state = sl.new_game(scenario="my_lesson.json")          # or a dict, of the game it names; errors name the field
    record = GameRecord.from_scenario("my_lesson.json")     # a record whose root is the scenario
    save_scenario(scenario_of(record.end().state), "later.json")   # any position, as a scenario to change
    lesson = shipped_scenario("tutorial-2-purchase")        # the tutorial's lessons ship as scenarios

Files are read with ``json`` only; a scenario that is wrong raises :class:`ScenarioError` naming the field,
and nothing is built.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .engine.errors import ScenarioError
from .engine.i18n import fill_template
from .engine.protocol import GameState, games, get_game, new_game, scenario_data
from .engine.scenario import SCENARIO_FORMAT

__all__ = ["SCENARIO_FORMAT", "describe", "fill", "load_scenario", "save_scenario", "scenario_of", "scenario_text",
           "shipped_scenario", "shipped_scenarios", "start"]

_FOLDER = ("data", "scenarios")


def shipped_scenarios() -> list[str]:
    """The names of the scenario files that come with the lab (``data/scenarios/<name>.json``), sorted."""
    folder = resources.files("speicherstadt_lab").joinpath(*_FOLDER)
    return sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json"))


def shipped_scenario(name: str) -> dict[str, Any]:
    """A shipped scenario's data (a fresh copy, to change as you like)."""
    if name not in shipped_scenarios():
        raise ValueError(f"no shipped scenario {name!r}; there are {', '.join(shipped_scenarios())}")
    ref = resources.files("speicherstadt_lab").joinpath(*_FOLDER, f"{name}.json")
    return json.loads(ref.read_text(encoding="utf-8"))


def load_scenario(source: dict[str, Any] | str | Path) -> dict[str, Any]:
    """A scenario's data from a dict or a ``.json`` file, checked by building it (ScenarioError names the field)."""
    data = scenario_data(source)
    start(data)
    return data


def start(data: dict[str, Any]) -> GameState:
    """The position a scenario's data describes (``new_game(game, scenario=data)`` for the game it names)."""
    if not isinstance(data, dict):
        raise ScenarioError("", f"must be an object (JSON), not {type(data).__name__}")
    game = data.get("game")
    try:
        info = get_game(game) if isinstance(game, str) else None
    except ValueError:
        info = None
    if info is None or "scenario" not in info.capabilities:
        known = ", ".join(f"{g.title}: {g.name!r}" for g in games() if "scenario" in g.capabilities)
        raise ScenarioError("game", f"no game {game!r} with scenarios ({known})")
    return new_game(game, scenario=data)


def scenario_of(state: GameState, **options: Any) -> dict[str, Any]:
    """``state``'s position as a scenario (JSON-ready): starting from it gives the same public position.

    Options: ``hidden=True`` (name the whole hidden order too, so the game goes on exactly as from ``state``; every game
    with scenarios), and Die Speicherstadt's ``before_supply=True`` (a round's start before its supply). ValueError for
    a game or position that cannot be a scenario."""
    make = get_game(state.game).capability("scenario")
    if make is None:
        raise ValueError(f"scenario_of: {get_game(state.game).title} has no scenarios yet")
    return make(state, **options)


def scenario_text(data: dict[str, Any]) -> str:
    """A scenario as JSON text for people: one line per field, one line per seat and per board (Packet Row)."""

    def dump(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    lines = []
    for key, value in data.items():
        if key == "seats" and isinstance(value, list) and value:
            seats = ",\n".join(f"  {dump(s)}" for s in value)
            lines.append(f' {dump(key)}: [\n{seats}\n ]')
        elif key == "boards" and isinstance(value, dict) and value:
            boards = ",\n".join(f"  {dump(k)}: {dump(v)}" for k, v in value.items())
            lines.append(f' {dump(key)}: {{\n{boards}\n }}')
        else:
            lines.append(f" {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save_scenario(data: dict[str, Any], path: str | Path) -> None:
    """Write a scenario file (checked first: a wrong scenario raises ScenarioError and writes nothing)."""
    start(data)
    Path(path).write_text(scenario_text(data), encoding="utf-8")


def describe(data: dict[str, Any], lang: str = "en", state: GameState | None = None) -> tuple[str, str]:
    """The scenario's title and text in ``lang`` (the other language if it has only one), plain text.

    The text may name ``{seat}`` (the seat to move), ``{card}`` and ``{price}`` (the card for sale in purchase),
    ``{round}`` and ``{scores}`` (everyone's points): they are filled in from ``state``, the scenario's start."""
    out = []
    for key in ("title", "text"):
        texts = data.get(key) or {}
        out.append(texts.get(lang) or next(iter(texts.values()), ""))
    title, text = out
    if state is not None and text:
        text = fill(text, lang, state)
    return title, text


def fill(template: str, lang: str, state: Any) -> str:
    """``template`` with ``{seat}``, ``{card}``, ``{price}``, ``{round}``, ``{scores}`` of ``state`` filled in (a
    template with other braces is left as it is)."""
    args: dict[str, Any] = {"round": state.round}
    if state.to_move is not None:
        args["seat"] = state.to_move
    args["scores"] = ", ".join(f"{state.seat_name(i, lang)} {state.score(i)}" for i in range(state.n_players))
    if state.phase == "purchase" and hasattr(state, "offer") and state.space < len(state.offer):
        args["card"] = state.offer[state.space]
        args["price"] = state.price(state.space)
    try:
        return fill_template(template, lang, args, state)
    except (KeyError, IndexError, ValueError):
        return template
