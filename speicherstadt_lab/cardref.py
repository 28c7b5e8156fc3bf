"""The card reference: every card of a game's catalogue as a table (``sl.card_table``) and as a Markdown page.

``docs/cards-speicherstadt.md`` and ``docs/cards-packet-row.md`` are written by :func:`write_pages` (``speicherstadt-lab
cards --write docs``); a test checks that the committed pages are what the catalogues give, so the pages cannot
drift from the data. Names come from the game's own ``card_name`` (the texts the board and the events use).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pandas as pd

from .engine import new_game
from .engine.protocol import get_game

# Columns every game's table starts with; the rest are the card's own fields that are set on some card.
LEAD = ["id", "name_en", "name_de"]
# Fields that are bookkeeping, not a card's value.
SKIP = {"idx", "en", "de", "assumed"}
# Columns of their own on the Markdown page (where the game has them); the other values go in one column.
GROUPS = ("season", "board", "kind", "expansion")
# One page per game, beside the other docs.
PAGES = {"speicherstadt": "cards-speicherstadt.md", "packet_row": "cards-packet-row.md"}


def _catalog(game: str, catalog: Any = None) -> Any:
    if catalog is not None:
        return catalog
    return get_game(game).impl().default_catalog()


def _empty(value: Any) -> bool:
    return value in (None, 0, False, "", ())


def card_table(game: str = "speicherstadt", catalog: Any = None) -> pd.DataFrame:
    """Every card of ``game``'s catalogue (the default one unless ``catalog`` is given), one row each.

    The columns: id, English and German name, the card's values (a column only where some card sets it) and
    ``assumed``: the values no rulebook prints (empty where every value is printed)."""
    info = get_game(game)
    cat = _catalog(game, catalog)
    state = new_game(game, players=info.max_players, seed=0, catalog=cat)
    cards = list(cat.cards)
    fields = [f.name for f in dataclasses.fields(cards[0]) if f.name not in SKIP]
    used = [f for f in fields if f != "id" and any(not _empty(getattr(c, f)) for c in cards)]
    rows = []
    for c in cards:
        row: dict[str, Any] = {"id": c.id, "name_en": state.card_name(c.id, "en"),
                               "name_de": state.card_name(c.id, "de")}
        for f in used:
            value = getattr(c, f)
            row[f] = ", ".join(map(str, value)) if isinstance(value, tuple) else ("" if value is None else value)
        row["assumed"] = ", ".join(c.assumed)
        rows.append(row)
    return pd.DataFrame(rows, columns=[*LEAD, *used, "assumed"])


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)) or _empty(value):
        return ""
    return str(value).replace("|", "\\|")


def markdown_page(game: str) -> str:
    """The reference page of ``game``'s default catalogue as Markdown: a card a row, its values in one column."""
    info = get_game(game)
    table = card_table(game)
    own = [c for c in GROUPS if c in table.columns]
    rest = [c for c in table.columns if c not in (*LEAD, *own, "assumed")]
    head = ["id", "English", "German", *own, "values", "assumed (no rulebook prints it)"]
    lines = [
        f"# Cards of {info.title}",
        "",
        "Generated from the package's default catalogue by `speicherstadt-lab cards --write docs` (do not edit",
        "by hand; a test checks this page against the catalogue). In a notebook: `sl.card_table(\"" + game + "\")`",
        "gives the same as a table with a column per value. `values` lists what is set on the card (a value not",
        "listed is 0); `assumed` names the values no rulebook prints: the engine's choice, overridable by a",
        "catalogue file (README, \"Card data\").",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for _, row in table.iterrows():
        values = ", ".join(f"{c} {_cell(row[c])}" for c in rest if _cell(row[c]))
        cells = [_cell(row["id"]), _cell(row["name_en"]), _cell(row["name_de"]), *(_cell(row[c]) for c in own),
                 values, _cell(row["assumed"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def write_pages(folder: str | Path) -> list[Path]:
    """Write every game's reference page into ``folder``; the paths written."""
    out = []
    for game, name in PAGES.items():
        path = Path(folder) / name
        path.write_text(markdown_page(game), encoding="utf-8")
        out.append(path)
    return out


__all__ = ["PAGES", "card_table", "markdown_page", "write_pages"]
