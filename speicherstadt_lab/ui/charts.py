"""Charts of a game's course: per seat projected score and coins, and win probability, over plies or rounds.

Pure functions from tables to plotly figure specs (plain dicts: building plotly objects costs tens of
milliseconds, too slow for every click): ``record.trajectory(node)`` for the course, a :func:`win_table` of
``evaluate`` results for the win chances. ``*_figure`` wraps a spec in a ``go.Figure`` (plotly is imported
then, not before); :func:`figure_widget` shows a spec live in the page (``chart_widget.Chart``: ``update`` sends
only what changed, plotly.js comes as a static file). Seat colours are the board's. The
main line is drawn solid; a variation (the line of the node on the board, when it is off the main line)
is overlaid dashed from the node where it leaves the main line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..engine.protocol import OKABE_ITO, Metric
from ..lazyimport import pandas as pd

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from .chart_widget import Chart

Spec = dict[str, Any]
X_MODES = ("ply", "round")
FONT = "Segoe UI, Helvetica Neue, Arial, Liberation Sans, sans-serif"
INK, MUTED, BRICK, GRID = "#2b2118", "#6f5d4b", "#8e3b2a", "#eadbbd"
def _texts(section: str) -> dict[str, dict[str, str]]:
    """``[section.KEY]`` tables of ``data/messages/charts.toml`` as ``{lang: {key: text}}``."""
    ref = resources.files("speicherstadt_lab.data").joinpath("messages", "charts.toml")
    table = tomllib.loads(ref.read_text(encoding="utf-8"))[section]
    return {lang: {k: v[lang] for k, v in table.items()} for lang in ("en", "de")}


TEXTS: dict[str, dict[str, str]] = _texts("charts")  # axis titles, legend keys, notes
WIN_COLUMNS = ["ply", "round", "seat", "win_prob", "win_lo", "win_hi"]


COINS = Metric("coins", "Coins", "Münzen")  # the default figure under the score (Die Speicherstadt's)
SEAT_COLOURS = OKABE_ITO  # the default palette; a game declares its own in GameInfo.seat_colours


def seat_colour(seat: int, colours: Sequence[str] | None = None) -> str:
    """The seat's colour on the board (#rrggbb): from ``colours`` (a game's ``GameInfo.seat_colours``)."""
    palette = colours or SEAT_COLOURS
    return palette[seat % len(palette)]


def _rgba(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _check(x: str, lang: str) -> dict[str, str]:
    if x not in X_MODES:
        raise ValueError(f"x must be one of {X_MODES}, not {x!r}")
    if lang not in TEXTS:
        raise ValueError(f"lang must be one of {tuple(TEXTS)}, not {lang!r}")
    return TEXTS[lang]


def position_x(ply: int, round_: int, is_over: bool, x: str = "ply") -> float:
    """Where a position sits on the x axis: its ply, or in rounds the middle of the round in progress
    (round-end values sit on whole numbers: after round r is x = r)."""
    if x == "ply":
        return float(ply)
    return float(round_) if is_over else round_ - 0.5


def course(trajectory: pd.DataFrame, x: str = "ply") -> pd.DataFrame:
    """The rows of a trajectory to draw, with an ``x`` column: every step (x = ply), or the start and each
    round end (x = rounds completed)."""
    steps = trajectory[trajectory["kind"] == "step"]
    if x == "ply":
        rows = steps.copy()
        rows["x"] = rows["ply"]
    elif x == "round":
        start = steps[steps["ply"] == steps["ply"].min()].copy()
        start["x"] = 0.0
        ends = trajectory[trajectory["kind"] == "round_end"].copy()
        ends["x"] = ends["round"].astype(float)
        rows = pd.concat([start, ends], ignore_index=True)
    else:
        raise ValueError(f"x must be one of {X_MODES}, not {x!r}")
    return rows.reset_index(drop=True)


def _from_fork(rows: pd.DataFrame, fork: int, x: str) -> pd.DataFrame:
    """The rows from ply ``fork`` on; in rounds also the last point before it, so the dashed line starts on
    the main line."""
    after = rows[rows["ply"] >= fork]
    if x == "ply":
        return after
    before = rows[rows["ply"] < fork]
    before = before[before["x"] == before["x"].max()] if len(before) else before
    return pd.concat([before, after]).sort_values(["x", "seat"], kind="stable")


def _names(frames: Sequence[pd.DataFrame | None], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        return list(names)
    for df in frames:
        if df is not None and len(df):
            return [str(n) for _, n in sorted(df.groupby("seat")["name"].first().items())]
    return []


def _axis(**extra: Any) -> dict[str, Any]:
    return {"gridcolor": GRID, "zerolinecolor": GRID, "linecolor": MUTED, "ticks": "outside", "tickcolor": GRID,
            "automargin": True, **extra}


def _layout(height: int, **extra: Any) -> dict[str, Any]:
    return {
        "height": height, "margin": {"l": 46, "r": 12, "t": 34, "b": 38},
        "font": {"family": FONT, "size": 11, "color": INK}, "paper_bgcolor": "#fbf4e2", "plot_bgcolor": "#fffaf0",
        "legend": {"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 0, "font": {"size": 11}},
        "hovermode": "x unified", "uirevision": "keep", "showlegend": True, **extra,
    }


def _marker(current: float | None, label: str, xs: Iterable[float] = (),
            axes: Sequence[str] = ("y",)) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A dotted vertical line at ``current`` through each subplot of ``axes`` (shapes; not across the gaps between
    them, where the titles are) and its label (annotation, named "now"). The label sits inside the top subplot, at
    its top, beside the line on the side with more room (``xs``: the x values drawn): never on the titles and the
    legend above the plot, nor cut off at the plot's edge."""
    if current is None:
        return [], []
    shapes = [{"type": "line", "name": "now", "xref": "x", "yref": f"{y} domain", "x0": current, "x1": current,
               "y0": 0, "y1": 1, "line": {"color": BRICK, "width": 1.5, "dash": "dot"}} for y in axes]
    span = [0.0, current, *xs]
    right = current > (min(span) + max(span)) / 2  # past the middle: the label goes left of the line
    note = {"text": label, "name": "now", "xref": "x", "yref": f"{axes[0]} domain", "x": current, "y": 1,
            "xanchor": "right" if right else "left", "xshift": -3 if right else 3, "yanchor": "top", "yshift": -2,
            "showarrow": False, "bgcolor": "rgba(255,250,240,0.85)", "font": {"size": 10, "color": BRICK}}
    return shapes, [note]


