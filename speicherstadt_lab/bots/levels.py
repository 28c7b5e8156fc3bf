"""Opponent levels: ``make_bot("level:N")``, N = 1 (weakest) .. 6, each a declared configuration of an existing bot.

What a level *is* lives here (its bot spec); its name and one-line description in English and German live in
``data/messages/levels.toml``; how strong it measured lives in the ladder files ``data/ladder/<variant>.json``
written by ``benchmarks/ladder.py`` (read here with json only, every field checked).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..engine.i18n import load_messages, messages
from . import register_bot


@dataclass(frozen=True)
class Level:
    """One opponent level: its number (1 = weakest), the bot spec that plays it, and (``games``: (game, spec)
    pairs) the spec it plays instead in a game where the declared one measured no stronger than the levels below."""

    number: int
    spec: str
    games: tuple[tuple[str, str], ...] = ()

    def spec_for(self, game: str | None) -> str:
        """The spec this level plays in ``game`` (None: the declared one)."""
        return dict(self.games).get(game, self.spec) if game is not None else self.spec

    def name(self, lang: str = "en") -> str:
        """The level's short name in ``lang`` ("Beginner", "Anfänger", ...)."""
        load_messages("levels")
        return messages.text("levels", f"name_{self.number}", lang, {})

    def description(self, lang: str = "en", game: str | None = None) -> str:
        """One line in ``lang`` on how the level plays (in ``game``, if it plays another spec there: ``games``)."""
        load_messages("levels")
        own = game is not None and game in dict(self.games)
        return messages.text("levels", f"about_{self.number}_{game}" if own else f"about_{self.number}", lang, {})


#: The levels, weakest first. Greedy with random moves mixed in, the greedy bot, then search (MCTS: greedy play-outs
#: of the round - six rounds in Packet Row, whose rounds are short: ``level_spec`` - then the greedy bot's projection
#: of the final scores); the strongest scores its play-outs with the learned value model.
#: Ordered by strength as measured by ``benchmarks/ladder.py`` (docs/bots.md). In Die Speicherstadt plain search is
#: as strong with 8 play-outs as with 60 (docs/bots.md, "plateaus"), so there level 4 searches half its decisions
#: (``search_share``) and plays the greedy move at the rest; Packet Row's search grows with its budget, so there the
#: levels 4-6 are budgets (``Level.games``), and the value model, which won no more often there, is not used.
LEVELS: tuple[Level, ...] = (
    Level(1, "greedy:epsilon=0.6"),
    Level(2, "greedy:epsilon=0.3"),
    Level(3, "greedy"),
    Level(4, "mcts:iterations=25,search_share=0.5", (("packet_row", "mcts:iterations=25"),)),
    Level(5, "mcts:iterations=25", (("packet_row", "mcts:iterations=60"),)),
    Level(6, "mcts:iterations=150,value=model", (("packet_row", "mcts:iterations=300"),)),
)


def get_level(number: Any) -> Level:
    """The level numbered ``number`` (an int or its text); ValueError naming the field ``level`` otherwise."""
    text = str(number).strip()
    n = int(text) if text.isdigit() else None
    if n is None or not 1 <= n <= len(LEVELS):
        raise ValueError(f"level: {number!r} is not a level; levels are the whole numbers 1 to {len(LEVELS)} "
                         f"(1 = weakest), written 'level:N'")
    return LEVELS[n - 1]


def level_spec(number: Any, game: str | None = None) -> str:
    """Level ``number``'s spec as it plays ``game`` (``Level.spec_for``), a search level's ``horizon="auto"`` written
    out where the game makes it other than 1 round (``bots.mcts.auto_horizon``: 6 in Packet Row).

    A search level looks as deep as the game's judgement needs, so in Packet Row ``level:4`` plays
    ``mcts:iterations=25,horizon=6``. The ladder's result rows and files carry this spec: games
    measured under one horizon are not mixed with another's. ``game`` None: the declared spec; an unknown game: a
    ValueError naming the field ``game``.
    """
    from ..engine.protocol import get_game
    from . import make_bot

    lv = get_level(number)
    if game is None:
        return lv.spec
    try:
        get_game(game)
    except ValueError:
        raise ValueError(f"game: {game!r} is not a registered game") from None
    spec = lv.spec_for(game)
    bot = make_bot(spec)
    if getattr(bot, "horizon", None) != "auto":
        return spec
    horizon = bot.horizon_for(game)
    return spec if horizon == 1 else f"{spec},horizon={0 if horizon is None else horizon}"


