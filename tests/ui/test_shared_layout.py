"""Shared, frozen Layout/Style models: the app makes fewer widget models at start, and a shared one refuses changes
(docs/architecture.md, "Opening the app")."""

from __future__ import annotations

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_string import HTMLStyle

from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.shared_layout import FrozenError, FrozenLayout, fixed_layout, fixed_style

# 262 widget models before the shared layouts, 224 with them (measured); a little room above that
MAX_START_MODELS = 235


def test_app_start_makes_fewer_models() -> None:
    before = set(_instances)
    app = LabApp(players=3, seed=1, query=None)
    made = [x for k, x in _instances.items() if k not in before]
    # the page gets every model made now and the shared ones they use (made by an earlier app in this process, if any)
    shared = {id(x.layout): x.layout for x in made if isinstance(getattr(x, "layout", None), FrozenLayout)}
    sent = {id(x) for x in made} | set(shared)
    app.close()
    assert len(sent) < MAX_START_MODELS, f"{len(sent)} widget models at start"
    assert len(shared) > 5, "the shared layouts are used"


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
    with pytest.raises(ValueError, match="no shared style for Layout"):
        fixed_style(w.Layout)


def test_a_closed_shared_instance_is_made_again() -> None:
    old = fixed_layout(width="7px")
    old.close()
    new = fixed_layout(width="7px")
    assert new is not old and new.comm is not None and new.width == "7px"
