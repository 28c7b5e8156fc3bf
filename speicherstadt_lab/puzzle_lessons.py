"""The shipped puzzles as lessons: each puzzle (``speicherstadt_lab.puzzles``) becomes a :class:`~.lessons.Lesson`
whose position is the puzzle's, whose learner is the seat to move, whose task is "find the clearly best move" and
whose check is that the move is one of the puzzle's acceptable ones; the explanation afterwards is the puzzle's own,
with its numbers. The app's Tutorial page plays them like its lessons::

    import speicherstadt_lab as sl
    from speicherstadt_lab.puzzle_lessons import puzzle_lessons
    lesson = puzzle_lessons("speicherstadt")[0]
    verdict = lesson.judge(lesson.start(), lesson.puzzle.best)   # verdict.ok
    for step in lesson.line():                                    # "show me": the best move, then greedy replies
        print(step.words("de"))

The line "show me" plays (:func:`best_line`) starts from what the puzzle's seat sees: its observation, with what
that seat cannot see (the draw order, the bag, other seats' secret cards) resampled by an explicit seed. So it
never depends on, and never shows, a hidden fact of the true position; each reply is the greedy player's choice
from the observation of the seat to move.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from .bots import make_bot
from .engine.i18n import LANGS, load_messages, messages
from .engine.protocol import GameState
from .engine.rng import derive_seed
from .lessons import Lesson, Verdict
from .puzzles import Puzzle, load_puzzles, shipped_variants

load_messages("puzzles")
load_messages("puzzle_lessons")
load_messages("puzzle_show")

__all__ = ["LineStep", "PuzzleLesson", "best_line", "puzzle_lesson", "puzzle_lessons", "puzzle_variants"]

#: How many moves "show me" plays after the puzzle's best move (the greedy player's, for whoever is to move).
REPLIES = 3
#: The bot whose moves follow the best one: the strongest of the cheap players (a move in milliseconds).
LINE_BOT = "greedy"


@dataclass(frozen=True)
class LineStep:
    """One move of a shown line: the seat that made it, the move (notation), the positions before and after."""

    seat: int
    action: str
    before: GameState
    after: GameState

    def words(self, lang: str = "en") -> str:
        """The move in plain words with its seat ("Red: buys the Fireman for 2"), in ``lang``."""
        phrase = getattr(self.before, "phrase_action", None)
        move = phrase(self.action, lang) if phrase is not None else self.action
        return messages.text("puzzle_show", "step", lang, {"seat": self.before.seat_name(self.seat, lang),
                                                          "move": move})


def best_line(state: GameState, seat: int, first: str, replies: int = REPLIES, seed: int = 0) -> list[LineStep]:
    """``first`` (``seat``'s move at ``state``), then up to ``replies`` moves of the greedy player for whoever is to
    move (fewer at the game's end).

    Played from ``seat``'s observation with its hidden parts resampled (seed ``seed``): the same line for every
    position ``seat`` cannot tell apart."""
    if state.to_move != seat:
        raise ValueError(f"best line: seat {seat} is not to move (seat {state.to_move} is)")
    if replies < 0:
        raise ValueError(f"best line: replies must be 0 or more, not {replies}")
    seen = state if getattr(state, "is_observation", False) else state.observe(seat)
    here = seen.determinize(derive_seed(seed, "show-me", "position"))
    bot = make_bot(LINE_BOT, seed=derive_seed(seed, "show-me", "bot"))
    steps: list[LineStep] = []
    action: Any = first
    for k in range(replies + 1):
        mover = here.to_move
        if here.is_over or mover is None:
            break
        if k:
            action = bot.choose(here.observe(mover))
        after = here.apply(action)
        steps.append(LineStep(mover, str(after.last_action), here, after))
        here = after
    return steps


@dataclass(frozen=True)
class PuzzleLesson(Lesson):
    """A lesson made of a puzzle: the puzzle's position with its seat to move, solved by an acceptable move."""

    puzzle: Puzzle | None = None
    number: int = 0  # its place in the set (1 first), for its title

    def _p(self) -> Puzzle:
        if self.puzzle is None:
            raise ValueError(f"lesson {self.id!r} has no puzzle")
        return self.puzzle

    def say(self, key: str, lang: str = "en") -> str:
        """One of the lesson's texts (title, text, task, hint, explanation) in ``lang``, made from the puzzle."""
        p = self._p()
        args = {"n": self.number, "theme": p.theme_name(lang), "difficulty": p.difficulty}
        if key == "task":
            return p.task(lang)
        if key == "explanation":
            return p.explanation(lang)
        if key in ("title", "text", "hint"):
            return messages.text("puzzle_lessons", key, lang, args)
        raise KeyError(f"no lesson text {key!r}")

    def rule_ref(self, lang: str = "en") -> str:
        """The puzzle's theme, where a lesson names its rule."""
        return messages.text("puzzle_lessons", "ref", lang, {"theme": self._p().theme_name(lang)})

    def rule_text(self, lang: str = "en") -> str:
        """What to weigh for the puzzle's theme (its hint)."""
        return self.say("hint", lang)

    def scenario(self) -> dict[str, Any]:
        """A puzzle's position is an exact state, not a scenario: ValueError (use :meth:`start`)."""
        raise ValueError(f"puzzle {self.id!r}: its position is an exact state (start() gives it)")

    def start(self) -> GameState:
        """The puzzle's position (the learner to move)."""
        return self._p().state

    def line(self, replies: int = REPLIES, seed: int = 0) -> list[LineStep]:
        """"Show me": the puzzle's best move from its position, then the greedy player's replies
        (:func:`best_line`, from what the puzzle's seat sees only)."""
        return best_line(self.start(), self.seat, self._p().best, replies, seed)

    def judge(self, state: GameState, action: Any) -> Verdict:
        """The learner's ``action`` at ``state`` (the puzzle's position): the rules judge it first (IllegalAction,
        nothing changed), then it solves the puzzle when it is one of the acceptable moves."""
        verdict = super().judge(state, action)
        ok = verdict.action in self._p().acceptable
        return dataclasses.replace(verdict, ok=ok, failed=() if ok else (self.check,))


def puzzle_lesson(puzzle: Puzzle, number: int = 1) -> PuzzleLesson:
    """The lesson of ``puzzle`` (``number``: its place in its set, for the title)."""
    blank = {lang: "" for lang in LANGS}
    return PuzzleLesson(id=f"puzzle:{puzzle.id}", game=puzzle.game, expansion=puzzle.expansion, title=blank,
                        text=blank, position={}, seat=puzzle.seat, task=blank,
                        check={"any": [{"move": a} for a in puzzle.acceptable]}, hint=blank, explanation=blank,
                        rule={"ref": blank, "text": blank}, solution=(puzzle.best,), order=number, puzzle=puzzle,
                        number=number)


def puzzle_variants() -> list[tuple[str, str | None]]:
    """(game, expansion) of every variant with shipped puzzles."""
    out = []
    for variant in shipped_variants():
        p = load_puzzles(variant)[:1]
        if p:
            out.append((p[0].game, p[0].expansion))
    return out


@cache
def _lessons(game: str, expansion: str | None) -> tuple[PuzzleLesson, ...]:
    return tuple(puzzle_lesson(p, n) for n, p in enumerate(load_puzzles(game, expansion), start=1))


def puzzle_lessons(game: str = "speicherstadt", expansion: str | None = None) -> list[PuzzleLesson]:
    """The shipped puzzles of ``game`` (and ``expansion``) as lessons, easiest first."""
    return list(_lessons(game, expansion))
