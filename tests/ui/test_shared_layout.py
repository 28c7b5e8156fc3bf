"""Shared, frozen Layout/Style models: the app makes fewer widget models at start, and a shared one refuses changes
(docs/architecture.md, "Opening the app")."""

from __future__ import annotations

from typing import Any

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.shared_layout import FROZEN, FrozenError, FrozenLayout, fixed_layout, fixed_style

# 262 widget models before the shared layouts, 224 with them, 150 with the shared styles too (measured); a little room
MAX_START_MODELS = 160
SHARED = tuple(FROZEN.values())


def _reachable(top: w.Widget) -> dict[str, Any]:
    """Every model the page draws from ``top``: its children, layouts, styles... (any widget held by a synced trait)."""
    seen: dict[str, Any] = {}
    stack: list[Any] = [top]
    while stack:
        x = stack.pop()
        if isinstance(x, w.Widget):
            if x.model_id not in seen:
                seen[x.model_id] = x
                stack.extend(getattr(x, name) for name in x.keys)
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return seen


def test_app_start_makes_fewer_models() -> None:
    before = set(_instances)
    app = LabApp(players=3, seed=1, query=None)
    made = [x for k, x in _instances.items() if k not in before]
    # the page gets every model made now and the shared ones they use (made by an earlier app in this process, if any)
    shared = {id(m): m for x in made for m in (getattr(x, "layout", None), getattr(x, "style", None))
              if isinstance(m, SHARED)}
    sent = {id(x) for x in made} | set(shared)
    app.close()
    assert len(sent) < MAX_START_MODELS, f"{len(sent)} widget models at start"
    assert sum(isinstance(m, FrozenLayout) for m in shared.values()) > 5, "the shared layouts are used"
    assert sum(not isinstance(m, FrozenLayout) for m in shared.values()) >= 5, "the shared styles are used"


def test_the_app_makes_no_model_the_page_does_not_draw() -> None:
    """Every model made at start is part of the app's widget (the board, say, is made with the page's layout rather
    than given it after: its first Layout would be a model sent for nothing)."""
    before = set(_instances)
    app = LabApp(players=3, seed=1, query=None)
    made = {k: x for k, x in _instances.items() if k not in before}
    drawn = _reachable(app.widget)
    app.close()
    unused = sorted(type(x).__name__ for k, x in made.items() if k not in drawn)
    assert unused == [], f"models made at start the page never draws: {unused}"


def test_frozen_layout_refuses_a_change_naming_the_trait() -> None:
    shared = fixed_layout(width="100%")
    button = w.Button(layout=shared)
    with pytest.raises(FrozenError, match="'display'"):
        button.layout.display = "none"
    with pytest.raises(FrozenError, match="'width'"):
        shared.set_state({"width": "1px"})
    with pytest.raises(FrozenError, match="'border_top'"):
        shared.border = "1px solid red"
    assert shared.width == "100%" and shared.display is None, "the refused changes left it unchanged"


def test_shared_instances_look_like_plain_ones_to_the_page() -> None:
    assert fixed_layout(width="auto") is fixed_layout(width="auto")
    assert fixed_layout(width="auto").get_state() == w.Layout(width="auto").get_state()
    assert fixed_style(HTMLStyle).get_state() == HTMLStyle().get_state()
    assert fixed_style(w.ButtonStyle, font_weight="bold").get_state() == w.ButtonStyle(font_weight="bold").get_state()
    assert fixed_style(CheckboxStyle).get_state() == CheckboxStyle().get_state()
    with pytest.raises(ValueError, match="no shared style for Layout"):
        fixed_style(w.Layout)


def test_a_closed_shared_instance_is_made_again() -> None:
    old = fixed_layout(width="7px")
    old.close()
    new = fixed_layout(width="7px")
    assert new is not old and new.comm is not None and new.width == "7px"