def _key_trace(text: str) -> dict[str, Any]:
    """A legend entry that explains the dashed lines."""
    return {"type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": text, "showlegend": True,
            "line": {"color": MUTED, "dash": "dash", "width": 2}, "hoverinfo": "skip"}


def progress_spec(main: pd.DataFrame, branch: pd.DataFrame | None = None, *, names: Sequence[str] | None = None,
                  x: str = "ply", current: float | None = None, fork: int | None = None, lang: str = "en",
                  height: int = 330, colours: Sequence[str] | None = None, metric: Metric | None = None) -> Spec:
    """Projected score (top) and a figure of the game (bottom; ``metric``, by default coins) per seat along the
    main line.

    ``branch`` (another line's trajectory) is overlaid dashed from ply ``fork`` on; ``current``
    marks the position on the board; ``colours`` are the game's seat colours."""
    t = _check(x, lang)
    metric = metric or COINS
    t = {**t, "metric": metric.label(lang)}
    labels = _names([main, branch], names)
    lines = [("main", course(main, x))]
    if branch is not None:
        rows = course(branch, x)
        lines.append(("branch", rows if fork is None else _from_fork(rows, fork, x)))
    data: list[dict[str, Any]] = []
    for kind, rows in lines:
        by_seat = dict(iter(rows.groupby("seat")))
        for seat, name in enumerate(labels):
            mine = by_seat.get(seat, rows.iloc[:0])
            colour = seat_colour(seat, colours)
            suffix = f" · {t['variation']}" if kind == "branch" else ""
            for axis, column in (("y", "projected"), ("y2", metric.key)):
                data.append({
                    "type": "scatter", "x": mine["x"].tolist(), "y": mine[column].tolist(), "mode": "lines",
                    "xaxis": "x" if axis == "y" else "x2", "yaxis": axis, "name": name + suffix,
                    "legendgroup": f"seat{seat}", "showlegend": kind == "main" and axis == "y",
                    "line": {"color": colour, "width": 2, "dash": "dash" if kind == "branch" else "solid",
                             "shape": "hv"},
                    "meta": {"seat": seat, "line": kind, "series": column},
                    "hovertemplate": f"{name}{suffix}: %{{y}}<extra></extra>",
                })
    if branch is not None:
        data.append(_key_trace(t["variation_key"]))
    shapes, notes = _marker(current, t["now"], [x for _, rows in lines for x in rows["x"]], axes=("y", "y2"))
    titles = [{"text": f"<b>{t[key]}</b>", "xref": "paper", "yref": "paper", "x": 0, "y": y, "xanchor": "left",
               "yanchor": "bottom", "showarrow": False, "font": {"size": 12, "color": INK}}
              for key, y in (("score", 1.0), ("metric", 0.44))]
    layout = _layout(
        height,
        xaxis=_axis(anchor="y", domain=[0, 1], showticklabels=False),
        yaxis=_axis(anchor="x", domain=[0.56, 1]),
        xaxis2=_axis(anchor="y2", domain=[0, 1], matches="x", title={"text": t[x]}),
        yaxis2=_axis(anchor="x2", domain=[0, 0.44]),
        shapes=shapes, annotations=titles + notes,
        legend={"orientation": "h", "y": 1.08, "yanchor": "bottom", "x": 1, "xanchor": "right",
                "font": {"size": 11}},
        margin={"l": 46, "r": 12, "t": 44, "b": 38},
    )
    return {"data": data, "layout": layout}


