"""The guided first game: each lesson's position is the phase it teaches, and the explanations come from the engine."""

from __future__ import annotations

import pytest

from speicherstadt_lab.ui import tutorial
from speicherstadt_lab.ui.board import Board

RECORD = tutorial.tutorial_record()


def texts(widget: object) -> str:
    """All HTML text inside a widget tree."""
    out = [getattr(widget, "value", "") if type(widget).__name__ == "HTML" else ""]
    for child in getattr(widget, "children", ()):
        out.append(texts(child))
    return " ".join(out)
LESSONS = {lesson.key: lesson for lesson in tutorial.lessons(RECORD)}


def test_every_phase_has_a_lesson_from_the_recorded_game() -> None:
    assert list(LESSONS) == ["demand", "purchase", "fire", "loading", "end"]
    assert LESSONS["demand"].state.phase == "demand" and LESSONS["demand"].state.round == 1
    purchase = LESSONS["purchase"].state
    assert purchase.phase == "purchase" and len(purchase.workers[purchase.space]) >= 2
    assert any(e.key == "fire" for e in LESSONS["fire"].state.events)
    assert LESSONS["loading"].state.phase == "loading" and LESSONS["loading"].state.dock
    assert LESSONS["end"].state.is_over


@pytest.mark.parametrize("lang", ["en", "de"])
def test_lesson_texts_are_filled_in_both_languages(lang: str) -> None:
    for lesson in LESSONS.values():
        text = lesson.intro(lang)
        assert text and "{" not in text
    purchase = LESSONS["purchase"]
    assert str(purchase.state.price(purchase.state.space)) in purchase.intro(lang)


def test_passing_in_the_purchase_lesson_lowers_the_price_and_says_so() -> None:
    s = LESSONS["purchase"].state
    price = s.price(s.space)
    after = s.apply("pass")
    text = tutorial.after(after, "en")
    assert "passes" in text
    if after.phase == "purchase" and after.space == s.space:
        assert after.price(after.space) == price - 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_refused_conversion_quotes_the_engine(lang: str) -> None:
    text = tutorial.refused_conversion(RECORD, lang)
    assert text is not None and "convert" in text
    assert ("stock" in text) if lang == "en" else ("Vorrat" in text)


def test_the_tutorial_widget_plays_a_move_and_explains_it() -> None:
    widget = tutorial.build("en", RECORD)
    boards = [c for box in widget.children[1].children if hasattr(box, "children") for c in box.children
              if isinstance(c, Board)]
    assert len(boards) == 5
    demand = boards[0]
    before = demand.state
    demand.handle_message({"kind": "act", "verb": "place", "args": {"space": 0}})
    assert demand.state is not before and demand.state.last_action == "place 0"
    demand.handle_message({"kind": "act", "verb": "buy", "args": {}})  # the wrong phase: refused, nothing changes
    assert demand.error and demand.state.last_action == "place 0"
    assert "Demand" in texts(widget)
    widget.children[0].value = "de"  # the language switch rebuilds the lessons in German
    assert "Nachfrage" in texts(widget) and "Demand." not in texts(widget)


def test_the_tutorial_is_the_apps_second_page() -> None:
    from speicherstadt_lab.ui.app import LabApp

    app = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    lab, tutorial = app._lab_box, app._tutorial_box
    both = app._page.children
    assert both == (lab, tutorial) and lab.layout.display != "none" and tutorial.layout.display == "none"
    app.tutorial_button.value = True
    (page,) = tutorial.children
    assert lab.layout.display == "none" and tutorial.layout.display != "none"
    assert "Supply and demand" in texts(page) and "Lesson 1 of 7" in texts(page)
    app.set_lang("de")
    (again,) = tutorial.children
    assert again is page and "Angebot und Nachfrage" in texts(page) and "Lektion 1 von 7" in texts(page)
    assert app.lessons_back.description == "← zurück zum Labor"
    app.lessons_back.click()
    assert not app.tutorial_button.value and lab.layout.display != "none" and tutorial.layout.display == "none"
    # the lab was hidden, never taken out of the page: its views (the chart's) live on
    assert app._page.children == both and lab.children == app._lab_page
    app.close()
