"""Shared, frozen Layout and Style models: one widget model per set of properties instead of one per widget.

Every Layout or Style instance is a widget model of its own, sent to the page at start (a comm message, and a model
the browser makes). Widgets whose layout or style never changes after construction can share one instance;
:func:`fixed_layout` and :func:`fixed_style` give that instance, frozen so that a later change (``x.layout.display =
"none"``) fails loudly instead of changing every widget sharing it. The page sees an ordinary Layout/Style model.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle, ToggleButtonStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle


class FrozenError(AttributeError):
    """A trait of a shared, frozen Layout or Style was changed after construction."""


class _Frozen:
    """Mixin: every synced trait refuses changes once the instance is made (give the widget its own instance)."""

    _frozen = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frozen = True

    def _refuse(self, name: str) -> None:
        if self._frozen and name in self.keys and not name.startswith("_"):  # type: ignore[attr-defined]
            raise FrozenError(f"{type(self).__name__} is shared by several widgets and frozen: '{name}' cannot be "
                              f"changed; give the widget its own {type(self).__mro__[2].__name__} instead")

    def __setattr__(self, name: str, value: Any) -> None:
        self._refuse(name)
        super().__setattr__(name, value)

    def set_trait(self, name: str, value: Any) -> None:
        """Refuse a change of a synced trait (as attribute assignment does)."""
        self._refuse(name)
        super().set_trait(name, value)  # type: ignore[misc]

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Refuse a change of a synced trait sent by the page."""
        for name in sync_data:
            self._refuse(name)
        super().set_state(sync_data)  # type: ignore[misc]


class FrozenLayout(_Frozen, w.Layout):
    """A Layout shared by several widgets; its traits cannot change after construction."""


class FrozenHTMLStyle(_Frozen, HTMLStyle):
    """An HTMLStyle shared by several widgets; its traits cannot change after construction."""


class FrozenButtonStyle(_Frozen, w.ButtonStyle):
    """A ButtonStyle shared by several widgets; its traits cannot change after construction."""


class FrozenDescriptionStyle(_Frozen, DescriptionStyle):
    """A DescriptionStyle shared by several widgets; its traits cannot change after construction."""


class FrozenToggleButtonStyle(_Frozen, ToggleButtonStyle):
    """A ToggleButtonStyle shared by several widgets; its traits cannot change after construction."""


class FrozenCheckboxStyle(_Frozen, CheckboxStyle):
    """A CheckboxStyle shared by several widgets; its traits cannot change after construction."""


FROZEN: dict[type, type] = {w.Layout: FrozenLayout, HTMLStyle: FrozenHTMLStyle, w.ButtonStyle: FrozenButtonStyle,
                            DescriptionStyle: FrozenDescriptionStyle, ToggleButtonStyle: FrozenToggleButtonStyle,
                            CheckboxStyle: FrozenCheckboxStyle}
_made: dict[tuple[type, tuple[tuple[str, Any], ...]], Any] = {}


def _shared(kind: type, props: dict[str, Any]) -> Any:
    key = (kind, tuple(sorted(props.items())))
    made = _made.get(key)
    if made is None or made.comm is None:  # none yet, or closed (``Widget.close_all``): make a new one
        made = _made[key] = FROZEN[kind](**props)
    return made


def fixed_layout(**props: Any) -> w.Layout:
    """The shared, frozen Layout with these properties (one instance per set of properties)."""
    return _shared(w.Layout, props)  # type: ignore[no-any-return]


def fixed_style(kind: type, **props: Any) -> Any:
    """The shared, frozen Style of class ``kind`` (``HTMLStyle``, ``w.ButtonStyle``...) with these properties."""
    if kind not in FROZEN or kind is w.Layout:
        raise ValueError(f"no shared style for {kind.__name__}; one of "
                         f"{', '.join(k.__name__ for k in FROZEN if k is not w.Layout)}")
    return _shared(kind, props)
