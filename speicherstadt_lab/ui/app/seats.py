"""The seats panel (a :class:`~.panel.Panel`): who plays each seat (human or a bot and its strength), the seat rows
made once and shown or hidden by the player count. The bots themselves are the coordinator's (``panel_host.py``)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, overload

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...bots import make_bot
from ...bots.levels import LEVELS, level_label
from ...engine.i18n import load_messages, messages
from ...engine.protocol import get_game
from .. import charts
from ..model import seat_tokens
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel, swap_options
from .texts import text

MAX_SEATS = 5
SEAT_KINDS = ("human", "random", "greedy", "mcts")
STAND_IN = "greedy"  # plays human seats when the bots play on to the end of a round or game
STRENGTHS = ("iterations=100", "iterations=200", "iterations=500", "iterations=1000", "seconds=1", "seconds=3")


#: the opponent levels a seat can be given (``bots/levels.py``), weakest first
LEVEL_SPECS = tuple(f"level:{lv.number}" for lv in LEVELS)


def level_short(spec: str, lang: str) -> str:
    """A level's short name for the narrow seat dropdown ("Level 4", "Stufe 4"); its rating is in the hover."""
    load_messages("levels")
    return messages.text("levels", "short", lang, {"n": int(spec.partition(":")[2])})


def kind_options(lang: str, extra: Sequence[str] = ()) -> list[tuple[str, str]]:
    """A seat dropdown's options in ``lang``: the seat kinds, the opponent levels, then the bot specs in ``extra``."""
    return ([(text(lang, k), k) for k in SEAT_KINDS] + [(level_short(v, lang), v) for v in LEVEL_SPECS]
            + [(spec, spec) for spec in extra if spec not in LEVEL_SPECS])


def level_tip(spec: str, lang: str, game: str | None, expansion: str | None) -> str | None:
    """The hover of a seat playing a level: its name, measured rating with 95% interval, and how it plays."""
    if spec not in LEVEL_SPECS:
        return None
    lv = LEVELS[LEVEL_SPECS.index(spec)]
    return f"{level_label(lv.number, lang, game, expansion)}. {lv.description(lang, game)}"


def strength_options(lang: str) -> list[tuple[str, str]]:
    """The MCTS strength dropdown's options in ``lang``."""
    out = []
    for spec in STRENGTHS:
        key, _, n = spec.partition("=")
        out.append((text(lang, key, n=n), spec))
    return out


class SeatRow(NamedTuple):
    """One seat's row of the seats panel: its name, the dropdown of who plays it, and the row holding both."""

    label: w.HTML
    kind: w.Dropdown
    row: w.HBox


class SeatWidgets(Sequence[Any]):
    """The seats' dropdowns (``part="kind"``) or names (``"label"``) by seat, as a list: a seat's row is made the first
    time it is asked for (the rows of seats the game does not have are not made at the start)."""

    def __init__(self, make: Callable[[int], SeatRow], part: str) -> None:
        self._make = make
        self._part = part

    def __len__(self) -> int:
        return MAX_SEATS

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [getattr(self._make(k), self._part) for k in range(MAX_SEATS)[index]]
        if not -MAX_SEATS <= index < MAX_SEATS:
            raise IndexError(f"seat {index} out of range (0..{MAX_SEATS - 1})")
        return getattr(self._make(index % MAX_SEATS), self._part)


