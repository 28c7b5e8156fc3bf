"""The coordinator's side of the panel objects (``panel.py``): which panels the app has (``Panels``, made by
:func:`make_panels`), the charts' timer (``ChartTimer``) and the seats' bots (``Bots``), each a part the coordinator
owns and gives what it needs; and two parts the panels' events lead to: the review's decisions (``ReviewDesk``)
and chance variations (``WhatIf``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from ...bots import make_bot
from ...engine.errors import RearrangeError
from ...engine.rng import derive_seed
from ...lazyimport import pandas as pd
from ...records import Node
from ...reviewing import REVIEW_KEY, Review
from ..charts import Spec
from .charts_panel import ChartsPanel, marks_table
from .classroom import ClassroomPanel
from .hint_panel import HintPanel
from .lessons_panel import LessonsPanel
from .live_panel import LivePanel
from .movelist import MoveListPanel
from .panel import Settings
from .review import ReviewPanel, reviewed
from .rules_panel import RulesPanel
from .scenario_panel import ScenarioPanel
from .seats import STAND_IN, SeatsPanel
from .texts import TEXTS
from .whatif_panel import WhatIfPanel, branch_of_chance, compare_table, wtext


class Panels(NamedTuple):
    """The app's panel objects (each a :class:`~.panel.Panel`), shown one after another in this order."""

    live: LivePanel
    rules: RulesPanel
    scenario: ScenarioPanel
    whatif: WhatIfPanel
    lessons: LessonsPanel
    seats: SeatsPanel
    hint: HintPanel
    moves: MoveListPanel
    review: ReviewPanel
    charts: ChartsPanel
    classroom: ClassroomPanel


def alias(owner: str, attr: str) -> property:
    """A read-only app attribute that is ``attr`` of the app's ``owner`` (a dotted path: "panels.lessons",
    "navigation"): a widget or a method keeps the app's public name while a part or a panel owns it."""
    path = owner.split(".")

    def get(self: Any) -> Any:
        obj = self
        for name in path:
            obj = getattr(obj, name)
        return getattr(obj, attr)

    get.__doc__ = f"``app.{owner}.{attr}``."
    return property(get)


def make_panels(lang: str, lock: threading.RLock) -> Panels:
    """The panel objects in ``lang`` (the charts panel draws under the coordinator's ``lock``), not yet wired."""
    return Panels(live=LivePanel(TEXTS[lang]["live"]), rules=RulesPanel(), scenario=ScenarioPanel(),
                  whatif=WhatIfPanel(), lessons=LessonsPanel(), seats=SeatsPanel(lang), hint=HintPanel(),
                  moves=MoveListPanel(lang), review=ReviewPanel(lang), charts=ChartsPanel(lang, lock),
                  classroom=ClassroomPanel())


class ChartTimer:
    """The charts' timer, owned by the coordinator: the charts panel draws the node it was last shown ``delay`` seconds
    after the last step (a newer call replaces a pending one; 0: at once), with the review's marks.

    It is given the coordinator's lock and the two panels it reads: the charts (drawn) and the review (its flags)."""

    def __init__(self, delay: float, lock: threading.RLock, charts: ChartsPanel, review: ReviewPanel) -> None:
        self.delay = delay
        self._lock = lock
        self._charts = charts
        self._review = review
        self._timer: threading.Timer | None = None

    def schedule(self, now: bool = False) -> None:
        """Refresh the charts ``delay`` seconds from now (``now``: at once)."""
        self.cancel()
        if now or self.delay <= 0:
            self.refresh()
            return
        self._timer = threading.Timer(self.delay, self.refresh)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        """Drop a pending refresh."""
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()

    def flush(self) -> None:
        """Refresh the charts now if a refresh is pending."""
        if self._timer is not None:
            self.cancel()
            self.refresh()

    def refresh(self) -> None:
        """Bring the charts up to date with the node the charts panel was shown."""
        charts = self._charts
        if charts.node is None:
            return  # not shown a node yet
        with self._lock:
            node = charts.node
            flagged = self._review.flagged(node) if reviewed(node.record) else None
        charts.draw(flagged)

    def specs(self, node: Node, settings: Settings) -> tuple[Spec, Spec]:
        """The specs of the progress and win charts for ``node`` with ``settings`` (and the review's marks)."""
        with self._lock:
            flagged = self._review.flagged(node) if reviewed(node.record) else None
        return self._charts.specs(node, settings, flagged)


