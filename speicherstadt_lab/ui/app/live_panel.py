"""Live analysis, as on a chess analysis board: at every step, every seat's win chance and expected points and
the mover's best three actions appear by themselves; at the game's end, the result.

One judgement makes both, on one scale: the mover's actions are compared as the app's review compares them
(``analysis.judge_moves`` with ``method="hybrid"``: every action played out ``LIVE_ROLLOUTS`` times by greedy
players the review's horizon deep, common random numbers, scored by the value model, sampling only what the mover
cannot see), and the seats' table is every seat's outlook after the top action, from the same rollouts. So the
mover's row is the first best move's numbers, never a second opinion beside them (the table used to be the quick
judgement of the position for a spectator, and read 26% beside best moves of 52%). A tenth of a second to half a
second a position. It runs in its own background thread, and a new step cancels the one before (which stops between
two play-outs). A toggle turns it off. Where the full judgement takes long (Packet Row's, ~0.4 s), a first
look from the first ``LIVE_FIRST`` of the very same play-outs is shown meanwhile, with its own (wider) intervals and a
line saying so (``.ssl-live-first``, ``data-first-ply``); the full numbers then replace it and are today's exactly.
Once the game's value model is in use, that first look is computed in the caller's thread (the kernel's, within the
step) before the thread starts; and once the full judgement is shown, the thread works out the first look of every
position one move on (the best moves' first) while the user thinks, so a step there shows its first look at once: the
very numbers it would compute (the same function of the same state). The page's sign that it is done: the
panel's ``.ssl-live`` element carries ``data-ply`` of the node shown.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...analysis import Cancelled, judge_moves
from ...lazyimport import pandas as pd
from ...records import Node
from ...reviewing import REVIEW_ROLLOUTS, review_horizon
from ...value.model import load_model
from ..shared_layout import fixed_layout, fixed_style
from .panel import LatestWork, Panel, Settings
from .texts import TEXTS, load_texts

BEST = 3  # actions shown
#: Rollouts per action of the live comparison: the review's, whose losses were checked against real play-outs
#: (docs/review.md, "The hybrid review"). Ranking by the value model alone after each action, as the panel
#: first did, told the moves apart hardly at all there (correlation 0.06).
LIVE_ROLLOUTS = REVIEW_ROLLOUTS["hybrid"]
#: Play-outs a move of the first look (the first of the ``LIVE_ROLLOUTS``: the same seeds), shown while the full
#: judgement runs, for the games whose full judgement measured over ``FIRST_OVER_MS`` (benchmarks/review_speed.py
#: --live: Packet Row ~0.35-0.45 s of CPU, Die Speicherstadt ~0.2 s). It costs the full judgement ~1/5 more.
LIVE_FIRST = 4
FIRST_GAMES = frozenset({"packet_row"})
FIRST_TEXTS = load_texts("live_panel")


BEST_COLUMNS = ["action", "win_prob", "win_lo", "win_hi", "score_mean"]


def final_result(state: Any) -> pd.DataFrame:
    """A finished game's result per seat: ``score`` (final points), ``won`` (a winner, ties shared) and
    ``win_prob`` (1 / number of winners, else 0); ``attrs["over"]`` is True."""
    winners = set(state.winners())
    df = pd.DataFrame([{"seat": i, "score": float(state.score(i)), "won": i in winners,
                        "win_prob": 1.0 / len(winners) if i in winners else 0.0} for i in range(state.n_players)])
    df = df.set_index("seat")
    df.attrs["over"] = True
    return df


def live_analysis(state: Any, rollouts: int = LIVE_ROLLOUTS, cancel: Callable[[], bool] | None = None
                  ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(every seat's outlook, the mover's best actions) of ``state`` from one judgement (``judge_moves``: the
    review's hybrid comparison, ``rollouts`` per action, the first look's fewer, as the mover sees the position).

    The best actions with the mover's win chance (its Wilson 95% interval over the rollouts) and expected final points
    after each, and every seat's numbers after the top action (``attrs["action"]``), so the mover's row is the
    first best move's. A finished game: its result (:func:`final_result`) and no actions. Raises
    ValueError/FileNotFoundError without a model (before the game's end), ``Cancelled`` once ``cancel()`` is True."""
    if state.is_over:
        return final_result(state), pd.DataFrame(columns=BEST_COLUMNS)
    load_model(state)
    ranked, seats = judge_moves(state, rollouts=rollouts, bot="greedy", method="hybrid",
                                horizon=review_horizon(state), cancel=cancel)
    return seats, ranked[BEST_COLUMNS].head(BEST).reset_index(drop=True)