def progress_figure(main: pd.DataFrame, branch: pd.DataFrame | None = None, **kwargs: Any) -> go.Figure:
    """:func:`progress_spec` as a plotly figure."""
    import plotly.graph_objects as go

    return go.Figure(progress_spec(main, branch, **kwargs))


def win_table(entries: Iterable[tuple[int, float, pd.DataFrame]]) -> pd.DataFrame:
    """One row per seat per evaluated position from ``(ply, round position, evaluate(...) table)`` entries;
    the round position is :func:`position_x` in rounds."""
    rows = []
    for ply, rnd, df in entries:
        for seat, r in df.iterrows():
            rows.append({"ply": ply, "round": rnd, "seat": int(seat), "win_prob": float(r["win_prob"]),
                         "win_lo": float(r["win_lo"]), "win_hi": float(r["win_hi"])})
    out = pd.DataFrame(rows, columns=WIN_COLUMNS)
    return out.sort_values(["ply", "seat"], kind="stable").reset_index(drop=True)


REVIEW_COLOURS = {"inaccuracy": "#e69f00", "mistake": "#c0392b"}
REVIEW_TEXTS: dict[str, dict[str, str]] = _texts("charts_review")  # the review marks' labels
MARK_COLUMNS = ["ply", "x", "seat", "action", "best_action", "win_prob", "win_loss", "score_loss", "flag"]