def level_names() -> list[str]:
    """The bot specs of every level, weakest first: ``["level:1", ..., "level:6"]``."""
    return [f"level:{lv.number}" for lv in LEVELS]


def make_level_bot(seed: int = 0, level: Any = None, **params: Any) -> Any:
    """The bot of level ``level`` (what ``make_bot("level:N")`` builds); extra parameters are refused."""
    from . import make_bot  # the package's factory; bots/__init__ imports this module lazily

    if level is None:
        raise ValueError(f"level: missing; write 'level:N' with N from 1 to {len(LEVELS)}")
    if params:
        raise ValueError(f"level: a level takes no other parameters (got {', '.join(sorted(params))}); "
                         "use the bot's own spec to change settings")
    lv = get_level(level)
    return LevelBot(lv, seed) if lv.games else make_bot(lv.spec, seed=seed)


class LevelBot:
    """A level that plays another spec in some game (``Level.games``): the bot of the game of each position asked.

    Until it has seen a position it is the level's declared bot (``name``, ``params``); each spec's bot is built once
    with the level's seed, so the level answers the same position the same. Anything else (``last_stats``, ...)
    comes from the bot of the last game asked.
    """

    def __init__(self, level: Level, seed: int = 0) -> None:
        self.level = level
        self.seed = seed
        self._bots: dict[str, Any] = {}
        self._bot = self._for(None)

    def _for(self, game: str | None) -> Any:
        from . import make_bot

        spec = self.level.spec_for(game)
        if spec not in self._bots:
            self._bots[spec] = make_bot(spec, seed=self.seed)
        return self._bots[spec]

    @property
    def name(self) -> str:
        """The name of the bot playing (``mcts``, ...), as the app's explanations expect."""
        return self._bot.name

    def params(self) -> dict[str, Any]:
        """The settings of the bot playing: enough to make it again for that game."""
        return self._bot.params()

    def choose(self, obs: Any) -> Any:
        """The move of this level's bot for ``obs``'s game."""
        self._bot = self._for(obs.game)
        return self._bot.choose(obs)

    def explain(self, obs: Any) -> Any:
        """The explanation of this level's bot for ``obs``'s game."""
        self._bot = self._for(obs.game)
        return self._bot.explain(obs)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):  # not set yet (during __init__): no lookup in a bot that does not exist
            raise AttributeError(attr)
        return getattr(self._bot, attr)


# -- the ladder file -------------------------------------------------------------------------------------------------

LADDER_FORMAT = "speicherstadt-lab ladder"
LADDER_VERSION = 1


class LadderError(ValueError):
    """A ladder file that does not fit its format; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"ladder file, field {field}: {message}")
        self.field = field


def variant_name(game: str, expansion: str | None = None) -> str:
    """The file stem of a variant's ladder: ``speicherstadt``, ``speicherstadt+kaispeicher``, ``packet_row``."""
    return game if not expansion else f"{game}+{expansion}"