class LivePanel(Panel):
    """The live analysis panel: its toggle (``toggle``, the app's ``live``), its box (``box``, ``live_box``) and
    the background thread that fills it. Emits ``toggled`` when the toggle changes (the coordinator shows it again)."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._work = LatestWork("speicherstadt-lab-live")
        self._warm: set[str] = set()  # the games judged once here (their modules and value model loaded)
        # the first looks worked out ahead (``_look_ahead``), by the position's full text
        self._ahead: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}
        self.toggle = w.Checkbox(value=True, description=label, indent=False, layout=fixed_layout(width="auto"),
                                 style=fixed_style(CheckboxStyle))
        self.toggle.add_class("ssl-live-toggle")
        self.box = w.HTML(layout=fixed_layout(width="100%"), style=fixed_style(HTMLStyle))
        self.toggle.observe(lambda _c: self.emit("toggled"), "value")

    def show(self, node: Node, settings: Settings) -> None:
        """Analyse ``node`` (after the step that put it there); a newer call cancels this one, and nothing starts
        while bots are moving (the coordinator shows the node they stop at)."""
        with self._lock:
            super().show(node, settings)
            self._work.cancel()
            if not self.toggle.value:
                self.box.value = ""
                return
            if settings.bots_playing:
                return
            cancel = self._work.fresh()
        st = node.state
        first = st.game in FIRST_GAMES and not st.is_over
        if first and settings.threaded and st.game in self._warm:
            # The first look here, before the thread (it shared the GIL there with the step's other work), or found
            # worked out ahead: 24 Packet Row steps against the thread, load 8-9, the kernel sent it 13 ms after the
            # click instead of 78, the page painted it after 91 ms instead of 137 (medians; p95 175 against 519).
            self._first_look(node, settings.lang, cancel)
            first = False
        self._work.run(self.analyse, (node, settings.lang, cancel, first, settings.threaded), settings.threaded)

    def relabel(self, lang: str) -> None:
        """The toggle's text in ``lang`` (the analysis shown is redone in it)."""
        self.toggle.description = TEXTS[lang]["live"]

    def close(self) -> None:
        """Cancel the live analysis and wait for its threads (each ends within its one comparison)."""
        self._work.close()

    def analyse(self, node: Node, lang: str, cancel: threading.Event, first: bool = True, ahead: bool = False) -> None:
        """One analysis (a thread's work): judge ``node`` and show it in ``lang``, unless ``cancel`` was set or the
        panel was shown another node meanwhile (a late finish after a step or a loaded record is not shown).

        ``first``: its first look before, where its game has one; ``ahead``: then work out the first looks one move
        on (:meth:`_look_ahead`). Once ``cancel`` is set, the judgement stops between two play-outs."""
        t = TEXTS[lang]
        st = node.state
        if first and st.game in FIRST_GAMES and not st.is_over:
            self._first_look(node, lang, cancel)
            if cancel.is_set():
                return
        best = None
        try:
            # stopped between play-outs once a step cancels it: a stale judgement (up to ~0.3 s of CPU) slowed
            # the next step's first look, sharing the GIL with it
            win, best = live_analysis(st, cancel=cancel.is_set)
        except Cancelled:
            return
        except (ValueError, FileNotFoundError):
            body = f'<div class="ssl-none">{html.escape(t["live_none"])}</div>'
        else:
            body = live_result_html(st, win, best, lang) if win.attrs.get("over") else live_html(st, win, best, lang)
        with self._lock:  # a judgement finishing after the board moved on (a step, a loaded record) is not shown
            if cancel.is_set() or node is not self.node:
                return
            self.box.value = f'<div class="ssl-live" data-ply="{node.ply}">{body}</div>'
        if ahead and best is not None and st.game in FIRST_GAMES and not st.is_over and st.game in self._warm:
            self._look_ahead(st, [str(a) for a in best["action"]], cancel)

    def _look_ahead(self, st: Any, best: list[str], cancel: threading.Event) -> None:
        """Work out the first look of each position one move on from ``st`` (the moves ``best`` first, then the other
        legal ones) until ``cancel`` is set: a step there finds it (``_first_look``) instead of computing it.

        A few tens of milliseconds of CPU a move while the user thinks (2-7 moves in Packet Row). The numbers are
        those the step would compute: ``live_analysis`` is a function of the state, and the key is its full text."""
        legal = [str(a) for a in st.legal_actions()]
        found: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}
        with self._lock:
            self._ahead = found  # the positions one move on from the previous node are of no use any more
        for action in [a for a in best if a in legal] + [a for a in legal if a not in best]:
            if cancel.is_set():
                return
            after = st.apply(action)
            if after.is_over:
                continue
            try:
                tables = live_analysis(after, LIVE_FIRST, cancel.is_set)
            except Cancelled:
                return
            except (ValueError, FileNotFoundError):
                continue
            with self._lock:
                found[after.to_json()] = tables

    def _first_look(self, node: Node, lang: str, cancel: threading.Event) -> None:
        """Show the first look at ``node`` (``LIVE_FIRST`` play-outs a move, its intervals with it), unless cancelled
        or moved on meanwhile; nothing when it fails (the full judgement then says why)."""
        st = node.state
        with self._lock:
            ahead = self._ahead.get(st.to_json()) if self._ahead else None
        try:
            win, best = ahead or live_analysis(st, LIVE_FIRST)
        except (ValueError, FileNotFoundError):
            return
        self._warm.add(st.game)
        ft = FIRST_TEXTS[lang]
        tip, line = (html.escape(ft[k].format(n=LIVE_FIRST, full=LIVE_ROLLOUTS)) for k in ("first_tip", "first"))
        note = f'<div class="ssl-live-first-note" title="{tip}">{line}</div>'
        body = note + live_html(st, win, best, lang)
        with self._lock:
            if cancel.is_set() or node is not self.node:
                return
            self.box.value = f'<div class="ssl-live ssl-live-first" data-first-ply="{node.ply}">{body}</div>'


