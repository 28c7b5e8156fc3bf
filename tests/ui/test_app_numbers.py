"""Every number the app shows keeps its promise (issue 23): the review judges the line on the board, a flagged
move's gain carries its 95% interval, luck is a change in percentage points (never a percentage), the live
panel's table and best moves are one judgement (and the result at the game's end), and every number has its
unit and a one-line meaning (a title) in English and German."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterator

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab import analysis, reviewing
from speicherstadt_lab.analysis import compare_actions, judge_moves, t95
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.records import GameRecord, Node
from speicherstadt_lab.reviewing import REVIEW_KEY
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.live_panel import LIVE_ROLLOUTS

REVIEW_N = 4  # rollouts per action: quick; the levels below flag every decision anyway
ALL_FLAGGED = {"inaccuracy": {"win": -1.0, "score": -1000.0}, "mistake": {"win": 2.0, "score": 1000.0}}


def plies(node: Node, n: int, offset: int = 0) -> Node:
    """Play ``n`` moves on from ``node`` (the (k + offset)-th legal move each time: not the bots' choice)."""
    for k in range(n):
        legal = node.state.legal_actions()
        node = node.play(str(legal[(k + offset) % len(legal)]), by="human")
    return node


def record_with_a_variation(main: int = 8, branch_at: int = 2, var: int = 10) -> tuple[GameRecord, Node, Node]:
    """A record with a main line of ``main`` moves and, from ply ``branch_at``, a variation of ``var`` moves:
    (the record, the variation's first node, the variation's end)."""
    record = GameRecord.new(players=3, seed=1)
    plies(record.root, main)
    branch = record.mainline()[branch_at]
    taken = branch.children[0].action
    other = next(str(a) for a in branch.state.legal_actions() if str(a) != taken)
    first = branch.play(other, by="human")
    end = plies(first, var - 1, offset=1)
    assert not first.is_mainline() and len(record.mainline()) == main + 1
    return record, first, end


@pytest.fixture
def app() -> Iterator[LabApp]:
    a = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    a.live.value = False  # the live analysis is tested on its own below
    yield a
    a.close()


def titled_heads(fragment: str) -> list[tuple[str, str]]:
    """(title, text) of every table head cell in an HTML fragment."""
    out = []
    for m in re.finditer(r"<th([^>]*)>([^<]*)</th>", fragment):
        title = re.search(r'title="([^"]*)"', m.group(1))
        out.append((html.unescape(title.group(1)) if title else "", html.unescape(m.group(2))))
    return out


# ---- 1. the review judges the line on the board ---------------------------------------------------------


def test_the_review_judges_the_line_on_the_board_and_its_flags_stay_on_it(app: LabApp,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "HYBRID_LEVELS", ALL_FLAGGED)  # every decision flagged: every flag checkable
    record, _first, _end = record_with_a_variation()  # main line 8 moves; from ply 3 on a variation of 10
    assert app.load_json(record.to_json())
    var_first = app.record.mainline()[2].children[1]
    var_end = var_first
    while var_end.children:
        var_end = var_end.children[0]
    app.goto(var_end)
    line = app.line()
    assert line[-1] is var_end and len(line) == 13 and not var_end.is_mainline()

    app.review_game(rollouts=REVIEW_N)
    reviewed = [nd for nd in app.record.nodes()
                if nd.parent is not None and isinstance(nd.annotations.get(REVIEW_KEY), dict)]
    assert set(map(id, reviewed)) == set(map(id, line[1:]))  # the line on the board, and only it
    assert "Review: 12 decisions" in app.message.value  # not the main line's 8
    assert len(app.review().decisions) == 12
    assert [nd.ply for nd in app.flagged()] == list(range(1, 13)) and all(nd in line for nd in app.flagged())
    assert [v for _label, v in app.flag_list.options] == list(range(1, 13))

    # a flag deep in the variation: the board goes to its position, in the variation
    app.flag_list.value = 6
    assert app.node is line[5] and not app.node.is_mainline() and app.line()[-1] is var_end
    assert "variation" in app.position.value and app.better_button.layout.display == ""
    seat = app.record.initial.seat_name(line[6].actor, "en")
    assert f"Ply 6: {seat} played <b>{line[6].action}</b>" in app.alternative.value

    # the variation's first move: its position is the branch point (on the main line), the flags stay
    app.flag_list.value = 3
    assert app.node is line[2] and app.node.is_mainline()
    assert app.flag_list.value == 3 and [v for _label, v in app.flag_list.options] == list(range(1, 13))
    assert app.better_button.layout.display == "" and var_first.annotations[REVIEW_KEY]["best"] in \
        app.alternative.value
    assert len(app.review().decisions) == 12  # still the variation's review
    # a step elsewhere: the line on the board again (the main line: its first two moves reviewed)
    app.forward()
    assert app.node.is_mainline() and [nd.ply for nd in app.flagged()] == [1, 2]
    app.last()
    assert "Press “Review” to check" not in app.alternative.value  # the line's first moves were reviewed


def test_a_click_on_a_chart_mark_finds_the_flag_on_the_variation(app: LabApp,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "HYBRID_LEVELS", ALL_FLAGGED)
    record, _first, _end = record_with_a_variation(main=6, branch_at=3, var=6)
    assert app.load_json(record.to_json())
    app.goto(app.record.mainline()[3].children[1])
    app.review_game(rollouts=REVIEW_N)
    marks = app.review_marks()
    assert sorted(marks["ply"]) == list(range(1, 10))
    app.show_flag(8)
    assert app.node.ply == 7 and not app.node.is_mainline()


# ---- 2. a flagged gain carries its 95% interval -----------------------------------------------------------


def test_the_gap_standard_error_is_that_of_the_paired_rollouts() -> None:
    state = sl.new_game(players=3, seed=2)
    df = compare_actions(state, rollouts=6, seed=3)
    acts = [state.parse_action(a) for a in df["action"]]
    leaves = analysis._rollouts(state, acts, range(6), None, "fair", 3, viewer=state.to_move)
    seat = state.to_move
    for k, row in df.iterrows():
        for col, j in (("win_gap_se", 1), ("score_gap_se", 0)):
            d = [a[j][seat] - b[j][seat] for a, b in zip(leaves[0], leaves[k], strict=True)]
            mean = sum(d) / len(d)
            want = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
            assert row[col] == pytest.approx(want, abs=1e-12)
    assert df.loc[0, "win_gap_se"] == 0 and df.loc[0, "score_gap_se"] == 0
    assert t95(3) == pytest.approx(3.182, abs=1e-3) and t95(19) == pytest.approx(2.093, abs=1e-3)
    assert t95(1000) == pytest.approx(1.962, abs=1e-3)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_flagged_move_shows_its_gain_with_the_95_interval(app: LabApp, monkeypatch: pytest.MonkeyPatch,
                                                             lang: str) -> None:
    monkeypatch.setattr(reviewing, "HYBRID_LEVELS", ALL_FLAGGED)
    app.set_lang(lang)
    plies(app.node, 6)
    app.last()
    app.review_game(rollouts=REVIEW_N)
    line = app.line()
    # the node whose chosen move trails the best by the most: a gain worth its interval
    node = max(line[1:], key=lambda nd: nd.annotations[REVIEW_KEY]["best_win_prob"]
               - nd.annotations[REVIEW_KEY]["win_prob"])
    ann = node.annotations[REVIEW_KEY]
    ci = ann["gain_ci"]
    win_gain = ann["best_win_prob"] - ann["win_prob"]
    score_gain = ann["best_score"] - ann["score"]
    # the interval is the one of the paired difference, recomputed here from the same comparison
    df = compare_actions(node.parent.state, rollouts=REVIEW_N, bot="greedy", seed=0, method="hybrid",
                         horizon=2).set_index("action")
    se = df.loc[node.action, "win_gap_se"], df.loc[node.action, "score_gap_se"]
    assert ci["rollouts"] == REVIEW_N
    assert ci["win"] == pytest.approx([win_gain - t95(3) * se[0], win_gain + t95(3) * se[0]], abs=2e-4)
    assert ci["score"] == pytest.approx([score_gain - t95(3) * se[1], score_gain + t95(3) * se[1]], abs=2e-4)
    app.show_flag(node)
    alt = app.alternative.value
    gain = re.search(r'<div class="ssl-gain" title="([^"]*)">([^<]*)</div>', alt)
    assert gain, alt
    tip, said = gain.group(1), gain.group(2)
    unit = "pp" if lang == "en" else "%-Pkt."
    lo, hi = (f"{100 * x:+.0f}" for x in ci["win"])
    assert f"{100 * win_gain:+.0f} {unit}" in said and f"{lo} " in said and f"{hi} {unit}" in said
    assert f"{ci['score'][0]:+.1f}" in said and f"{ci['score'][1]:+.1f}" in said
    assert ("95% interval" if lang == "en" else "95-%-Intervall") in said
    assert ("standard errors" if lang == "en" else "Standardfehler") in tip and f"{REVIEW_N} " in tip
    assert "%" not in said.replace("95%", "").replace("95-%", "").replace("%-Pkt.", "")  # no bare percent


def test_a_review_saved_without_the_spread_says_why_it_has_no_interval(app: LabApp,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviewing, "HYBRID_LEVELS", ALL_FLAGGED)
    plies(app.node, 3)
    app.last()
    app.review_game(rollouts=REVIEW_N)
    node = app.line()[2]
    del node.annotations[REVIEW_KEY]["gain_ci"]  # as an older review saved it
    app.show_flag(node)
    assert 'class="ssl-gain ssl-gain-plain"' in app.alternative.value
    assert "saved without the spread" in app.alternative.value


# ---- 3. luck in percentage points --------------------------------------------------------------------------


def test_luck_is_a_change_in_percentage_points_with_its_bound(app: LabApp) -> None:
    node = app.node
    while node.state.round < 2 or node.parent.state.round < 2:  # into round 2: two supplies
        node = plies(node, 1)
    app.last()
    app.review_game(rollouts=REVIEW_N)
    summary = app.review().summary()
    html_ = app.review_summary.value
    cells = re.findall(r'<td class="ssl-luck" title="([^"]*)">([^<]*)</td>', html_)
    assert len(cells) == 3
    n = 4 * REVIEW_N
    for (tip, shown), row in zip(cells, summary.itertuples(), strict=True):
        assert shown == f"{100 * row.luck:+.0f} ± {100 * row.luck_margin:.0f} pp" and "%" not in shown
        assert "not a probability" in tip
        luck = app.review().luck
        mine = luck[luck["seat"] == row.Index]
        adjusted = [(n * p + 2) / (n + 4) for col in ("win_before", "win_after") for p in mine[col]]
        var = sum(q * (1 - q) / (n + 4) for q in adjusted)  # Agresti-Coull: a spread at 0 and 1 too
        assert row.luck_margin == pytest.approx(1.959964 * math.sqrt(var))
    heads = dict((text, title) for title, text in titled_heads(html_))
    assert "luck (pp)" in heads and "percentage points" in heads["luck (pp)"]
    assert "not a probability" in heads["luck (pp)"] and all(heads[k] for k in heads if k)
    app.set_lang("de")
    assert "Glück (%-Pkt.)" in app.review_summary.value and "keine Wahrscheinlichkeit" in app.review_summary.value
    # a luck sum beyond 100 pp (two supplies, each from 0 to 1 for Red) reads as what it is, a sum of changes
    for nd in app.line():
        luck = nd.annotations.get("luck")
        if isinstance(luck, dict):
            luck["win_before"] = [0.0, 0.5, 0.5]
            luck["win_after"] = [1.0, 0.0, 0.0]
    app.panels.review.invalidate()
    app.set_lang("en")
    shown = re.findall(r'<td class="ssl-luck"[^>]*>([^<]*)</td>', app.review_summary.value)
    assert shown[0] == "+200 ± 26 pp"  # 1.96 · √(4 · 0.1 · 0.9 / 20) = 0.26 (0 and 1 from 16 rollouts each)
    assert "%" not in "".join(shown)


# ---- 4. the live panel: one judgement, and the result at the end ------------------------------------------


def test_the_live_table_and_its_best_moves_are_one_judgement() -> None:
    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        app.play(str(app.state.legal_actions()[0]))
        win, best = app.live_result()
        mover = app.state.to_move
        ranked, seats = judge_moves(app.state, rollouts=LIVE_ROLLOUTS, bot="greedy", method="hybrid", horizon=2)
        assert win.equals(seats) and win.attrs["action"] == best.loc[0, "action"] == ranked.loc[0, "action"]
        assert win.loc[mover, "win_prob"] == best.loc[0, "win_prob"]  # the mover's row is its best move
        assert win.loc[mover, "score_mean"] == best.loc[0, "score_mean"]
        assert win["win_prob"].sum() == pytest.approx(1.0)
        page = app.live_box.value
        shown = re.findall(r'<td class="ssl-live-win">([^<]*)</td>', page)
        first = re.search(r'<ol class=\'ssl-live-best\'><li[^>]*><b>[^<]*</b>: <span class="ssl-live-win">([^<]*)<',
                          page)
        assert first and shown[mover] == first.group(1)
        # the move in words (as the move list shows it), the notation in the best move's hover text
        assert f"If Blue plays {html.escape(app.state.phrase_action(best.loc[0, 'action'], 'en'))}" in page
        assert f"{best.loc[0, 'action']}\">" in page
        heads = titled_heads(page)
        assert [text for _t, text in heads if text] == ["win chance", "95% interval", "exp. points"]
        assert all(title for title, text in heads if text)
        app.set_lang("de")
        assert "Siegchance" in app.live_box.value and "erw. Punkte" in app.live_box.value
    finally:
        app.close()


def test_packet_row_live_table_knows_the_movers_hand_as_its_best_moves_do() -> None:
    app = LabApp(players=3, seed=2, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        app.new_game(players=3, seed=2, game="packet_row", seats=["human"] * 3)
        win, best = app.live_result()
        assert win.loc[app.state.to_move, "win_prob"] == best.loc[0, "win_prob"]
    finally:
        app.close()


def test_at_the_games_end_the_live_panel_shows_the_result() -> None:
    record = sl.record_game(sl.new_game(players=3, seed=4), [make_bot("greedy", seed=i) for i in range(3)])
    app = LabApp(players=3, seed=4, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        assert app.load_json(record.to_json())
        st = app.state
        assert st.is_over
        page = app.live_box.value
        winners = st.winners()
        name = st.seat_name(winners[0], "en")
        assert f"Game over: {name} wins with {st.score(winners[0])} points." in page
        assert "100%" not in page and "%" not in page
        for i in range(3):
            assert f'<tr data-seat="{i}"' in page and f"<td>{st.score(i)}</td>" in page
        assert page.count(">winner<") == len(winners)
        app.set_lang("de")
        assert "Spiel vorbei" in app.live_box.value and "Endpunkte" in app.live_box.value
    finally:
        app.close()


# ---- 5. the bots' reasons and the what-if comparison: units and meanings -------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_bots_reasons_name_their_units_and_meanings(lang: str) -> None:
    app = LabApp(players=3, seed=1, seats=["greedy", "mcts:iterations=30", "human"], threaded=False, chart_delay=0,
                 lang=lang)
    try:
        app.live.value = False
        line = app.line()
        app.goto(line[1])  # the Greedy bot's move
        page = app.explanation.value
        heads = dict((text, title) for title, text in titled_heads(page))
        value = "value (points)" if lang == "en" else "Wert (Punkte)"
        assert value in heads and ("expected final points" if lang == "en" else "erwarteten Endpunkten") in \
            heads[value]
        assert ("rule of thumb" if lang == "en" else "Faustregel") in page
        app.goto(line[2])  # the MCTS bot's move
        page = app.explanation.value
        heads = dict((text, title) for title, text in titled_heads(page))
        wins, score = ("win share (%)", "exp. points") if lang == "en" else ("Sieganteil (%)", "erw. Punkte")
        assert wins in heads and score in heads and all(heads.values())
        assert ("30 iterations" if lang == "en" else "30 Iterationen") in page
    finally:
        app.close()


def test_packet_row_greedy_values_are_dollars() -> None:
    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        app.live.value = False
        app.new_game(players=3, seed=1, game="packet_row", seats=["greedy", "human", "human"])
        app.goto(app.line()[1])
        assert "value ($)" in app.explanation.value and "dollars" in app.explanation.value
    finally:
        app.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whatif_comparison_labels_win_chances_and_final_points(lang: str) -> None:
    from tests.support.app import finished_app, round_start_with_a_fire

    app, record = finished_app()
    try:
        app.live.value = False
        node, fire = round_start_with_a_fire(record)
        app.goto(node)
        assert app.make_chance_variation(pile=[fire]) is not None
        app.set_lang(lang)
        df = app.compare_lines()
        assert df is not None
        page = app.whatif_table.value
        heads = dict((text, title) for title, text in titled_heads(page))
        win, final = (("win chance at the line's start (%)", "final points (as played)") if lang == "en" else
                      ("Siegchance am Linienanfang (%)", "Endpunkte (wie gespielt)"))
        assert heads[win] and heads[final]
        cell = re.search(r'<td title="([^"]*)">(\d+)%</td>', page)
        assert cell and ("95% interval" if lang == "en" else "95-%-Intervall") in cell.group(1)
        assert all(df.loc[k, f"win_lo_{i}"] <= df.loc[k, f"win_{i}"] <= df.loc[k, f"win_hi_{i}"]
                   for k in range(len(df)) for i in range(3))
    finally:
        app.close()


def test_a_judgement_finishing_after_the_board_moved_on_is_not_shown() -> None:
    """A live analysis of the old game that ends after a Packet Row record was loaded must not show its moves."""
    import threading

    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        old = app.node
        assert app.load_json(GameRecord.new(players=3, seed=1, game="packet_row").to_json())
        shown = app.live_box.value
        app.panels.live.analyse(old, "en", threading.Event())  # the old thread's late finish
        assert app.live_box.value == shown
        assert "place" not in app.live_box.value
    finally:
        app.close()
