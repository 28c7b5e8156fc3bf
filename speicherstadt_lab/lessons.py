"""Guided lessons: one position, one task, a check of the learner's move, for each game (``docs/lessons.md``).

A lesson is data, a JSON file (``data/lessons/*.json`` ship with the lab; a teacher writes more)::

    import speicherstadt_lab as sl
    lesson = sl.lessons("speicherstadt")[1]           # in teaching order
    state = lesson.start()                            # the position, bots moved until the learner decides
    verdict = lesson.judge(state, "buy")              # the learner's move, checked against the task
    verdict.ok, verdict.after, verdict.reasons("de")  # did it do the task; the position after; why not
    mine = sl.load_lesson("my-lesson.json")           # LessonError names the field at fault

Files are read with ``json`` only. The engine judges the move; the lesson's check (a small vocabulary:
``move``, ``event``, ``field``, ``all``, ``any``, ``not``) says whether it did what the task asked.
"""

from __future__ import annotations

import fnmatch
import json
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .engine.errors import IllegalAction, ScenarioError
from .engine.i18n import LANGS
from .engine.protocol import GameState

__all__ = ["LESSON_FORMAT", "Lesson", "LessonError", "Verdict", "lesson_ids", "lesson_names", "lessons", "load_lesson",
           "shipped_lesson"]

LESSON_FORMAT = "speicherstadt-lab/lesson/1"
_FOLDER = ("data", "lessons")
_TEXTS = ("title", "text", "task", "hint", "explanation")
_FIELDS = {"format", "id", "game", "expansion", "order", "title", "text", "position", "seat", "task", "check",
           "hint", "explanation", "rule", "solution", "wrong", "bots"}
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "has": lambda a, b: b in a, "lacks": lambda a, b: b not in a,
}
_STATE_FIELDS = ("coins", "score", "round", "phase", "is_over", "to_move")
MAX_REPLIES = 400  # bot moves between two of the learner's decisions, at most (a lesson never needs that many)


class LessonError(ValueError):
    """A lesson that is wrong: ``field`` names the part at fault (``check.all[1].op``, ``position.moves[3]``)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"lesson field {field!r}: {message}" if field else f"lesson: {message}")


@dataclass(frozen=True)
class Verdict:
    """What the learner's move did: ``ok`` (the task done), the position ``after`` it (and after the bots'
    replies), ``events`` (the move's and the replies'), and ``failed`` (the parts of the check not met)."""

    ok: bool
    action: str
    after: GameState
    events: tuple[tuple[GameState, int], ...]
    failed: tuple[dict[str, Any], ...] = ()

    def happened(self, lang: str = "en") -> list[str]:
        """The events of the move and the replies, in plain language."""
        return [text for text, _key in self.marked(lang)]

    def marked(self, lang: str = "en", keys: frozenset[str] = frozenset(),
               seat: int | None = None) -> list[tuple[str, bool]]:
        """Each event's text, and whether it matters: the move itself, the events of ``keys`` and ``seat``'s."""
        out: list[tuple[str, bool]] = []
        for n, (state, start) in enumerate(self.events):
            texts = state.event_texts(lang)[start:]
            events = list(state.events)[start:]
            if len(events) != len(texts):  # not one text per event: the step is shown whole, as it matters
                matters = n == 0 or any(e.key in keys for e in events)
                out.extend((text, matters) for text in texts)
                continue
            for i, (text, e) in enumerate(zip(texts, events, strict=True)):
                mine = seat is not None and e.args.get("seat") == seat
                out.append((text, (n == 0 and i == 0) or e.key in keys or mine))
        return out


def _texts(data: dict[str, Any], key: str, where: str, required: bool = True) -> dict[str, str]:
    value = data.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict) or not value:
        raise LessonError(f"{where}{key}", 'must be {"en": text, "de": text}')
    for lang, txt in value.items():
        if lang not in LANGS:
            raise LessonError(f"{where}{key}.{lang}", f"no language {lang!r} (there are {', '.join(LANGS)})")
        if not isinstance(txt, str) or not txt.strip():
            raise LessonError(f"{where}{key}.{lang}", "must be a text")
    missing = [lang for lang in LANGS if lang not in value]
    if missing:
        raise LessonError(f"{where}{key}", f"needs a text in {', '.join(missing)} too")
    return dict(value)


def _check_check(check: Any, where: str) -> None:
    """The check's shape, every error naming the part at fault."""
    if not isinstance(check, dict) or not check:
        raise LessonError(where, "a check is an object: move, event, field, all, any or not")
    kinds = [k for k in ("move", "event", "field", "all", "any", "not") if k in check]
    if len(kinds) != 1:
        raise LessonError(where, f"needs exactly one of move, event, field, all, any, not (has {sorted(check)})")
    kind = kinds[0]
    allowed = {"move": {"move", "say"}, "event": {"event", "args", "say"}, "all": {"all", "say"},
               "any": {"any", "say"}, "not": {"not", "say"},
               "field": {"field", "seat", "op", "value", "change", "say"}}[kind]
    extra = sorted(set(check) - allowed)
    if extra:
        raise LessonError(f"{where}.{extra[0]}", f"not a field of a {kind!r} check (it takes {sorted(allowed)})")
    if "say" in check:
        _texts(check, "say", f"{where}.")
    if kind == "move" and not (isinstance(check["move"], str) and check["move"].strip()):
        raise LessonError(f"{where}.move", "must be a notation pattern (text; * matches any part)")
    if kind == "event":
        if not (isinstance(check["event"], str) and check["event"]):
            raise LessonError(f"{where}.event", "must be an event's key (text)")
        if not isinstance(check.get("args", {}), dict):
            raise LessonError(f"{where}.args", "must be an object of the event's arguments")
    if kind in ("all", "any"):
        parts = check[kind]
        if not isinstance(parts, list) or not parts:
            raise LessonError(f"{where}.{kind}", "must be a list of checks")
        for i, part in enumerate(parts):
            _check_check(part, f"{where}.{kind}[{i}]")
    if kind == "not":
        _check_check(check["not"], f"{where}.not")
    if kind == "field":
        name = check["field"]
        if not isinstance(name, str) or not (name in _STATE_FIELDS or name.startswith("player.")):
            raise LessonError(f"{where}.field", f"must be one of {', '.join(_STATE_FIELDS)} or player.NAME")
        if check.get("op", "==") not in _OPS:
            raise LessonError(f"{where}.op", f"must be one of {' '.join(_OPS)}")
        if ("value" in check) == ("change" in check):
            raise LessonError(where, "a field check needs exactly one of value (after the move) or change "
                                     "(after minus before)")
        if "change" in check and (isinstance(check["change"], bool) or not isinstance(check["change"], int | float)):
            raise LessonError(f"{where}.change", "must be a number")
        seat = check.get("seat", "learner")
        if seat != "learner" and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0):
            raise LessonError(f"{where}.seat", 'must be "learner" or a seat number')


