"""The notebook HTML of a state (``_repr_html_``), the frame every game's drawing shares. Plain HTML, no scripts."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

#: How many of the last transition's events the drawing lists.
EVENTS_SHOWN = 6


def state_card(head: str, tables: Sequence[str], events: Sequence[str], after: str = "") -> str:
    """A state drawn for a notebook: the ``head`` line, the ``tables`` (the rows of each, as HTML), ``after`` (HTML
    below them) and the last of ``events`` (plain texts, escaped here) as a list."""
    items = "".join(f"<li>{escape(t)}</li>" for t in events[-EVENTS_SHOWN:])
    styles = ["border-collapse:collapse;margin:4px 0", *["border-collapse:collapse"] * (len(tables) - 1)]
    body = "".join(f'<table style="{style}">{rows}</table>' for style, rows in zip(styles, tables, strict=True))
    return (f'<div style="font-family:sans-serif;font-size:13px">{head}{body}{after}'
            f"<ul style='margin:2px 0;padding-left:1.2em;color:#444'>{items}</ul></div>")
