"""The game chooser when the page has drawn and every game is offered: the games it showed keep their places (the
new ones follow), and the page gets the new options with the kept choice in one message, never the first option
selected in between (a fresh clone's browser test once saw "Packet Row" chosen where "Die Speicherstadt" was)."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from speicherstadt_lab.ui.app.lab import LabApp, game_variants, variant_of
from speicherstadt_lab.ui.app.panel import swap_options


def recorded(widget: w.Widget) -> list[dict[str, Any]]:
    """The states ``widget`` sends to the page from now on, message by message."""
    sent: list[dict[str, Any]] = []
    send = widget._send

    def keep(msg: dict[str, Any], buffers: Any = None) -> None:
        sent.append(dict(msg.get("state", {})))
        send(msg, buffers)

    widget._send = keep  # type: ignore[method-assign]
    return sent


def test_new_options_and_the_kept_choice_reach_the_page_in_one_message() -> None:
    box = w.Dropdown(options=[("B", "b"), ("C", "c")], value="c")
    sent = recorded(box)

    class Holder:
        _relabeling = False

    swap_options(Holder(), box, [("A", "a"), ("B", "b"), ("C", "c")])
    assert box.value == "c"
    chosen = [s["index"] for s in sent if "index" in s]
    assert chosen == [2], sent  # one message, with the kept choice; never index 0 ("A") on its own
    assert any("_options_labels" in s and s.get("index") == 2 for s in sent)


def test_offering_every_game_keeps_the_offered_ones_in_place_and_the_choice() -> None:
    app = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    try:
        chosen = variant_of(app.record.initial)
        every = game_variants()
        assert len(every) > 2 and chosen in every
        # as at start in a page: the variants of the first game only (the others are imported once the page drew)
        shown = [k for k in every if every[k][0] is every[chosen][0]]
        app.game.options = [(every[k][1].title, k) for k in shown]
        app.game.value = chosen
        sent = recorded(app.game)
        app._offer_games()
        keys = [k for _label, k in app.game.options]
        assert keys[:len(shown)] == shown and sorted(keys) == sorted(every)  # the seen list never reorders
        assert app.game.value == chosen
        assert [s["index"] for s in sent if "index" in s] == [shown.index(chosen)]
    finally:
        app.close()
