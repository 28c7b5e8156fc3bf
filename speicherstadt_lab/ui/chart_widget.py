"""A plotly figure as a small anywidget (``widgets/chart.js``): the figure travels as JSON, plotly.js as a static file.

plotly's own ``FigureWidget`` sends its whole bundle (about 5 MB) through the websocket on every page load, and
importing it takes seconds (nbformat, jsonschema). :class:`Chart` sends only the figure: the page loads plotly.js
once from the Jupyter server, which serves the copy of plotly's ``plotly.min.js`` this package installs under
``share/jupyter/labextensions/speicherstadt-lab/static/`` (JupyterLab, Voilà and Voilà as a server extension all
serve that folder), and the browser caches it. A page that cannot fetch it asks the kernel, which sends it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from .board import ASSETS
from .widget_base import assemble

if TYPE_CHECKING:
    import plotly.graph_objects as go

#: the folder under ``share/jupyter/labextensions`` the wheel installs plotly.js into (hatch_build.py, the same name)
ASSET_DIR = "speicherstadt-lab"
#: plotly.js's path under the labextensions URL (``fullLabextensionsUrl`` of the page)
PLOTLY_PATH = f"{ASSET_DIR}/static/plotly.min.js"
#: what a chart passes to plotly.js: no plotly logo, no "edit in Chart Studio", sized by its container
CONFIG = {"displaylogo": False, "responsive": True}
KINDS = ("click", "need_plotly", "shown")
#: the chart's module: the views' shared helpers (``el``, ``listen``), then the chart (``widget_base.assemble``)
PARTS = ("common.js", "chart.js")

ClickCallback = Callable[[dict[str, Any], int], Any]
ShownCallback = Callable[[], Any]


class ChartMessageError(ValueError):
    """A browser message the chart refuses; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def installed_asset() -> Path | None:
    """Where the Jupyter data folders hold the package's copy of plotly.js (None: not installed)."""
    from jupyter_core.paths import jupyter_path

    for root in jupyter_path("labextensions"):
        path = Path(root) / PLOTLY_PATH
        if path.is_file():
            return path
    return None


def plotly_source() -> str:
    """plotly.js as plotly's package ships it (what the kernel sends a page that could not fetch the file)."""
    return resources.files("plotly").joinpath("package_data", "plotly.min.js").read_text(encoding="utf-8")


def plain(value: Any) -> Any:
    """``value`` as JSON-ready Python: tuples as lists, numpy scalars and arrays as numbers and lists, a
    non-finite number as None (plotly.js leaves a gap there)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, bool | str | int) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist):
        return plain(tolist())
    raise TypeError(f"figure: {type(value).__name__} is not JSON ({value!r})")


def _diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of ``new`` whose value differs from ``old``'s; a key gone becomes None."""
    out = {k: v for k, v in new.items() if old.get(k) != v}
    out.update({k: None for k in old if k not in new})
    return out