def review_marks(marks: pd.DataFrame, names: Sequence[str], lang: str = "en") -> list[dict[str, Any]]:
    """The flagged decisions of a review as chart marks: one scatter trace per flag ("inaccuracy",
    "mistake"), a point at the decision's x and the mover's win probability with the chosen action.

    ``customdata`` holds the ply (what a click reports). ``marks`` has :data:`MARK_COLUMNS`."""
    t = REVIEW_TEXTS[lang]
    out = []
    for flag in ("inaccuracy", "mistake"):
        mine = marks[marks["flag"] == flag] if len(marks) else marks
        text = [f"{int(r.ply)}. {names[int(r.seat)] if int(r.seat) < len(names) else r.seat}: {r.action} — "
                f"{t[flag]}<br>{t['best']}: {r.best_action} "
                f"({t['loss'].format(win=f'{100 * r.win_loss:.0f}', score=f'{r.score_loss:.1f}')})"
                for r in mine.itertuples()]
        out.append({
            "type": "scatter", "x": mine["x"].astype(float).tolist(), "y": mine["win_prob"].astype(float).tolist(),
            "mode": "markers", "name": t[flag], "showlegend": bool(len(mine)), "legendgroup": f"review-{flag}",
            "marker": {"size": 11 if flag == "mistake" else 9, "color": REVIEW_COLOURS[flag],
                       "symbol": "x" if flag == "mistake" else "diamond", "line": {"width": 1, "color": INK}},
            "customdata": mine["ply"].astype(int).tolist(), "text": text,
            "hovertemplate": "%{text}<extra></extra>", "meta": {"series": "review", "flag": flag}})
    return out


def win_spec(main: pd.DataFrame, branch: pd.DataFrame | None = None, *, names: Sequence[str], x: str = "ply",
             current: float | None = None, lang: str = "en", height: int = 330,
             marks: pd.DataFrame | None = None, colours: Sequence[str] | None = None) -> Spec:
    """Win probability per seat with its 95% interval as a band, along the main line (``main``, a
    :func:`win_table`).

    ``branch`` (the variation's points from the fork on) is overlaid dashed; ``marks``
    (flagged decisions of a review, :data:`MARK_COLUMNS`) are drawn as :func:`review_marks`."""
    t = _check(x, lang)
    col = "ply" if x == "ply" else "round"
    lines = [("main", main)] + ([("branch", branch)] if branch is not None and len(branch) else [])
    data: list[dict[str, Any]] = []
    for kind, table in lines:
        for seat, name in enumerate(names):
            mine = table[table["seat"] == seat].sort_values(col)
            colour = seat_colour(seat, colours)
            xs = mine[col].astype(float).tolist()
            if kind == "main":
                data.append({
                    "type": "scatter", "x": xs + xs[::-1], "y": mine["win_hi"].tolist() + mine["win_lo"].tolist()[::-1],
                    "fill": "toself", "fillcolor": _rgba(colour, 0.14), "line": {"width": 0, "color": colour},
                    "mode": "lines", "hoverinfo": "skip", "legendgroup": f"seat{seat}", "showlegend": False,
                    "name": f"{name} · {t['band']}", "meta": {"seat": seat, "line": kind, "series": "band"}})
            suffix = f" · {t['variation']}" if kind == "branch" else ""
            data.append({
                "type": "scatter", "x": xs, "y": mine["win_prob"].tolist(), "mode": "lines+markers",
                "name": name + suffix, "legendgroup": f"seat{seat}", "showlegend": kind == "main",
                "line": {"color": colour, "width": 2, "dash": "dash" if kind == "branch" else "solid"},
                "marker": {"size": 5, "color": colour}, "meta": {"seat": seat, "line": kind, "series": "win_prob"},
                "hovertemplate": f"{name}{suffix}: %{{y:.0%}}<extra></extra>"})
    if len(lines) > 1:
        data.append(_key_trace(t["variation_key"]))
    if marks is not None:
        data.extend(review_marks(marks, names, lang))
    drawn = [float(v) for _, table in lines for v in table[col]]
    shapes, notes = _marker(current, t["now"], drawn)
    if not len(main) and (marks is None or not len(marks)):
        notes.append({"text": t["no_win"], "showarrow": False, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.5,
                      "xanchor": "center", "font": {"size": 12, "color": MUTED}})
    title = {"text": f"<b>{t['win']}</b>", "xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "left",
             "yanchor": "bottom", "showarrow": False, "font": {"size": 12, "color": INK}}
    layout = _layout(
        height,
        xaxis=_axis(title={"text": t[x]}, rangemode="tozero"),
        yaxis=_axis(range=[0, 1], tickformat=".0%"),
        shapes=shapes, annotations=[title, *notes],
        legend={"orientation": "h", "y": 1.08, "yanchor": "bottom", "x": 1, "xanchor": "right",
                "font": {"size": 11}},
        margin={"l": 46, "r": 12, "t": 44, "b": 38},
    )
    return {"data": data, "layout": layout}