@dataclass(frozen=True)
class Lesson:
    """One lesson (see the module doc): its texts in English and German, the position, the learner's seat, the task
    and its check, the hint, the explanation after success, the rule it teaches and a known solution."""

    id: str
    game: str
    expansion: str | None
    title: dict[str, str]
    text: dict[str, str]
    position: dict[str, Any]
    seat: int
    task: dict[str, str]
    check: dict[str, Any]
    hint: dict[str, str]
    explanation: dict[str, str]
    rule: dict[str, dict[str, str]]
    solution: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    bots: str = "greedy"
    order: int = 0
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # ---- texts -----------------------------------------------------------------------------------------

    def say(self, key: str, lang: str = "en") -> str:
        """One of the lesson's texts (title, text, task, hint, explanation) in ``lang``."""
        return getattr(self, key)[lang]

    def rule_ref(self, lang: str = "en") -> str:
        """Where in the rulebook the lesson's rule stands (a section's name)."""
        return self.rule["ref"][lang]

    def rule_text(self, lang: str = "en") -> str:
        """The rule the lesson teaches, as the rulebook says it."""
        return self.rule["text"][lang]

    # ---- play ------------------------------------------------------------------------------------------

    def scenario(self) -> dict[str, Any]:
        """The position's scenario data (a shipped scenario by name, or the lesson's own)."""
        from .scenarios import shipped_scenario

        scen = self.position["scenario"]
        return shipped_scenario(scen) if isinstance(scen, str) else json.loads(json.dumps(scen))

    def start(self) -> GameState:
        """The lesson's position: the scenario, its ``moves``, then the bots until the learner decides."""
        from .scenarios import start

        state = start(self.scenario())
        for i, move in enumerate(self.position.get("moves", [])):
            try:
                state = state.apply(move)
            except IllegalAction as err:
                raise LessonError(f"position.moves[{i}]", f"{move!r} is refused: {err}") from None
        return self.reply(state)

    def bot_for(self, seat: int) -> Any:
        """The bot that plays ``seat`` (seeded by the seat: the same position, the same reply)."""
        from .bots import make_bot

        return make_bot(self.bots, seed=seat)

    def replies(self, state: GameState) -> Iterator[GameState]:
        """Each position as the bots play the other seats, until the learner decides or the game is over."""
        bots: dict[int, Any] = {}
        for _ in range(MAX_REPLIES):
            seat = state.to_move
            if state.is_over or seat is None or seat == self.seat:
                return
            bot = bots.setdefault(seat, self.bot_for(seat))
            state = state.apply(bot.choose(state.observe(seat)))
            yield state
        raise RuntimeError(f"lesson {self.id!r}: the bots did not reach the learner's turn in {MAX_REPLIES} moves")

    def reply(self, state: GameState) -> GameState:
        """The position after the bots' replies (``state`` itself when the learner is to move)."""
        last = state
        for last in self.replies(state):  # noqa: B007 - the last position is the answer
            pass
        return last

    def judge(self, state: GameState, action: Any) -> Verdict:
        """The learner's ``action`` at ``state``, checked against the task. The rules judge it first: an illegal
        move raises IllegalAction (naming the rule) and nothing changes."""
        if state.to_move != self.seat:
            raise ValueError(f"lesson {self.id!r}: the learner ({self.seat}) is not to move")
        after = state.apply(action)
        text = str(after.last_action)
        chain: list[tuple[GameState, int]] = [(after, 0)]
        last = after
        for nxt in self.replies(after):
            chain.append((nxt, 0))
            last = nxt
        failed = tuple(self._failed(self.check, state, after, text, chain))
        return Verdict(not failed, text, last, tuple(chain), failed)

    def _failed(self, check: dict[str, Any], before: GameState, after: GameState, text: str,
                chain: list[tuple[GameState, int]]) -> Iterator[dict[str, Any]]:
        """The parts of ``check`` the move does not meet (none: the check is met)."""
        ok = self._holds(check, before, after, text, chain)
        if not ok:
            yield check

    def _holds(self, check: dict[str, Any], before: GameState, after: GameState, text: str,
               chain: list[tuple[GameState, int]]) -> bool:
        if "all" in check:
            return all(self._holds(c, before, after, text, chain) for c in check["all"])
        if "any" in check:
            return any(self._holds(c, before, after, text, chain) for c in check["any"])
        if "not" in check:
            return not self._holds(check["not"], before, after, text, chain)
        if "move" in check:
            return fnmatch.fnmatchcase(text, " ".join(check["move"].lower().split()))
        if "event" in check:
            want = {k: (self.seat if v == "learner" else v) for k, v in check.get("args", {}).items()}
            return any(e.key == check["event"] and all(_arg_fits(e.args.get(k), v) for k, v in want.items())
                       for state, _ in chain for e in state.events)
        seat = self.seat if check.get("seat", "learner") == "learner" else check["seat"]
        now = _field(after, check["field"], seat)
        if "change" in check:
            return _OPS[check.get("op", "==")](now - _field(before, check["field"], seat), check["change"])
        return _OPS[check.get("op", "==")](now, check["value"])

    def event_keys(self) -> frozenset[str]:
        """The events the lesson's check looks for (what the feedback shows first)."""
        def walk(check: dict[str, Any]) -> Iterator[str]:
            if "event" in check:
                yield check["event"]
            for part in check.get("all", []) + check.get("any", []) + ([check["not"]] if "not" in check else []):
                yield from walk(part)
        return frozenset(walk(self.check))

    def check_solution(self) -> tuple[Verdict, Verdict]:
        """Play the lesson's ``solution`` and its ``wrong`` moves from the start: the verdict of each's last move."""
        return self._play(self.solution), self._play(self.wrong)

    def _play(self, moves: tuple[str, ...]) -> Verdict:
        state = self.start()
        verdict = None
        for move in moves:
            verdict = self.judge(state, move)
            state = verdict.after
        if verdict is None:
            raise LessonError("solution", "is empty")
        return verdict