class Bots:
    """The seats' bots, owned by the coordinator: who plays each seat is the seats panel's (``seats``), the bot objects
    are made here on first use and kept until that seat's player or the strength changes (``cache``)."""

    def __init__(self, seats: SeatsPanel) -> None:
        self._seats = seats
        self.cache: dict[int, tuple[str, Any]] = {}

    def set_seat(self, seat: int, spec: str) -> None:
        """Who plays ``seat``: "human", "random", "greedy", "mcts" or a bot spec ("mcts:seconds=2")."""
        self._seats.set_seat(seat, spec)
        self.cache.pop(seat, None)

    def seat_spec(self, seat: int) -> str:
        """Who plays ``seat``: "human" or a bot spec (MCTS with the chosen strength)."""
        return self._seats.seat_spec(seat)

    def bot_for(self, seat: int, seed: Any, stand_in: bool = False) -> Any:
        """The bot of ``seat`` in a record of seed ``seed`` (for a human seat: the stand-in Greedy bot if ``stand_in``,
        else None)."""
        spec = self.seat_spec(seat)
        if spec == "human":
            if not stand_in:
                return None
            spec = STAND_IN
        hit = self.cache.get(seat)
        if hit is None or hit[0] != spec:
            hit = self.cache[seat] = (spec, make_bot(spec, seed=derive_seed(str(seed), "seat", seat) % (2 ** 31)))
        return hit[1]

    def forget(self, seat: int | None = None) -> None:
        """Drop ``seat``'s bot (None: every seat's): the next move makes a fresh one."""
        if seat is None:
            self.cache.clear()
        else:
            self.cache.pop(seat, None)

    def all_bots(self, players: int) -> bool:
        """True if a bot plays every one of the ``players`` seats."""
        return all(self.seat_spec(i) != "human" for i in range(players))


class ReviewDesk:
    """The review's decisions on the board, a part of the coordinator: the line the review works on, its flags, a flag
    opened (the board at its decision) and the better move played.

    It is given the review panel, the coordinator's lock, ``here()`` (the node on the board), ``goto(node)`` (as the
    cursor goes: refused while bots play), ``move_to(node)`` (called with the lock held), ``play(action)`` (a person's
    move) and ``settings()`` (what the panels are shown)."""

    def __init__(self, review: ReviewPanel, lock: threading.RLock, here: Callable[[], Node],
                 goto: Callable[[Node], None], move_to: Callable[[Node], None], play: Callable[[str], Node],
                 settings: Callable[[], Settings]) -> None:
        self._review = review
        self._lock = lock
        self._here = here
        self._goto = goto
        self._move_to = move_to
        self._play = play
        self._settings = settings

    @property
    def reviewed(self) -> bool:
        """True if the record on the board holds a review (run here or loaded with the record)."""
        return reviewed(self._here().record)

    def review(self) -> Review:
        """The review saved in the record along the line on the board (ValueError if there is none)."""
        with self._lock:
            node = self._here()
            return Review.from_record(node.record, node=self.review_line()[-1])

    def review_line(self) -> list[Node]:
        """The line the review works on: the line on the board; while the board shows the position of a flag opened
        from the list or the chart, that flag's line."""
        return self._review.review_line(self._here())

    def flagged(self) -> list[Node]:
        """The nodes of :meth:`review_line` whose move the review flagged (inaccuracy or mistake), in order."""
        return self._review.flagged(self._here())

    def review_marks(self, x: str = "ply") -> pd.DataFrame:
        """The flagged decisions as chart marks (:data:`charts.MARK_COLUMNS`)."""
        return marks_table(self.flagged(), x)

    def show_flag(self, node: Node | int) -> None:
        """Jump to a flagged decision (its node, or its ply on the line of :meth:`review_line`): the board shows
        the position in which the move was chosen, the review panel the better move, its gain and its explanation."""
        line = self.review_line()
        if isinstance(node, int):
            node = line[max(1, min(node, len(line) - 1))]
        if node.parent is None:
            return
        self._review.open_flag(node, line)
        self._goto(node.parent)
        with self._lock:
            self._review.show(self._here(), self._settings())

    def play_better(self) -> Node | None:
        """Play the better move of the decision shown (a new variation, or the existing one)."""
        node = self._review.shown_flag
        if node is None or node.parent is None:
            return None
        best = node.annotations.get(REVIEW_KEY, {}).get("best")
        if not best:
            return None
        with self._lock:
            self._move_to(node.parent)
        return self._play(best)


