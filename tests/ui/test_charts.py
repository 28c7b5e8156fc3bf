"""Chart figures built from trajectories and win tables, and the live chart widget that shows them in the page."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import evaluate
from speicherstadt_lab.bots import RandomBot
from speicherstadt_lab.games.speicherstadt.render import SEAT_COLOURS
from speicherstadt_lab.records import GameRecord, Node
from speicherstadt_lab.ui import charts
from speicherstadt_lab.ui.chart_widget import PLOTLY_PATH, Chart, ChartMessageError, installed_asset, plotly_source


@pytest.fixture(scope="module")
def game() -> tuple[GameRecord, Node]:
    """A full random 3-player game, and a variation leaving the main line at ply 20."""
    record = GameRecord.new(players=3, seed=5)
    record.root.play_out([RandomBot(seed=s) for s in range(3)])
    fork = record.mainline()[20]
    other = next(a for a in fork.state.legal_actions() if str(a) != fork.children[0].action)
    end = fork.play(other).play_out([RandomBot(seed=s + 10) for s in range(3)])
    return record, end


def traces(fig: go.Figure, **meta: Any) -> list[Any]:
    return [t for t in fig.data if t.meta and all(t.meta.get(k) == v for k, v in meta.items())]


def test_one_score_and_one_coins_line_per_seat_in_the_seat_colours(game: tuple[GameRecord, Node]) -> None:
    record, _ = game
    traj = record.trajectory()
    fig = charts.progress_figure(traj, current=7)
    assert len(fig.data) == 6
    steps = traj[traj["kind"] == "step"]
    for seat in range(3):
        mine = steps[steps["seat"] == seat]
        (score,) = traces(fig, seat=seat, series="projected")
        (coins,) = traces(fig, seat=seat, series="coins")
        assert score.line.color == coins.line.color == SEAT_COLOURS[seat]
        assert list(score.x) == mine["ply"].tolist() and list(score.y) == mine["projected"].tolist()
        assert list(coins.y) == mine["coins"].tolist() and coins.yaxis == "y2"
        assert score.name == ["Red", "Blue", "Green"][seat] and score.showlegend and not coins.showlegend
        assert score.line.dash == "solid"
    assert fig.layout.shapes[0].x0 == 7 and fig.layout.xaxis2.title.text == "ply"
    assert max(score.x) == record.end().ply


def test_by_round_the_points_are_the_round_ends(game: tuple[GameRecord, Node]) -> None:
    record, _ = game
    traj = record.trajectory()
    fig = charts.progress_figure(traj, x="round", current=charts.position_x(30, 3, False, "round"))
    (coins,) = traces(fig, seat=1, series="coins")
    ends = traj[(traj["kind"] == "round_end") & (traj["seat"] == 1)]
    assert list(coins.x) == [0.0, *ends["round"].astype(float).tolist()]
    assert list(coins.y) == [traj["coins"].iloc[1], *ends["coins"].tolist()]
    assert fig.layout.shapes[0].x0 == 2.5 and fig.layout.xaxis2.title.text == "round"


def test_a_variation_is_overlaid_dashed_from_the_fork(game: tuple[GameRecord, Node]) -> None:
    record, end = game
    main, branch = record.trajectory(), record.trajectory(end)
    fig = charts.progress_figure(main, branch, fork=20, lang="de", names=["Rot", "Blau", "Grün"])
    assert len(fig.data) == 13  # 3 seats × 2 series × 2 lines + the legend key for dashes
    for seat in range(3):
        (dashed,) = traces(fig, seat=seat, line="branch", series="projected")
        assert dashed.line.dash == "dash" and dashed.line.color == SEAT_COLOURS[seat]
        assert min(dashed.x) == 20 and max(dashed.x) == end.ply and not dashed.showlegend
        mine = branch[(branch["kind"] == "step") & (branch["seat"] == seat) & (branch["ply"] >= 20)]
        assert list(dashed.y) == mine["projected"].tolist()
    assert fig.data[-1].name == "Variante (gestrichelt)" and fig.data[-1].line.dash == "dash"
    assert traces(fig, seat=0, line="main", series="projected")[0].name == "Rot"
    by_round = charts.progress_figure(main, branch, fork=20, x="round")
    (dashed,) = traces(by_round, seat=0, line="branch", series="coins")
    fork_round = record.mainline()[20].state.round
    assert dashed.x[0] == fork_round - 1, "starts from the last shared round end"


def test_win_table_and_figure_with_bands_and_a_dashed_variation() -> None:
    state = sl.new_game(players=3, seed=2)
    a = evaluate(state, rollouts=20)
    b = evaluate(state.apply("place 1"), rollouts=20)
    main = charts.win_table([(0, 0.0, a), (12, 1.0, b)])
    assert list(main.columns) == charts.WIN_COLUMNS and len(main) == 6
    assert main[main["ply"] == 12]["win_prob"].tolist() == b["win_prob"].tolist()
    branch = charts.win_table([(12, 1.0, a)])
    fig = charts.win_figure(main, branch, names=["Red", "Blue", "Green"])
    (band,) = traces(fig, seat=2, series="band")
    (line,) = traces(fig, seat=2, line="main", series="win_prob")
    (dashed,) = traces(fig, seat=2, line="branch", series="win_prob")
    assert band.fill == "toself" and list(band.x) == [0, 12, 12, 0]
    assert list(band.y) == [a["win_hi"][2], b["win_hi"][2], b["win_lo"][2], a["win_lo"][2]]
    assert list(line.y) == [a["win_prob"][2], b["win_prob"][2]] and line.line.color == SEAT_COLOURS[2]
    assert dashed.line.dash == "dash" and list(dashed.x) == [12]
    assert tuple(fig.layout.yaxis.range) == (0, 1)
    rounds = charts.win_figure(main, names=["Red", "Blue", "Green"], x="round")
    assert list(traces(rounds, seat=0, line="main", series="win_prob")[0].x) == [0.0, 1.0]


def test_an_empty_win_chart_says_how_to_fill_it() -> None:
    fig = charts.win_figure(charts.win_table([]), names=["Red", "Blue"])
    assert any("Win chances" in a.text for a in fig.layout.annotations)
    assert all(len(t.x) == 0 for t in fig.data)


def test_wrong_axis_or_language_is_refused(game: tuple[GameRecord, Node]) -> None:
    record, _ = game
    with pytest.raises(ValueError, match="x must be"):
        charts.progress_spec(record.trajectory(), x="time")
    with pytest.raises(ValueError, match="lang"):
        charts.progress_spec(record.trajectory(), lang="fr")
    assert charts.position_x(30, 4, False) == 30 and charts.position_x(30, 4, True, "round") == 4.0


class Sent:
    """Records what a chart sends: its messages, and the figure whenever the whole state would travel."""

    def __init__(self, chart: Chart) -> None:
        self.messages: list[dict[str, Any]] = []
        self.states: list[Any] = []
        chart.send = lambda content, buffers=None: self.messages.append(content)  # type: ignore[method-assign]
        real = chart.send_state

        def send_state(key: Any = None) -> None:
            keys = [key] if isinstance(key, str) else list(key or chart.keys)
            self.states.extend(k for k in keys if k == "figure" and chart._should_send_property(k, chart.figure))
            real(key)

        chart.send_state = send_state  # type: ignore[method-assign]


def test_update_sends_only_what_changed(game: tuple[GameRecord, Node]) -> None:
    record, end = game
    main = record.trajectory()
    chart = charts.figure_widget(charts.progress_spec(main, current=3))
    sent = Sent(chart)
    chart.update(charts.progress_spec(main, current=3))
    assert sent.messages == [] and sent.states == [], "an unchanged figure sends nothing"
    chart.update(charts.progress_spec(main, current=9))
    assert [m["kind"] for m in sent.messages] == ["patch"] and sent.states == []
    patch = sent.messages[0]
    assert patch["traces"] == [] and set(patch["layout"]) <= {"shapes", "annotations"}
    assert chart.figure["layout"]["shapes"][0]["x0"] == 9, "the kernel's state is the new figure"
    assert chart.get_state()["figure"]["layout"]["shapes"][0]["x0"] == 9, "what a new page starts from"
    sent.messages.clear()
    shorter = record.trajectory(record.mainline()[30])
    chart.update(charts.progress_spec(shorter, current=9))
    (patch,) = sent.messages
    assert [i for i, _ in patch["traces"]] == list(range(6)), "one message for all six shortened traces"
    assert all(set(change) == {"x", "y"} for _, change in patch["traces"])
    assert chart.figure["data"][0]["x"] == list(range(31))
    sent.messages.clear()
    chart.update(charts.progress_spec(main, record.trajectory(end), fork=20, current=9))
    assert sent.messages == [] and sent.states == ["figure"], "new traces: the whole figure, as state"
    assert len(chart.figure["data"]) == 13 and chart.to_figure().data[7].line.dash == "dash"


def test_the_chart_sends_json_and_exports_a_plotly_figure() -> None:
    spec = {"data": [{"type": "scatter", "x": (0, 1, 2), "y": [np.float64(0.5), float("nan"), np.int64(3)]}],
            "layout": {"height": 200}}
    chart = Chart(spec)
    assert chart.figure["data"][0] == {"type": "scatter", "x": [0, 1, 2], "y": [0.5, None, 3]}
    assert json.loads(json.dumps(chart.get_state()["figure"], allow_nan=False)) == chart.figure
    fig = chart.to_figure()
    assert isinstance(fig, go.Figure) and list(fig.data[0].x) == [0, 1, 2]
    assert fig.layout.template.layout.to_plotly_json() == {}, "no template: the figure draws as in the page"
    assert chart.to_figure() is fig, "built once per figure"
    with pytest.raises(TypeError, match="figure: object"):
        Chart({"data": [{"type": "scatter", "x": [object()]}], "layout": {}})


def test_the_chart_checks_each_browser_message() -> None:
    main = {"type": "scatter", "x": [1, 2, 3], "y": [0.1, 0.2, 0.3]}
    marks = {"type": "scatter", "x": [2], "y": [0.2], "customdata": [17], "meta": {"series": "review"}}
    chart = Chart({"data": [main, marks], "layout": {}})
    before = dict(chart.figure)
    got: list[tuple[dict[str, Any], int]] = []
    chart.on_click(lambda trace, point: got.append((trace, point)))
    for bad, field in (("click", "message"), ({"kind": "zoom"}, "kind"), ({"kind": "click", "point": 0}, "trace"),
                       ({"kind": "click", "trace": 2, "point": 0}, "trace"),
                       ({"kind": "click", "trace": True, "point": 0}, "trace"),
                       ({"kind": "click", "trace": 1, "point": 1}, "point"),
                       ({"kind": "click", "trace": 0, "point": "1"}, "point")):
        assert chart.handle_message(bad) is False
        assert chart.last_error.startswith(field + ":"), (bad, chart.last_error)
        with pytest.raises(ChartMessageError) as err:
            chart.parse_message(bad)
        assert err.value.field == field
    assert got == [] and chart.figure == before, "a refused message changes nothing"
    assert chart.handle_message({"kind": "click", "trace": 1, "point": 0}) and chart.last_error == ""
    assert got == [(marks, 0)]


def test_a_page_without_the_static_file_gets_plotly_from_the_kernel() -> None:
    chart = Chart({"data": [], "layout": {}})
    sent = Sent(chart)
    assert chart.handle_message({"kind": "need_plotly"})
    (msg,) = sent.messages
    assert msg["kind"] == "plotly" and "window.Plotly = Plotly" in msg["source"]
    assert chart.plotly_path == PLOTLY_PATH and chart.config["displaylogo"] is False


def test_the_installed_plotly_file_is_the_one_the_page_asks_for() -> None:
    """The wheel (hatch_build.py) installs plotly.min.js where the chart's page looks for it."""
    path = installed_asset()
    assert path is not None, "run `pip install -e .`: the package installs plotly.js for the Jupyter server"
    assert path.as_posix().endswith("share/jupyter/labextensions/" + PLOTLY_PATH)
    assert path.read_bytes()[:4096] == plotly_source().encode()[:4096]


