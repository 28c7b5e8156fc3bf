"""The Tutorial page's progress kept in the browser for the session: which lessons are solved, the lesson being
played, and for the puzzle score which puzzles had a wrong move before they were solved, in the tab's
``sessionStorage`` (JavaScript in ``widgets/lesson_store.js``).

The contract between the page and Python is the widget's ``stored`` trait (JSON text Python writes, the view
stores) and one message the view sends when it appears (after a reload): ``{"kind": "restore", "text": ...}``,
what the tab holds. Python checks that text field by field (:func:`parse_progress`); a bogus one is refused with
a :class:`LessonStoreError` naming the field, and nothing changes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import anywidget
import traitlets

from ..board import ASSETS

FORMAT = "speicherstadt-lab/lesson-progress/1"
KEY = "speicherstadt-lab/lessons"  # the sessionStorage key
MAX_TEXT = 100_000  # characters: more is no progress this page wrote
log = logging.getLogger(__name__)


class LessonStoreError(ValueError):
    """Progress from the browser that is refused; ``field`` names the part at fault (``done.kaispeicher[2]``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class Progress(NamedTuple):
    """The Tutorial page's progress: the set shown, the lesson index per set, the ids solved per set, and the ids
    with a wrong move before their first solve per set (``missed``: the puzzle score's first tries are the rest)."""

    current: str
    index: dict[str, int]
    done: dict[str, set[str]]
    missed: Mapping[str, set[str]] = {}  # never changed in place (each Progress is made anew)

    def to_json(self) -> str:
        """The progress as the JSON text the browser keeps (sets and ids sorted: the same progress, the same text)."""
        data: dict[str, Any] = {"format": FORMAT, "set": self.current, "index": dict(sorted(self.index.items())),
                                "done": {k: sorted(v) for k, v in sorted(self.done.items()) if v}}
        missed = {k: sorted(v) for k, v in sorted(self.missed.items()) if v}
        if missed:
            data["missed"] = missed
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LessonStoreError(field, f"expected an object, not {type(value).__name__}")
    return value


def _set_key(key: Any, field: str, sets: Mapping[str, Sequence[str]]) -> str:
    if not isinstance(key, str) or key not in sets:
        allowed = ", ".join(sets)
        raise LessonStoreError(field, f"{str(key)[:60]!r} is no lesson set (one of {allowed})")
    return str(key)


def parse_progress(text: Any, sets: Mapping[str, Sequence[str]]) -> Progress:
    """The progress in ``text`` (what the browser kept), checked against ``sets`` (set key -> its lesson ids, in
    order); raises :class:`LessonStoreError` naming the field at fault."""
    if not isinstance(text, str):
        raise LessonStoreError("text", f"expected the stored JSON text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise LessonStoreError("text", f"{len(text)} characters, more than {MAX_TEXT}")
    try:
        data = json.loads(text)
    except ValueError as err:
        raise LessonStoreError("text", f"not JSON ({err})") from None
    data = _object(data, "progress")
    unknown = sorted(set(data) - {"format", "set", "index", "done", "missed"})
    if unknown:
        raise LessonStoreError(str(unknown[0])[:60],
                               "is no field of the lesson progress (format, set, index, done, missed)")
    if data.get("format") != FORMAT:
        raise LessonStoreError("format", f"expected {FORMAT!r}, not {str(data.get('format'))[:60]!r}")
    current = _set_key(data.get("set"), "set", sets)
    index: dict[str, int] = {}
    for key, n in _object(data.get("index", {}), "index").items():
        field = f"index.{str(key)[:60]}"
        _set_key(key, field, sets)
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < len(sets[key]):
            raise LessonStoreError(field, f"expected a lesson's place 0 to {len(sets[key]) - 1}, not {str(n)[:60]}")
        index[key] = n
    done = _id_sets(data, "done", sets)
    missed = _id_sets(data, "missed", sets)
    return Progress(current, index, done, missed)


def _id_sets(data: dict[str, Any], name: str, sets: Mapping[str, Sequence[str]]) -> dict[str, set[str]]:
    """The part ``name`` of the progress: set key -> a list of its lessons' ids (none: empty), checked."""
    out: dict[str, set[str]] = {}
    for key, ids in _object(data.get(name, {}), name).items():
        field = f"{name}.{str(key)[:60]}"
        _set_key(key, field, sets)
        if not isinstance(ids, list):
            raise LessonStoreError(field, f"expected a list of lesson ids, not {type(ids).__name__}")
        for i, ident in enumerate(ids):
            if not isinstance(ident, str) or ident not in sets[key]:
                raise LessonStoreError(f"{field}[{i}]", f"{str(ident)[:60]!r} is no lesson of this set")
        out[key] = set(ids)
    return out


class LessonStore(anywidget.AnyWidget):
    """A hidden widget that keeps the lesson progress in the tab's ``sessionStorage``: ``keep(progress)`` stores it;
    what the tab held when the view appeared comes back, checked, to the ``on_restore`` callbacks."""

    _esm = ASSETS / "lesson_store.js"
    key = traitlets.Unicode(KEY).tag(sync=True)
    stored = traitlets.Unicode("").tag(sync=True)

    def __init__(self, sets: Callable[[], Mapping[str, Sequence[str]]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._sets = sets
        self._callbacks: list[Callable[[Progress], Any]] = []
        self.last_error = ""
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def keep(self, progress: Progress) -> None:
        """Have the browser keep ``progress`` (the view writes it to the tab's storage)."""
        self.stored = progress.to_json()

    def on_restore(self, callback: Callable[[Progress], Any]) -> None:
        """Call ``callback(progress)`` with the checked progress the browser reports."""
        self._callbacks.append(callback)

    def parse_message(self, msg: Any) -> Progress:
        """The progress a browser message carries; raises :class:`LessonStoreError` naming the field at fault."""
        if not isinstance(msg, dict):
            raise LessonStoreError("message", f"expected an object, not {type(msg).__name__}")
        if msg.get("kind") != "restore":
            raise LessonStoreError("kind", f"{str(msg.get('kind'))[:60]!r} is not 'restore'")
        return parse_progress(msg.get("text"), self._sets())

    def handle_message(self, msg: Any) -> bool:
        """Restore the progress a browser message reports; False (``last_error`` saying why, logged) for one refused,
        which changes nothing."""
        try:
            progress = self.parse_message(msg)
        except LessonStoreError as err:
            self.last_error = str(err)
            log.warning("lesson progress refused: %s", err)
            return False
        self.last_error = ""
        for callback in list(self._callbacks):
            callback(progress)
        return True
