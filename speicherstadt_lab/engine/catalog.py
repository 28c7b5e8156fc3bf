"""Card catalogues, the part every game shares: the default data file, a user's catalogue laid over it, and the
checks of a card entry.

A game ships one catalogue (``data/<game>.toml``) and validates it with its own ``build(raw, is_default=...)``.
A user catalogue (TOML or JSON, or data from a saved state) replaces the default entirely, or starts with
``base = "default"`` and overrides single cards by id, adds cards, removes cards with ``remove = [...]``, and
changes set-up values and named entries (goods, boards, ...) by id: :func:`merge_catalog`. Every problem raises
:class:`CatalogError` naming the card (or section) and the field.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Generic, TypeVar

from .datafiles import is_key, read_catalog_file
from .errors import CatalogError

C = TypeVar("C")
CardT = TypeVar("CardT")

#: The value types a catalogue field may have (:func:`check_value`), each with what an error says it must be.
#: ``good``, ``goods`` and ``dest`` are checked against the ids the caller passes as ``keys``.
VALUE_TYPES = {
    "int": "a whole number ≥ 0",
    "pos": "a whole number ≥ 1",
    "str": "a non-empty text",
    "good": "one of the goods",
    "goods": "a non-empty list of goods",
    "dest": "one of the destinations",
}


def catalog_error(where: str, msg: str) -> CatalogError:
    """The error for a problem at ``where`` (a card, a section, ``setup``): ``catalog <where>: <msg>``."""
    return CatalogError(f"catalog {where}: {msg}")


def check_value(where: str, name: str, value: Any, kind: str, keys: Mapping[str, Collection[str]] | None = None) -> Any:
    """``value`` of field ``name`` checked against the type ``kind`` (one of :data:`VALUE_TYPES`); a list of goods
    comes back as a tuple. ``keys`` holds the ids a ``good``/``goods`` (key ``"good"``) or ``dest`` may name."""
    if kind in ("int", "pos"):
        low = 1 if kind == "pos" else 0
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise catalog_error(where, f"field '{name}' must be a whole number ≥ {low}, not {value!r}")
        return value
    if kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise catalog_error(where, f"field '{name}' must be a non-empty text, not {value!r}")
        return value
    if kind not in VALUE_TYPES:
        raise ValueError(f"kind: unknown value type {kind!r}; types are {', '.join(VALUE_TYPES)}")
    ids = (keys or {}).get("dest" if kind == "dest" else "good", ())
    if kind == "goods":
        if not isinstance(value, list) or not value or any(not is_key(v, ids) for v in value):
            raise catalog_error(where, f"field '{name}' must be a non-empty list of goods from {sorted(ids)}, "
                                       f"not {value!r}")
        return tuple(value)
    if not is_key(value, ids):
        raise catalog_error(where, f"field '{name}' must be {VALUE_TYPES[kind]} {sorted(ids)}, not {value!r}")
    return value


def merge_catalog(base: dict[str, Any], over: dict[str, Any], *, sections: tuple[str, ...],
                  fields: Collection[str] | None = None) -> dict[str, Any]:
    """``over`` (a partial user catalogue) laid over a copy of ``base``.

    ``name`` is replaced, ``setup`` merged by key, the named ``sections`` (lists of tables such as goods) by id,
    ``remove`` drops cards, ``cards`` overrides by id (a kind never changes) or adds. A value the user states is no
    longer ``assumed``. ``fields``: the top-level fields ``over`` may have (None: any)."""
    out = json.loads(json.dumps(base))
    if fields is not None:
        unknown = set(over) - set(fields)
        if unknown:
            raise catalog_error("(top level)", f"unknown field(s) {sorted(unknown)}")
    if "name" in over:
        out["name"] = over["name"]
    if "setup" in over:
        if not isinstance(over["setup"], dict):
            raise catalog_error("setup", "must be a table")
        out.setdefault("setup", {}).update(over["setup"])
    for section in sections:
        if section in over:
            _merge_by_id(out, section, over[section])
    remove = over.get("remove", [])
    if not isinstance(remove, list):
        raise catalog_error("remove", "must be a list of card ids")
    known = {c["id"] for c in out["cards"]}
    for cid in remove:
        if cid not in known:
            raise catalog_error("remove", f"there is no card {cid!r} to remove")
    out["cards"] = [c for c in out["cards"] if c["id"] not in set(remove)]
    index = {c["id"]: i for i, c in enumerate(out["cards"])}
    cards = over.get("cards", [])
    if not isinstance(cards, list):
        raise catalog_error("cards", "must be a list of tables")
    for c in cards:
        if not isinstance(c, dict) or not isinstance(c.get("id"), str):
            raise catalog_error("cards", "every card needs a text 'id'")
        if c["id"] not in index:
            out["cards"].append(c)
            index[c["id"]] = len(out["cards"]) - 1
            continue
        merged = out["cards"][index[c["id"]]]
        if "kind" in c and c["kind"] != merged["kind"]:
            raise catalog_error(f"card {c['id']!r}", f"field 'kind' cannot change from {merged['kind']!r} in an "
                                                     "override")
        merged.update(c)
        if "assumed" not in c:  # a value the user states is no longer assumed
            merged["assumed"] = [f for f in merged.get("assumed", []) if f not in c]
    return out


def _merge_by_id(out: dict[str, Any], section: str, entries: Any) -> None:
    """The tables of ``entries`` merged into ``out[section]``: an entry with a known id updates it, others join."""
    if not isinstance(entries, list):
        raise catalog_error(section, "must be a list of tables")
    ids = {x.get("id"): i for i, x in enumerate(out[section])}
    for x in entries:
        if not isinstance(x, dict) or "id" not in x:
            raise catalog_error(section, "every entry needs an 'id'")
        if x["id"] in ids:
            out[section][ids[x["id"]]].update(x)
        else:
            out[section].append(x)


def card_entries(raw: dict[str, Any], id_ok: Callable[[Any], bool], id_rule: str) -> Iterator[tuple[str, str,
                                                                                                    dict[str, Any]]]:
    """``(where, id, entry)`` of every card table of ``raw["cards"]``, after the checks every catalogue makes.

    The checks: a non-empty list of tables, each with an id that ``id_ok`` accepts (else the error says it must be
    ``id_rule``), no id twice. ``where`` (``card 'ID'``) is what the caller names in its own errors."""
    cards = raw.get("cards")
    if not isinstance(cards, list) or not cards:
        raise catalog_error("cards", "must be a non-empty list of cards")
    seen: set[str] = set()
    for i, c in enumerate(cards):
        if not isinstance(c, dict):
            raise catalog_error(f"cards[{i}]", "must be a table")
        cid = c.get("id")
        if not id_ok(cid):
            raise catalog_error(f"cards[{i}]", f"field 'id' must be {id_rule}, not {cid!r}")
        where = f"card {cid!r}"
        if cid in seen:
            raise catalog_error(where, "the id appears twice")
        seen.add(cid)
        yield where, cid, c


def card_values(where: str, entry: dict[str, Any], kinds: Mapping[str, Mapping[str, str]], common: Collection[str],
                keys: Mapping[str, Collection[str]]) -> tuple[str, dict[str, Any]]:
    """``(kind, {field: value})`` of a card entry: its ``kind`` one of ``kinds`` (kind -> its own fields and their
    types), no field besides those and the ``common`` ones, each of its own fields present and of its type."""
    kind = entry.get("kind")
    if not is_key(kind, kinds):
        raise catalog_error(where, f"field 'kind' must be one of {sorted(kinds)}, not {kind!r}")
    spec = kinds[kind]
    unknown = set(entry) - set(common) - set(spec)
    if unknown:
        raise catalog_error(where, f"unknown field(s) {sorted(unknown)} for a {kind} card")
    values: dict[str, Any] = {}
    for f, t in spec.items():
        if f not in entry:
            raise catalog_error(where, f"field '{f}' is missing")
        values[f] = check_value(where, f, entry[f], t, keys)
    return kind, values


def assumed_fields(where: str, entry: dict[str, Any], allowed: Collection[str]) -> tuple[str, ...]:
    """The card's ``assumed`` list (values no rulebook prints), each one of the card's ``allowed`` fields."""
    assumed = entry.get("assumed", [])
    if not isinstance(assumed, list) or any(not is_key(a, allowed) for a in assumed):
        raise catalog_error(where, f"field 'assumed' must list some of the card's fields {sorted(allowed)}")
    return tuple(assumed)


def catalog_digest(raw: dict[str, Any]) -> str:
    """A short, stable hash of catalogue data: equal data, equal digest (what states compare catalogues by)."""
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@dataclass(frozen=True, kw_only=True)
class CardCatalog(Generic[CardT]):
    """What every game's validated catalogue has: its ``cards`` (each with an ``id`` and the fields it marks
    ``assumed``), the ``setup`` numbers, ``raw``, the merged data (what a state or record embeds), and ``digest``.

    ``digest`` is the merged data's hash. A game's catalogue adds its own tables (goods, boards, ...)."""

    name: str
    cards: tuple[CardT, ...]
    setup: dict[str, Any]
    raw: dict[str, Any] = field(repr=False)
    is_default: bool = False
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", catalog_digest(self.raw))

    def card(self, card_id: str) -> CardT:
        """The card with this id (KeyError if there is none)."""
        return self.by_id[card_id]

    @cached_property
    def by_id(self) -> dict[str, CardT]:
        """Every card by its id."""
        return {c.id: c for c in self.cards}  # type: ignore[attr-defined]

    def assumed_values(self) -> list[tuple[str, str, Any]]:
        """(card id, field, value) of every value marked assumed (no rulebook prints it): what a user may want to
        correct from their own copy."""
        return [(c.id, f, getattr(c, f)) for c in self.cards for f in c.assumed]  # type: ignore[attr-defined]


@dataclass(frozen=True)
class CatalogFiles(Generic[C]):
    """Where one game's catalogues come from: its default data file, and user catalogues laid over it.

    ``data_file`` names the file in ``speicherstadt_lab/data``; ``build(raw, is_default=...)`` validates merged
    data into the game's catalogue type ``kind``; ``sections`` and ``fields`` are passed to :func:`merge_catalog`.
    """

    data_file: str
    kind: type[C]
    build: Callable[..., C]
    sections: tuple[str, ...]
    fields: Collection[str] | None = None

    @cached_property
    def _default_text(self) -> str:
        """The default data file's text (read once)."""
        return resources.files("speicherstadt_lab.data").joinpath(self.data_file).read_text(encoding="utf-8")

    def default_raw(self) -> dict[str, Any]:
        """The default catalogue's data, a fresh copy to change."""
        return tomllib.loads(self._default_text)

    @cached_property
    def _default(self) -> C:
        return self.build(self.default_raw(), is_default=True)

    def default_catalog(self) -> C:
        """The default catalogue, built once and shared."""
        return self._default

    def load_catalog(self, source: str | Path | dict[str, Any] | C | None = None) -> C:
        """The default catalogue (``None``), a catalogue file, or catalogue data (e.g. from a saved state or a
        record); data equal to the default's gives the shared default catalogue itself."""
        if source is None:
            return self._default
        if isinstance(source, self.kind):
            return source
        data = source if isinstance(source, dict) else read_catalog_file(source)  # type: ignore[arg-type]
        base = data.get("base")
        if base is not None:
            if base != "default":
                raise catalog_error("base", f"the only base a catalogue can extend is 'default', not {base!r}")
            over = {k: v for k, v in data.items() if k != "base"}
            cat = self.build(merge_catalog(self.default_raw(), over, sections=self.sections, fields=self.fields))
        else:
            cat = self.build(data)
        if cat.digest == self._default.digest:  # type: ignore[attr-defined]
            return self._default
        return cat