def test_the_dashboard_puts_both_charts_in_one_figure(game: tuple[GameRecord, Node]) -> None:
    record, end = game
    names = ["Red", "Blue", "Green"]
    progress = charts.progress_spec(record.trajectory(), record.trajectory(end), fork=20, current=20)
    wins = charts.win_spec(charts.win_table([(0, 0.0, evaluate(record.initial, rollouts=10))]),
                           charts.win_table([(25, 2.5, evaluate(end.state, rollouts=10))]), names=names, current=20)
    fig = charts.dashboard_figure(progress, wins)
    on_right = [t for t in fig.data if t.xaxis == "x3"]
    assert {t.meta["series"] for t in on_right} == {"band", "win_prob", "anchor"}
    assert all(t.yaxis == "y3" and not t.showlegend for t in on_right)
    assert sum(1 for t in fig.data if t.x == (None,)) == 1, "one legend key for the dashed lines"
    assert [t.name for t in fig.data if t.showlegend] == [*names, "variation (dashed)"]
    assert fig.layout.xaxis.domain[1] < fig.layout.xaxis3.domain[0] and fig.layout.xaxis3.matches == "x"
    assert [(s.xref, s.yref) for s in fig.layout.shapes] == [("x", "y domain"), ("x", "y2 domain"),
                                                              ("x3", "y3 domain")]
    title = next(a for a in fig.layout.annotations if a.text == "<b>Win probability</b>")
    assert title.x == fig.layout.xaxis3.domain[0]
    empty = charts.dashboard_spec(progress, charts.win_spec(charts.win_table([]), names=names))
    note = next(a for a in empty["layout"]["annotations"] if "Win chances" in a["text"])
    assert note["x"] == pytest.approx(sum(fig.layout.xaxis3.domain) / 2)


