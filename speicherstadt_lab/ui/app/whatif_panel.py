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
from typing import Any, NamedTuple

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ...analysis import quick_evaluate
from ...lazyimport import pandas as pd
from ...records import Node
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel, Settings
from .texts import load_texts

WTEXTS: dict[str, dict[str, str]] = load_texts("whatif")
# A fire's mark in the list of cards to come: the board's flame (widgets/board.js), drawn, so no emoji font is needed.
FLAME = ('<svg class="ssl-flame" viewBox="0 0 24 24" width="12" height="12" aria-hidden="true" fill="#e0662a" '
         'stroke="#8d2a10" stroke-width="1.6" style="vertical-align: -1px"><path d="M12 2c3 5 7 8 7 13a7 7 0 0 1-14 '
         '0c0-4 3-6 4-9 1 3 2 4 3 4 0-3 0-5 0-8z"/></svg>')


def wtext(lang: str, key: str, **args: Any) -> str:
    """The What-if panel's text ``key`` in ``lang``, filled with ``args``."""
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


def branch_of_chance(node: Node) -> Node | None:
    """The nearest node at or above ``node`` with a chance variation among its children, or None."""
    n: Node | None = node
    while n is not None:
        if any(getattr(c, "chance", None) for c in n.children):
            return n
        n = n.parent
    return None


def compare_table(node: Node) -> pd.DataFrame:
    """One row per line leaving the branch point above ``node`` (as played first, then each chance variation).
    ValueError without a chance variation.

    The columns: the line's first step, each seat's win chance there (``quick_evaluate`` from the line's own hidden
    order) and its final points where the line was played to the end (NaN where not)."""
    branch = branch_of_chance(node)
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


class WhatIfControls(NamedTuple):
    """The What-if panel's controls under its info line, made when it first opens (:attr:`WhatIfPanel.controls`)."""

    inputs: w.VBox
    make: w.Button
    compare: w.Button
    buttons: w.HBox
    msg: w.HTML
    table: w.HTML