class WhatIf:
    """Chance variations, a part of the coordinator: whether the hidden order may be shown, a chance child made at the
    node on the board, and the lines compared.

    It is given the What-if panel, the seats' bots (who plays), the coordinator's lock, ``here()``, ``move_to(node)``
    (called with the lock held), ``refuse()`` (True, and said, while bots play), ``autoplay()`` (bots to move play on)
    and ``lang()``."""

    def __init__(self, panel: WhatIfPanel, bots: Bots, lock: threading.RLock, here: Callable[[], Node],
                 move_to: Callable[[Node], None], refuse: Callable[[], bool], autoplay: Callable[[], None],
                 lang: Callable[[], str]) -> None:
        self._panel = panel
        self._bots = bots
        self._lock = lock
        self._here = here
        self._move_to = move_to
        self._refuse = refuse
        self._autoplay = autoplay
        self._lang = lang

    def whatif_open(self) -> bool:
        """Whether the hidden order may be shown: a finished game is analysed, or bots play every seat.

        Not while a person plays: the What-if panel lists what is to come in its true order, a chance variation
        keeps the true order of everything not picked, and the comparison rolls out on each line's own order; each
        would give the hidden order away. Closed, the panel says so in one line."""
        record = self._here().record
        return record.end().state.is_over or self._bots.all_bots(record.initial.n_players)

    def make_chance_variation(self, **parts: Any) -> Node | None:
        """A chance child of the node on the board with ``parts`` (``rearranged``'s keywords) and the board
        on it; a refused rearrangement changes nothing and says why, naming the field. None if refused.

        If a bot is to move there and bots move by themselves, they play on."""
        lang = self._lang()
        panel = self._panel
        if self._refuse():
            return None
        if not self.whatif_open():
            panel.say(wtext(lang, "closed"), error=True)
            return None
        if not parts:
            panel.say(wtext(lang, "nothing"), error=True)
            return None
        with self._lock:
            try:
                child = self._here().rearrange(**parts)
            except RearrangeError as e:
                panel.say(wtext(lang, "refused", field=e.field, detail=e.detail), error=True)
                return None
            except (TypeError, ValueError) as e:
                panel.say(wtext(lang, "refused", field="parts", detail=str(e)), error=True)
                return None
            panel.clear_picks()
            self._move_to(child)
        panel.say(wtext(lang, "made", text=child.action or ""), ok=True)
        self._autoplay()  # the new line goes on like any other: bots to move play on by themselves
        return child

    def branch_of_chance(self, node: Node | None = None) -> Node | None:
        """The nearest node at or above ``node`` (default: the board's) with a chance variation among its
        children, or None."""
        return branch_of_chance(node or self._here())

    def compare_table(self, node: Node | None = None) -> pd.DataFrame:
        """One row per line leaving the branch point (as played first, then each chance variation): the line's
        first step, each seat's win chance there and its final points where played to the end (NaN where not)."""
        return compare_table(node or self._here())

    def compare_lines(self) -> pd.DataFrame | None:
        """Show the What-if panel's comparison table (one click); None when there is nothing to compare."""
        return self._panel.show_comparison(self._here())