def win_figure(main: pd.DataFrame, branch: pd.DataFrame | None = None, **kwargs: Any) -> go.Figure:
    """:func:`win_spec` as a plotly figure."""
    import plotly.graph_objects as go

    return go.Figure(win_spec(main, branch, **kwargs))


def dashboard_spec(progress: Spec, wins: Spec, split: float = 0.5, gap: float = 0.07) -> Spec:
    """Both charts in one figure (one widget in the browser): the course on the left (axes x/y, x2/y2), the
    win probability on the right (x3/y3, sharing the x range), one legend for both."""
    left, right = [0.0, split - gap / 2], [split + gap / 2, 1.0]
    has_key = any(t.get("hoverinfo") == "skip" and t.get("x") == [None] for t in progress["data"])
    data = [dict(t) for t in progress["data"]]
    for t in wins["data"]:
        if t.get("x") == [None]:  # the legend key for dashed lines
            if has_key:
                continue
            data.append(dict(t))
            continue
        review = isinstance(t.get("meta"), dict) and t["meta"].get("series") == "review"
        data.append({**t, "xaxis": "x3", "yaxis": "y3", "showlegend": t.get("showlegend", False) if review else False})
    # plotly.js draws the axis lines of a subplot without any data from NaN coordinates (console errors):
    # an invisible point keeps the win subplot's axes defined while no win chances are computed
    data.append({"type": "scatter", "x": [0], "y": [None], "xaxis": "x3", "yaxis": "y3", "mode": "lines",
                 "showlegend": False, "hoverinfo": "skip", "meta": {"series": "anchor"}})
    layout = dict(progress["layout"])
    layout["xaxis"] = {**layout["xaxis"], "domain": left}
    layout["xaxis2"] = {**layout["xaxis2"], "domain": left}
    layout["xaxis3"] = {**wins["layout"]["xaxis"], "domain": right, "anchor": "y3", "matches": "x"}
    layout["yaxis3"] = {**wins["layout"]["yaxis"], "domain": [0, 1], "anchor": "x3"}
    width = right[1] - right[0]
    # the x range is shared: the win chart's "now" label takes the side the course's chose (it knows the whole line)
    side = next(({k: an[k] for k in ("xanchor", "xshift")} for an in layout.get("annotations", [])
                 if an.get("name") == "now"), {})

    def move(item: dict[str, Any]) -> dict[str, Any]:
        out = dict(item)
        if out.get("yref") in ("y", "y domain"):
            out["yref"] = out["yref"].replace("y", "y3", 1)
        if out.get("xref") == "x":
            out["xref"] = "x3"
            if out.get("name") == "now" and "text" in out:
                out.update(side)
        elif out.get("xref") == "paper":
            for key in ("x", "x0", "x1"):
                if isinstance(out.get(key), int | float):
                    out[key] = right[0] + out[key] * width
        return out

    layout["shapes"] = [*layout.get("shapes", []), *(move(sh) for sh in wins["layout"].get("shapes", []))]
    layout["annotations"] = [*layout.get("annotations", []),
                             *(move(an) for an in wins["layout"].get("annotations", []))]
    return {"data": data, "layout": layout}


def dashboard_figure(progress: Spec, wins: Spec) -> go.Figure:
    """:func:`dashboard_spec` as a plotly figure."""
    import plotly.graph_objects as go

    return go.Figure(dashboard_spec(progress, wins))


def figure_widget(spec: Spec) -> Chart:
    """A live chart showing ``spec``; ``chart.update(spec)`` shows a new one, sending only what changed."""
    from .chart_widget import Chart

    return Chart(spec)


__all__ = ["X_MODES", "course", "dashboard_figure", "dashboard_spec", "figure_widget", "position_x",
           "progress_figure", "progress_spec", "review_marks", "seat_colour", "win_figure", "win_spec", "win_table"]
