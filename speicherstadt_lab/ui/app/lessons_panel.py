"""The Tutorial page: the guided lessons (``speicherstadt_lab.lessons``), one at a time, for every game.

Beside the board: the lesson's text, its task, and after the learner's move the feedback (what happened, why, the
hint after a wrong try, the rule one click away), with "Try again" and "Next". The learner plays one seat and the
bots the others (the lesson's replies, played at once). Progress and the lesson being played stay for the session,
through a change of language too, and in the browser tab through a reload (``lesson_store.py``: the tab's
``sessionStorage``; a lesson a link names stays the one shown). Its texts: ``data/messages/lessons.toml``.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ...engine.i18n import LANGS
from ...engine.protocol import games
from ...lazyimport import LazyModule
from ...lessons import Lesson, Verdict, lessons, shipped_lesson  # imported with the lab itself (its ``lessons()``)
from ...records import Node
from .. import board_for
from .lesson_store import LessonStore, Progress
from .panel import Panel, Settings, swap_options
from .puzzle_chooser import PuzzleChooser, dot_window
from .texts import load_texts

# the puzzles (their files, the lessons made of them) are imported when the Tutorial page, made on first use, or a
# link naming a puzzle first needs them, not with the app
_puzzle_lessons = LazyModule("speicherstadt_lab.puzzle_lessons")
_puzzle_line = LazyModule("speicherstadt_lab.ui.app.puzzle_line")

TEXTS = load_texts("lessons")
PUZZLE_TEXTS = load_texts("puzzle_lessons")
PUZZLES = "puzzles:"  # the key of a puzzle set: PUZZLES + the variant's key
SIDE_WIDTH = "clamp(340px, 30vw, 440px)"
CSS = """<style>
.ssl-lessons .ssl-lesson-head { gap: 10px; align-items: center; flex-wrap: wrap; }
.ssl-lessons .ssl-lesson-progress { font-weight: 600; }
.ssl-lessons .ssl-dot { display: inline-block; width: 12px; height: 12px; margin: 0 2px; border-radius: 50%;
  border: 1px solid #555; vertical-align: middle; }
.ssl-lessons .ssl-dot.done { background: #009e73; border-color: #009e73; }
.ssl-lessons .ssl-dot.here { outline: 2px solid #0072b2; outline-offset: 1px; }
.ssl-lessons .ssl-lesson-side { padding-left: 10px; }
.ssl-lessons .ssl-lesson-intro { font-size: 13px; line-height: 1.35; }
.ssl-lessons .ssl-lesson-task { background: #eef5fb; border-left: 4px solid #0072b2; padding: 6px 8px;
  font-size: 14px; }
.ssl-lessons .ssl-lesson-feedback { font-size: 13px; }
.ssl-lessons .widget-html-content { line-height: 1.35; }
.ssl-lessons .ssl-lesson-feedback p { margin: 3px 0; }
.ssl-lessons .ssl-lesson-feedback .ok { color: #006b4e; font-weight: 700; }
.ssl-lessons .ssl-lesson-feedback .bad { color: #b0451b; font-weight: 700; }
.ssl-lessons .ssl-lesson-feedback ul { margin: 2px 0 4px 0; padding-left: 18px; }
.ssl-lessons .ssl-lesson-feedback details { margin-top: 4px; }
.ssl-lessons .ssl-lesson-feedback summary { cursor: pointer; color: #0072b2; }
.ssl-lessons .ssl-puzzle-line-box { background: #f6f3ea; border-left: 4px solid #e69f00; padding: 4px 8px;
  margin: 2px 0 4px 0; font-size: 13px; }
.ssl-lessons .ssl-puzzle-line ol { margin: 2px 0; padding-left: 20px; }
.ssl-lessons .ssl-puzzle-line li.ahead { color: #777; }
.ssl-lessons .ssl-puzzle-line li.here { font-weight: 700; }
.ssl-lessons .ssl-puzzle-line p { margin: 2px 0; }
.ssl-lessons .ssl-puzzle-line .ssl-line-note { font-size: 12px; color: #555; cursor: help; }
</style>"""


def t(lang: str, key: str, **args: Any) -> str:
    """A text of the lessons page in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)


def lesson_sets() -> list[tuple[str, str, str, Any]]:
    """The lesson sets, one per game variant that has lessons, by title, then the puzzle sets (shown as "Puzzles: "
    and the title, in the app's language; key ``puzzles:`` + the variant's key): (key, title, game, expansion)."""
    out, puzzles = [], []
    with_puzzles = set(_puzzle_lessons.puzzle_variants())
    for info in games():
        for v in info.choices():
            expansion = v.options.get("expansion")
            if lessons(info.name, expansion):
                out.append((v.key, v.title, info.name, expansion))
            if (info.name, expansion) in with_puzzles:
                puzzles.append((PUZZLES + v.key, v.title, info.name, expansion))
    return sorted(out, key=lambda s: s[1]) + sorted(puzzles, key=lambda s: s[1])


class LessonsPanel(Panel):
    """The Tutorial page with the guided lessons (``page()``, built on first use). Emits ``back`` when its back
    button is pressed (the coordinator shows the lab page again)."""

    def __init__(self) -> None:
        super().__init__()
        self.lesson: Lesson | None = None  # the lesson on the page
        self._lesson_sets_found: list[tuple[str, str, str, Any]] | None = None  # read on first use
        self._lesson_set = ""
        self._lesson_index: dict[str, int] = {}
        self._lessons_done: dict[str, set[str]] = {}
        self._lessons_missed: dict[str, set[str]] = {}  # ids with a wrong move before their first solve (the score)
        self._lesson_state: Any = None
        self._lesson_verdict: Verdict | None = None
        self._lesson_before: Any = None
        self._lessons_page: w.Widget | None = None
        self._drawn_lang = ""
        self._relabeling = False  # True while the set chooser's labels change language (not a user's choice)
        self._named = False  # a lesson opened by its name (a link): what the browser kept does not replace it
        self.store: LessonStore | None = None  # the progress kept in the browser tab, made with the page
        self._refusal = ""  # the page's own refusal of a click on the board ("showing", "judged"; "" none)

    def show(self, node: Node, settings: Settings) -> None:
        """Follow the app's language (the page, once built, is redrawn when it changes); the node's game decides
        which lessons come first when the page is built."""
        super().show(node, settings)
        if self._lessons_page is not None and settings.lang != self._drawn_lang:
            self.redraw()

    @property
    def _lesson_sets(self) -> list[tuple[str, str, str, Any]]:
        if self._lesson_sets_found is None:
            self._lesson_sets_found = lesson_sets()
            self._lesson_set = self._lesson_set or self._lesson_sets_found[0][0]
        return self._lesson_sets_found

    # ---- the page ---------------------------------------------------------------------------------------

    def page(self) -> w.Widget:
        """The Tutorial page (built once; the language and the lesson change its contents)."""
        if self._lessons_page is not None:
            return self._lessons_page
        lay = w.Layout
        self.store = LessonStore(self._set_ids)
        self.store.on_restore(self._restore)
        root = self.node
        while root is not None and root.parent is not None:
            root = root.parent
        st = root.state if root is not None else None  # the lessons of the game on the board come first
        here = None if st is None else (st.game, getattr(st, "expansion", None))
        for key, _title, game, expansion in self._lesson_sets:
            if self.lesson is None and here == (game, expansion) and not key.startswith(PUZZLES):
                self._lesson_set = key
        self.lessons_back = w.Button(layout=lay(width="auto"))
        self.lessons_back.on_click(lambda _b: self.emit("back"))
        # a menu, not a row of buttons: six sets (three games' lessons and puzzles) as buttons wrapped the head into
        # three lines and pushed the board's buttons below a 1280x720 projector's edge
        self.lesson_set_choice = w.Dropdown(options=self._set_options(self.settings.lang), value=self._lesson_set,
                                            layout=w.Layout(width="auto"))
        self.lesson_set_choice.add_class("ssl-lesson-sets")
        self.lesson_set_choice.observe(lambda c: None if self._relabeling else self._choose_lesson_set(c["new"]),
                                       "value")
        self.lesson_progress = w.HTML()
        self.lesson_progress.add_class("ssl-lesson-progress")
        self.lesson_dots = w.HTML()
        self.lesson_dots.add_class("ssl-lesson-dots")
        self.puzzle_chooser = PuzzleChooser(self._puzzle_choice)
        head = w.HBox([self.lessons_back, self.lesson_set_choice, self.puzzle_chooser.box, self.lesson_progress,
                       self.lesson_dots], layout=lay(width="100%"))
        head.add_class("ssl-lesson-head")
        self.lesson_intro = w.HTML(layout=lay(width="100%"))
        self.lesson_intro.add_class("ssl-lesson-intro")
        self.lesson_task = w.HTML(layout=lay(width="100%"))
        self.lesson_task.add_class("ssl-lesson-task")
        self.lesson_feedback = w.HTML(layout=lay(width="100%"))
        self.lesson_feedback.add_class("ssl-lesson-feedback")
        self.lesson_retry = w.Button(button_style="warning", layout=lay(width="auto"))
        self.lesson_retry.add_class("ssl-lesson-retry")
        self.lesson_retry.on_click(lambda _b: self.retry_lesson())
        self.lesson_prev = w.Button(layout=lay(width="auto"))
        self.lesson_prev.add_class("ssl-lesson-prev")
        self.lesson_prev.on_click(lambda _b: self.next_lesson(-1))
        self.lesson_next = w.Button(button_style="success", layout=lay(width="auto"))
        self.lesson_next.add_class("ssl-lesson-next")
        self.lesson_next.on_click(lambda _b: self.next_lesson(1))
        self.puzzle_line = _puzzle_line.PuzzleLine(self._show_line_position, self.retry_lesson)
        buttons = w.HBox([self.lesson_prev, self.lesson_retry, self.puzzle_line.button, self.lesson_next],
                         layout=lay(flex_flow="row wrap"))
        side = w.VBox([self.lesson_task, buttons, self.puzzle_line.box, self.lesson_feedback, self.lesson_intro],
                      layout=lay(width=SIDE_WIDTH, flex="0 0 auto"))
        side.add_class("ssl-lesson-side")
        self._lesson_board_box = w.Box(layout=lay(flex="1 1 0", min_width="0", width="auto"))
        main = w.HBox([self._lesson_board_box, side], layout=lay(width="100%", align_items="flex-start"))
        self.lesson_title = w.HTML()
        page = w.VBox([w.HTML(CSS, layout=lay(display="none")), self.store, head, self.lesson_title, main],
                      layout=lay(width="100%"))
        page.add_class("ssl-lessons")
        self._lessons_page = page
        self._open_lesson_at(self._lesson_set, self._lesson_index.get(self._lesson_set, 0))
        return page

    def _set_options(self, lang: str) -> list[tuple[str, str]]:
        """The set chooser's (label, key) pairs in ``lang``: a puzzle set as "Puzzles: " and its game's title."""
        return [(PUZZLE_TEXTS[lang]["set"].format(title=title) if key.startswith(PUZZLES) else title, key)
                for key, title, _g, _e in self._lesson_sets]

    def _set_lessons(self) -> list[Lesson]:
        key = self._lesson_set
        _k, _title, game, expansion = next(s for s in self._lesson_sets if s[0] == key)
        if key.startswith(PUZZLES):
            return list(_puzzle_lessons.puzzle_lessons(game, expansion))
        return lessons(game, expansion)

    def _shown_lessons(self) -> list[Lesson]:
        """The set's lessons on offer: a puzzle set's of the theme and difficulty chosen, a lesson set's all."""
        found = self._set_lessons()
        if self._lesson_set.startswith(PUZZLES) and self._lessons_page is not None:
            return self.puzzle_chooser.shown(self._lesson_set, found)
        return found

    def _puzzle_choice(self) -> None:
        """Another theme or difficulty picked: its first puzzle, unless the one shown is of it."""
        shown = self._shown_lessons()
        if self.lesson not in shown:
            self._open_lesson_at(self._lesson_set, self._set_lessons().index(shown[0]))
        else:
            self.redraw()

    # ---- moving between lessons -------------------------------------------------------------------------

    def _choose_lesson_set(self, key: str) -> None:
        if key != self._lesson_set:
            self._open_lesson_at(key, self._lesson_index.get(key, 0))

    def _open_lesson_at(self, key: str, index: int) -> None:
        self._lesson_set = key
        if self._lessons_page is not None and self.lesson_set_choice.value != key:
            self.lesson_set_choice.value = key  # its observer finds the same set: nothing more happens
        found = self._set_lessons()
        index = max(0, min(index, len(found) - 1))
        self._lesson_index[key] = index
        if self._lessons_page is not None and found[index] not in self._shown_lessons():
            self.puzzle_chooser.clear(key)  # a puzzle a link or the tab's progress names is always shown
        self.lesson = found[index]
        self.retry_lesson()
        self._keep()

    def open_lesson(self, name: str) -> bool:
        """Put the shipped lesson ``name`` (its id or file name; ``puzzle:ID`` a shipped puzzle) on the page; False
        (and nothing changes) if there is no such lesson."""
        if name.startswith("puzzle:"):
            return self._open_puzzle(name)
        try:
            lesson = shipped_lesson(name)
        except ValueError:
            return False
        for key, _title, game, expansion in self._lesson_sets:
            if (game, expansion) == (lesson.game, lesson.expansion):
                self.page()
                self._named = True
                self._open_lesson_at(key, [x.id for x in lessons(game, expansion)].index(lesson.id))
                return True
        return False

    def _open_puzzle(self, name: str) -> bool:
        for key, _title, game, expansion in self._lesson_sets:
            if key.startswith(PUZZLES):
                ids = [x.id for x in _puzzle_lessons.puzzle_lessons(game, expansion)]
                if name in ids:
                    self.page()
                    self._named = True
                    self._open_lesson_at(key, ids.index(name))
                    return True
        return False

    def next_lesson(self, step: int = 1) -> None:
        """The next lesson of the set (``step=-1``: the one before); of a puzzle set, of the theme and difficulty
        chosen."""
        found, shown = self._set_lessons(), self._shown_lessons()
        here = found[self._lesson_index.get(self._lesson_set, 0)]
        at = shown.index(here) if here in shown else 0
        self._open_lesson_at(self._lesson_set, found.index(shown[max(0, min(at + step, len(shown) - 1))]))

    def retry_lesson(self) -> None:
        """The lesson from its start again (its position, the bots moved until the learner decides)."""
        lesson = self.lesson
        if lesson is None:
            return
        self._lesson_state = state = lesson.start()
        self._lesson_verdict = None
        if self._lessons_page is not None:
            self.puzzle_line.stop()  # the puzzle's own position again, not a line's
        board = old = getattr(self, "lesson_board", None)
        if board is not None and board.default_game == state.game:  # the same game's board: the page keeps its view
            board.show(state)  # a fresh log, no error, clicks of the lesson before refused (a new rev)
            board.seat = lesson.seat
        else:
            board = board_for(state, lang=self.settings.lang, lang_switch=False, seat=lesson.seat)
            board.layout = w.Layout(flex="1 1 0", min_width="0", width="100%")
            board.add_class("ssl-lesson-board")
            board.on_action(self._on_lesson_action)
            self.lesson_board = board
        if self._lessons_page is not None:
            if self._lesson_board_box.children != (board,):
                self._lesson_board_box.children = (board,)
            self.redraw()
        if old is not None and old is not board:
            old.close()  # the board of another game, out of the page

    def lesson_move(self, action: str) -> Verdict:
        """The learner's move in the current lesson, as a click would play it; the verdict (IllegalAction for a
        move the rules refuse, nothing changed)."""
        before = self._lesson_state
        assert self.lesson is not None
        verdict = self.lesson.judge(before, action)
        self._lesson_before = before
        self._lesson_verdict = verdict
        self._lesson_state = verdict.after
        if verdict.ok:
            self._lessons_done.setdefault(self._lesson_set, set()).add(self.lesson.id)
        elif self.lesson.id not in self._lessons_done.get(self._lesson_set, set()):  # a wrong move: no first try now
            self._lessons_missed.setdefault(self._lesson_set, set()).add(self.lesson.id)
        self._keep()
        self.lesson_board.state = verdict.after
        self.redraw()
        return verdict

    def _show_line_position(self, after: Any, before: Any) -> None:
        """A position of "Show me"'s line on the board (``before``: the one it came from, for the board's marks)."""
        self.lesson_board.show(after, [] if before is None else [before])

    def _on_lesson_action(self, action: Any) -> None:
        if self._lessons_page is not None and self.puzzle_line.showing:  # the line on the board: no move of the learner
            self._refuse("showing")
            return
        if self._lesson_verdict is not None:  # judged already: the board keeps the result until Try again / Next
            self.lesson_board.state = self._lesson_state
            self._refuse("judged")
            return
        self.lesson_move(str(action))

    @staticmethod
    def _refusal_text(key: str, lang: str) -> str:
        return _puzzle_line.t(lang, "showing") if key == "showing" else t(lang, "judged")

    def _refuse(self, key: str) -> None:
        """The page's refusal ``key`` in the board's banner, in the app's language (redraw keeps it in it)."""
        self._refusal = key
        self.lesson_board.error = self._refusal_text(key, self.settings.lang)

    # ---- the progress kept in the browser tab ------------------------------------------------------------

    def _set_ids(self) -> dict[str, list[str]]:
        """Every lesson set's key and its lessons' ids, in order (what progress from the browser is checked by)."""
        out = {}
        for key, _title, game, expansion in self._lesson_sets:
            puzzle_set = key.startswith(PUZZLES)
            found = _puzzle_lessons.puzzle_lessons(game, expansion) if puzzle_set else lessons(game, expansion)
            out[key] = [x.id for x in found]
        return out

    def progress(self) -> Progress:
        """The page's progress: the set shown, the lesson index per set, the lessons solved per set and those with a
        wrong move before their first solve."""
        return Progress(self._lesson_set, dict(self._lesson_index),
                        {k: set(v) for k, v in self._lessons_done.items() if v},
                        {k: set(v) for k, v in self._lessons_missed.items() if v})

    def _keep(self) -> None:
        if self.store is not None:
            self.store.keep(self.progress())

    def _restore(self, kept: Progress) -> None:
        """The progress the browser tab kept (checked by the store): the solved lessons back, and the lesson that was
        shown, unless a link named the lesson to show."""
        shown = (self._lesson_set, self._lesson_index.get(self._lesson_set, 0))
        for key, ids in kept.done.items():
            self._lessons_done.setdefault(key, set()).update(ids)
        for key, ids in kept.missed.items():
            self._lessons_missed.setdefault(key, set()).update(ids)
        for key, n in kept.index.items():
            if not (self._named and key == shown[0]):
                self._lesson_index[key] = n
        want = shown if self._named else (kept.current, self._lesson_index.get(kept.current, 0))
        if self._lessons_page is not None and want != shown:
            self._open_lesson_at(*want)  # keeps the progress again
            return
        self._keep()
        self.redraw()

    # ---- showing ----------------------------------------------------------------------------------------

    def redraw(self) -> None:
        """Every text of the page in the app's language, for the lesson and its state (the board keeps its state)."""
        if self._lessons_page is None or self.lesson is None:
            return
        lang = self._drawn_lang = self.settings.lang
        lesson, state, verdict = self.lesson, self._lesson_state, self._lesson_verdict
        full, found = self._set_lessons(), self._shown_lessons()
        index = found.index(lesson) if lesson in found else 0  # its place among the lessons on offer
        done = self._lessons_done.get(self._lesson_set, set())
        self.lessons_back.description = t(lang, "back")
        self.lesson_retry.description = t(lang, "try_again")
        self.lesson_prev.description = t(lang, "previous")
        self.lesson_next.description = t(lang, "next")
        self.lesson_prev.disabled = index == 0
        self.lesson_next.disabled = index == len(found) - 1
        self.lesson_retry.layout.visibility = "visible" if verdict is not None else "hidden"
        puzzles = self._lesson_set.startswith(PUZZLES)
        swap_options(self, self.lesson_set_choice, self._set_options(lang))
        self.puzzle_chooser.update(self._lesson_set, full if puzzles else [], lang, done,
                                   self._lessons_missed.get(self._lesson_set, set()))
        progress = PUZZLE_TEXTS[lang]["progress"] if puzzles else TEXTS[lang]["progress"]
        self.lesson_progress.value = html.escape(progress.format(n=index + 1, total=len(found)))
        dots = "".join(f'<span class="ssl-dot{" done" if x.id in done else ""}{" here" if i == index else ""}" '
                       f'title="{html.escape(x.say("title", lang))}"></span>'
                       for i, x in ((i, found[i]) for i in dot_window(len(found), index)))
        tips = PUZZLE_TEXTS if puzzles else TEXTS
        tip = html.escape(tips[lang]["progress_tip"].format(done=len(done & {x.id for x in found}), total=len(found)))
        self.lesson_dots.value = f'<span title="{tip}">{dots}</span>'
        title = html.escape(lesson.say("title", lang))
        self.lesson_title.value = f"<h2 style='margin:4px 0;font-size:20px'>{title}</h2>"
        self.lesson_intro.value = f"<p>{html.escape(lesson.say('text', lang))}</p>"
        if verdict is None and not state.is_over and state.to_move == lesson.seat:
            prompt = t(lang, "to_move", seat=html.escape(state.seat_name(state.to_move, lang)))
        else:
            prompt = ""
        self.lesson_task.value = (f"<b>{html.escape(t(lang, 'task'))}:</b> {html.escape(lesson.say('task', lang))}"
                                  + (f"<br><i>{prompt}</i>" if prompt else ""))
        self.lesson_feedback.value = self._feedback_html(lang)
        self.puzzle_line.offer(lesson, verdict is not None, lang)
        if self.lesson_board.lang != lang:
            self.lesson_board.lang = lang
        # the page's refusal still in the banner (no click or position since): in the new language too
        if self._refusal and self.lesson_board.error in {self._refusal_text(self._refusal, x) for x in LANGS}:
            self.lesson_board.error = self._refusal_text(self._refusal, lang)

    def _feedback_html(self, lang: str) -> str:
        lesson, verdict = self.lesson, self._lesson_verdict
        assert lesson is not None
        rule = (f"<details><summary>{html.escape(t(lang, 'rule'))}: {html.escape(lesson.rule_ref(lang))}</summary>"
                f"<p>{html.escape(lesson.rule_text(lang))}</p></details>")
        if verdict is None:
            return f"<p><i>{html.escape(t(lang, 'start_hint'))}</i></p>{rule}"
        events = verdict.marked(lang, lesson.event_keys(), lesson.seat)  # the move, the task's events, the seat's
        shown = "".join(f"<li>{html.escape(e)}</li>" for e, key in events if key)
        rest = [e for e, key in events if not key]
        if rest:
            items = "".join(f"<li>{html.escape(e)}</li>" for e in rest)
            shown += (f"<li><details><summary>{html.escape(t(lang, 'more', n=len(rest)))}</summary><ul>{items}</ul>"
                      "</details></li>")
        phrase = getattr(self._lesson_before, "phrase_action", None)  # the move in words, where the game has them
        words = phrase(verdict.action, lang) if phrase is not None else verdict.action
        played = (f"<p>{html.escape(t(lang, 'you_played'))}: <span title='{html.escape(verdict.action)}'>"
                  f"{html.escape(words)}</span></p>")
        happened = f"<b>{html.escape(t(lang, 'happened'))}:</b><ul>{shown}</ul>"
        if verdict.ok:
            last = ""
            if self.lesson is self._shown_lessons()[-1]:
                last = f"<p>{html.escape(t(lang, 'done_all'))}</p>"
            return (f'<p class="ok">{html.escape(t(lang, "solved"))}</p>'
                    f"<p><b>{html.escape(t(lang, 'why'))}:</b> {html.escape(lesson.say('explanation', lang))}</p>"
                    f"{rule}{last}{played}{happened}")
        return (f'<p class="bad">{html.escape(t(lang, "not_yet"))}</p>'
                f"<p><b>{html.escape(t(lang, 'hint'))}:</b> {html.escape(lesson.say('hint', lang))}</p>"
                f"{rule}{played}{happened}")
