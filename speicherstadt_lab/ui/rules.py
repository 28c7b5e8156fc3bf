"""The rules in context: the sections of the rules of the game on the board (its variant's, so Kaispeicher's only
when the expansion is on), the one for the current phase first, and each card kind's rule text for the board's
hover texts. The texts are data (``data/messages/rules_panel.toml``, English and German)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from ..engine.i18n import LANGS
from ..engine.protocol import get_game


@cache
def rules_data() -> dict[str, Any]:
    """The rules panel's texts (``data/messages/rules_panel.toml``), read once."""
    path = resources.files("speicherstadt_lab") / "data" / "messages" / "rules_panel.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def variant_keys(state: Any) -> list[str]:
    """The keys of the variants of ``state``'s game whose options the position has (the plain game's first, an
    expansion's after it): the rules groups that apply."""
    info = get_game(state.game)
    fits = [v for v in info.choices() if all(getattr(state, k, None) == x for k, x in v.options.items())]
    return [v.key for v in sorted(fits, key=lambda v: len(v.options))]


def variant_title(state: Any) -> str:
    """The title of the variant the position is of ("Die Speicherstadt + Kaispeicher", "Packet Row")."""
    info = get_game(state.game)
    fits = [v for v in info.choices() if all(getattr(state, k, None) == x for k, x in v.options.items())]
    return max(fits, key=lambda v: len(v.options)).title if fits else info.title


def rule_sections(state: Any, lang: str = "en") -> list[dict[str, Any]]:
    """The rules of the game on the board in ``lang``: per section ``key``, ``title``, ``text`` and ``now`` (it
    explains the current phase); the sections for the current phase first, then the rest in the rulebook's order."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    groups = rules_data().get("section", {})
    phase = getattr(state, "phase", None)
    out = [{"key": s["key"], "title": s[f"title_{lang}"], "text": s[lang], "now": phase in s.get("phases", ())}
           for key in variant_keys(state) for s in groups.get(key, ())]
    return [s for s in out if s["now"]] + [s for s in out if not s["now"]]


@cache
def _kind_rules(groups: tuple[str, ...], lang: str) -> dict[str, str]:
    data = rules_data()
    label = data["rule"][lang]
    out: dict[str, str] = {}
    for key in groups:
        for s in data.get("section", {}).get(key, ()):
            for kind in s.get("kinds", ()):
                out.setdefault(kind, f"{label} – {s[f'title_{lang}']}\n{s[lang]}")
    return out


def card_rule(state: Any, kind: str, lang: str = "en") -> str:
    """The rule text for a card of ``kind`` in the game on the board ("Rule – Loading: …"), "" if none names it."""
    return _kind_rules(tuple(variant_keys(state)), lang).get(kind, "")


__all__ = ["card_rule", "rule_sections", "rules_data", "variant_keys", "variant_title"]
