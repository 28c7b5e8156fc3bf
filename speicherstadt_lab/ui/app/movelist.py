"""The move list: the record's moves grouped by round with the seats' colours, the review's glyphs after flagged
moves, chance variations as their own branches, a comment on any node (edited in the app, saved in the record),
and stepping with the keys ← → Home End anywhere on the page (the tree's ``step`` messages, checked here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ...engine.protocol import get_game
from ...records import GameRecord, Node
from ...reviewing import REVIEW_KEY
from .. import charts
from ..clicks import click_kind
from ..model import seat_tokens, show_value
from ..shared_layout import fixed_layout
from .panel import Panel, Settings
from .texts import TEXTS, text
from .widgets import TreeView

#: The review's flags as the glyphs of a move list (the review has no level above "mistake").
GLYPHS = {"inaccuracy": "?!", "mistake": "?"}
COMMENT_MAX = 2000  # characters of one comment
#: Where a ``step`` message moves along the current line: the keys Home, ←, →, End.
STEPS = ("first", "prev", "next", "last")


class MoveListError(ValueError):
    """A comment or a move-list message refused before anything changes; ``text(lang)`` names the field."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The error's message in ``lang``."""
        return text(lang, self.key, **self.params)


def _step_error(key: str, **params: Any) -> MoveListError:
    return MoveListError(f"step_{key}", **params)


