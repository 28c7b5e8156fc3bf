"""The app in German shows no English (a real browser: Voilà and Debian's Chromium at 1280×800): for each game the
lab's panels (board, moves, players and bots, live analysis, the bot's reasons, What if…, the scenario editor, the
rules) and the Tutorial page, with every visible text checked against the English texts of the message catalogue.

An English text counts when its German differs and it is no German text elsewhere ("Start"): a template's fixed
words are looked for, its placeholders match anything short. Proper names the two languages share are not English
(they are the same in both tables), nor are ids (``tutorial-1-demand``, the ``.ssl-id`` beside a card's name)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.support.browser import app_session, voila_server
from tests.support.layout import (
    GAMES,
    open_every_panel,
    set_lang,
    show_tutorial,
)
from tests.support.paths import REPO

DATA = REPO / "speicherstadt_lab" / "data"
# English texts that may stand in the German app: names, not words (none needed so far).
ALLOWED: set[str] = set()
PLACEHOLDER = re.compile(r"\{[^{}]*\}|<[^>]*>")


def pairs(value: Any) -> Iterator[tuple[str, str]]:
    """Every ``{"en": ..., "de": ...}`` pair of texts in a table read from a message, card or lesson file."""
    if isinstance(value, dict):
        if isinstance(value.get("en"), str) and isinstance(value.get("de"), str):
            yield value["en"], value["de"]
        for item in value.values():
            yield from pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from pairs(item)


def catalogue() -> dict[str, re.Pattern[str]]:
    """Each English text whose German differs, as a pattern of its fixed words (placeholders: anything short)."""
    files = [*DATA.glob("messages/*.toml"), *DATA.glob("*.toml")]
    tables = [tomllib.loads(f.read_text(encoding="utf-8")) for f in files]
    tables += [json.loads(f.read_text(encoding="utf-8")) for f in sorted(DATA.glob("lessons/*.json"))]
    german = {de.strip() for table in tables for _en, de in pairs(table)}
    out: dict[str, re.Pattern[str]] = {}
    for table in tables:
        for en, de in pairs(table):
            if en.strip() == de.strip() or en.strip() in german or en in ALLOWED:  # "Start" is German too
                continue
            parts = [p.split() for p in PLACEHOLDER.split(en)]
            parts = [p for p in parts if p]
            if sum(len(re.findall(r"[A-Za-z]", w)) for p in parts for w in p) < 3:
                continue  # punctuation and numbers only: nothing English to find
            body = r"[^\n]{0,60}?".join(r"\s+".join(map(re.escape, p)) for p in parts)
            out[en] = re.compile(r"(?<![\w-])" + body + r"(?![\w-])")  # not a part of an id (tutorial-1-demand)
    return out


def english(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    """The English texts found in ``text``: each with the words it matched."""
    found = []
    for en, pat in patterns.items():
        m = pat.search(text)
        if m:
            around = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " | ")
            found.append(f"{en!r} in {around!r}")
    return found


def test_the_catalogue_finds_english_and_leaves_german_alone() -> None:
    patterns = catalogue()
    assert len(patterns) > 300
    assert english("Rot: Setze einen Arbeiter über eine Karte.", patterns) == []
    assert english("Blue pays 2 coins for the Contract.", patterns)  # a template, its placeholders filled


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        yield s


def visible_text(page: Page) -> str:
    """The app's visible text (what the window shows or scrolls to; collapsed parts and hover texts left out), but
    the ids shown beside names (``.ssl-id``: the notation a user types, the same in both languages)."""
    return page.evaluate("""() => { const s = document.createElement('style');
        s.textContent = '.ssl-id { display: none !important; }'; document.head.appendChild(s);
        const text = document.querySelector('.ssl-app').innerText; s.remove(); return text; }""")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_panel_in_german_shows_no_english_text(session: dict[str, Any], game: str) -> None:
    page: Page = session["page"]
    patterns = catalogue()
    set_lang(page, "de")
    try:
        open_every_panel(page, game, ".ssl-app button:text-is('Botzug')")
        bad = [f"{game}/lab: {x}" for x in english(visible_text(page), patterns)]
        show_tutorial(page, True)
        bad += [f"{game}/tutorial: {x}" for x in english(visible_text(page), patterns)]
        show_tutorial(page, False)
    finally:
        show_tutorial(page, False)
        set_lang(page, "en")
    assert not bad, f"{len(bad)} English texts in the German app:\n" + "\n".join(bad)
    assert not session["errors"], session["errors"]