def _arg_fits(value: Any, want: Any) -> bool:
    """An event's argument against a check's: equal, or (a list of seats, cards) holding it."""
    return value == want or (isinstance(value, list | tuple) and not isinstance(want, list) and want in value)


def _field(state: GameState, name: str, seat: int) -> Any:
    """A field of the position for a field check."""
    if name == "coins":
        return state.coins[seat]
    if name == "score":
        return state.score(seat)
    if name.startswith("player."):
        value = getattr(state.player(seat), name[len("player."):], None)
        return tuple(value) if isinstance(value, list) else value
    return getattr(state, name)


def load_lesson(source: Mapping[str, Any] | str | Path, play: bool = True) -> Lesson:
    """A lesson from a dict or a ``.json`` file (read with json only), checked: LessonError names the field.

    ``play=False`` leaves out playing the position to the learner's first decision (the shipped lessons: the
    tests play them all)."""
    if isinstance(source, str | Path):
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise LessonError("", f"not JSON: {err}") from None
    else:
        data = json.loads(json.dumps(source))
    if not isinstance(data, dict):
        raise LessonError("", f"must be an object (JSON), not {type(data).__name__}")
    if data.get("format") != LESSON_FORMAT:
        raise LessonError("format", f"must be {LESSON_FORMAT!r}")
    extra = sorted(set(data) - _FIELDS)
    if extra:
        raise LessonError(extra[0], f"unknown field (a lesson has {', '.join(sorted(_FIELDS))})")
    if not isinstance(data.get("id"), str) or not data["id"]:
        raise LessonError("id", "must be a name (text)")
    if not isinstance(data.get("game"), str):
        raise LessonError("game", "must be a game's name (speicherstadt, packet_row)")
    texts = {key: _texts(data, key, "") for key in _TEXTS}
    rule = data.get("rule")
    if not isinstance(rule, dict):
        raise LessonError("rule", 'must be {"ref": {"en", "de"}, "text": {"en", "de"}}')
    rule = {k: _texts(rule, k, "rule.") for k in ("ref", "text")}
    position = data.get("position")
    if not isinstance(position, dict) or "scenario" not in position:
        raise LessonError("position", 'must be {"scenario": a shipped scenario\'s name or a scenario, "moves": [...]}')
    if set(position) - {"scenario", "moves"}:
        raise LessonError(f"position.{sorted(set(position) - {'scenario', 'moves'})[0]}", "unknown field")
    if not isinstance(position["scenario"], str | dict):
        raise LessonError("position.scenario", "must be a shipped scenario's name or a scenario (object)")
    moves = position.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise LessonError("position.moves", "must be a list of moves (notation texts)")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise LessonError("seat", "must be the learner's seat number")
    _check_check(data.get("check"), "check")
    for key in ("solution", "wrong"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
            raise LessonError(key, "must be a list of the learner's moves (notation texts)")
    bots = data.get("bots", "greedy")
    try:
        from .bots import make_bot

        make_bot(bots, seed=0)
    except (TypeError, ValueError) as err:
        raise LessonError("bots", f"must be a bot's name (greedy, random, mcts): {err}") from None
    order = data.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int):
        raise LessonError("order", "must be a number (1 first)")
    if data.get("expansion") is not None and not isinstance(data["expansion"], str):
        raise LessonError("expansion", 'must be null or an expansion\'s name ("kaispeicher")')
    lesson = Lesson(id=data["id"], game=data["game"], expansion=data.get("expansion"), position=position,
                    seat=seat, check=data["check"], rule=rule, solution=tuple(data.get("solution", [])),
                    wrong=tuple(data.get("wrong", [])), bots=bots, order=order, data=data,
                    **texts)
    if not play:
        return lesson
    try:
        state = lesson.start()
    except (ScenarioError, ValueError) as err:
        if isinstance(err, LessonError):
            raise
        raise LessonError("position.scenario", str(err)) from None
    if state.game != lesson.game:
        raise LessonError("game", f"the position is a game of {state.game!r}, not {lesson.game!r}")
    if getattr(state, "expansion", None) != lesson.expansion:
        raise LessonError("expansion", f"the position's expansion is {getattr(state, 'expansion', None)!r}")
    if seat >= state.n_players:
        raise LessonError("seat", f"the game has seats 0 to {state.n_players - 1}")
    if state.is_over or state.to_move != seat:
        raise LessonError("seat", "the learner never comes to move in this position")
    return lesson