def clean_comment(value: Any) -> str | None:
    """A comment as the record keeps it: text (line ends as ``\\n``, no other control characters) of at most
    :data:`COMMENT_MAX` characters, stripped; None for no comment. Else :class:`MoveListError` (field 'comment')."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise MoveListError("comment_type", got=show_value(value))
    got = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(got) > COMMENT_MAX:
        raise MoveListError("comment_long", top=COMMENT_MAX, n=len(got))
    bad = next((c for c in got if (ord(c) < 32 and c not in "\n\t") or c == "\x7f"), None)
    if bad is not None:
        raise MoveListError("comment_char", got=show_value(bad))
    return got or None


def step_of(msg: Any) -> str:
    """Where the tree's ``{"kind": "step", "to": ...}`` goes (one of :data:`STEPS`), or :class:`MoveListError`
    naming the field at fault.

    A step is relative to the node on the board when Python takes it: each key press is
    one message, taken in order, so presses faster than the page redraws add up instead of being lost."""
    click_kind(msg, {"step": ("to",)}, _step_error)
    to = msg["to"]
    if not isinstance(to, str) or to not in STEPS:
        raise _step_error("to", allowed=", ".join(STEPS), got=show_value(to))
    return to


def tree_data(record: GameRecord, ident: Callable[[Node], int], lang: str | None = None) -> dict[str, Any]:
    """The move tree for the view: ``{"root": id, "c": comment?, "line": [item, ...]}``, where each item is

    ``i`` id, ``p`` ply, ``r`` the round the move was made in, ``s`` the seat (None for a chance node), ``a`` the
    action (a chance node's text starts with "~"), and where they apply: ``h`` a round head before the item
    ("round": the round's first move, "more": the round goes on after a variation or starts a variation within
    it), ``k`` "chance", ``f`` and ``g`` the review's flag and glyph, ``c`` the comment, ``v`` the variations
    (lines of items) that replace this move; with ``lang``, ``t`` the move as a phrase in it (card and price,
    :func:`move_phrase`; the notation ``a`` is then the hover text)."""

    def item(node: Node, first: bool) -> dict[str, Any]:
        parent = node.parent
        assert parent is not None
        rnd = parent.state.round
        out: dict[str, Any] = {"i": ident(node), "p": node.ply, "r": rnd, "s": node.actor, "a": node.action}
        if parent.parent is None or parent.parent.state.round != rnd:
            out["h"] = "round"
        elif first:
            out["h"] = "more"
        if node.chance is not None:
            out["k"] = "chance"
        elif lang is not None and node.action:
            out["t"] = move_phrase(node, lang)
        ann = node.annotations.get(REVIEW_KEY)
        flag = ann.get("flag") if isinstance(ann, dict) else None
        if flag in GLYPHS:
            out["f"] = flag
            out["g"] = GLYPHS[flag]
        if node.comment:
            out["c"] = node.comment
        return out

    def line(first: Node) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        node: Node | None = first
        after_variation = True
        while node is not None:
            parent = node.parent
            assert parent is not None
            got = item(node, after_variation)
            after_variation = False
            if parent.children[0] is node and len(parent.children) > 1:
                got["v"] = [line(sib) for sib in parent.children[1:]]
                after_variation = True
            items.append(got)
            node = node.children[0] if node.children else None
        return items

    root = record.root
    out: dict[str, Any] = {"root": ident(root), "line": line(root.children[0]) if root.children else []}
    if root.comment:
        out["c"] = root.comment
    return out


def move_phrase(node: Node, lang: str) -> str:
    """The move into ``node`` as a short phrase in ``lang`` (the game's "phrase" capability, from the position
    before it), else its notation; a chance node's text as it is."""
    parent = node.parent
    action = node.action or ""
    if parent is None or node.chance is not None or not hasattr(parent.state, "phrase_action"):
        return action
    try:
        return str(parent.state.phrase_action(action, lang))
    except (ValueError, KeyError, IndexError, AttributeError):  # a game without phrases for this kind of move
        return action


def tree_seats(state: Any, lang: str) -> list[dict[str, str]]:
    """Per seat the name and colour the tree draws: the game's ``GameInfo.seat_colours`` (as on the charts)."""
    colours = get_game(state.game).seat_colours
    return [{"colour": charts.seat_colour(k, colours), "name": tk["name"]}
            for k, tk in enumerate(seat_tokens(state, lang))]


def tree_labels(lang: str) -> dict[str, str]:
    """The tree's own words in ``lang``."""
    t = TEXTS[lang]
    return {"start": t["start"], "round": t["tree_round"], "chance": t["chance"]}


class MoveListPanel(Panel):
    """The move tree (``tree``) and the comment box (``comment``) of the node shown.

    Emits ``select`` (``node``: a move clicked), ``step`` (``to``: a key pressed), ``comment`` (``node``, ``text``:
    the box edited) and ``refused`` (``message``: a bad browser message, named in the app's language)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        t = TEXTS[lang]
        self.tree = TreeView(labels=tree_labels(lang), layout=fixed_layout())  # shared, frozen layouts
        self.comment = w.Textarea(placeholder=t["comment_hint"], rows=2, continuous_update=False,
                                  layout=fixed_layout(width="100%"))
        self.comment.add_class("ssl-comment")
        self._ids: dict[Node, int] = {}
        self._by_id: list[Node] = []
        self._tree_nodes = -1  # the record's node count when the tree was sent (-1: send it again)
        self._drawn: tuple[Any, str] | None = None  # (the record's root, the language) the seats were named for
        self._comment_node: Node | None = None
        self.tree.on_select(self._on_select)
        self.tree.on_step(self._on_step)
        self.comment.observe(self._on_comment_box, "value")

    def show(self, node: Node, settings: Settings) -> None:
        """The tree of ``node``'s record with ``node`` current (sent again only when it changed), its comment in the
        box; a new record or language renames the seats and the labels."""
        super().show(node, settings)
        lang = settings.lang
        record = node.record
        if self._drawn is None or self._drawn[0] is not record.root or self._drawn[1] != lang:
            if self._drawn is None or self._drawn[0] is not record.root:
                self._ids.clear()
                self._by_id.clear()
            self._drawn = (record.root, lang)
            self.tree.seats = tree_seats(record.initial, lang)
            self.tree.labels = tree_labels(lang)
            self.comment.placeholder = TEXTS[lang]["comment_hint"]
            self._tree_nodes = -1  # the moves' phrases are in the language: the tree is sent again
        count = len(record.nodes())
        if count != self._tree_nodes:
            self.tree.tree = tree_data(record, self.ident, lang)
            self._tree_nodes = count
        self.tree.current = self.ident(node)
        self._comment_node = node
        value = node.comment or ""
        if self.comment.value != value:
            self.comment.value = value

    def invalidate(self) -> None:
        """Send the whole tree with the next :meth:`show` (a comment, a review or the main line changed it)."""
        self._tree_nodes = -1

    def refresh(self) -> None:
        """Send the whole tree again now, at the node last shown."""
        self.invalidate()
        if self.node is not None:
            self.show(self.node, self.settings)

    def ident(self, node: Node) -> int:
        """The tree's id of ``node`` (given on first sight, kept while the record is shown)."""
        got = self._ids.get(node)
        if got is None:
            got = self._ids[node] = len(self._by_id)
            self._by_id.append(node)
        return got

    def node_by_id(self, ident: int) -> Node:
        """The node with tree id ``ident`` (as the tree view sends it)."""
        return self._by_id[ident]

    def _on_select(self, ident: Any) -> None:
        ok = isinstance(ident, int) and not isinstance(ident, bool) and 0 <= ident < len(self._by_id)
        node = self._by_id[ident] if ok else None
        if node is None or self.node is None or node.record is not self.node.record:  # a move no longer there
            self.emit("refused", message=text(self.settings.lang, "tree_id", got=show_value(ident)))
            return
        self.emit("select", node=node)

    def _on_step(self, msg: Any) -> bool:
        """The tree's ``step`` message (a key pressed anywhere on the page): checked (a bad one is refused with a
        message naming the field), then emitted. False if refused."""
        try:
            to = step_of(msg)
        except MoveListError as err:
            self.emit("refused", message=err.text(self.settings.lang))
            return False
        self.emit("step", to=to)
        return True

    def _on_comment_box(self, change: dict[str, Any]) -> None:
        """The box was edited (it sends when it loses the focus): the comment of the node it showed."""
        node = self._comment_node
        if node is None or change["new"] == (node.comment or ""):
            return  # the box shows the comment it was given
        self.emit("comment", node=node, text=change["new"])