def test_the_now_label_sits_inside_the_plot_beside_the_line(game: tuple[GameRecord, Node]) -> None:
    """Not above the plot (the titles and the legend are there): at the top of the upper subplot, on the side of the
    line with more room; the win chart's label takes the side of the course's (they share the x range)."""
    record, _ = game
    main = record.trajectory()
    last = record.end().ply
    names = ["Red", "Blue", "Green"]
    early = charts.win_table([(0, 0.0, evaluate(record.initial, rollouts=10))])
    for current, side, shift in ((0, "left", 3), (5, "left", 3), (last, "right", -3), (last - 5, "right", -3)):
        progress = charts.progress_spec(main, current=current)
        (note,) = [a for a in progress["layout"]["annotations"] if a.get("name") == "now"]
        assert (note["xanchor"], note["xshift"], note["yref"], note["y"], note["yanchor"]) == (
            side, shift, "y domain", 1, "top")
        assert [(sh["yref"], sh["x0"]) for sh in progress["layout"]["shapes"]] == [("y domain", current),
                                                                                  ("y2 domain", current)]
        wins = charts.win_spec(early, names=names, current=current)  # by itself: only ply 0 is drawn
        both = charts.dashboard_spec(progress, wins)
        notes = [a for a in both["layout"]["annotations"] if a.get("name") == "now"]
        assert [(a["xref"], a["yref"], a["xanchor"]) for a in notes] == [("x", "y domain", side),
                                                                         ("x3", "y3 domain", side)]


def test_importing_the_charts_loads_no_plotly() -> None:
    """plotly (with nbformat and jsonschema behind it) is imported when a figure is built, not before."""
    code = ("import sys, speicherstadt_lab.ui.app; "
            "print(sorted(m for m in ('plotly', 'nbformat', 'jsonschema') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