class Chart(anywidget.AnyWidget):
    """A plotly figure in the browser: ``Chart(spec)``, then ``chart.update(spec)`` sends what changed.

    ``spec`` is a figure as plain dicts (``{"data": [...], "layout": {...}}``) or a ``go.Figure``;
    ``chart.to_figure()`` gives it back as a ``go.Figure`` (to export; ``chart.layout`` is the widget's own
    ipywidgets layout, as for any widget).
    """

    _esm = assemble(ASSETS, PARTS)
    figure = traitlets.Dict().tag(sync=True)
    config = traitlets.Dict(CONFIG).tag(sync=True)
    #: where plotly.js lies under the page's labextensions URL
    plotly_path = traitlets.Unicode(PLOTLY_PATH).tag(sync=True)

    def __init__(self, spec: Mapping[str, Any] | go.Figure | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._clicks: list[ClickCallback] = []
        self._shown: list[ShownCallback] = []
        self._figure_obj: tuple[dict[str, Any], go.Figure] | None = None
        self.last_error = ""
        self.on_msg(lambda _w, content, _b: self.handle_message(content))
        if spec is not None:
            self.figure = self._spec(spec)

    @staticmethod
    def _spec(spec: Mapping[str, Any] | go.Figure) -> dict[str, Any]:
        if not isinstance(spec, Mapping):
            spec = spec.to_plotly_json()
        return plain({"data": list(spec.get("data", [])), "layout": dict(spec.get("layout", {}))})

    def update(self, spec: Mapping[str, Any] | go.Figure) -> None:
        """Show ``spec``: with the same traces (number and types), only the properties that changed travel, as
        one message; otherwise the whole figure. The widget's state is the new figure either way."""
        new = self._spec(spec)
        old = self.figure
        if not old or [t.get("type") for t in old["data"]] != [t.get("type") for t in new["data"]]:
            self.figure = new
            return
        traces = [[i, change] for i, (a, b) in enumerate(zip(old["data"], new["data"], strict=True))
                  if (change := _diff(a, b))]
        layout = _diff(old["layout"], new["layout"])
        if not traces and not layout:
            return
        with self._lock_property(figure=new):  # the kernel's state becomes the new figure; the patch carries it
            self.figure = new
        self.send({"kind": "patch", "traces": traces, "layout": layout})

    def to_figure(self) -> go.Figure:
        """The figure shown, as a ``go.Figure`` (built on first use after a change). plotly.js applies no template
        the figure does not carry, so neither does this (plotly's default template would change every colour)."""
        import plotly.graph_objects as go

        fig = self.figure
        cached = self._figure_obj
        if cached is None or cached[0] is not fig:
            layout = fig.get("layout", {})
            built = go.Figure({"data": fig.get("data", []),
                               "layout": layout if "template" in layout else {**layout, "template": "none"}})
            cached = self._figure_obj = (fig, built)
        return cached[1]

    def on_click(self, callback: ClickCallback) -> None:
        """Call ``callback(trace, point)`` when a point is clicked: the trace as a dict, the point's index in it."""
        self._clicks.append(callback)

    def on_shown(self, callback: ShownCallback) -> None:
        """Call ``callback()`` when a view in a page has plotly.js and has drawn (``{"kind": "shown"}``, once per view):
        the page's first board is up by then, so a figure costly to make can wait for it."""
        self._shown.append(callback)

    def parse_message(self, msg: Any) -> tuple[str, dict[str, Any] | None, int]:
        """``(kind, trace, point)`` of a browser message (trace None but for clicks); raises
        :class:`ChartMessageError` naming the field at fault."""
        if not isinstance(msg, dict):
            raise ChartMessageError("message", f"expected an object, not {type(msg).__name__}")
        kind = msg.get("kind")
        if kind not in KINDS:
            raise ChartMessageError("kind", f"{kind!r} is not one of {', '.join(KINDS)}")
        if kind != "click":
            return kind, None, -1
        data = self.figure.get("data", [])
        i = _index(msg, "trace", len(data))
        trace = data[i]
        n = max((len(trace[k]) for k in ("x", "y") if isinstance(trace.get(k), list)), default=0)
        return kind, trace, _index(msg, "point", n)

    def handle_message(self, msg: Any) -> bool:
        """Act on a browser message; False (and ``last_error`` saying why) for one refused, which changes nothing."""
        try:
            kind, trace, point = self.parse_message(msg)
        except ChartMessageError as err:
            self.last_error = str(err)
            self.log.warning("chart: refused %s", json.dumps(msg, default=str)[:200] + f" ({err})")
            return False
        self.last_error = ""
        if kind == "need_plotly":
            self.send({"kind": "plotly", "source": plotly_source()})
            return True
        if kind == "shown":
            for shown in list(self._shown):
                shown()
            return True
        assert trace is not None
        for callback in list(self._clicks):
            callback(trace, point)
        return True


def _index(msg: Mapping[str, Any], field: str, size: int) -> int:
    value = msg.get(field)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ChartMessageError(field, f"expected an integer, not {value!r}")
    if not 0 <= value < size:
        raise ChartMessageError(field, f"{value} is out of range (0..{size - 1})")
    return value


__all__ = ["CONFIG", "PLOTLY_PATH", "Chart", "ChartMessageError", "installed_asset", "plain", "plotly_source"]
