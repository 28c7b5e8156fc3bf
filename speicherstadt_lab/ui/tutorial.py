"""The guided first game: prepared positions for each phase, played on the board and explained.

Every lesson is a scenario file that ships with the lab (``data/scenarios/tutorial-<n>-<phase>.json``): the
position, a title and a text in English and German (``speicherstadt_lab.scenarios``). A teacher can copy one,
change its numbers and ids, and start it in the app's scenario panel or with ``sl.new_game(scenario=...)``.
The positions were taken from one recorded game (three greedy bots, a fixed seed) by
:func:`lesson_scenarios`, so each is a real situation of a real game; :func:`write_lesson_scenarios` writes the
files again from it. :func:`after` explains a move from the engine's own events; :func:`refused_conversion`
shows a market-hall conversion the rules refuse, with the reason.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..engine.errors import IllegalAction
from ..engine.i18n import load_messages, messages
from ..records import GameRecord, record_game
from ..scenarios import describe, scenario_of, scenario_text, shipped_scenario, shipped_scenarios, start

load_messages("tutorial")
PLAYERS, SEED = 3, 11
KEYS = ("demand", "purchase", "fire", "loading", "end")  # the lessons, in game order
PREFIX = "tutorial-"  # a lesson's file: tutorial-<n>-<key>.json


@dataclass
class Lesson:
    """One phase to learn: the position to play from, and the scenario whose title and text introduce it."""

    key: str
    state: Any
    scenario: dict[str, Any] = field(default_factory=dict)

    def intro(self, lang: str = "en") -> str:
        """The lesson's title and text in ``lang`` (HTML), filled in from its position."""
        title, body = describe(self.scenario, lang, self.state)
        if title and not title.endswith((".", "!", "?", ":")):
            title += "."
        return f"<b>{html.escape(title)}</b> {html.escape(body)}"


def text(key: str, lang: str = "en") -> str:
    """The tutorial's text ``key`` in ``lang``."""
    return messages.text("tut", key, lang, {})


def tutorial_record() -> GameRecord:
    """The recorded game the lessons were taken from."""
    from .. import new_game

    return record_game(new_game(players=PLAYERS, seed=SEED), [make_bot("greedy", seed=s) for s in range(PLAYERS)])


def lesson_files() -> dict[str, str]:
    """The shipped lesson files by lesson key, in lesson order: ``{"demand": "tutorial-1-demand", ...}``."""
    names = [n for n in shipped_scenarios() if n.startswith(PREFIX)]
    return {n.split("-", 2)[2]: n for n in names}


def lessons(record: GameRecord | None = None) -> list[Lesson]:
    """Demand, purchase (with at least two workers above the card), fire, loading and the end, in game order.

    The shipped scenario files, or with ``record`` the first such positions of that recorded game (with the
    files' texts)."""
    files = {key: shipped_scenario(name) for key, name in lesson_files().items()}
    if record is None:
        return [Lesson(key, start(data), data) for key, data in files.items()]
    found = _positions(record)
    return [Lesson(k, found[k], files.get(k, {})) for k in KEYS if k in found]


def _positions(record: GameRecord) -> dict[str, Any]:
    """The first position of each lesson's kind in the record's main line."""
    out: dict[str, Any] = {}
    for node in record.mainline():
        s = node.state
        if s.is_over:
            out.setdefault("end", s)
        elif s.phase == "demand" and "demand" not in out:
            out["demand"] = s
        elif s.phase == "purchase" and "purchase" not in out and len(s.workers[s.space]) >= 2:
            out["purchase"] = s
        elif "fire" not in out and any(e.key == "fire" for e in s.events):
            out["fire"] = s
        elif s.phase == "loading" and s.dock and "loading" not in out:
            out["loading"] = s
    return out


def lesson_scenarios(record: GameRecord | None = None) -> dict[str, dict[str, Any]]:
    """The lesson files' content taken from the recorded game (default :func:`tutorial_record`), by file name.

    Each lesson's position as a scenario (the fire lesson from before its round's supply, so the fire burns
    when it starts), with the title and text of the shipped file of the same lesson."""
    found = _positions(record or tutorial_record())
    files = lesson_files()
    out = {}
    for n, key in enumerate(KEYS, 1):
        state = found[key]
        data = scenario_of(state, before_supply=key == "fire")
        if key == "loading" and any(e.key == "unload" for e in state.events):  # the turn starts: the ship unloads
            data["seats"][data["loading"]]["unload"] = data.pop("dock")
        old = shipped_scenario(files[key]) if key in files else {}
        head = {k: data.pop(k) for k in ("format", "game")}
        words = {k: old[k] for k in ("title", "text") if k in old}
        body = {k: data.pop(k) for k in ("expansion", "players")}
        out[f"{PREFIX}{n}-{key}"] = {**head, **words, **body, "seed": SEED, **data}
    return out


