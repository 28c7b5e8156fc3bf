"""The app's page: the top bar, the lab page (the board beside the sidebar's panels, the charts with the review, the
notices and the scenario panel) and the Tutorial page, a plain helper of the coordinator (``Page``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ..board import ASSETS
from ..probe import Probe
from ..shared_layout import fixed_layout, fixed_style
from .labels import Labels

# The app's stylesheet (widgets/app.css), put on the page by a hidden HTML widget.
APP_CSS = "<style>\n" + (ASSETS / "app.css").read_text(encoding="utf-8") + "</style>"
#: One of the sidebar's panels: its title's text key (None: a panel with its own head) and its widgets.
Section = tuple[str | None, Sequence[w.Widget]]
#: The board's and the charts' layout (``fixed_layout(**FILL)``): they size by their container, beside the sidebar.
FILL = {"flex": "1 1 0", "min_width": "0", "width": "auto"}


class Page:
    """The whole app as one widget (``widget``), a plain helper of the coordinator: it lays out the widgets it is given
    and shows one of its two pages; the panels' titles and the app's title are registered with ``labels``.

    ``top`` is the top bar left of its spacer and ``right`` after it; ``sidebar`` the panels beside the board;
    ``rows`` the widgets styled as rows; ``notices`` stand above the board, ``below`` under the charts; ``head``
    the hidden widgets before the top bar (stylesheets); ``tutorial()`` makes the Tutorial page on first use."""

    def __init__(self, labels: Labels, top: Sequence[w.Widget], right: Sequence[w.Widget], board: w.Widget,
                 sidebar: Sequence[Section], rows: Sequence[w.Widget], chart_bar: Sequence[w.Widget], chart: w.Widget,
                 review: w.Widget, notices: Sequence[w.Widget], below: Sequence[w.Widget], head: Sequence[w.Widget],
                 tutorial: Callable[[], w.Widget]) -> None:
        self._tutorial = tutorial
        plain = fixed_style(HTMLStyle)  # shared, frozen: no HTML here changes its style
        css = w.HTML(APP_CSS, layout=fixed_layout(display="none"), style=plain)
        title = labels.add(w.HTML(layout=fixed_layout(), style=plain), "value", "title", escape=True)
        title.add_class("ssl-apptitle")
        spacer = w.Box(layout=fixed_layout(flex="1 1 auto"))
        bar = w.HBox([title, *top, spacer, *right], layout=fixed_layout(width="100%"))
        bar.add_class("ssl-topbar")
        panels = []
        for key, children in sidebar:
            if key is None:
                panels += children
                continue
            heading = labels.add(w.HTML(layout=fixed_layout(), style=plain), "value", key, escape=True)
            heading.add_class("ssl-panel-title")
            box = w.VBox([heading, *children], layout=fixed_layout(width="100%"))
            box.add_class("ssl-panel")
            panels.append(box)
        side = w.VBox(panels, layout=fixed_layout(width="clamp(380px, 23vw, 460px)", flex="0 0 auto"))  # wider: wide
        side.add_class("ssl-sidebar")
        board.layout = fixed_layout(**FILL)  # the board sizes by its container (the app makes it with this one)
        self.main = w.HBox([board, side], layout=fixed_layout(width="100%", align_items="flex-start"))
        charts_row = w.HBox(list(chart_bar), layout=fixed_layout(align_items="center", flex_flow="row wrap"))
        figs = w.Box([chart], layout=fixed_layout(**FILL))
        figs.add_class("ssl-charts")
        for row in (*rows, side, self.main, charts_row):
            row.add_class("ssl-row")
        chart_panel = w.VBox([charts_row, w.HBox([figs, review], layout=fixed_layout(width="100%"))],
                             layout=fixed_layout(width="100%"))
        chart_panel.add_class("ssl-panel")
        self.lab_page = (*notices, self.main, chart_panel, *below)
        # Both pages stay in the page, the one not shown hidden (``show``): a widget taken out of the page
        # loses its view (and a chart's view would have to load and draw plotly.js again).
        self.lab_box = w.VBox(list(self.lab_page), layout=w.Layout(width="100%"))
        self.tutorial_box = w.VBox(layout=w.Layout(width="100%", display="none"))
        self.page = w.VBox([self.lab_box, self.tutorial_box], layout=fixed_layout(width="100%"))
        self.probe = Probe(layout=fixed_layout())
        self.widget = w.VBox([css, *head, self.probe, bar, self.page], layout=fixed_layout(width="100%"))
        self.widget.add_class("ssl-app")
        self.widget.add_class("ssl-idle")

    def show(self, tutorial: bool) -> None:
        """The Tutorial page (``tutorial``) in place of the lab page, or back: the other is hidden, never taken out of
        the page, so its views (the chart's above all) live on and keep following the game."""
        if tutorial and not self.tutorial_box.children:
            self.tutorial_box.children = (self._tutorial(),)
        self.tutorial_box.layout.display = "" if tutorial else "none"
        self.lab_box.layout.display = "none" if tutorial else ""

    def swap_board(self, board: w.Widget) -> None:
        """Put ``board`` in place of the board shown (another game's view)."""
        self.main.children = (board, *self.main.children[1:])

    def busy(self, busy: bool) -> None:
        """The page's sign whether a job runs: class ``ssl-busy`` or ``ssl-idle``."""
        self.widget.remove_class("ssl-idle" if busy else "ssl-busy")
        self.widget.add_class("ssl-busy" if busy else "ssl-idle")
