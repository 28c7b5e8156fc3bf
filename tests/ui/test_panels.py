"""The app's panels and the coordinator's parts talk only through their interfaces (``ui/app/panel.py``, the parts'
constructors): read from the source.

A panel class (a subclass of ``Panel``) reads only the attributes it owns (what its own class or ``Panel`` assigns
or defines), imports neither the coordinator nor another panel's module, and the coordinator and its parts never
read a panel's private attribute. ``LabApp`` mixes in nothing: each part of the coordinator is an object that reads
only what it owns (what it was given), holds no reference to the app and reads no other object's private attribute.
Each rule is also run on a source that breaks it, so the checks can fail.
"""

from __future__ import annotations

import ast
import threading

from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.panel import Panel, Settings
from tests.support.paths import REPO

APP = REPO / "speicherstadt_lab" / "ui" / "app"
BASE = "Panel"


def _trees() -> dict[str, ast.Module]:
    return {f.stem: ast.parse(f.read_text(encoding="utf-8")) for f in sorted(APP.glob("*.py"))}


def _panel_classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [c for c in tree.body if isinstance(c, ast.ClassDef)
            and any(isinstance(b, ast.Name) and b.id == BASE for b in c.bases)]


def _owned(cls: ast.ClassDef) -> set[str]:
    """The names a class defines: its methods and class attributes, and every ``self.X`` it assigns."""
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    for n in cls.body:
        if isinstance(n, ast.Assign):
            names |= {t.id for t in n.targets if isinstance(t, ast.Name)}
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
    for n in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = list(n.targets)
        elif isinstance(n, ast.AnnAssign | ast.AugAssign):
            targets = [n.target]
        while targets:  # ``self.X = …`` and ``self.X, self.Y = …``, not ``self.other.X = …``
            t = targets.pop()
            if isinstance(t, ast.Tuple | ast.List | ast.Starred):
                targets += t.elts if isinstance(t, ast.Tuple | ast.List) else [t.value]
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                names.add(t.attr)
    return names


def _self_reads(cls: ast.ClassDef) -> set[str]:
    return {n.attr for n in ast.walk(cls)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}


def foreign_reads(trees: dict[str, ast.Module]) -> list[str]:
    """Every ``self.X`` a panel class reads that neither it nor ``Panel`` owns (say the app's ``node`` or
    another panel's widget, as the mixins did)."""
    base = next(c for c in trees["panel"].body if isinstance(c, ast.ClassDef) and c.name == BASE)
    inherited = _owned(base)
    out = []
    for mod, tree in trees.items():
        for cls in _panel_classes(tree):
            extra = _self_reads(cls) - _owned(cls) - inherited
            out += [f"{mod}.{cls.name} reads self.{name}" for name in sorted(extra)]
    return out


def forbidden_imports(trees: dict[str, ast.Module]) -> list[str]:
    """Every import, in a module defining a panel class, of the coordinator or of another module of the app that
    defines a panel or one of the coordinator's parts."""
    parts = {name for names in PARTS.values() for name in names}
    owners = {mod for mod, tree in trees.items()
              if _panel_classes(tree) or any(isinstance(c, ast.ClassDef) and c.name in parts for c in tree.body)}
    owners.add("lab")
    out = []
    for mod, tree in trees.items():
        if not _panel_classes(tree):
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.level == 1:
                target = (n.module or "").split(".")[0]
                names = [target] if target else [a.name for a in n.names]
                out += [f"{mod} imports .{t}" for t in names if t in owners and t != mod]
    return out


def private_panel_reads(trees: dict[str, ast.Module]) -> list[str]:
    """Every read of a panel object's private attribute (``….panels.<name>._y``) anywhere in the app's modules."""
    out = []
    for mod, tree in trees.items():
        for n in ast.walk(tree):
            if (isinstance(n, ast.Attribute) and n.attr.startswith("_") and isinstance(n.value, ast.Attribute)
                    and isinstance(n.value.value, ast.Attribute) and n.value.value.attr == "panels"):
                out.append(f"{mod} reads panels.{n.value.attr}.{n.attr}")
    return out