class WhatIfPanel(Panel):
    """The "What if…" panel (``box``; its own texts, ``data/messages/whatif.toml``): what is to come, the picks of
    the next items, and the comparison of the lines.

    Emits ``make`` (``parts``: ``rearranged``'s keywords) when its button is pressed, and ``compare`` for its comparison
    button; the coordinator makes the variation."""

    def __init__(self) -> None:
        super().__init__()
        lay, plain = fixed_layout, fixed_style(HTMLStyle)  # shared, frozen: never changed later
        self.info = w.HTML(layout=lay(width="100%"), style=plain)
        self.info.add_class("ssl-whatif-info")
        self.tags: dict[str, tuple[w.HTML, w.TagsInput]] = {}  # per hidden sequence: its label and tag input
        self._controls: WhatIfControls | None = None  # made when the panel first opens (or a control is asked for)
        self.box = w.VBox([self.info], layout=lay(width="100%"))
        self.box.add_class("ssl-whatif")
        self._title = w.HTML(layout=lay(), style=plain)
        self._title.add_class("ssl-panel-title")
        self.panel = w.VBox([self._title, self.box], layout=lay(width="100%"))
        self.panel.add_class("ssl-panel")

    @property
    def controls(self) -> WhatIfControls:
        """The panel's controls under its info line (the picks, the buttons, the message and the comparison), made on
        first use: a closed panel is its title and one line."""
        if self._controls is None:
            lay = w.Layout
            c = self._controls = WhatIfControls(
                inputs=w.VBox(layout=lay(width="100%")),
                make=w.Button(button_style="warning", layout=lay(width="auto")),
                compare=w.Button(layout=lay(width="auto")), buttons=w.HBox(layout=lay(flex_flow="row wrap")),
                msg=w.HTML(layout=lay(width="100%")), table=w.HTML(layout=lay(width="100%")))
            c.make.add_class("ssl-whatif-make")
            c.compare.add_class("ssl-whatif-compare-btn")
            c.msg.add_class("ssl-whatif-msg")
            c.make.on_click(lambda _b: self.emit("make", parts=rearrange_args(self.picks())))
            c.compare.on_click(lambda _b: self.emit("compare"))
            c.buttons.children = (c.make, c.compare)
            if self.node is not None:
                self._follow(self.node, self.settings, c)
            self.box.children = (self.info, c.inputs, c.buttons, c.msg, c.table)
        return self._controls

    @property
    def inputs(self) -> w.VBox:
        """The picks: per hidden sequence its label and tag input."""
        return self.controls.inputs

    @property
    def make(self) -> w.Button:
        """The button making the chance variation of the picks."""
        return self.controls.make

    @property
    def compare(self) -> w.Button:
        """The button comparing the lines that leave the branch point."""
        return self.controls.compare

    @property
    def buttons(self) -> w.HBox:
        """The row of the two buttons (hidden while the panel is closed)."""
        return self.controls.buttons

    @property
    def msg(self) -> w.HTML:
        """The line under the buttons (what was made, or why not)."""
        return self.controls.msg

    @property
    def table(self) -> w.HTML:
        """The comparison of the lines."""
        return self.controls.table

    def show(self, node: Node, settings: Settings) -> None:
        """Bring the panel to ``node`` (with every step, language switch and change of a seat's player): closed
        unless ``settings.hidden_open`` (its controls are made when it first opens)."""
        super().show(node, settings)
        self._title.value = html.escape(wtext(settings.lang, "title"))
        usable = settings.hidden_open and bool(sequence_parts(node.state)) and not node.state.is_over
        for cls in ("ssl-whatif-on", "ssl-whatif-off"):
            self.box.remove_class(cls)
        self.box.add_class("ssl-whatif-on" if usable else "ssl-whatif-off")
        if settings.hidden_open or self._controls is not None:
            self._follow(node, settings, self.controls)
        else:
            self.info.value = f'<div class="ssl-none">{html.escape(wtext(settings.lang, "closed"))}</div>'

    def _follow(self, node: Node, settings: Settings, controls: WhatIfControls) -> None:
        """The info line and the controls at ``node`` with ``settings``."""
        lang = settings.lang
        controls.make.description = wtext(lang, "make")
        controls.compare.description = wtext(lang, "compare")
        state = node.state
        parts = sequence_parts(state)
        opened = settings.hidden_open
        usable = opened and bool(parts) and not state.is_over
        controls.make.disabled = not usable
        controls.compare.disabled = not opened
        controls.buttons.layout.display = None if opened else "none"  # closed: only the line saying why
        if not opened:
            note = "closed"
        elif not parts:
            note = "none"
        elif state.is_over:
            note = "over"
        else:
            note = ""
        if note:
            self.info.value = f'<div class="ssl-none">{html.escape(wtext(lang, note))}</div>'
            controls.inputs.children = ()
            return
        self.info.value = self._to_come_html(state, parts, lang)
        rows: list[w.Widget] = []
        for field, items in parts.items():
            label, tags = self.tags.get(field) or self._new_tags(field)
            label.value = html.escape(wtext(lang, "next_label", part=self._part_name(field, lang, state)))
            tags.placeholder = wtext(lang, "placeholder")
            allowed = sorted(set(items))
            if list(tags.allowed_tags) != allowed:
                tags.value = [x for x in tags.value if x in allowed]
                tags.allowed_tags = allowed
            rows.append(w.VBox([label, tags], layout=w.Layout(width="100%")))
        controls.inputs.children = tuple(rows)

    def _new_tags(self, field: str) -> tuple[w.HTML, w.TagsInput]:
        label = w.HTML()
        tags = w.TagsInput(value=[], allowed_tags=[], allow_duplicates=True, layout=w.Layout(width="100%"))
        tags.add_class("ssl-whatif-tags")
        tags.add_class("ssl-whatif-" + field.replace(".", "-").replace("_", "-"))
        self.tags[field] = (label, tags)
        return label, tags

    @staticmethod
    def _part_name(field: str, lang: str, state: Any = None) -> str:
        """A hidden sequence's name in ``lang``: a deck by the name its game gives it (``deck_name``), else its id."""
        key, _, sub = field.partition(".")
        if sub:
            namer = getattr(state, "deck_name", None)
            return wtext(lang, "part_decks", deck=namer(sub, lang) if namer is not None else sub)
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
            # goods and cards by name, the id (what the picks take) small beside it
            namer = "good_name" if field == "bag" else "card_name" if field.startswith("decks.") else ""
            name = getattr(state, namer, None) if namer else None
            shown = ", ".join(f'{html.escape(name(x, lang))} <small class="ssl-id">{html.escape(x)}</small>' if name
                              else html.escape(x) for x in items[:12]) + (" …" if len(items) > 12 else "")
            part = html.escape(self._part_name(field, lang, state))
            blocks.append(f"<div><b>{part}</b> ({len(items)}): {shown}</div>")
        return (f'<div class="ssl-whatif-tocome"><div>{html.escape(wtext(lang, "to_come"))}</div>'
                f"{''.join(blocks)}</div>")

    def picks(self) -> dict[str, list[str]]:
        """The next items picked per hidden sequence of the node last shown."""
        parts = sequence_parts(self.node.state) if self.node is not None else {}
        return {field: list(tags.value) for field, (_label, tags) in self.tags.items() if field in parts}

    def clear_picks(self) -> None:
        """Empty every tag input (a variation was made from them)."""
        for _label, tags in self.tags.values():
            tags.value = []

    def say(self, message: str, error: bool = False, ok: bool = False) -> None:
        """A line under the buttons (``error``: red, ``ok``: green)."""
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.msg.value = f'<span class="{cls}">{html.escape(message)}</span>'

    def show_comparison(self, node: Node) -> pd.DataFrame | None:
        """Show the comparison table of the lines leaving the branch point above ``node`` (:func:`compare_table`);
        None (and the reason said) when there is nothing to compare."""
        lang = self.settings.lang
        try:
            df = compare_table(node)
        except ValueError:
            self.say(wtext(lang, "compare_none"), error=True)
            self.table.value = ""
            return None
        st = node.state
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
        self.table.value = (
            f'<table class="ssl-whatif-table" data-lines="{len(df)}"><tr><th>{html.escape(wtext(lang, "line"))}</th>'
            f'<th colspan="{st.n_players}" class="ssl-whatif-win" title="{html.escape(wtext(lang, "win_now_tip"))}">'
            f'{html.escape(wtext(lang, "win_now"))}</th>'
            f'<th colspan="{st.n_players}" class="ssl-whatif-final" title="{html.escape(wtext(lang, "final_tip"))}">'
            f'{html.escape(wtext(lang, "final"))}</th></tr>'
            f"<tr><th></th>{head}{head}</tr>{''.join(body)}</table>")
        self.say("")
        return df


def _win_cell(row: pd.Series, seat: int, lang: str) -> str:
    """A seat's win chance at a line's start (%), its 95% interval in the title; "–" where none was measured."""
    win = row[f"win_{seat}"]
    if win != win:  # NaN: no value model, or the line starts at the game's end
        return "<td>–</td>"
    tip = wtext(lang, "win_cell", lo=f"{row[f'win_lo_{seat}']:.0%}", hi=f"{row[f'win_hi_{seat}']:.0%}")
    return f'<td title="{html.escape(tip)}">{win:.0%}</td>'
