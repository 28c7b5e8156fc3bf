"""The "What if…" panel: chance variations at the node on the board.

It shows what is still to come (the pile by season with its fires, the goods in the bag; Packet Row: its
decks), lets the user pick the next cards and goods (tag inputs: type or pick, drag to reorder) and makes a
chance child of the node (``Node.rearrange``) that keeps every public fact; the board goes there, and the
charts overlay the new line like any variation. "Compare" puts the lines that leave the branch point side
by side: each line's win chances at its start (``quick_evaluate`` on the line's own order) and its final
points where it was played to the end.

The hidden order is shown only in analysis: when the record's main line has ended (a finished game) or no
seat is played by a human. In play the panel says why it is closed.
"""

from __future__ import annotations

import html
import inspect
from typing import Any

import ipywidgets as w
import pandas as pd

from ...analysis import quick_evaluate
from ...engine.errors import RearrangeError
from ...records import Node
from .texts import load_texts

WTEXTS: dict[str, dict[str, str]] = load_texts("whatif")
# A fire's mark in the list of cards to come: the board's flame (widgets/board.js), drawn, so no emoji font is needed.
FLAME = ('<svg class="ssl-flame" viewBox="0 0 24 24" width="12" height="12" aria-hidden="true" fill="#e0662a" '
         'stroke="#8d2a10" stroke-width="1.6" style="vertical-align: -1px"><path d="M12 2c3 5 7 8 7 13a7 7 0 0 1-14 '
         '0c0-4 3-6 4-9 1 3 2 4 3 4 0-3 0-5 0-8z"/></svg>')


def wtext(lang: str, key: str, **args: Any) -> str:
    return WTEXTS[lang][key].format(**args)


def sequence_parts(state: Any) -> dict[str, list[str]]:
    """The hidden sequences of ``state`` that ``rearranged`` takes, as ``{field: [item, ...]}`` in their current
    order: ``pile``/``bag`` (Die Speicherstadt), ``decks.NAME`` (Packet Row). Empty for a game without them."""
    if not callable(getattr(state, "hidden_parts", None)) or not callable(getattr(state, "rearranged", None)):
        return {}
    takes = set(inspect.signature(state.rearranged).parameters)
    out: dict[str, list[str]] = {}
    for key, value in state.hidden_parts().items():
        if key not in takes:
            continue
        if isinstance(value, list):
            out[key] = [str(x[0]) if isinstance(x, list) else str(x) for x in value]
        elif isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
            for name, items in value.items():
                out[f"{key}.{name}"] = [str(x[0]) if isinstance(x, list) else str(x) for x in items]
    return out


def rearrange_args(picks: dict[str, list[str]]) -> dict[str, Any]:
    """``rearranged``'s keyword arguments from the picked next items per field (empty picks left out)."""
    args: dict[str, Any] = {}
    for field, items in picks.items():
        if not items:
            continue
        key, _, sub = field.partition(".")
        if sub:
            args.setdefault(key, {})[sub] = list(items)
        else:
            args[key] = list(items)
    return args


class WhatIfPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): chance variations and their comparison."""

    def _build_whatif(self) -> w.VBox:
        """The panel's widgets (made once; the tag inputs are made per field as positions need them)."""
        lay = w.Layout
        self.whatif_info = w.HTML(layout=lay(width="100%"))
        self.whatif_info.add_class("ssl-whatif-info")
        self.whatif_inputs = w.VBox(layout=lay(width="100%"))
        self._whatif_tags: dict[str, tuple[w.HTML, w.TagsInput]] = {}
        self.whatif_make = w.Button(button_style="warning", layout=lay(width="auto"))
        self.whatif_make.add_class("ssl-whatif-make")
        self.whatif_compare = w.Button(layout=lay(width="auto"))
        self.whatif_compare.add_class("ssl-whatif-compare-btn")
        self.whatif_msg = w.HTML(layout=lay(width="100%"))
        self.whatif_msg.add_class("ssl-whatif-msg")
        self.whatif_table = w.HTML(layout=lay(width="100%"))
        self.whatif_make.on_click(lambda _b: self._on_whatif_make())
        self.whatif_compare.on_click(lambda _b: self.compare_lines())
        self._whatif_buttons = w.HBox([self.whatif_make, self.whatif_compare], layout=lay(flex_flow="row wrap"))
        box = w.VBox([self.whatif_info, self.whatif_inputs, self._whatif_buttons, self.whatif_msg, self.whatif_table],
                     layout=lay(width="100%"))
        box.add_class("ssl-whatif")
        self.whatif_box = box
        return box

    # ---- when it is open ------------------------------------------------------------------------------

    def whatif_open(self) -> bool:
        """Whether the hidden order may be shown: a finished game is analysed, or bots play every seat.

        Not while a person plays: the panel lists what is to come in its true order, a chance variation keeps
        the true order of everything not picked (played on, it shows the next cards), and the comparison rolls
        out on each line's own order; each would give the hidden order away. Closed, the panel says so in one
        line."""
        if self.record.end().state.is_over:
            return True
        return all(self.seat_spec(i) != "human" for i in range(self.record.initial.n_players))

    def _show_whatif(self) -> None:
        """Bring the panel to the node on the board (called with every step and language switch)."""
        if not hasattr(self, "whatif_box"):
            return
        lang = self.lang_code
        if hasattr(self, "_whatif_title"):
            self._whatif_title.value = html.escape(wtext(lang, "title"))
        self.whatif_make.description = wtext(lang, "make")
        self.whatif_compare.description = wtext(lang, "compare")
        state = self.node.state
        parts = sequence_parts(state)
        opened = self.whatif_open()
        usable = opened and bool(parts) and not state.is_over
        for cls in ("ssl-whatif-on", "ssl-whatif-off"):
            self.whatif_box.remove_class(cls)
        self.whatif_box.add_class("ssl-whatif-on" if usable else "ssl-whatif-off")
        self.whatif_make.disabled = not usable
        self.whatif_compare.disabled = not opened
        self._whatif_buttons.layout.display = None if opened else "none"  # closed: only the line saying why
        if not opened:
            note = "closed"
        elif not parts:
            note = "none"
        elif state.is_over:
            note = "over"
        else:
            note = ""
        if note:
            self.whatif_info.value = f'<div class="ssl-none">{html.escape(wtext(lang, note))}</div>'
            self.whatif_inputs.children = ()
            return
        self.whatif_info.value = self._to_come_html(state, parts, lang)
        rows: list[w.Widget] = []
        for field, items in parts.items():
            label, tags = self._whatif_tags.get(field) or self._new_tags(field)
            label.value = html.escape(wtext(lang, "next_label", part=self._part_name(field, lang)))
            tags.placeholder = wtext(lang, "placeholder")
            allowed = sorted(set(items))
            if list(tags.allowed_tags) != allowed:
                tags.value = [x for x in tags.value if x in allowed]
                tags.allowed_tags = allowed
            rows.append(w.VBox([label, tags], layout=w.Layout(width="100%")))
        self.whatif_inputs.children = tuple(rows)

    def _new_tags(self, field: str) -> tuple[w.HTML, w.TagsInput]:
        label = w.HTML()
        tags = w.TagsInput(value=[], allowed_tags=[], allow_duplicates=True, layout=w.Layout(width="100%"))
        tags.add_class("ssl-whatif-tags")
        tags.add_class("ssl-whatif-" + field.replace(".", "-").replace("_", "-"))
        self._whatif_tags[field] = (label, tags)
        return label, tags

    @staticmethod
    def _part_name(field: str, lang: str) -> str:
        key, _, sub = field.partition(".")
        if sub:
            return wtext(lang, "part_decks", deck=sub)
        return wtext(lang, f"part_{key}") if f"part_{key}" in WTEXTS[lang] else key

    def _to_come_html(self, state: Any, parts: dict[str, list[str]], lang: str) -> str:
        """What is still to come, in order: Die Speicherstadt's pile by season with the fires marked."""
        hidden = state.hidden_parts()
        blocks: list[str] = []
        pile = hidden.get("pile")
        if isinstance(pile, list) and pile and isinstance(pile[0], list):
            cards = state.cat.by_id
            seasons: dict[str, list[str]] = {}
            for cid, season in pile:
                card = cards.get(cid)
                name = (f"{html.escape(getattr(card, lang, cid) if card is not None else cid)} "
                        f'<small class="ssl-id">{html.escape(cid)}</small>')
                fire = card is not None and card.kind == "fire"
                mark = f'<span class="ssl-whatif-fire" title="{html.escape(wtext(lang, "fire"))}">'
                item = f"{mark}{FLAME} {name}</span>" if fire else name
                seasons.setdefault(str(season), []).append(f'<span data-card="{html.escape(cid)}">{item}</span>')
            blocks += [f"<div><b>{html.escape(se)}</b>: {', '.join(items)}</div>" for se, items in seasons.items()]
        for field, items in parts.items():
            if field == "pile":
                continue
            shown = ", ".join(html.escape(x) for x in items[:12]) + (" …" if len(items) > 12 else "")
            blocks.append(f"<div><b>{html.escape(self._part_name(field, lang))}</b> ({len(items)}): {shown}</div>")
        return (f'<div class="ssl-whatif-tocome"><div>{html.escape(wtext(lang, "to_come"))}</div>'
                f"{''.join(blocks)}</div>")

    # ---- making a chance variation ----------------------------------------------------------------------

    def _picks(self) -> dict[str, list[str]]:
        return {field: list(tags.value) for field, (_label, tags) in self._whatif_tags.items()
                if field in sequence_parts(self.node.state)}

    def _on_whatif_make(self) -> None:
        self.make_chance_variation(**rearrange_args(self._picks()))

    def make_chance_variation(self, **parts: Any) -> Node | None:
        """A chance child of the node on the board with ``parts`` (``rearranged``'s keywords) and the board
        on it; a refused rearrangement changes nothing and says why, naming the field. None if refused. If a bot
        is to move there and bots move by themselves, they play on."""
        lang = self.lang_code
        if self._refuse_if_playing():
            return None
        if not self.whatif_open():
            self._whatif_say(wtext(lang, "closed"), error=True)
            return None
        if not parts:
            self._whatif_say(wtext(lang, "nothing"), error=True)
            return None
        with self._lock:
            try:
                child = self.node.rearrange(**parts)
            except RearrangeError as e:
                self._whatif_say(wtext(lang, "refused", field=e.field, detail=e.detail), error=True)
                return None
            except (TypeError, ValueError) as e:
                self._whatif_say(wtext(lang, "refused", field="parts", detail=str(e)), error=True)
                return None
            for _label, tags in self._whatif_tags.values():
                tags.value = []
            self._move_to(child)
        self._whatif_say(wtext(lang, "made", text=child.action or ""), ok=True)
        self._maybe_autoplay()  # the new line goes on like any other: bots to move play on by themselves
        return child

    def _whatif_say(self, message: str, error: bool = False, ok: bool = False) -> None:
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.whatif_msg.value = f'<span class="{cls}">{html.escape(message)}</span>'

    # ---- comparing ----------------------------------------------------------------------------------------

    def branch_of_chance(self, node: Node | None = None) -> Node | None:
        """The nearest node at or above ``node`` (default: the board's) with a chance variation among its
        children, or None."""
        n: Node | None = node or self.node
        while n is not None:
            if any(getattr(c, "chance", None) for c in n.children):
                return n
            n = n.parent
        return None

    def compare_table(self, node: Node | None = None) -> pd.DataFrame:
        """One row per line leaving the branch point (as played first, then each chance variation): the
        line's first step, each seat's win chance there (``quick_evaluate`` from the line's own hidden order)
        and its final points where the line was played to the end (NaN where not)."""
        branch = self.branch_of_chance(node)
        if branch is None:
            raise ValueError("no chance variation at or before this position")
        rows = []
        for child in branch.children:
            st = child.state
            end = child
            while end.children:
                end = end.children[0]
            try:
                # oracle: the rollouts follow the line's own (rearranged) order, which is the question asked
                ev = quick_evaluate(st, mode="oracle") if not st.is_over else None
            except (ValueError, FileNotFoundError):
                ev = None
            win = None if ev is None else ev["win_prob"].tolist()
            final = end.state
            row: dict[str, Any] = {"line": child.action, "chance": bool(getattr(child, "chance", None)),
                                   "node": child, "over": final.is_over}
            for i in range(st.n_players):
                row[f"win_{i}"] = float("nan") if win is None else win[i]
                row[f"win_lo_{i}"] = float("nan") if ev is None else float(ev["win_lo"].iloc[i])
                row[f"win_hi_{i}"] = float("nan") if ev is None else float(ev["win_hi"].iloc[i])
                row[f"final_{i}"] = float(final.score(i)) if final.is_over else float("nan")
            rows.append(row)
        return pd.DataFrame(rows)

    def compare_lines(self) -> pd.DataFrame | None:
        """Show the comparison table (one click); None when there is nothing to compare."""
        lang = self.lang_code
        try:
            df = self.compare_table()
        except ValueError:
            self._whatif_say(wtext(lang, "compare_none"), error=True)
            self.whatif_table.value = ""
            return None
        st = self.node.state
        names = [html.escape(st.seat_name(i, lang)) for i in range(st.n_players)]
        head = "".join(f"<th>{n}</th>" for n in names)
        body = []
        for k, row in df.iterrows():
            label = html.escape(str(row["line"])) if row["chance"] else html.escape(wtext(lang, "main"))
            wins = "".join(_win_cell(row, i, lang) for i in range(st.n_players))
            if row["over"]:
                finals = "".join(f"<td>{row[f'final_{i}']:.0f}</td>" for i in range(st.n_players))
            else:
                finals = f'<td colspan="{st.n_players}">{html.escape(wtext(lang, "open"))}</td>'
            body.append(f'<tr class="ssl-whatif-row" data-line="{k}"><td>{label}</td>{wins}{finals}</tr>')
        self.whatif_table.value = (
            f'<table class="ssl-whatif-table" data-lines="{len(df)}"><tr><th>{html.escape(wtext(lang, "line"))}</th>'
            f'<th colspan="{st.n_players}" class="ssl-whatif-win" title="{html.escape(wtext(lang, "win_now_tip"))}">'
            f'{html.escape(wtext(lang, "win_now"))}</th>'
            f'<th colspan="{st.n_players}" class="ssl-whatif-final" title="{html.escape(wtext(lang, "final_tip"))}">'
            f'{html.escape(wtext(lang, "final"))}</th></tr>'
            f"<tr><th></th>{head}{head}</tr>{''.join(body)}</table>")
        self._whatif_say("")
        return df


def _win_cell(row: pd.Series, seat: int, lang: str) -> str:
    """A seat's win chance at a line's start (%), its 95% interval in the title; "–" where none was measured."""
    win = row[f"win_{seat}"]
    if win != win:  # NaN: no value model, or the line starts at the game's end
        return "<td>–</td>"
    tip = wtext(lang, "win_cell", lo=f"{row[f'win_lo_{seat}']:.0%}", hi=f"{row[f'win_hi_{seat}']:.0%}")
    return f'<td title="{html.escape(tip)}">{win:.0%}</td>'