#: Every panel object of the app, by module: the checks below cover each of them.
PANELS = {"charts_panel": "ChartsPanel", "classroom": "ClassroomPanel", "hint_panel": "HintPanel",
          "lessons_panel": "LessonsPanel", "live_panel": "LivePanel", "movelist": "MoveListPanel",
          "review": "ReviewPanel", "rules_panel": "RulesPanel", "scenario_panel": "ScenarioPanel",
          "seats": "SeatsPanel", "whatif_panel": "WhatIfPanel"}


def test_panels_read_only_what_they_own_and_import_no_other_panel() -> None:
    trees = _trees()
    found = {mod: cls.name for mod, tree in trees.items() for cls in _panel_classes(tree)}
    assert found == PANELS  # a panel added, or a part of the coordinator made a panel: list it here
    # the coordinator mixes in nothing: its parts and its panels are objects it holds
    assert LabApp.__bases__ == (object,)
    assert not issubclass(LabApp, Panel)
    assert foreign_reads(trees) == []
    assert forbidden_imports(trees) == []
    assert private_panel_reads(trees) == []


#: The coordinator's parts and plain helpers, by module: objects given what they need (the lock, the timer, the
#: panels they drive, callbacks), each reading only its own attributes.
PARTS = {"labels": ("Labels",), "navigation": ("NavBar", "Navigation", "Explanation"),
         "jobs_panel": ("JobBar", "JobRunner", "Analyses"), "sharing": ("Sharing", "Files"), "playing": ("Player",),
         "panel_host": ("ChartTimer", "Bots", "ReviewDesk", "WhatIf"), "page": ("Page",)}
#: What a part must not hold: the app or the coordinator's own state (it is given callbacks for what it needs).
APP_NAMES = {"app", "lab", "coordinator", "record", "node", "panels"}


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}


def _private_reads_of_others(node: ast.AST) -> set[str]:
    """Every ``X._y`` in ``node`` whose ``X`` is not ``self`` itself (``self._part._y``, ``app._job``, ...)."""
    return {ast.unparse(n) for n in ast.walk(node) if isinstance(n, ast.Attribute) and n.attr.startswith("_")
            and not n.attr.startswith("__") and not (isinstance(n.value, ast.Name) and n.value.id == "self")}


def part_violations(trees: dict[str, ast.Module], parts: dict[str, tuple[str, ...]] = PARTS) -> list[str]:
    """Every breach of a part's interface: a ``self.X`` read it does not own, a name of the app's state held, a
    constructor parameter typed as the app, another object's private attribute read, an import of the coordinator;
    and, in ``lab.py``, a read of a part's private attribute (``self.part._x``)."""
    out = []
    for mod, names in parts.items():
        classes = _classes(trees[mod])
        for mod_import in ast.walk(trees[mod]):
            if isinstance(mod_import, ast.ImportFrom) and mod_import.level == 1 and (mod_import.module or "") == "lab":
                out.append(f"{mod} imports .lab")
        for name in names:
            cls = classes[name]
            out += [f"{mod}.{name} reads self.{x}" for x in sorted(_self_reads(cls) - _owned(cls))]
            out += [f"{mod}.{name} holds {x}" for x in sorted({a.lstrip("_") for a in _owned(cls)} & APP_NAMES)]
            out += [f"{mod}.{name} reads {x}" for x in sorted(_private_reads_of_others(cls))]
            init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            for arg in init.args.args if init else ():
                if arg.annotation is not None and "LabApp" in ast.unparse(arg.annotation):
                    out.append(f"{mod}.{name} is given the app ({arg.arg})")
    lab = _classes(trees["lab"])["LabApp"]
    out += [f"lab.LabApp reads {ast.unparse(n)}" for n in ast.walk(lab)
            if isinstance(n, ast.Attribute) and n.attr.startswith("_") and isinstance(n.value, ast.Attribute)
            and isinstance(n.value.value, ast.Name) and n.value.value.id == "self"]
    return sorted(out)


