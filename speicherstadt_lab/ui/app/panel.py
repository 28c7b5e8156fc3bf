"""What an app panel is: an object with its own widgets that is shown a node with the app's settings and tells the
coordinator (:class:`~.lab.LabApp`) what happened through events; it holds no reference to the app or another panel.

A panel's interface, all of it:

- ``show(node, settings)``: the coordinator's call after every step, language switch or job's end;
- ``on(event, handler)``: the coordinator subscribes to what the panel reports (``emit`` in the panel);
- ``close()``: stop what the panel runs in the background;
- its widgets, public attributes the coordinator lays out (and exposes under the app's own names).

``tests/ui/test_panels.py`` reads every panel module and fails when a panel reads an attribute it does not own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...records import Node


@dataclass(frozen=True)
class Settings:
    """What a panel is shown besides the node: the app's language and what the app is doing.

    Besides the language: whether long work runs in a thread, whether bots are moving on the board right now,
    whether the hidden order may be shown (the game is analysed), and whether a person is to move (the hint button).
    """

    lang: str
    threaded: bool = True
    bots_playing: bool = False
    hidden_open: bool = False
    human_to_move: bool = False


class Panel:
    """The base of an app panel: keeps the node and settings it was last shown and passes its events on."""

    def __init__(self, lang: str | None = None) -> None:
        self._handlers: dict[str, list[Callable[..., None]]] = {}
        self.node: Node | None = None
        self.settings = Settings(lang=lang or "en")  # the language the panel was made in, until its first show
        # the language the widgets' labels are in: ``lang`` for a panel that made them in it, else None (its first
        # show relabels)
        self._labels_lang: str | None = lang

    def on(self, event: str, handler: Callable[..., None]) -> None:
        """Call ``handler(**data)`` whenever the panel emits ``event``."""
        self._handlers.setdefault(event, []).append(handler)

    def emit(self, event: str, **data: Any) -> None:
        """Report ``event`` to the coordinator (every handler subscribed with :meth:`on`)."""
        for handler in self._handlers.get(event, ()):
            handler(**data)

    def show(self, node: Node, settings: Settings) -> None:
        """Show ``node`` with ``settings``; a panel adds what it draws (the base remembers them and calls
        :meth:`relabel` when the language is new)."""
        self.node = node
        self.settings = settings
        if settings.lang != self._labels_lang:
            self._labels_lang = settings.lang
            self.relabel(settings.lang)

    def relabel(self, lang: str) -> None:
        """Put the texts of ``lang`` on the panel's widgets (at its first show and on a language switch)."""

    def close(self) -> None:
        """Stop the panel's background work (the base has none)."""


class LatestWork:
    """A panel's background work of which only the newest call counts: a new call cancels the one before, and
    :meth:`close` waits for every thread still running."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cancel: threading.Event | None = None
        self._threads: list[threading.Thread] = []

    def cancel(self) -> None:
        """Tell the work running to drop its result."""
        if self._cancel is not None:
            self._cancel.set()

    def fresh(self) -> threading.Event:
        """Cancel the work running and give the next call its own cancel event."""
        self.cancel()
        self._cancel = threading.Event()
        return self._cancel

    def run(self, target: Callable[..., None], args: tuple[Any, ...], threaded: bool) -> None:
        """``target(*args)`` in a thread, or here when the app is not ``threaded``."""
        if not threaded:
            target(*args)
            return
        thread = threading.Thread(target=target, args=args, name=self.name, daemon=True)
        # kept until they end, so that close() can wait for them: a daemon thread still inside numpy when the
        # interpreter exits aborted a test process now and then ("terminate called without an active exception")
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def close(self) -> None:
        """Cancel the work and wait for its threads."""
        self.cancel()
        for t in self._threads:
            t.join()
        self._threads = []


def line_of(node: Node) -> list[Node]:
    """``node``'s line: from its record's start through ``node``, on along first children."""
    path = node.record.path_to(node)
    while path[-1].children:
        path.append(path[-1].children[0])
    return path


def swap_options(holder: Any, widget: Any, options: list[tuple[str, str]]) -> None:
    """Give a dropdown new option labels and keep its value; ``holder._relabeling`` is True meanwhile, so the
    holder's observers can tell a relabelling from a user's choice (new options would select the first one)."""
    if list(widget.options) == options:
        return
    value = widget.value
    holder._relabeling = True
    try:
        with widget.hold_sync():  # one message to the page, never the first option selected in between
            widget.options = options
            widget.value = value
    finally:
        holder._relabeling = False
