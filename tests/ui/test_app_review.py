"""Teaching and review in the app: hover explanations, the review button, marks, jumps, the rules panel."""

from __future__ import annotations

import pytest

from speicherstadt_lab import reviewing
from speicherstadt_lab.engine.protocol import new_game
from speicherstadt_lab.games.speicherstadt.explain import explain_action
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.model import board_model


def _states():
    """A few positions of a random game: the demand, purchase and loading phases, with and without Kaispeicher."""
    out = []
    for kwargs in ({}, {"expansion": "kaispeicher"}):
        st = new_game("speicherstadt", players=3, seed=5, **kwargs)
        seen: set[str] = set()
        k = 0
        while not st.is_over and len(seen) < 4 and k < 400:
            if st.phase not in seen:
                seen.add(st.phase)
                out.append(st)
            legal = st.legal_actions()
            st = st.apply(legal[k % len(legal)])
            k += 1
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_hover_explanations_for_every_legal_action(lang):
    for st in _states():
        m = board_model(st, lang)
        assert set(m["explain"]) == set(m["legal"])
        for action, said in m["explain"].items():
            assert said == explain_action(st, action, lang) and said


def test_no_explanations_for_a_watching_seat():
    st = new_game("speicherstadt", players=3, seed=1)
    other = (st.to_move + 1) % 3
    assert board_model(st, "en", seat=other)["explain"] == {}


@pytest.fixture
def reviewed(monkeypatch):
    # low levels so a short review of random moves surely flags some (the real levels need many rollouts)
    monkeypatch.setattr(reviewing, "thresholds_for",
                        lambda n: {"inaccuracy": {"win": 0.02, "score": 0.5}, "mistake": {"win": 0.1, "score": 3.0}})
    app = LabApp(players=2, seed=3, threaded=False, chart_delay=0, seats=["random", "random"])
    app.auto.value = False  # the better move is a human move: no bots moving on after it
    app.review_rollouts.value = 4  # quick: the levels above are low anyway
    yield app
    app.close()


def test_review_button_annotates_marks_and_jumps(reviewed):
    app = reviewed
    assert not app.reviewed
    app.review_button.click()
    app.wait()
    assert app.reviewed and "ssl-ok" in app.message.value
    line = app.record.mainline()
    assert all("review" in nd.annotations for nd in line[1:])
    flagged = app.flagged()
    assert flagged, "the low levels flag some decisions"
    marks = [d for d in app.chart.to_figure().data if isinstance(d.meta, dict) and d.meta.get("series") == "review"]
    assert sorted(p for d in marks for p in d.customdata) == sorted(nd.ply for nd in flagged)
    assert {d.meta["flag"] for d in marks} == {"inaccuracy", "mistake"}
    assert len(app.flag_list.options) == len(flagged)
    # the per-seat summary, with the luck of every supply measured after the decisions
    rv = app.review()
    assert len(rv.luck) and rv.luck.groupby("round")["luck"].sum().abs().max() < 1e-3  # luck sums to 0 a round
    assert 'data-luck="1"' in app.review_summary.value
    for row in rv.summary().itertuples():
        cells = (app.record.initial.seat_name(int(row.Index), "en"), f"{row.best_moves:.0%}",
                 f"{100 * row.luck:+.0f} ± {100 * row.luck_margin:.0f} pp")  # luck: a change in percentage points
        assert all(c in app.review_summary.value for c in cells)
    # survives save and load
    again = GameRecord.from_json(app.save_json())
    assert reviewing.Review.from_record(again).decisions["flag"].tolist() == app.review().decisions["flag"].tolist()

    # jump: from the list, and from a click on a mark
    target = flagged[0]
    app.flag_list.value = target.ply
    assert app.node is target.parent
    best = target.annotations["review"]["best"]
    assert best in app.alternative.value and app.better_button.layout.display == ""
    assert explain_action(target.parent.state, best, "en")[:30] in app.alternative.value.replace("&#x27;", "'")
    app.first()
    trace = next(d for d in marks if len(d.customdata))
    index = next(i for i, d in enumerate(app.chart.figure["data"]) if d.get("meta") == trace.meta)

    assert app.chart.handle_message({"kind": "click", "trace": index, "point": 0})  # as the page sends it
    assert app.node.ply == trace.customdata[0] - 1

    # play the better move: a variation with that action
    app.show_flag(target)
    n_children = len(target.parent.children)
    node = app.better_button.click() or app.node
    assert node.parent is target.parent and node.action == best and not node.is_mainline()
    assert len(target.parent.children) == n_children + 1


def test_no_summary_before_a_review_and_it_follows_the_language(reviewed):
    app = reviewed
    assert app.review_summary.value == ""
    app.review_button.click()
    app.wait()
    assert "luck" in app.review_summary.value and "best moves" in app.review_summary.value
    app.set_lang("de")
    assert "Glück" in app.review_summary.value and "beste Züge" in app.review_summary.value
    app.new_game(players=2, seed=9, seats=["random", "random"])
    assert app.review_summary.value == ""


def test_review_cancel_keeps_partial_results():
    app = LabApp(players=2, seed=4, threaded=True, chart_delay=0, seats=["random", "random"])
    app.wait()
    app.review_game(rollouts=4)
    app.cancel()
    app.wait()
    assert not app.busy
    app.close()


def test_rules_panel_follows_the_language():
    app = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    en = app.rules.children[0].value
    assert app.rules.get_title(0) == "Rules of Die Speicherstadt" and "Purchase" in en and "<b>Demand.</b>" in en
    app.set_lang("de")
    assert app.rules.get_title(0) == "Regeln: Die Speicherstadt" and "Kauf" in app.rules.children[0].value
    assert app.tutorial_button.description == "Tutorial: deine erste Partie"
    assert app.review_button.description == "Analyse"
    app.close()