class SeatsPanel(Panel):
    """The seat controls: per possible seat a name and a dropdown of who plays it (``seat_kinds``, ``seat_labels``),
    and the MCTS strength.

    A seat's row is made when a game first has that seat (or it is asked for), then shown or hidden by
    :meth:`show_count`.

    Emits ``seat`` (``seat``: its index) when a seat's player changes, ``strength`` when the strength does (never while
    relabelling)."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        lay = fixed_layout  # shared, frozen: never changed later (each seat's row has its own)
        self._relabeling = False
        self._count = 0
        self._initial: Any = None
        # One row per seat, made once and then shown or hidden: rebuilding rows when the player count changed
        # replaced the dropdowns in the page while a user (or a browser test) was choosing in them.
        self._rows: list[SeatRow | None] = [None] * MAX_SEATS
        self.seat_kinds = SeatWidgets(self._row, "kind")
        self.seat_labels = SeatWidgets(self._row, "label")
        self.box = w.GridBox([], layout=lay(grid_template_columns="1fr 1fr", grid_gap="3px 10px", width="100%"))
        self.box.add_class("ssl-seats")
        self.mcts_strength = w.Dropdown(options=strength_options(lang), value="iterations=200",
                                        description=text(lang, "strength"),
                                        style=fixed_style(DescriptionStyle, description_width="auto"),
                                        layout=lay(width="180px"))
        self.mcts_strength.observe(lambda _c: None if self._relabeling else self.emit("strength"), "value")

    @property
    def rows(self) -> list[w.HBox]:
        """Every seat's row (the ones not made yet are made now)."""
        return [self._row(k).row for k in range(MAX_SEATS)]

    def made(self) -> list[w.Widget]:
        """The seat widgets made so far (names, dropdowns and rows)."""
        return [x for r in self._rows if r is not None for x in r]

    def _row(self, k: int) -> SeatRow:
        """Seat ``k``'s row, made the first time in the language last shown (and put in the grid, in seat order)."""
        made = self._rows[k]
        if made is not None:
            return made
        lang = self.settings.lang
        label = w.HTML(layout=fixed_layout(width="auto"), style=fixed_style(HTMLStyle))
        label.add_class("ssl-seatname")
        dd = w.Dropdown(options=kind_options(lang), value="human", layout=fixed_layout(width="100px"),
                        style=fixed_style(DescriptionStyle))
        dd.add_class("ssl-seat-kind")
        dd.add_class(f"ssl-seat-kind-{k}")
        dd.observe(lambda _c, k=k: None if self._relabeling else self.emit("seat", seat=k), "value")
        dd.observe(lambda _c, k=k: self._tip(k), "value")
        row = w.HBox([label, dd], layout=w.Layout(align_items="center", justify_content="space-between"))
        if self._count and k >= self._count:
            row.layout.display = "none"  # a seat the game on the board does not have
        made = self._rows[k] = SeatRow(label, dd, row)
        self._tip(k)
        self.box.children = tuple(r.row for r in self._rows if r is not None)
        return made

    def relabel(self, lang: str) -> None:
        """The strength's and the seat dropdowns' options in ``lang`` (their values stay), their hovers and the seats'
        names."""
        self.mcts_strength.description = text(lang, "strength")
        self._swap_options(self.mcts_strength, strength_options(lang))
        for k, r in enumerate(self._rows):
            if r is not None:
                self._swap_options(r.kind, kind_options(lang, [v for _, v in r.kind.options if v not in SEAT_KINDS]))
                self._tip(k)
        if self._count:
            self.show_count(self._count, self._initial)

    def _swap_options(self, widget: Any, options: list[tuple[str, str]]) -> None:
        """New option labels, same value (:func:`~.panel.swap_options`)."""
        swap_options(self, widget, options)

    def show_count(self, n: int, initial: Any) -> None:
        """Show the rows of ``n`` seats, named and coloured as in the game of the position ``initial`` (numbered
        when that game has another number of seats)."""
        self._count, self._initial = n, initial
        lang = self.settings.lang
        fits = initial is not None and initial.n_players == n
        tokens = seat_tokens(initial, lang) if fits else None
        palette = get_game(initial.game).seat_colours if initial is not None else None
        for k in range(MAX_SEATS):
            made = self._row(k) if k < n else self._rows[k]
            if made is None:
                continue  # a seat this game does not have, never shown: made when it is
            if k < n:
                colour = charts.seat_colour(k, palette)
                name = tokens[k]["name"] if tokens else f"{k + 1}"
                made.label.value = (f'<span class="ssl-seatdot" style="background:{colour}"></span>'
                                    f'{html.escape(name)}')
            made.row.layout.display = None if k < n else "none"
            self._tip(k)
        # The page's sign that the rows are shown for n seats (set last: browser tests wait for it).
        for cls in [c for c in self.box._dom_classes if c.startswith("ssl-seats-")]:
            self.box.remove_class(cls)
        self.box.add_class(f"ssl-seats-{n}")

    def _tip(self, k: int) -> None:
        """Seat ``k``'s dropdown hover: a level's rating in this game and how it plays (none for other kinds)."""
        made = self._rows[k]
        if made is None:
            return
        initial = self._initial
        game = initial.game if initial is not None else None
        expansion = getattr(initial, "expansion", None) if initial is not None else None
        made.kind.tooltip = level_tip(str(made.kind.value), self.settings.lang, game, expansion)

    def set_seat(self, seat: int, spec: str) -> str:
        """Put ``spec`` ("human", "random", "greedy", "mcts", "level:N" or a bot spec such as "mcts:seconds=2") in
        ``seat``'s dropdown (a new spec becomes an option); the spec, normalised. A bad spec raises first."""
        spec = spec.strip().lower()
        if spec not in SEAT_KINDS:
            make_bot(spec)  # a bad spec raises here, before anything changes
            dd = self.seat_kinds[seat]
            if spec not in [v for _, v in dd.options]:
                extra = [v for _, v in dd.options if v not in SEAT_KINDS] + [spec]
                self._swap_options(dd, kind_options(self.settings.lang, extra))
        self.seat_kinds[seat].value = spec
        return spec

    def seat_spec(self, seat: int) -> str:
        """Who plays ``seat``: "human" or a bot spec (MCTS with the chosen strength)."""
        made = self._rows[seat]
        kind = str(made.kind.value) if made is not None else "human"  # a row not made yet: its dropdown's default
        return f"mcts:{self.mcts_strength.value}" if kind == "mcts" else kind
