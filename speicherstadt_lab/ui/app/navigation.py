"""Navigation: the record cursor (first, back, forward, last, a ply, a node of the tree, promote, comments), its
controls (``NavBar``) and the explanation of a bot's move (``Explanation``)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ...lazyimport import pandas as pd
from ...records import Node
from ..model import LOG_SIZE
from ..shared_layout import fixed_layout, fixed_style
from .movelist import STEPS, clean_comment, move_phrase
from .panel import line_of
from .texts import TEXTS, text

EXPLAIN_ROWS = 8


def log_history(path: list[Node], size: int = LOG_SIZE) -> list[Any]:
    """The ``size`` states before the last node of ``path`` that the board's event log tells from, oldest first.

    ``size`` is the board's own log size: each entry then has the state before it, to name its seat and phrase its move.
    A chance step keeps the public position and its events, so it stands in for the node it rearranges: the log tells
    each move once, and names the seat that made it."""
    kept = [n for k, n in enumerate(path) if k + 1 == len(path) or path[k + 1].chance is None]
    return [n.state for n in kept[-(size + 1):-1]]


class NavBar:
    """The record cursor's controls, a plain helper of the coordinator: the buttons « ‹ › », the slider, the position
    line and Promote (``row``: the buttons and the slider, ``where``: the position line and Promote)."""

    def __init__(self, lang: str) -> None:
        t = TEXTS[lang]
        lay = fixed_layout  # shared, frozen: never changed later (the promote button has its own)
        button = fixed_style(w.ButtonStyle)
        self.first_button = w.Button(tooltip=t["first"], description="«", layout=lay(width="38px"), style=button)
        self.back_button = w.Button(tooltip=t["back"], description="‹", layout=lay(width="38px"), style=button)
        self.forward_button = w.Button(tooltip=t["forward"], description="›", layout=lay(width="38px"), style=button)
        self.last_button = w.Button(tooltip=t["last"], description="»", layout=lay(width="38px"), style=button)
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button):
            b.add_class("ssl-navbtn")
        self.slider = w.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=True,
                                  layout=lay(flex="1 1 auto", width="auto", min_width="120px"))
        self.position = w.HTML(layout=lay(width="auto"), style=fixed_style(HTMLStyle))
        self.position.add_class("ssl-position")
        self.promote_button = w.Button(description=t["promote"], layout=w.Layout(width="auto", display="none"),
                                       style=button)
        self.syncing = False  # True while :meth:`show` moves the slider (not a user's move)
        self.row = w.HBox([self.first_button, self.back_button, self.slider, self.forward_button, self.last_button],
                          layout=lay(width="100%", align_items="center"))
        self.where = w.HBox([self.position, self.promote_button], layout=lay(align_items="center"))

    def relabel(self, lang: str) -> None:
        """The controls' texts in ``lang``."""
        t = TEXTS[lang]
        for b, key in ((self.first_button, "first"), (self.back_button, "back"), (self.forward_button, "forward"),
                       (self.last_button, "last")):
            b.tooltip = t[key]
        self.promote_button.description = t["promote"]

    def show(self, node: Node, last: int, playing: bool, lang: str) -> None:
        """The controls at ``node`` on a line of plies 0..``last``; off while bots are ``playing``."""
        self.syncing = True
        try:
            self.slider.max = max(1, last)
            self.slider.value = node.ply
        finally:
            self.syncing = False
        self.first_button.disabled = self.back_button.disabled = playing or node.parent is None
        self.forward_button.disabled = self.last_button.disabled = playing or not node.children
        self.slider.disabled = playing or last == 0
        main = node.is_mainline()
        badge = (f'<span class="ssl-mainline">{html.escape(text(lang, "main"))}</span>' if main else
                 f'<span class="ssl-variation">{html.escape(text(lang, "variation"))}</span>')
        self.position.value = f'<b>{html.escape(text(lang, "ply", ply=node.ply, last=last))}</b> {badge}'
        self.promote_button.layout.display = "none" if main else ""
        self.promote_button.disabled = playing

    def hold(self, playing: bool) -> None:
        """Every control off while bots are ``playing`` (the next :meth:`show` sets them again)."""
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button, self.promote_button):
            b.disabled = playing
        self.slider.disabled = playing