def write_lesson_scenarios(folder: str | Path | None = None, record: GameRecord | None = None) -> list[Path]:
    """Write :func:`lesson_scenarios` to ``folder`` (default: the package's ``data/scenarios``); the paths."""
    where = Path(folder) if folder is not None else Path(__file__).resolve().parents[1] / "data" / "scenarios"
    paths = []
    for name, data in lesson_scenarios(record).items():
        path = where / f"{name}.json"
        path.write_text(scenario_text(data), encoding="utf-8")
        paths.append(path)
    return paths


def after(state: Any, lang: str = "en") -> str:
    """What the last move did, in plain language (the engine's events of that transition)."""
    return "<br>".join(state.event_texts(lang))


def refused_conversion(record: GameRecord | None = None, lang: str = "en") -> str | None:
    """A conversion the market hall refuses because the stock lacks the good, with the rule's reason: at the
    loading lesson (or the first fitting position of ``record``)."""
    states = [n.state for n in record.mainline()] if record is not None else [x.state for x in lessons()]
    for s in states:
        if s.phase != "loading" or len(s.dock) < 3:
            continue
        given = sorted(s.dock_goods)[:3]
        for good, left in zip(s.goods, s.stock, strict=True):
            if left == 0 and good not in given:
                action = str(s.parse_action(f"convert {' '.join(given)} to {good}"))
                try:
                    s.apply(action)
                except IllegalAction as err:
                    return messages.text("lesson", "convert", lang,
                                         {"seat": s.to_move, "action": action, "why": s.explain(err, lang)}, s)
    return None


def build(lang: str = "en", record: GameRecord | None = None, back: Callable[[], Any] | None = None) -> Any:
    """The tutorial as one widget: a language switch, and per lesson its text, a live board and what happened.

    ``back`` (the app's second page): a button that returns to the lab; without it, a link to the app's page.
    In the app the language is the app's (its top bar rebuilds the page): no switch of its own, nor on the boards.
    """
    import ipywidgets as w

    from .board import Board

    switch = w.ToggleButtons(options=[("English", "en"), ("Deutsch", "de")], value=lang)
    own_lang = back is None
    if not own_lang:
        switch.layout.display = "none"
    body = w.VBox()

    def lesson_box(lesson: Lesson, code: str) -> w.Widget:
        intro = w.HTML(f"<p>{lesson.intro(code)}</p>")
        happened = w.HTML()
        if lesson.state.is_over:
            return w.VBox([intro, Board(lesson.state, lang=code, lang_switch=own_lang)])
        board = Board(lesson.state, lang=code, lang_switch=own_lang)

        def act(_action: Any, _before: Any, new: Any) -> None:  # the board applied the click (once)
            board.state = new
            happened.value = f"<p><b>{text('happened', code)}:</b><br>{after(new, code)}</p>"

        board.on_action(act, with_states=True)
        return w.VBox([intro, w.HTML(f"<i>{text('your_turn', code)}</i>"), board, happened])

    def render(_change: Any = None) -> None:
        code = switch.value
        parts: list[w.Widget] = [w.HTML(f"<h2>{text('title', code)}</h2>")]
        if back is not None:
            button = w.Button(description=text("back", code))
            button.on_click(lambda _b: back())
            parts.append(button)
        else:
            parts.append(w.HTML(f"<p><a href='app.ipynb' target='_self'>{text('back', code)}</a></p>"))
        found = lessons(record)
        for lesson in found[:-1]:
            parts.append(lesson_box(lesson, code))
        conversion = refused_conversion(record, code)
        if conversion:
            parts.append(w.HTML(f"<p>{conversion}</p>"))
        if found:
            parts.append(lesson_box(found[-1], code))
        body.children = parts

    switch.observe(render, "value")
    render()
    return w.VBox([switch, body])
