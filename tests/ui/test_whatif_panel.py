"""The "What if…" panel without a browser: when it opens, what it shows, making a chance variation (refused
ones change nothing and name the field), the comparison of the lines, and both games' hidden parts."""

from __future__ import annotations

import html
import math

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.whatif_panel import rearrange_args, sequence_parts
from tests.support.app import finished_app, round_start_with_a_fire


def test_closed_in_play_open_once_the_game_is_over() -> None:
    app = LabApp(players=3, seed=2, seats=["human", "greedy", "greedy"], threaded=False, chart_delay=0)
    assert not app.whatif_open() and "ssl-whatif-off" in app.whatif_box._dom_classes
    assert "hidden" in app.whatif_info.value and app.whatif_make.disabled
    assert app.make_chance_variation(pile=["fire_1"]) is None and not app.record.root.children
    app.auto.value = False  # (else the bots, on every seat now, would play the game to its end at once)
    app.set_seat(0, "greedy")  # bots on every seat: analysis
    assert app.whatif_open() and "ssl-whatif-on" in app.whatif_box._dom_classes
    app2, _ = finished_app()
    assert app2.whatif_open()  # a finished game, human seats or not


def test_a_chance_variation_brings_a_fire_forward_and_both_lines_compare() -> None:
    app, record = finished_app()
    node, fire = round_start_with_a_fire(record)
    app.goto(node)
    assert f'data-card="{fire}"' in app.whatif_info.value and 'class="ssl-whatif-fire"' in app.whatif_info.value
    before = len(record.nodes())
    assert app.make_chance_variation(pile=["no_such_card"]) is None
    assert "pile[0]" in app.whatif_msg.value and len(record.nodes()) == before and app.node is node
    _label, tags = app.panels.whatif.tags["pile"]
    assert fire in tags.allowed_tags
    tags.value = [fire]
    app.whatif_make.click()
    child = app.node
    assert child.parent is node and child.chance == {"pile": [fire]} and tags.value == []
    assert child.state.hidden_parts()["pile"][0][0] == fire
    assert app.whatif_compare.disabled is False
    app.play_to_end()
    assert app.node.state.is_over and app.record.path_to(app.node)[node.ply + 1] is child
    df = app.compare_lines()
    assert df is not None and len(df) == 2 and df["chance"].tolist() == [False, True]
    assert all(not math.isnan(df.loc[k, f"final_{i}"]) for k in range(2) for i in range(3))
    assert abs(sum(df.loc[1, f"win_{i}"] for i in range(3)) - 1) < 1e-9
    assert 'data-lines="2"' in app.whatif_table.value
    progress, _wins = app.chart_specs()  # the chance line is overlaid like any variation
    assert any((t.get("meta") or {}).get("line") == "branch" for t in progress["data"])


def test_the_panel_speaks_both_languages_and_refuses_nothing_named() -> None:
    app, record = finished_app(seed=3)
    app.goto(round_start_with_a_fire(record)[0])
    app.set_lang("de")
    assert "Was noch kommt" in app.whatif_info.value and app.whatif_make.description.startswith("Diese")
    app.whatif_make.click()
    assert "Nenne mindestens" in app.whatif_msg.value
    assert app.compare_lines() is None and "Zufallsvariante" in app.whatif_msg.value


def test_both_games_name_their_hidden_sequences() -> None:
    sp = sl.new_game(players=3, seed=1)
    parts = sequence_parts(sp)
    assert set(parts) == {"pile", "bag"} and len(parts["pile"]) == len(sp.pile)
    pr = sl.new_game("packet_row", players=3, seed=1)
    decks = sequence_parts(pr)
    assert decks and all(k.startswith("decks.") for k in decks)
    name = next(iter(decks))
    args = rearrange_args({name: [decks[name][-1]], "pile": []})
    assert args == {"decks": {name.split(".", 1)[1]: [decks[name][-1]]}}
    assert pr.rearranged(**args).hidden_parts()["decks"][name.split(".", 1)[1]][0] == decks[name][-1]


@pytest.mark.parametrize("game", ["packet_row"])
def test_packet_row_makes_a_chance_variation_in_the_app(game: str) -> None:
    app = LabApp(players=3, seed=2, seats=["greedy"] * 3, threaded=False, chart_delay=0)
    app.new_game(players=3, seed=2, game=game, seats=["greedy"] * 3)
    parts = sequence_parts(app.node.state)
    field = next(iter(parts))
    last = parts[field][-1]
    child = app.make_chance_variation(**rearrange_args({field: [last]}))
    assert child is not None and app.node is child
    assert sequence_parts(child.state)[field][0] == last


def test_packet_row_decks_are_named_by_their_boards_in_both_languages() -> None:
    app = LabApp(players=3, seed=2, threaded=False, chart_delay=0)
    app.auto.value = False  # bots on every seat, not moving: the game's start, with every deck still to come
    app.new_game(players=3, seed=2, game="packet_row", seats=["greedy"] * 3)
    assert app.whatif_open() and not app.node.state.is_over
    boards = {b.id: b.name for b in app.node.state.cat.boards}
    for lang in ("en", "de"):
        app.lang.value = lang
        fields = list(sequence_parts(app.node.state))
        labels = [app.panels.whatif.tags[f][0].value for f in fields]
        for field, label in zip(fields, labels, strict=True):
            board = field.split(".", 1)[1]
            name = boards[board](lang)
            assert name in label, (name, label)  # "Next cards of the Guild Hall deck", not "... of guild"
            assert html.escape(name) in app.whatif_info.value
            assert not any(f" {b}" in label for b in boards if boards[b](lang) != b), label
    assert "Zunfthaus" in app.whatif_info.value and "Guild Hall" not in app.whatif_info.value