def _folder() -> Any:
    return resources.files("speicherstadt_lab").joinpath(*_FOLDER)


def lesson_names() -> list[str]:
    """The names of the lesson files that ship with the lab (``data/lessons/<name>.json``), sorted."""
    return sorted(p.name[: -len(".json")] for p in _folder().iterdir() if p.name.endswith(".json"))


_CACHE: dict[str, Lesson] = {}


def shipped_lesson(name: str) -> Lesson:
    """A shipped lesson by its file name (``lesson_names()``) or id."""
    if name not in _CACHE:
        names = lesson_names()
        if name not in names:
            by_id = {json.loads(_folder().joinpath(f"{n}.json").read_text(encoding="utf-8"))["id"]: n for n in names}
            if name not in by_id:
                raise ValueError(f"no lesson {name!r}; there are {', '.join(sorted(by_id))}")
            return shipped_lesson(by_id[name])
        data = json.loads(_folder().joinpath(f"{name}.json").read_text(encoding="utf-8"))
        lesson = load_lesson(data, play=False)
        _CACHE[name] = _CACHE[lesson.id] = lesson
    return _CACHE[name]


def lesson_ids() -> list[str]:
    """The ids of every shipped lesson (what ``LabApp.open_lesson`` and a link's ``lesson=`` take), game by game."""
    return [x.id for x in sorted((shipped_lesson(n) for n in lesson_names()),
                                 key=lambda x: (x.game, x.expansion or "", x.order, x.id))]


def lessons(game: str = "speicherstadt", expansion: str | None = None) -> list[Lesson]:
    """The shipped lessons of ``game`` (with ``expansion``: that expansion's lessons), in teaching order."""
    found = [shipped_lesson(n) for n in lesson_names()]
    return sorted((x for x in found if x.game == game and x.expansion == expansion), key=lambda x: (x.order, x.id))