def _th(label: str, tip: str) -> str:
    return f'<th title="{html.escape(tip)}">{html.escape(label)}</th>'


def _words(st: Any, action: str, lang: str) -> str:
    """A move in plain words (the game's phrase; the notation where the game has none)."""
    return st.phrase_action(action, lang) if action and callable(getattr(st, "phrase_action", None)) else action


def live_html(st: Any, win: pd.DataFrame, best: pd.DataFrame, lang: str) -> str:
    """The live panel's body: a line saying whose judgement it is, every seat's win chance (%), its 95% interval
    and expected final points after the mover's top action, then the mover's best actions on the same scale.

    Each column head and move has a title saying what its numbers mean."""
    t = TEXTS[lang]
    names = [st.seat_name(i, lang) for i in range(st.n_players)]
    mover = names[st.to_move]
    action = str(win.attrs.get("action", ""))
    n = int(win.attrs.get("rollouts", LIVE_ROLLOUTS))
    rounds = int(win.attrs.get("horizon", 1))
    seats = "".join(
        f'<tr data-seat="{i}"><td>{html.escape(names[i])}</td><td class="ssl-live-win">{row.win_prob:.0%}</td>'
        f"<td>{row.win_lo:.0%}–{row.win_hi:.0%}</td><td>{row.score_mean:.1f}</td></tr>"
        for i, row in win.iterrows())
    tip = t["live_win_tip"].format(seat=mover, action=_words(st, action, lang))
    head = (f"<tr><th></th>{_th(t['live_win'], tip)}"
            f"{_th(t['live_band_head'], t['live_band'].format(n=n))}{_th(t['live_score'], t['live_score_tip'])}</tr>")
    intro = t["live_intro"].format(seat=mover, action=_words(st, action, lang), n=n, rounds=rounds)
    body = (f'<div class="ssl-live-intro" title="{html.escape(t["live_intro_tip"])}">{html.escape(intro)}</div>'
            f"<table class='ssl-live-seats'>{head}{seats}</table>")
    if len(best):
        moves = "".join(
            f'<li title="{html.escape(t["live_move_tip"].format(seat=mover, n=n) + chr(10) + str(r.action))}">'
            f'<b>{html.escape(_words(st, str(r.action), lang))}</b>: '
            f'<span class="ssl-live-win">{r.win_prob:.0%}</span> ({r.win_lo:.0%}–{r.win_hi:.0%}), '
            f"{html.escape(t['live_points'].format(points=f'{r.score_mean:.1f}'))}</li>"
            for r in best.itertuples())
        body += (f"<div>{html.escape(t['live_best'].format(seat=mover))}</div>"
                 f"<ol class='ssl-live-best'>{moves}</ol>")
    return body


def live_result_html(st: Any, result: pd.DataFrame, _best: pd.DataFrame, lang: str) -> str:
    """The live panel at the game's end: who won, and every seat's final points (no win chances: it is decided)."""
    t = TEXTS[lang]
    names = [st.seat_name(i, lang) for i in range(st.n_players)]
    won = [names[i] for i, row in result.iterrows() if row.won]
    top = max(result["score"]) if len(result) else 0.0
    key = "live_over_one" if len(won) == 1 else "live_over_tie"
    line = t[key].format(seats=", ".join(won), points=f"{top:.0f}")
    winner = ' class="ssl-live-winner"'
    rows = "".join(
        f'<tr data-seat="{i}"{winner if row.won else ""}><td>{html.escape(names[i])}</td>'
        f"<td>{row.score:.0f}</td><td>{html.escape(t['live_won'] if row.won else '')}</td></tr>"
        for i, row in result.iterrows())
    head = f"<tr><th></th>{_th(t['live_final'], t['live_final_tip'])}<th></th></tr>"
    return (f'<div class="ssl-live-result">{html.escape(line)}</div>'
            f"<table class='ssl-live-seats ssl-live-final'>{head}{rows}</table>")
