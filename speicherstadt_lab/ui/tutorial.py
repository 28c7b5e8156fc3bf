"""The guided first game: prepared positions for each phase, played on the board and explained.

The positions come from one recorded game (three greedy bots, a fixed seed), so every lesson is a real
situation of a real game. :func:`lessons` finds them; :func:`after` explains a move from the engine's own
events; :func:`refused_conversion` shows a market-hall conversion the rules refuse, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..engine.errors import IllegalAction
from ..engine.i18n import load_messages, messages
from ..records import GameRecord, record_game

load_messages("tutorial")
PLAYERS, SEED = 3, 11


@dataclass
class Lesson:
    """One phase to learn: the position to play from and the text that introduces it."""

    key: str
    state: Any
    args: dict[str, Any]

    def intro(self, lang: str = "en") -> str:
        return messages.text("lesson", self.key, lang, self.args, self.state)


def text(key: str, lang: str = "en") -> str:
    return messages.text("tut", key, lang, {})


def tutorial_record() -> GameRecord:
    """The recorded game the lessons are taken from."""
    from .. import new_game

    return record_game(new_game(players=PLAYERS, seed=SEED), [make_bot("greedy", seed=s) for s in range(PLAYERS)])


def lessons(record: GameRecord | None = None) -> list[Lesson]:
    """Demand, purchase (with at least two workers above the card), fire, loading and the end, in game order."""
    record = record or tutorial_record()
    states = [n.state for n in record.mainline()]
    out: dict[str, Lesson] = {}
    for s in states:
        if s.is_over:
            scores = ", ".join(f"{s.seat_name(i)} {s.score(i)}" for i in range(s.n_players))
            out.setdefault("end", Lesson("end", s, {"scores": scores}))
            continue
        seat = s.to_move
        if s.phase == "demand" and "demand" not in out:
            out["demand"] = Lesson("demand", s, {"seat": seat})
        elif s.phase == "purchase" and "purchase" not in out and len(s.workers[s.space]) >= 2:
            out["purchase"] = Lesson("purchase", s, {"seat": seat, "card": s.offer[s.space], "price": s.price(s.space)})
        elif "fire" not in out and any(e.key == "fire" for e in s.events):
            out["fire"] = Lesson("fire", s, {"seat": seat})
        elif s.phase == "loading" and s.dock and "loading" not in out:
            out["loading"] = Lesson("loading", s, {"seat": seat})
    return [out[k] for k in ("demand", "purchase", "fire", "loading", "end") if k in out]


def after(state: Any, lang: str = "en") -> str:
    """What the last move did, in plain language (the engine's events of that transition)."""
    return "<br>".join(state.event_texts(lang))


def refused_conversion(record: GameRecord | None = None, lang: str = "en") -> str | None:
    """A conversion the market hall refuses because the stock lacks the good, with the rule's reason."""
    record = record or tutorial_record()
    for node in record.mainline():
        s = node.state
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
    """
    import ipywidgets as w

    from .board import Board

    record = record or tutorial_record()
    switch = w.ToggleButtons(options=[("English", "en"), ("Deutsch", "de")], value=lang)
    body = w.VBox()

    def lesson_box(lesson: Lesson, code: str) -> w.Widget:
        intro = w.HTML(f"<p>{lesson.intro(code)}</p>")
        happened = w.HTML()
        if lesson.state.is_over:
            return w.VBox([intro, Board(lesson.state, lang=code)])
        board = Board(lesson.state, lang=code)

        def act(action: str) -> None:
            try:
                new = board.state.apply(action)
            except IllegalAction as err:
                board.error = board.state.explain(err, code)
                return
            board.state = new
            happened.value = f"<p><b>{text('happened', code)}:</b><br>{after(new, code)}</p>"

        board.on_action(act)
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