class Navigation:
    """The record cursor, a part of the coordinator: first, back, forward, last, a ply, a node of the tree, the keys'
    steps, promote, and a node's comment.

    It is given what it works with: its controls (``bar``, wired here), the coordinator's lock, ``here()`` (the node on
    the board), ``move_to(node)`` (put a node on the board; called with the lock held), ``refuse()`` (True, and said,
    while bots play) and the move list's ``reordered()`` and ``annotated()`` (the tree to draw again)."""

    def __init__(self, bar: NavBar, lock: Any, here: Callable[[], Node], move_to: Callable[[Node], None],
                 refuse: Callable[[], bool], reordered: Callable[[], None], annotated: Callable[[], None]) -> None:
        self._bar = bar
        self._lock = lock
        self._here = here
        self._move_to = move_to
        self._refuse = refuse
        self._reordered = reordered
        self._annotated = annotated
        bar.first_button.on_click(lambda _b: self.first())
        bar.back_button.on_click(lambda _b: self.back())
        bar.forward_button.on_click(lambda _b: self.forward())
        bar.last_button.on_click(lambda _b: self.last())
        bar.promote_button.on_click(lambda _b: self.promote())
        bar.slider.observe(self._on_slider, "value")

    def line(self) -> list[Node]:
        """The current line: from the start through the node on the board, on along first children."""
        return line_of(self._here())

    def goto(self, node: Node) -> None:
        """Put ``node`` (a node of this record) on the board."""
        if self._refuse():
            return
        self._here().record.path_to(node)  # ValueError for a node of another record
        with self._lock:
            self._move_to(node)

    def first(self) -> None:
        """To the start position."""
        self.goto(self._here().record.root)

    def back(self) -> None:
        """One move back."""
        node = self._here()
        if node.parent is not None:
            self.goto(node.parent)

    def forward(self) -> None:
        """One move on along the line (the first child)."""
        node = self._here()
        if node.children:
            self.goto(node.children[0])

    def last(self) -> None:
        """To the end of the current line."""
        self.goto(self.line()[-1])

    def goto_ply(self, ply: int) -> None:
        """To ply ``ply`` of the current line (what the slider does)."""
        line = self.line()
        self.goto(line[max(0, min(ply, len(line) - 1))])

    def promote(self) -> None:
        """Make the line through the current node the main line."""
        if self._refuse():
            return
        with self._lock:
            node = self._here()
            node.record.promote_to_main(node)
            self._reordered()
            self._move_to(node)

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._bar.syncing and change["new"] != self._here().ply:
            self.goto_ply(change["new"])

    def step(self, to: str) -> None:
        """Step along the current line as the keys do: "first" (Home), "prev" (←), "next" (→), "last" (End)."""
        moves = {"first": self.first, "prev": self.back, "next": self.forward, "last": self.last}
        if to not in moves:
            raise ValueError(f"to: must be one of {', '.join(STEPS)}, not {to!r}")
        moves[to]()

    def set_comment(self, comment: str | None, node: Node | None = None) -> Node:
        """Set the comment of ``node`` (default: the node on the board); "" or None removes it. Raises
        :class:`~.movelist.MoveListError` (a ValueError naming the field 'comment') for what is not short plain text."""
        cleaned = clean_comment(comment)
        with self._lock:
            here = self._here()
            node = here if node is None else node
            here.record.path_to(node)  # ValueError for a node of another record
            node.comment = cleaned
            self._annotated()  # its glyph, and the box if it is the node on the board
        return node

    def show(self, node: Node, playing: bool, lang: str) -> None:
        """The cursor's controls at ``node`` (off while bots are ``playing``)."""
        self._bar.show(node, len(line_of(node)) - 1, playing, lang)