def test_the_coordinators_parts_read_only_what_they_own() -> None:
    trees = _trees()
    assert part_violations(trees) == []
    for mod, names in PARTS.items():  # every part listed exists, and none of them is a panel
        assert set(names) <= set(_classes(trees[mod])), mod
        assert not {c.name for c in _panel_classes(trees[mod])} & set(names), mod


def test_the_part_check_catches_a_part_that_reaches_into_the_app() -> None:
    trees = _trees()
    trees["sneaky_part"] = ast.parse(
        "from .lab import LabApp\n"
        "class Sneaky:\n"
        "    def __init__(self, app: LabApp, jobs):\n        self.app = app\n        self._jobs = jobs\n"
        "    def go(self):\n        return self.node.ply + self._jobs._job + self.app.panels.live._lock\n")
    trees["lab"] = ast.parse("class LabApp:\n    def f(self):\n        return self.jobs._job\n")
    assert part_violations(trees, {**PARTS, "sneaky_part": ("Sneaky",)}) == sorted([
        "sneaky_part imports .lab", "sneaky_part.Sneaky reads self.node", "sneaky_part.Sneaky holds app",
        "sneaky_part.Sneaky reads self._jobs._job", "sneaky_part.Sneaky reads self.app.panels.live._lock",
        "sneaky_part.Sneaky is given the app (app)", "lab.LabApp reads self.jobs._job"])


def test_the_checks_catch_a_panel_that_reaches_into_the_app() -> None:
    trees = _trees()
    bad = ast.parse(
        "from .panel import Panel\nfrom .lab import LabApp\nfrom .rules_panel import RulesPanel\n"
        "class Sneaky(Panel):\n"
        "    def __init__(self):\n        super().__init__()\n        self.box = 1\n"
        "    def show(self, node, settings):\n        self.box = self.lang_code + self.live_box.value\n"
        "        self.rules_panel.x = self.app.panels.rules._shown\n")
    trees["sneaky"] = bad
    assert foreign_reads(trees) == ["sneaky.Sneaky reads self.app", "sneaky.Sneaky reads self.lang_code",
                                    "sneaky.Sneaky reads self.live_box", "sneaky.Sneaky reads self.rules_panel"]
    assert forbidden_imports(trees) == ["sneaky imports .lab", "sneaky imports .rules_panel"]
    assert private_panel_reads(trees) == ["sneaky reads panels.rules._shown"]


def test_a_panel_reports_by_events_and_the_app_reacts() -> None:
    seen: list[dict[str, object]] = []
    panel = Panel()
    panel.on("ping", lambda **data: seen.append(data))
    panel.emit("ping", n=1)
    panel.emit("other")
    assert seen == [{"n": 1}]
    app = LabApp(players=2, seed=1, threaded=False, chart_delay=0)
    try:
        app.tutorial_button.value = True
        app.panels.rules.button.value = True  # the rules panel emits "opened": the app shows the lab page
        assert not app.tutorial_button.value and app.rules is app.panels.rules.accordion
        assert app.panels.rules.node is app.node
        assert app.panels.rules.settings == Settings("en", False, False, human_to_move=True)  # seat 0, a person
        assert sorted(type(p).__name__ for p in app.panels) == sorted(PANELS.values())
        app.play(app.state.legal_actions()[0])
        assert all(panel.node is app.node for panel in app.panels)
        app.set_lang("de")
        assert app.panels.live.settings.lang == "de" and app.live.description == "Live-Analyse"
        assert app.scenario_current.description == "Diese Stellung"  # the scenario panel relabelled, too
        assert app.seat_kinds[0].options[0] == ("Mensch", "human") and app.seat_kinds[0].value == "human"  # seats
        for panel in (app.panels.seats, app.panels.live):  # relabelled through the one hook, not in their own show
            assert "relabel" in type(panel).__dict__ and "_labelled" not in vars(panel)
        app.live.value = False  # the toggle emits "toggled": the app shows the panel again, which empties it
        assert app.live_box.value == ""
    finally:
        app.close()
    assert not [t for t in threading.enumerate() if t.name == "speicherstadt-lab-live"]
