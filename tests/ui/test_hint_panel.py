"""The app's hint button: for a person to move only, computed from that seat's observation, in English and German."""

from __future__ import annotations

import re

import pytest

from speicherstadt_lab.hints import hint
from speicherstadt_lab.ui.app import LabApp


@pytest.fixture
def app() -> LabApp:
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    yield lab
    lab.close()


def test_the_hint_is_the_observations_move_in_words_with_its_numbers(app: LabApp) -> None:
    st = app.state
    assert app.seat_spec(st.to_move) == "human" and not app.hint_button.disabled
    app.hint_button.click()
    shown = app.hint_box.value
    action = re.search(r'data-action="([^"]+)"', shown).group(1)
    assert action in st.legal_actions()
    assert action == hint(st.observe(st.to_move)).action  # the seat's observation only, nothing hidden
    assert f'title="{action}"' in shown and "%" in shown and "95% interval" in shown
    app.lang.value = "de"
    assert app.hint_box.value == "" and app.hint_button.description == "Tipp"  # the old language's hint is dropped
    app.hint_button.click()
    assert "Tipp:" in app.hint_box.value and "95-%-Intervall" in app.hint_box.value


def test_a_step_drops_the_hint_and_a_bot_to_move_disables_the_button(app: LabApp) -> None:
    app.hint_button.click()
    assert "ssl-hint" in app.hint_box.value
    app.play(app.state.legal_actions()[0])
    assert app.hint_box.value == ""  # a hint belongs to the position it was asked for
    app.auto.value = False
    app.set_seat(app.state.to_move, "greedy")
    assert app.hint_button.disabled
    app.panels.hint.ask()  # asked anyway (a script): refused with the reason, nothing computed
    assert "bot is to move" in app.hint_box.value
    app.set_seat(app.state.to_move, "human")
    assert not app.hint_button.disabled


def test_no_hint_at_game_over(app: LabApp) -> None:
    for seat in range(3):
        app.set_seat(seat, "random")
    app.end_button.click()
    assert app.state.is_over and app.hint_button.disabled