class Explanation:
    """The bot's reasons for the move on the board, a plain helper of the coordinator: its widget (``widget``, the
    app's ``explanation``) and the reasons kept per node (MCTS's root statistics, Greedy's action values)."""

    def __init__(self) -> None:
        self.widget = w.HTML(layout=fixed_layout(width="100%"), style=fixed_style(HTMLStyle))  # shared, frozen
        self.widget.add_class("ssl-explain")
        self._reasons: dict[Node, tuple[str, pd.DataFrame]] = {}

    def note(self, node: Node, bot: Any, obs: Any) -> None:
        """Keep the bot's reasons for the move into ``node``.

        ``explain`` reuses the search ``choose`` just ran; a search that played its rollout bot's move there
        (``search_share``) gives that bot's reasons, named in ``attrs["bot"]``.
        """
        if bot.name in ("mcts", "greedy") and hasattr(bot, "explain"):
            df = bot.explain(obs)
            self._reasons[node] = (df.attrs.get("bot", bot.name), df)

    def clear(self) -> None:
        """Forget every reason (another record)."""
        self._reasons.clear()

    def show(self, node: Node, lang: str) -> None:
        """The reasons for the move into ``node`` in ``lang``, if a bot made it (else a line saying there are none)."""
        t = TEXTS[lang]
        got = self._reasons.get(node)
        if got is None:
            self.widget.value = f'<div class="ssl-none">{html.escape(t["no_explain"])}</div>'
            return
        kind, df = got
        seat = node.parent.state.seat_name(node.actor, lang) if node.parent is not None else ""
        head = html.escape(text(lang, "why", seat=seat, action=move_phrase(node, lang)))
        before = node.parent.state if node.parent is not None else None
        cols, intro = _explain_columns(kind, df, node.state.game, lang)
        rows = []
        for _, r in df.head(EXPLAIN_ROWS).iterrows():
            cells = []
            for key, _, fmt, _tip in cols:
                v = r[key]
                if key == "action" and before is not None and hasattr(before, "phrase_action"):
                    cells.append(f'<td title="{html.escape(str(v))}">{html.escape(_phrase(before, v, lang))}</td>')
                    continue
                cells.append(f'<td class="{"num" if key != "action" else ""}">'
                             f'{html.escape(fmt.format(v) if pd.notna(v) else "–")}</td>')
            chosen = ' class="ssl-chosen"' if r["action"] == node.action else ""
            rows.append(f"<tr{chosen}>{''.join(cells)}</tr>")
        more = f"<div class='ssl-none'>+{len(df) - EXPLAIN_ROWS}</div>" if len(df) > EXPLAIN_ROWS else ""
        header = "".join(f'<th title="{html.escape(tip)}">{html.escape(label)}</th>' for _, label, _, tip in cols)
        self.widget.value = (f'<div class="ssl-why">{head}</div>'
                             f'<div class="ssl-explain-intro">{html.escape(intro)}</div>'
                             f'<table><tr>{header}</tr>{"".join(rows)}</table>{more}')


def _phrase(state: Any, action: Any, lang: str) -> str:
    """A bot's candidate move in ``state`` as a phrase (its notation if the game has none for it)."""
    try:
        return str(state.phrase_action(action, lang))
    except (ValueError, KeyError, IndexError, AttributeError):
        return str(action)


def _explain_columns(kind: str, df: pd.DataFrame, game: str, lang: str
                     ) -> tuple[list[tuple[str, str, str, str]], str]:
    """The bot's reasons as columns (key, label with its unit, format, a title saying what the number means) and
    a line saying what the table is: MCTS's visits, mean final points and win share; Greedy's rule-of-thumb
    value, in the unit of the game's heuristic (``value_<game>``: points, Packet Row's dollars)."""
    t = TEXTS[lang]
    action = ("action", t["action"], "{}", t["action_tip"])
    if kind == "mcts":
        n = int(df.attrs.get("iterations", df["visits"].sum() if "visits" in df else 0))
        cols = [action, ("visits", t["visits"], "{:d}", t["visits_tip"].format(n=n)),
                ("mean_score", t["score"], "{:.1f}", t["score_tip"]),
                ("win_share", t["wins"], "{:.0%}", t["wins_tip"])]
        return cols, t["mcts_intro"].format(n=n)
    label = t.get(f"value_{game}", t["value"])
    tip = t.get(f"value_tip_{game}", t["value_tip"])
    return [action, ("value", label, "{:.2f}", tip)], t["greedy_intro"]
