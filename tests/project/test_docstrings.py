"""Every public definition of the lab's engine, games and lab modules says what it is, in one or two lines.

Walks the modules below (packages with all their modules) with ``inspect``: module-level functions and classes
defined there whose names do not start with ``_``, and the public methods, properties, class and static methods
of those classes (defined in the class itself, so an inherited one is checked where it is written; a dataclass
field's default is no method). A class's docstring must be its own: the signature a dataclass or NamedTuple
writes in its place does not count. Its first paragraph (up to the first blank line) is at most two lines: the
summary; detail goes into the paragraphs after it.

The UI is walked too (the board views, charts and the app); the package's ``__init__`` only re-exports.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from functools import cached_property
from types import ModuleType
from typing import Any

import pytest

#: Packages walked with every module inside them.
PACKAGES = (
    "speicherstadt_lab.engine",
    "speicherstadt_lab.games",
    "speicherstadt_lab.bots",
    "speicherstadt_lab.value",
    "speicherstadt_lab.interop",
    "speicherstadt_lab.ui",
)
#: Single modules walked.
MODULES = (
    "speicherstadt_lab.records",
    "speicherstadt_lab.analysis",
    "speicherstadt_lab.reviewing",
    "speicherstadt_lab.simulation",
    "speicherstadt_lab.scenarios",
    "speicherstadt_lab.lessons",
    "speicherstadt_lab.puzzles",
    "speicherstadt_lab.puzzle_lessons",
    "speicherstadt_lab.hints",
    "speicherstadt_lab.heldout",
    "speicherstadt_lab.cardref",
    "speicherstadt_lab.resources",
    "speicherstadt_lab.cli",
)


def module_names() -> list[str]:
    """The names of every module walked: each package, the modules inside it, and ``MODULES``."""
    names = list(MODULES)
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.walk_packages(path, package + ".")]
    return sorted(names)


def _load(name: str) -> ModuleType:
    """The module, or a skip when an optional dependency of it (an extra such as ``[rl]``) is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] == "speicherstadt_lab":
            raise
        pytest.skip(f"{name} needs {e.name}, which is not installed")


def _function(member: Any) -> Any:
    """The function behind a class member (method, property, cached property, class or static method), or None."""
    if isinstance(member, staticmethod | classmethod):
        return member.__func__
    if isinstance(member, property):
        return member.fget
    if isinstance(member, cached_property):
        return member.func
    return member if inspect.isfunction(member) else None


def _has_doc(obj: Any) -> bool:
    """Whether ``obj`` has a docstring of its own (a class's is not the signature a dataclass writes for it)."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    if not doc or not doc.strip():
        return False
    return not (inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("))


def public_definitions(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """``(name, obj)`` of every public definition written in ``module``: ``module.name`` or ``module.Class.member``."""
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        yield f"{module.__name__}.{name}", obj
        if inspect.isclass(obj):
            fields = {f.name for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) else set()
            for member_name, member in vars(obj).items():
                if member_name in fields:  # a field's default (a function the harness calls), not a method
                    continue
                fn = _function(member)
                if member_name.startswith("_") or fn is None or fn.__module__ != module.__name__:
                    continue
                yield f"{module.__name__}.{name}.{member_name}", fn


def undocumented(module: ModuleType) -> Iterator[str]:
    """The public definitions of ``module`` without a docstring, as ``module.name`` or ``module.Class.member``."""
    return (name for name, obj in public_definitions(module) if not _has_doc(obj))


def summary_lines(doc: str) -> int:
    """How many lines the first paragraph of ``doc`` takes (up to its first blank line), as written in the source."""
    lines = inspect.cleandoc(doc).splitlines()
    return next((i for i, line in enumerate(lines) if not line.strip()), len(lines))


def long_summaries(module: ModuleType) -> Iterator[str]:
    """The documented public definitions of ``module`` whose first paragraph is longer than two lines."""
    for name, obj in public_definitions(module):
        if _has_doc(obj):
            doc = obj.__dict__["__doc__"] if inspect.isclass(obj) else obj.__doc__
            if summary_lines(doc) > 2:
                yield name


@pytest.mark.parametrize("name", module_names())
def test_every_public_definition_has_a_docstring(name: str) -> None:
    missing = list(undocumented(_load(name)))
    assert not missing, f"{len(missing)} public definition(s) without a docstring: {', '.join(missing)}"


@pytest.mark.parametrize("name", module_names())
def test_every_docstring_says_what_it_is_in_one_or_two_lines(name: str) -> None:
    long = list(long_summaries(_load(name)))
    assert not long, (f"{len(long)} docstring(s) whose first paragraph is over two lines (move the detail into a "
                      f"paragraph after a blank line): {', '.join(long)}")


def test_the_walk_finds_the_games_and_the_engine() -> None:
    names = module_names()
    for expected in ("speicherstadt_lab.engine.protocol", "speicherstadt_lab.games.speicherstadt.kaispeicher",
                     "speicherstadt_lab.games.packet_row.state", "speicherstadt_lab.records",
                     "speicherstadt_lab.scenarios", "speicherstadt_lab.engine.observation"):
        assert expected in names
    assert "speicherstadt_lab.ui.app.panel" in names  # the app's panels and coordinator
    assert "speicherstadt_lab.ui.widget_base" in names  # and the rest of the UI


def test_a_missing_docstring_is_found() -> None:
    module = ModuleType("docless")

    class Documented:
        """Has one."""

        def method(self) -> None:
            pass

    def bare() -> None:
        pass

    for obj in (Documented, bare):
        obj.__module__ = "docless"
    Documented.method.__module__ = "docless"
    module.Documented, module.bare = Documented, bare  # type: ignore[attr-defined]
    assert list(undocumented(module)) == ["docless.Documented.method", "docless.bare"]


def test_a_long_summary_is_found() -> None:
    module = ModuleType("wordy")

    class Short:
        """One line.

        Detail after a blank line, as long as it needs to be,
        over several lines.
        """

        def wordy(self) -> None:
            """A summary that runs on
            over a second line
            and a third one."""

        def two(self) -> None:
            """A summary in two lines,
            which is allowed."""

    def bare() -> None:
        pass

    for obj in (Short, bare):
        obj.__module__ = "wordy"
    Short.wordy.__module__ = Short.two.__module__ = "wordy"
    module.Short, module.bare = Short, bare  # type: ignore[attr-defined]
    assert list(long_summaries(module)) == ["wordy.Short.wordy"]
    assert [summary_lines(d) for d in ("One.", "One.\n\n    Two.\n    Three.", "a\n    b\n    c\n\n    d")] == [1, 1, 3]
