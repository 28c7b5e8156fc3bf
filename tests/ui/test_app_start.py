"""The board while the app is made: its model built once, sent with the widget's opening message, on the record the
first new game would make; showing the position already shown draws nothing again (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.ui import Board
from speicherstadt_lab.ui import model as views
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.model import board_model, highlight


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, str]]:
    """Every board model Die Speicherstadt's board builds from now on: (state, language)."""
    calls: list[tuple[Any, str]] = []
    real = views.board_model

    def counting(state: Any, lang: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append((state, lang))
        return real(state, lang, *args, **kwargs)

    monkeypatch.setattr(views, "board_model", counting)
    return calls


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the board's traits sent to the page after its widget opened (update messages)."""
    names: list[str] = []
    real = Board.send_state

    def counting(self: Board, key: Any = None) -> None:
        if self.comm is not None:
            names.extend([key] if isinstance(key, str) else list(key or ["(all)"]))
        real(self, key)

    monkeypatch.setattr(Board, "send_state", counting)
    return names


@pytest.fixture
def app(built: list[tuple[Any, str]], sent: list[str]) -> Iterator[LabApp]:
    """An app made as the notebook's cell makes it, German, with the counters on."""
    a = LabApp(players=3, seed=4, lang="de", threaded=False, chart_delay=0)
    yield a
    a.close()


@pytest.mark.parametrize(("lang", "seat"), [("en", None), ("de", 1)])
def test_a_board_builds_its_model_once_and_sends_it_with_the_widget(built: list[tuple[Any, str]], sent: list[str],
                                                                   lang: str, seat: int | None) -> None:
    state = sl.new_game(players=3, seed=2)
    board = Board(state, lang=lang, seat=seat)
    assert built == [(state, lang)]
    assert "model" not in sent and "highlight" not in sent
    assert board.model == {**board_model(state, lang, seat), "rev": 0}
    assert board.highlight == highlight(state, None)
    board.lang = "en" if lang == "de" else "de"  # after the start a change of language draws again, at once
    assert len(built) == 2 and board.model["lang"] == board.lang and sent.count("model") == 1
    board.close()


def test_the_app_draws_its_first_board_once(app: LabApp, built: list[tuple[Any, str]], sent: list[str]) -> None:
    assert len(built) == 1, f"the board's model was built {len(built)} times while the app was made"
    assert built[0] == (app.record.initial, "de") and app.board.state is app.node.state is app.record.initial
    assert "model" not in sent
    made = sl.GameRecord.new(players=3, seed=4, game="speicherstadt")  # what new_game makes for the same choices
    assert app.record.to_json() == made.to_json()
    assert app.board.model == {**board_model(app.record.initial, "de", None), "rev": app.board.model["rev"]}
    app.new_game()  # a new game draws its own record's board
    assert len(built) == 2 and built[1][0] is app.record.initial and app.board.state is app.record.initial


def test_showing_the_position_shown_draws_nothing_but_clears_an_error(app: LabApp,
                                                                      built: list[tuple[Any, str]]) -> None:
    board, state = app.board, app.board.state
    rev = board.model["rev"]
    board.show(state)
    assert len(built) == 1 and board.model["rev"] == rev
    assert not board.handle_message({"kind": "act", "verb": "no-such-verb", "args": {}})
    assert board.error
    board.show(state)  # the same position again: the error goes, the page redraws with a new revision
    assert board.error == "" and len(built) == 2 and board.model["rev"] == rev + 1
    after = state.apply(state.legal_actions()[0])
    board.show(after, [state])
    board.show(after, [state])
    assert len(built) == 3 and board.state is after
