"""The shipped puzzles as lessons: each puzzle (``speicherstadt_lab.puzzles``) becomes a :class:`~.lessons.Lesson`
whose position is the puzzle's, whose learner is the seat to move, whose task is "find the clearly best move" and
whose check is that the move is one of the puzzle's acceptable ones; the explanation afterwards is the puzzle's own,
with its numbers. The app's Tutorial page plays them like its lessons::

    import speicherstadt_lab as sl
    from speicherstadt_lab.puzzle_lessons import puzzle_lessons
    lesson = puzzle_lessons("speicherstadt")[0]
    verdict = lesson.judge(lesson.start(), lesson.puzzle.best)   # verdict.ok
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from .engine.i18n import LANGS, load_messages, messages
from .engine.protocol import GameState
from .lessons import Lesson, Verdict
from .puzzles import Puzzle, load_puzzles, shipped_variants

load_messages("puzzles")
load_messages("puzzle_lessons")

__all__ = ["PuzzleLesson", "puzzle_lesson", "puzzle_lessons", "puzzle_variants"]


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
