"""The seats panel: who plays each seat (human or a bot and its strength), the seat rows made once and
shown or hidden by the player count, and the bots the app keeps per seat."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ...bots import make_bot
from ...engine.protocol import get_game
from ...engine.rng import derive_seed
from .. import charts
from ..model import seat_tokens
from .texts import text

MAX_SEATS = 5
SEAT_KINDS = ("human", "random", "greedy", "mcts")
STAND_IN = "greedy"  # plays human seats when the bots play on to the end of a round or game
STRENGTHS = ("iterations=100", "iterations=200", "iterations=500", "iterations=1000", "seconds=1", "seconds=3")


class SeatsPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the seat controls and the seats' bots."""

    def _kind_options(self, lang: str, extra: Sequence[str] = ()) -> list[tuple[str, str]]:
        return [(text(lang, k), k) for k in SEAT_KINDS] + [(spec, spec) for spec in extra]

    def _strength_options(self, lang: str) -> list[tuple[str, str]]:
        out = []
        for spec in STRENGTHS:
            key, _, n = spec.partition("=")
            out.append((text(lang, key, n=n), spec))
        return out

    def _show_seat_controls(self) -> None:
        n = self.players.value
        lang = self.lang_code
        tokens = seat_tokens(self.record.initial, lang) if self.record.initial.n_players == n else None
        for k, row in enumerate(self._seat_rows):
            if k < n:
                colour = charts.seat_colour(k, get_game(self.record.initial.game).seat_colours)
                name = tokens[k]["name"] if tokens else f"{k + 1}"
                self.seat_labels[k].value = (f'<span class="ssl-seatdot" style="background:{colour}"></span>'
                                             f'{html.escape(name)}')
            row.layout.display = None if k < n else "none"
        # The page's sign that the rows are shown for n seats (set last: browser tests wait for it).
        for cls in [c for c in self._seat_box._dom_classes if c.startswith("ssl-seats-")]:
            self._seat_box.remove_class(cls)
        self._seat_box.add_class(f"ssl-seats-{n}")

    def set_seat(self, seat: int, spec: str) -> None:
        """Who plays ``seat``: "human", "random", "greedy", "mcts" or a bot spec ("mcts:seconds=2")."""
        spec = spec.strip().lower()
        if spec not in SEAT_KINDS:
            make_bot(spec)  # a bad spec raises here, before anything changes
            dd = self.seat_kinds[seat]
            if spec not in [v for _, v in dd.options]:
                extra = [v for _, v in dd.options if v not in SEAT_KINDS] + [spec]
                dd.options = self._kind_options(self.lang_code, extra)
        self.seat_kinds[seat].value = spec
        self._bots.pop(seat, None)

    def _on_seat_kind(self, seat: int) -> None:
        """A seat's player changed (its dropdown or :meth:`set_seat`): a fresh bot for it, and if that seat is to
        move, the bots start (when they move by themselves). Not while the options are relabelled, nor while
        ``new_game`` sets the seats of the game it is about to start."""
        self._bots.pop(seat, None)
        if self._relabeling or self._hold_auto:
            return
        if self.node.state.to_move == seat:
            self._maybe_autoplay()

    def seat_spec(self, seat: int) -> str:
        """Who plays ``seat``: "human" or a bot spec (MCTS with the chosen strength)."""
        kind = str(self.seat_kinds[seat].value)
        return f"mcts:{self.mcts_strength.value}" if kind == "mcts" else kind

    def bot_for(self, seat: int, stand_in: bool = False) -> Any:
        """The bot of ``seat`` (for a human seat: the stand-in Greedy bot if ``stand_in``, else None)."""
        spec = self.seat_spec(seat)
        if spec == "human":
            if not stand_in:
                return None
            spec = STAND_IN
        hit = self._bots.get(seat)
        if hit is None or hit[0] != spec:
            seed = derive_seed(str(self.record.seed), "seat", seat) % (2 ** 31)
            hit = self._bots[seat] = (spec, make_bot(spec, seed=seed))
        return hit[1]
