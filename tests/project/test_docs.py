"""The documentation stands alone: its links resolve inside the repository, the card pages are the catalogues',
and the package lists its public names for tab completion."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.cardref import PAGES, card_table, markdown_page
from tests.support.paths import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
# a Markdown link's target, and a path in backticks that names a file of the repository's top folders
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"`((?:docs|notebooks|speicherstadt_lab|benchmarks|tests|widgets|binder)/[^`\s*…]+)`")


def _texts() -> list[tuple[Path, str]]:
    out = [(p, p.read_text(encoding="utf-8")) for p in DOCS]
    for nb in NOTEBOOKS:
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        out.append((nb, "\n".join("".join(c["source"]) for c in cells)))
    return out


@pytest.mark.parametrize(("path", "text"), _texts(), ids=lambda v: v.name if isinstance(v, Path) else "")
def test_every_link_resolves_inside_the_repository(path: Path, text: str) -> None:
    assert "../shared" not in text, f"{path.name} points outside the repository (../shared)"
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        file = target.split("#", 1)[0]
        base = path.parent if path.suffix == ".md" else REPO
        if file and not ((base / file).exists() or (REPO / file).exists()):
            broken.append(target)
    for target in PATH.findall(text):
        target = target.split("::", 1)[0].rstrip(".,:;)")  # a test's id names its file first
        if "<" not in target and not (REPO / target).exists():  # <n> marks a pattern, not a file
            broken.append(target)
    assert not broken, f"{path.name}: links that lead nowhere: {broken}"


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_card_pages_are_the_catalogues(game: str) -> None:
    page = (REPO / "docs" / PAGES[game]).read_text(encoding="utf-8")
    assert page == markdown_page(game), f"docs/{PAGES[game]} is stale: run `speicherstadt-lab cards --write docs`"


def test_the_card_table_names_every_card_in_both_languages() -> None:
    table = card_table("packet_row")
    assert len(table) == len(sl.new_game("packet_row", players=3, seed=1).catalog.cards)
    assert table["name_en"].str.len().min() > 0 and table["name_de"].str.len().min() > 0
    base = card_table("speicherstadt")
    assert {"id", "name_en", "name_de", "season", "assumed"} <= set(base.columns)
    assert (base["assumed"] != "").any()  # the catalogue marks values no rulebook prints


def test_dir_lists_the_lazy_public_names() -> None:
    names = dir(sl)
    for name in ("GameRecord", "evaluate", "review", "simulate", "card_table", "make_bot"):
        assert name in names
    assert set(sl.__all__) <= set(names)