def _number(data: dict[str, Any], key: str, where: str, lo: float = -math.inf, hi: float = math.inf,
            whole: bool = False) -> float:
    value = data.get(key)
    field = f"{where}.{key}" if where else key
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LadderError(field, f"must be a finite number, not {value!r}")
    if whole and not isinstance(value, int):
        raise LadderError(field, f"must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise LadderError(field, f"must be between {lo} and {hi}, not {value!r}")
    return value


def _interval(data: dict[str, Any], key: str, where: str, lo: float = -math.inf, hi: float = math.inf) -> None:
    v = _number(data, key, where, lo, hi)
    a = _number(data, f"{key}_lo", where, lo, hi)
    b = _number(data, f"{key}_hi", where, lo, hi)
    if not a <= v <= b:
        raise LadderError(f"{where}.{key}_lo", f"the interval {a}..{b} must hold the value {v}")


def check_ladder(data: Any) -> dict[str, Any]:
    """``data`` (a ladder file's JSON) checked field by field; returns it, or raises :class:`LadderError`."""
    if not isinstance(data, dict):
        raise LadderError("(top)", "must be a JSON object")
    if data.get("format") != LADDER_FORMAT:
        raise LadderError("format", f"must be {LADDER_FORMAT!r}, not {data.get('format')!r}")
    if data.get("version") != LADDER_VERSION:
        raise LadderError("version", f"must be {LADDER_VERSION}, not {data.get('version')!r}")
    for key in ("game", "measured", "rating_scale", "win_rate_meaning"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise LadderError(key, f"must be a text, not {data.get(key)!r}")
    if data.get("expansion") is not None and not isinstance(data["expansion"], str):
        raise LadderError("expansion", f"must be a text or null, not {data['expansion']!r}")
    for key in ("players", "games_per_pairing", "seed", "bootstrap"):
        _number(data, key, "", 0, math.inf, whole=True)
    _number(data, "anchor", "")
    levels = data.get("levels")
    if not isinstance(levels, list) or not levels:
        raise LadderError("levels", "must be a non-empty list")
    numbers = []
    for i, row in enumerate(levels):
        where = f"levels[{i}]"
        if not isinstance(row, dict):
            raise LadderError(where, "must be an object")
        n = int(_number(row, "level", where, 1, len(LEVELS), whole=True))
        if not isinstance(row.get("spec"), str):
            raise LadderError(f"{where}.spec", f"must be a text, not {row.get('spec')!r}")
        _interval(row, "rating", where)
        _number(row, "ms_per_decision", where, 0)
        numbers.append(n)
    if len(set(numbers)) != len(numbers):
        raise LadderError("levels", f"a level is listed twice: {numbers}")
    pairings = data.get("pairings")
    if not isinstance(pairings, list):
        raise LadderError("pairings", "must be a list")
    for i, row in enumerate(pairings):
        where = f"pairings[{i}]"
        if not isinstance(row, dict):
            raise LadderError(where, "must be an object")
        for key in ("a", "b"):
            if _number(row, key, where, 1, len(LEVELS), whole=True) not in numbers:
                raise LadderError(f"{where}.{key}", f"level {row[key]} is not among the ladder's levels")
        _number(row, "games", where, 0, math.inf, whole=True)
        _interval(row, "win_rate", where, 0.0, 1.0)
    ref = data.get("reference")
    if not isinstance(ref, dict):
        raise LadderError("reference", "must be an object (a level against itself, 50% expected)")
    if _number(ref, "a", "reference", 1, len(LEVELS), whole=True) != ref.get("b"):
        raise LadderError("reference.b", "the reference plays a level against itself: a and b must be equal")
    _number(ref, "games", "reference", 0, math.inf, whole=True)
    _interval(ref, "win_rate", "reference", 0.0, 1.0)
    return data


def load_ladder(game: str, expansion: str | None = None) -> dict[str, Any] | None:
    """The shipped ladder of a variant (checked, see :func:`check_ladder`), or None when none was measured."""
    ref = resources.files("speicherstadt_lab.data").joinpath("ladder", f"{variant_name(game, expansion)}.json")
    if not ref.is_file():
        return None
    return check_ladder(json.loads(ref.read_text(encoding="utf-8")))


def level_rating(number: int, game: str, expansion: str | None = None) -> dict[str, Any] | None:
    """A level's measured rating in ``game`` (``rating``, ``rating_lo``, ``rating_hi``, ...), or None if unmeasured."""
    ladder = load_ladder(game, expansion)
    if ladder is None:
        return None
    return next((row for row in ladder["levels"] if row["level"] == get_level(number).number), None)


def level_label(number: int, lang: str = "en", game: str | None = None, expansion: str | None = None) -> str:
    """A level for a menu: "Level 3 · Steady", with its rating and 95% interval when the variant's ladder has it."""
    lv = get_level(number)
    load_messages("levels")
    label = messages.text("levels", "label", lang, {"n": lv.number, "name": lv.name(lang)})
    row = level_rating(lv.number, game, expansion) if game else None
    if row is None:
        return label
    return label + messages.text("levels", "rating", lang, {"r": round(row["rating"]), "lo": round(row["rating_lo"]),
                                                            "hi": round(row["rating_hi"])})


def level_options(lang: str = "en", game: str | None = None, expansion: str | None = None
                  ) -> list[tuple[str, str, str]]:
    """Every level for a seat menu: (label, spec, one-line description as hover text), weakest first."""
    return [(level_label(lv.number, lang, game, expansion), f"level:{lv.number}", lv.description(lang, game))
            for lv in LEVELS]


register_bot("level", make_level_bot)
