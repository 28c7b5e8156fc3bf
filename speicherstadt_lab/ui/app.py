"""The analysis app: the board, a game record with variations, bots, charts, save and load.

``LabApp()`` is what ``notebooks/app.ipynb`` shows (``make app`` serves it with Voilà). Every control is an
attribute, and every button has a method doing the same, so the app can be driven from Python::

    app = LabApp()
    app.new_game(players=3, seed=1, seats=["human", "greedy", "random"])
    app.play("place 2"); app.back(); app.play("place 3")      # a variation at ply 1
    app.bot_move(); app.wait()                                 # long work runs in a background thread
    text = app.save_json(); app.load_json(text)

Long work (bot moves, playing on, win chances) runs in one background thread at a time, with progress and
a cancel button; the board and the controls stay usable meanwhile. Charts follow the game a moment after
the board (``chart_delay``), so clicking stays quick.
"""

from __future__ import annotations

import html
import itertools
import threading
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anywidget
import ipywidgets as w
import pandas as pd
import traitlets

from ..analysis import evaluate
from ..bots import make_bot
from ..engine.errors import IllegalAction, RecordError
from ..engine.i18n import LANGS
from ..engine.protocol import GameInfo, Variant, games, get_game
from ..engine.rng import derive_seed
from ..records import GameRecord, Node
from ..reviewing import REVIEW_KEY, Review
from ..reviewing import review as run_review
from . import board_for, charts
from .model import LOG_SIZE, card_info, seat_tokens, show_value
from .probe import Probe

MAX_SEATS = 5
SEAT_KINDS = ("human", "random", "greedy", "mcts")
STAND_IN = "greedy"  # plays human seats when the bots play on to the end of a round or game
STRENGTHS = ("iterations=100", "iterations=200", "iterations=500", "iterations=1000", "seconds=1", "seconds=3")
EXPLAIN_ROWS = 8
SHOW_EVERY = 0.15  # seconds between board updates while bots play on
TRAJECTORY_CACHE = 8  # trajectories kept for the charts (the main line, the variation on the board, ...)
REVIEW_ROLLOUTS = 20  # per action at each decision: a 3-player game reviews in about a minute on one core

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Speicherstadt Lab", "players": "Players", "seed": "Seed", "new": "New game", "human": "Human",
        "random": "Random", "greedy": "Greedy", "mcts": "MCTS", "strength": "MCTS", "iterations": "{n} iterations",
        "seconds": "{n} s per move", "first": "Start", "back": "Back", "forward": "Forward", "last": "End of line",
        "bot": "Bot move", "round": "To end of round", "end": "To end of game", "auto": "Bots move by themselves",
        "cancel": "Cancel", "win": "Win chances", "rollouts": "Rollouts", "save": "Save JSON", "load": "Load JSON",
        "promote": "Make main line", "ply": "Ply {ply} of {last}", "main": "main line", "variation": "variation",
        "busy": "Busy: {job}. Wait for it or cancel it first.", "job_bot": "bot move", "job_round": "playing on",
        "job_end": "playing on", "job_auto": "bots moving", "job_win": "win chances",
        "played": "{n} moves played · round {round}", "thinking": "{seat} thinks…",
        "win_progress": "Win chances: {i} of {n} positions", "cancelled": "Cancelled.",
        "done_win": "Win chances: {n} positions ({rollouts} rollouts each, fair mode).",
        "loaded": "Loaded a record: {plies} plies in the main line, {branches} branch points.",
        "load_error": "Could not load the file: {error}", "tree_id": "Moves: the click names no move of this "
        "record (field 'id' = {got}).", "not_text": "the file is not UTF-8 text",
        "over": "The game is over.", "why": "Why {seat} played {action}", "no_explain":
        "After a bot's move, its reasons show here (per action: visits and expected score for MCTS).",
        "action": "action", "visits": "visits", "score": "exp. score", "wins": "win share", "value": "value",
        "stand_in": "Human seats are played by the Greedy bot when playing on.", "x_ply": "by ply",
        "x_round": "by round", "seats": "Players and bots", "error": "Error: {error}", "tree": "Moves and variations",
        "explain": "Bot's reasons", "start": "Start", "board_busy": "The bots are moving; wait or press Cancel.",
        "rollout_bot": "Rollout player", "rb_random": "random (fast)", "rb_greedy": "greedy (slow)",
        "review": "Review", "job_review": "game review", "review_rollouts": "Review rollouts",
        "review_progress": "Review: {i} of {n} decisions", "flagged": "Flagged decisions",
        "done_review": "Review: {n} decisions, {mistakes} mistakes, {inaccuracies} inaccuracies.",
        "no_review": "Press “Review” to check every decision of the main line (about a minute for 3 players).",
        "no_flags": "No decision was flagged.", "inaccuracy": "inaccuracy", "mistake": "mistake",
        "alt": "Ply {ply}: {seat} played <b>{action}</b> ({flag}). Better: <b>{best}</b> — "
               "{win:.0%} more win chance, {score:.1f} more points expected.",
        "play_better": "Play the better move", "tutorial": "Tutorial: your first game",
    },
    "de": {
        "title": "Speicherstadt-Labor", "players": "Spieler", "seed": "Startwert", "new": "Neues Spiel",
        "human": "Mensch", "random": "Zufall", "greedy": "Gierig", "mcts": "MCTS", "strength": "MCTS",
        "iterations": "{n} Iterationen", "seconds": "{n} s pro Zug", "first": "Anfang", "back": "Zurück",
        "forward": "Vor", "last": "Ende der Linie", "bot": "Botzug", "round": "Bis Rundenende",
        "end": "Bis Spielende", "auto": "Bots ziehen selbst", "cancel": "Abbrechen", "win": "Siegchancen",
        "rollouts": "Ausspielungen", "save": "JSON speichern", "load": "JSON laden",
        "promote": "Zur Hauptlinie machen", "ply": "Zug {ply} von {last}", "main": "Hauptlinie",
        "variation": "Variante", "busy": "Beschäftigt: {job}. Bitte warten oder erst abbrechen.",
        "job_bot": "Botzug", "job_round": "Weiterspielen", "job_end": "Weiterspielen", "job_auto": "Bots ziehen",
        "job_win": "Siegchancen", "played": "{n} Züge gespielt · Runde {round}", "thinking": "{seat} überlegt…",
        "win_progress": "Siegchancen: {i} von {n} Stellungen", "cancelled": "Abgebrochen.",
        "done_win": "Siegchancen: {n} Stellungen (je {rollouts} Ausspielungen, fairer Modus).",
        "loaded": "Partie geladen: {plies} Züge in der Hauptlinie, {branches} Verzweigungen.",
        "load_error": "Die Datei konnte nicht geladen werden: {error}", "tree_id": "Züge: der Klick nennt keinen "
        "Zug dieser Partie (Feld 'id' = {got}).", "not_text": "die Datei ist kein UTF-8-Text",
        "over": "Das Spiel ist vorbei.", "why": "Warum {seat} {action} spielte", "no_explain":
        "Nach einem Botzug stehen hier seine Gründe (je Aktion: Besuche und erwartete Punkte bei MCTS).",
        "action": "Aktion", "visits": "Besuche", "score": "erw. Punkte", "wins": "Sieganteil", "value": "Wert",
        "stand_in": "Beim Weiterspielen übernimmt der gierige Bot die menschlichen Plätze.", "x_ply": "nach Zug",
        "x_round": "nach Runde", "seats": "Spieler und Bots", "error": "Fehler: {error}", "tree": "Züge und Varianten",
        "explain": "Gründe des Bots", "start": "Start", "board_busy": "Die Bots ziehen; warten oder Abbrechen.",
        "rollout_bot": "Ausspieler", "rb_random": "zufällig (schnell)", "rb_greedy": "gierig (langsam)",
        "review": "Analyse", "job_review": "Partieanalyse", "review_rollouts": "Analyse-Ausspielungen",
        "review_progress": "Analyse: {i} von {n} Entscheidungen", "flagged": "Markierte Entscheidungen",
        "done_review": "Analyse: {n} Entscheidungen, {mistakes} Fehler, {inaccuracies} Ungenauigkeiten.",
        "no_review": "„Analyse“ prüft jede Entscheidung der Hauptlinie (etwa eine Minute bei 3 Spielern).",
        "no_flags": "Keine Entscheidung wurde markiert.", "inaccuracy": "Ungenauigkeit", "mistake": "Fehler",
        "alt": "Zug {ply}: {seat} spielte <b>{action}</b> ({flag}). Besser: <b>{best}</b> — "
               "{win:.0%} mehr Siegchance, {score:.1f} Punkte mehr erwartet.",
        "play_better": "Den besseren Zug spielen", "tutorial": "Tutorial: deine erste Partie",
    },
}


def text(lang: str, key: str, **args: Any) -> str:
    """An app text in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)


# ---- the variation tree --------------------------------------------------------------------------------

TREE_ESM = r"""
function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "ssl-tree";
  el.append(box);
  const seatOf = (s) => (model.get("seats") || [])[s] || { colour: "#999", name: "?" };
  function chip(item, ply, newRound) {
    const seat = seatOf(item.s);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ssl-t-move" + (item.v ? " ssl-t-fork" : "");
    b.dataset.id = item.i;
    b.title = `${ply}. ${seat.name}: ${item.a}`;
    const dot = document.createElement("span");
    dot.className = "ssl-t-dot";
    dot.style.background = seat.colour;
    b.append(dot, document.createTextNode(item.a));
    b.addEventListener("click", () => model.send({ kind: "goto", id: item.i }));
    return b;
  }
  function line(items, firstPly, depth) {
    const row = document.createElement("div");
    row.className = depth ? "ssl-t-line ssl-t-var" : "ssl-t-line";
    let round = null;
    items.forEach((item, k) => {
      if (item.r !== undefined && item.r !== round) {
        round = item.r;
        const r = document.createElement("span");
        r.className = "ssl-t-round";
        r.textContent = (model.get("labels").round || "R") + item.r;
        row.append(r);
      }
      row.append(chip(item, firstPly + k, depth));
      for (const alt of item.v || []) row.append(line(alt, firstPly + k, depth + 1));
      if (item.v) round = null;
    });
    return row;
  }
  function mark() {
    for (const old of box.querySelectorAll(".ssl-t-cur")) old.classList.remove("ssl-t-cur");
    const cur = box.querySelector(`[data-id="${model.get("current")}"]`);
    if (!cur) return;
    cur.classList.add("ssl-t-cur");
    const top = cur.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }
  function draw() {
    const tree = model.get("tree") || {};
    const start = document.createElement("button");
    start.type = "button";
    start.className = "ssl-t-move ssl-t-start" + ((tree.v || []).length ? " ssl-t-fork" : "");
    start.dataset.id = tree.root;
    start.textContent = model.get("labels").start || "Start";
    start.addEventListener("click", () => model.send({ kind: "goto", id: tree.root }));
    const main = line(tree.line || [], 1, 0);
    main.prepend(start);
    box.replaceChildren(main);
    mark();
  }
  model.on("change:tree", draw);
  model.on("change:seats", draw);
  model.on("change:labels", draw);
  model.on("change:current", mark);
  draw();
  return () => {
    model.off("change:tree", draw);
    model.off("change:seats", draw);
    model.off("change:labels", draw);
    model.off("change:current", mark);
  };
}
export default { render };
"""

TREE_CSS = """
.ssl-tree { max-height: 210px; overflow-y: auto; position: relative; padding: 4px; background: #fffaf0;
  border: 1px solid #d9c6a0; border-radius: 6px; font: 12px/1.35 "Segoe UI", "Helvetica Neue", Arial, sans-serif;
  color: #2b2118; }
.ssl-t-line { display: flex; flex-wrap: wrap; gap: 2px 3px; align-items: center; }
.ssl-t-var { flex-basis: 100%; margin: 2px 0 2px 10px; padding: 2px 0 2px 6px; border-left: 2px solid #c98f1b;
  background: rgba(201, 143, 27, .07); }
.ssl-t-move { border: 1px solid transparent; background: none; border-radius: 4px; padding: 0 4px; cursor: pointer;
  font: inherit; color: inherit; display: inline-flex; align-items: center; gap: 3px; white-space: nowrap; }
.ssl-t-move:hover { background: #f1e3c4; }
.ssl-t-cur { background: #8e3b2a !important; color: #fff7e8; }
.ssl-t-fork::after { content: ""; width: 5px; height: 5px; border: 2px solid #c98f1b; border-radius: 50%;
  margin-left: 1px; }
.ssl-t-cur.ssl-t-fork::after { border-color: #ffdf6b; }
.ssl-t-start { font-weight: 700; }
.ssl-t-dot { width: 8px; height: 8px; border-radius: 50%; display: inline-block; box-shadow: 0 0 0 1px rgba(0,0,0,.3); }
.ssl-t-round { font-size: 10px; font-weight: 700; color: #6f5d4b; background: #f1e3c4; border-radius: 8px;
  padding: 0 5px; margin-left: 2px; }
"""


class TreeView(anywidget.AnyWidget):
    """The record's moves as a compact tree: the main line, each variation indented after the move it
    replaces, moves with alternatives marked by a ring. A click sends ``{"kind": "goto", "id": n}``."""

    _esm = TREE_ESM
    _css = TREE_CSS
    tree = traitlets.Dict().tag(sync=True)
    current = traitlets.Int(0).tag(sync=True)
    seats = traitlets.List().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._callbacks: list[Callable[[int], Any]] = []
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def on_select(self, callback: Callable[[int], Any]) -> None:
        """Call ``callback(id)`` when a move is clicked."""
        self._callbacks.append(callback)

    def handle_message(self, msg: Any) -> bool:
        """A browser message; True if it was a well-formed ``goto`` (an integer ``id``). A ``goto`` with a
        bad ``id`` still reaches the callbacks, which say what is wrong with it."""
        if not (isinstance(msg, dict) and msg.get("kind") == "goto"):
            return False
        ident = msg.get("id")
        for callback in list(self._callbacks):
            callback(ident)
        return isinstance(ident, int) and not isinstance(ident, bool)


# ---- saving: a button that downloads the record ----------------------------------------------------------

SAVER_ESM = r"""
function render({ model, el }) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "jupyter-widgets jupyter-button widget-button ssl-save";
  const draw = () => { b.textContent = model.get("label"); b.disabled = model.get("disabled"); };
  b.addEventListener("click", () => model.send({ kind: "save" }));
  const onMsg = (msg) => {
    if (!msg || msg.kind !== "file") return;
    const url = URL.createObjectURL(new Blob([msg.text], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = msg.name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000);
  };
  model.on("change:label", draw);
  model.on("change:disabled", draw);
  model.on("msg:custom", onMsg);
  el.append(b);
  draw();
  return () => { model.off("change:label", draw); model.off("change:disabled", draw); model.off("msg:custom", onMsg); };
}
export default { render };
"""


class Saver(anywidget.AnyWidget):
    """A button that downloads a file made on demand by ``provider() -> (file name, text)``."""

    _esm = SAVER_ESM
    label = traitlets.Unicode("Save").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, provider: Callable[[], tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._provider = provider
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def handle_message(self, msg: Any) -> bool:
        """``{"kind": "save"}``: send the file to the browser, which downloads it."""
        if not (isinstance(msg, dict) and msg.get("kind") == "save"):
            return False
        name, body = self._provider()
        self.send({"kind": "file", "name": name, "text": body})
        return True


LOADER_ESM = r"""
function render({ model, el }) {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".json,application/json";
  input.style.display = "none";
  const b = document.createElement("button");
  b.type = "button";
  b.className = "jupyter-widgets jupyter-button widget-button ssl-load";
  const draw = () => { b.textContent = model.get("label"); b.disabled = model.get("disabled"); };
  b.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    const bytes = await file.arrayBuffer();
    model.send({ kind: "load", name: file.name }, undefined, [new DataView(bytes)]);
    input.value = "";
  });
  model.on("change:label", draw);
  model.on("change:disabled", draw);
  el.append(b, input);
  draw();
  return () => { model.off("change:label", draw); model.off("change:disabled", draw); };
}
export default { render };
"""


class Loader(anywidget.AnyWidget):
    """A button that opens a file and hands its name and bytes to ``consumer(name, data)``."""

    _esm = LOADER_ESM
    label = traitlets.Unicode("Load").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, consumer: Callable[[str, bytes], Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._consumer = consumer
        self.on_msg(lambda _w, content, buffers: self.handle_message(content, buffers))

    def handle_message(self, msg: Any, buffers: Sequence[Any] = ()) -> bool:
        """``{"kind": "load", "name": ...}`` with the file's bytes as the one buffer."""
        if not (isinstance(msg, dict) and msg.get("kind") == "load" and len(buffers) == 1):
            return False
        self._consumer(str(msg.get("name", "")), bytes(buffers[0]))
        return True


# ---- background jobs -----------------------------------------------------------------------------------


@dataclass
class Job:
    """One piece of long work: its kind, a cancel flag and (when threaded) its thread."""

    kind: str
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def plays(self) -> bool:
        """True for work that moves on the board (the board and navigation wait for it)."""
        return self.kind not in ("win", "review")


APP_CSS = """
<style>
.ssl-app { font-family: "Segoe UI", "Helvetica Neue", Arial, "Liberation Sans", sans-serif; color: #2b2118;
  max-width: 1280px; gap: 8px; }
.ssl-app .widget-label { color: #2b2118; }
.ssl-topbar { background: #6a2a1e; border-radius: 8px; padding: 4px 8px; align-items: center; gap: 6px;
  flex-wrap: wrap; }
.ssl-topbar .widget-label, .ssl-topbar label { color: #fff7e8 !important; }
.ssl-apptitle { color: #fff7e8; font: bold 17px Georgia, "DejaVu Serif", serif; margin-right: 6px; }
.ssl-panel { background: #fbf4e2; border: 2px solid #7a5230; border-radius: 8px; padding: 6px 8px; gap: 5px; }
.ssl-panel-title { font-weight: 700; font-size: 12px; color: #6f5d4b; text-transform: uppercase;
  letter-spacing: .4px; }
.ssl-navbtn button, button.ssl-navbtn { min-width: 0; font-size: 16px; font-weight: 700; padding: 0; }
.ssl-seatname { font-size: 13px; font-weight: 600; }
.ssl-seatdot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px;
  box-shadow: 0 0 0 1px rgba(0,0,0,.35); }
.ssl-save, .ssl-load { width: auto !important; }
.ssl-msg { font-size: 12px; }
.ssl-msg .ssl-err { background: #fde3d8; border: 1px solid #a8321e; color: #5e1407; border-radius: 5px;
  padding: 3px 8px; display: block; }
.ssl-msg .ssl-ok { color: #30562a; }
.ssl-status { font-size: 12px; color: #6f5d4b; }
.ssl-explain table { border-collapse: collapse; font-size: 12px; width: 100%; }
.ssl-explain th { text-align: left; color: #6f5d4b; font-weight: 600; border-bottom: 1px solid #d9c6a0;
  padding: 1px 4px; }
.ssl-explain td { padding: 1px 4px; border-bottom: 1px solid #f1e3c4; }
.ssl-explain td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ssl-explain tr.ssl-chosen td { background: #ffdf6b55; font-weight: 700; }
.ssl-explain .ssl-why { font-size: 12px; font-weight: 600; margin-bottom: 2px; }
.ssl-explain .ssl-none { font-size: 12px; color: #6f5d4b; }
.ssl-variation { background: #c98f1b; color: #2b2118; border-radius: 8px; padding: 0 6px; font-size: 11px;
  font-weight: 700; }
.ssl-mainline { background: #d9c6a0; border-radius: 8px; padding: 0 6px; font-size: 11px; }
.ssl-row { gap: 6px; }
.ssl-charts .js-plotly-plot, .ssl-charts .plot-container { width: 100%; }
</style>
"""


def game_variants() -> dict[str, tuple[GameInfo, Variant]]:
    """What the game chooser offers: every variant of every registered game, by key."""
    return {v.key: (info, v) for info in games() for v in info.choices()}


def variant_of(state: Any) -> str:
    """The chooser's key for the game ``state`` belongs to: the variant of its game whose options it has
    (the one with the most options, so the expansion wins over the plain game)."""
    fits = [(len(v.options), key) for key, (info, v) in game_variants().items()
            if info.name == state.game and all(getattr(state, k, None) == x for k, x in v.options.items())]
    return max(fits)[1] if fits else state.game


class LabApp:
    """The analysis app. ``widget`` is the whole app; the controls are attributes (see the module doc).

    ``threaded=False`` runs long work in the calling thread (simple scripts); ``chart_delay`` is how long
    the charts wait after the last move before they follow (0: at once).
    """

    def __init__(self, players: int = 3, seed: int = 1, seats: Sequence[str] | None = None, lang: str = "en",
                 threaded: bool = True, chart_delay: float = 0.12) -> None:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
        self.threaded = threaded
        self.chart_delay = chart_delay
        self._lock = threading.RLock()
        self._chart_lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._chart_gen = self._chart_synced = 0
        self._job: Job | None = None
        self._pending_auto = False
        self._syncing = False
        self._relabeling = False
        self._bots: dict[int, tuple[str, Any]] = {}
        self._explain: dict[Node, tuple[str, pd.DataFrame]] = {}
        self._win: dict[tuple[Node, int, str], pd.DataFrame] = {}
        self._traj: dict[Node, pd.DataFrame] = {}
        self._ids: dict[Node, int] = {}
        self._by_id: list[Node] = []
        self._tree_nodes = -1
        self._last_show = 0.0
        self.record = GameRecord.new(players=players, seed=seed)
        self.node = self.record.root
        self._build_controls(lang)
        self.new_game(players=players, seed=seed, seats=seats)
        self._apply_lang()

    # ---- controls -------------------------------------------------------------------------------------

    def _build_controls(self, lang: str) -> None:
        t = TEXTS[lang]
        lay = w.Layout
        self.lang = w.ToggleButtons(options=[("EN", "en"), ("DE", "de")], value=lang,
                                    style={"button_width": "46px"}, layout=lay(width="auto"))
        self.players = w.BoundedIntText(value=3, min=2, max=MAX_SEATS, description=t["players"],
                                        style={"description_width": "auto"}, layout=lay(width="104px"))
        self.seed = w.IntText(value=1, description=t["seed"], style={"description_width": "auto"},
                              layout=lay(width="124px"))
        self.seat_kinds = [w.Dropdown(options=self._kind_options(lang), value="human", layout=lay(width="100px"))
                           for _ in range(MAX_SEATS)]
        self.seat_labels = [w.HTML(layout=lay(width="auto")) for _ in range(MAX_SEATS)]
        for label in self.seat_labels:
            label.add_class("ssl-seatname")
        for k, dd in enumerate(self.seat_kinds):
            dd.add_class("ssl-seat-kind")
            dd.add_class(f"ssl-seat-kind-{k}")
        # One row per possible seat, made once and shown or hidden: rebuilding rows when the player count
        # changes replaced the dropdowns in the page while a user (or a browser test) was choosing in them.
        self._seat_rows = [w.HBox([label, dd], layout=w.Layout(align_items="center", justify_content="space-between"))
                           for label, dd in zip(self.seat_labels, self.seat_kinds, strict=True)]
        self.mcts_strength = w.Dropdown(options=self._strength_options(lang), value="iterations=200",
                                        description=t["strength"], style={"description_width": "auto"},
                                        layout=lay(width="180px"))
        self.new_button = w.Button(description=t["new"], button_style="warning", layout=lay(width="auto"))
        self.game = w.Dropdown(options=[(v.title, key) for key, (_i, v) in game_variants().items()],
                               value="speicherstadt", layout=lay(width="230px"))
        self.saver = Saver(self._file, label=t["save"])
        self.loader = Loader(lambda _name, data: self.load_json(data), label=t["load"])

        self.board = board_for(self.record.initial, lang=lang)

        self.first_button = w.Button(tooltip=t["first"], description="«", layout=lay(width="38px"))
        self.back_button = w.Button(tooltip=t["back"], description="‹", layout=lay(width="38px"))
        self.forward_button = w.Button(tooltip=t["forward"], description="›", layout=lay(width="38px"))
        self.last_button = w.Button(tooltip=t["last"], description="»", layout=lay(width="38px"))
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button):
            b.add_class("ssl-navbtn")
        self.slider = w.IntSlider(value=0, min=0, max=0, readout=False, continuous_update=True,
                                  layout=lay(flex="1 1 auto", width="auto", min_width="120px"))
        self.position = w.HTML(layout=lay(width="auto"))
        self.position.add_class("ssl-position")
        self.promote_button = w.Button(description=t["promote"], layout=lay(width="auto", display="none"))

        self.bot_button = w.Button(description=t["bot"], button_style="info", layout=lay(width="auto"))
        self.round_button = w.Button(description=t["round"], layout=lay(width="auto"))
        self.end_button = w.Button(description=t["end"], layout=lay(width="auto"))
        self.auto = w.Checkbox(value=True, description=t["auto"], indent=False, layout=lay(width="auto"))
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=lay(width="110px", display="none"))
        self.status = w.HTML(layout=lay(width="auto"))
        self.status.add_class("ssl-status")
        self.cancel_button = w.Button(description=t["cancel"], button_style="danger", disabled=True,
                                      layout=lay(width="auto"))
        self.message = w.HTML(layout=lay(width="100%"))
        self.message.add_class("ssl-msg")

        self.tree = TreeView(labels={"start": t["start"], "round": "R"})
        self.explanation = w.HTML(layout=lay(width="100%"))
        self.explanation.add_class("ssl-explain")

        self.x_mode = w.ToggleButtons(options=[(t["x_ply"], "ply"), (t["x_round"], "round")], value="ply",
                                      style={"button_width": "78px"}, layout=lay(width="auto"))
        self.win_button = w.Button(description=t["win"], button_style="success", layout=lay(width="auto"))
        self.rollouts = w.BoundedIntText(value=100, min=10, max=2000, step=10, description=t["rollouts"],
                                         style={"description_width": "auto"}, layout=lay(width="150px"))
        self.rollouts.add_class("ssl-rollouts")
        self.rollout_bot = w.Dropdown(options=[(t["rb_random"], "random"), (t["rb_greedy"], "greedy")],
                                      value="random", layout=lay(width="140px"))
        self.review_button = w.Button(description=t["review"], button_style="primary", layout=lay(width="auto"))
        self.review_button.add_class("ssl-review-btn")
        self.review_rollouts = w.BoundedIntText(value=REVIEW_ROLLOUTS, min=2, max=500, step=5,
                                                description=t["review_rollouts"], style={"description_width": "auto"},
                                                layout=lay(width="200px"))
        self.flag_list = w.Select(options=[], rows=6, layout=lay(width="100%"))
        self.alternative = w.HTML(layout=lay(width="100%"))
        self.alternative.add_class("ssl-explain")
        self.better_button = w.Button(description=t["play_better"], button_style="success",
                                      layout=lay(width="auto", display="none"))
        self.rules = w.Accordion(children=[w.HTML()], layout=lay(width="100%"))
        self.rules.selected_index = None
        self.tutorial_button = w.ToggleButton(value=False, layout=lay(width="auto"))
        self.tutorial_button.add_class("ssl-tutorial-btn")
        self.tutorial_button.observe(lambda _c: self._show_page(), "value")
        self._tutorial: tuple[str, w.Widget] | None = None
        self._flag_nodes: list[Node] = []
        self._shown_flag: Node | None = None
        self.chart = charts.figure_widget(charts.dashboard_spec(*self.chart_specs()))

        # wiring
        self.new_button.on_click(lambda _b: self.new_game())
        self.first_button.on_click(lambda _b: self.first())
        self.back_button.on_click(lambda _b: self.back())
        self.forward_button.on_click(lambda _b: self.forward())
        self.last_button.on_click(lambda _b: self.last())
        self.promote_button.on_click(lambda _b: self.promote())
        self.slider.observe(self._on_slider, "value")
        self.bot_button.on_click(lambda _b: self.bot_move())
        self.round_button.on_click(lambda _b: self.play_to_round_end())
        self.end_button.on_click(lambda _b: self.play_to_end())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.win_button.on_click(lambda _b: self.compute_win_chances())
        self.review_button.on_click(lambda _b: self.review_game())
        self.better_button.on_click(lambda _b: self.play_better())
        self.flag_list.observe(self._on_flag_list, "value")
        self.players.observe(lambda _c: self._show_seat_controls(), "value")
        self.x_mode.observe(lambda _c: None if self._relabeling else self._schedule_charts(now=True), "value")
        self.lang.observe(lambda _c: self._apply_lang(), "value")
        self._wire_board()
        self.tree.on_select(self._on_tree)
        for k, dd in enumerate(self.seat_kinds):
            dd.observe(lambda _c, k=k: self._bots.pop(k, None), "value")
        self.mcts_strength.observe(lambda _c: self._bots.clear(), "value")

        self.widget = self._layout()

    def _kind_options(self, lang: str, extra: Sequence[str] = ()) -> list[tuple[str, str]]:
        return [(text(lang, k), k) for k in SEAT_KINDS] + [(spec, spec) for spec in extra]

    def _strength_options(self, lang: str) -> list[tuple[str, str]]:
        out = []
        for spec in STRENGTHS:
            key, _, n = spec.partition("=")
            out.append((text(lang, key, n=n), spec))
        return out

    def _layout(self) -> w.Widget:
        css = w.HTML(APP_CSS, layout=w.Layout(display="none"))
        self._title = w.HTML()
        self._title.add_class("ssl-apptitle")
        self._seat_box = w.GridBox(self._seat_rows, layout=w.Layout(grid_template_columns="1fr 1fr",
                                                                    grid_gap="3px 10px", width="100%"))
        self._seat_box.add_class("ssl-seats")
        spacer = w.Box(layout=w.Layout(flex="1 1 auto"))
        top = w.HBox([self._title, self.game, self.players, self.seed, self.new_button, spacer, self.tutorial_button,
                      self.saver, self.loader, self.lang], layout=w.Layout(width="100%"))
        top.add_class("ssl-topbar")

        def panel(title_key: str, *children: w.Widget) -> w.VBox:
            head = w.HTML()
            head.add_class("ssl-panel-title")
            self._panel_titles.append((head, title_key))
            box = w.VBox([head, *children], layout=w.Layout(width="100%"))
            box.add_class("ssl-panel")
            return box

        self._panel_titles: list[tuple[w.HTML, str]] = []
        nav = w.HBox([self.first_button, self.back_button, self.slider, self.forward_button, self.last_button],
                     layout=w.Layout(width="100%", align_items="center"))
        where = w.HBox([self.position, self.promote_button], layout=w.Layout(align_items="center"))
        bots = w.HBox([self.bot_button, self.round_button, self.end_button],
                      layout=w.Layout(flex_flow="row wrap"))
        job = w.HBox([self.cancel_button, self.progress, self.status],
                     layout=w.Layout(align_items="center", flex_flow="row wrap"))
        strength = w.HBox([self.mcts_strength, self.auto], layout=w.Layout(align_items="center"))
        side = w.VBox([
            panel("tree", nav, where, self.tree),
            panel("seats", self._seat_box, strength, bots, job, self.message),
            panel("explain", self.explanation),
        ], layout=w.Layout(width="380px", flex="0 0 380px"))
        self.board.layout = w.Layout(flex="1 1 0", min_width="0", width="auto")  # the board sizes by its container
        main = self._main = w.HBox([self.board, side], layout=w.Layout(width="100%", align_items="flex-start"))
        chart_bar = w.HBox([self.x_mode, self.win_button, self.rollouts, self.rollout_bot],
                           layout=w.Layout(align_items="center", flex_flow="row wrap"))
        figs = w.Box([self.chart], layout=w.Layout(width="100%"))
        figs.add_class("ssl-charts")
        for row in (nav, where, bots, job, strength, side, main, chart_bar):
            row.add_class("ssl-row")
        self._flag_title = w.HTML()
        self._flag_title.add_class("ssl-panel-title")
        review_box = w.VBox([w.HBox([self.review_button, self.review_rollouts], layout=w.Layout(align_items="center")),
                             self._flag_title, self.flag_list, self.alternative, self.better_button],
                            layout=w.Layout(width="340px", flex="0 0 340px"))
        figs.layout = w.Layout(flex="1 1 0", min_width="0", width="auto")
        chart_panel = w.VBox([chart_bar, w.HBox([figs, review_box], layout=w.Layout(width="100%"))],
                             layout=w.Layout(width="100%"))
        chart_panel.add_class("ssl-panel")
        self._lab_page = (main, chart_panel, self.rules)
        self._page = w.VBox(list(self._lab_page), layout=w.Layout(width="100%"))
        self.probe = Probe()
        app = w.VBox([css, self.probe, top, self._page], layout=w.Layout(width="100%"))
        app.add_class("ssl-app")
        app.add_class("ssl-idle")
        return app

    def _show_page(self) -> None:
        """The app's second page, the guided first game, in place of the lab (and back)."""
        if not self.tutorial_button.value:
            self._page.children = self._lab_page
            return
        from .tutorial import build

        lang = self.lang_code
        if self._tutorial is None or self._tutorial[0] != lang:
            self._tutorial = (lang, build(lang, back=lambda: setattr(self.tutorial_button, "value", False)))
        self._page.children = (self._tutorial[1],)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        self.flush_charts()
        charts.reseed(self.chart)
        display(self.widget)

    # ---- language -------------------------------------------------------------------------------------

    @property
    def lang_code(self) -> str:
        return str(self.lang.value)

    def set_lang(self, lang: str) -> None:
        """Switch the app, the board and the charts to ``lang`` ("en" or "de")."""
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
        self.lang.value = lang  # the observer does the rest

    def _apply_lang(self) -> None:
        lang = self.lang_code
        if self.board.lang != lang:
            self.board.lang = lang
        self._relabel()
        with self._lock:
            self.tree.seats = self._tree_seats()
            self._show_nav()
            self._show_panels()
        self._schedule_charts(now=True)

    def _tree_seats(self) -> list[dict[str, str]]:
        return [{"colour": tk["colour"], "name": tk["name"]} for tk in seat_tokens(self.record.initial,
                                                                                  self.lang_code)]

    def _relabel(self) -> None:
        lang = self.lang_code
        t = TEXTS[lang]
        self._title.value = html.escape(t["title"])
        self.players.description = t["players"]
        self.seed.description = t["seed"]
        self.mcts_strength.description = t["strength"]
        self._swap_options(self.mcts_strength, self._strength_options(lang))
        for dd in self.seat_kinds:
            extra = [v for _, v in dd.options if v not in SEAT_KINDS]
            self._swap_options(dd, self._kind_options(lang, extra))
        self.new_button.description = t["new"]
        self.saver.label = t["save"]
        self.loader.label = t["load"]
        for b, key in ((self.first_button, "first"), (self.back_button, "back"), (self.forward_button, "forward"),
                       (self.last_button, "last")):
            b.tooltip = t[key]
        self.promote_button.description = t["promote"]
        self.bot_button.description = t["bot"]
        self.round_button.description = t["round"]
        self.end_button.description = t["end"]
        self.round_button.tooltip = self.end_button.tooltip = t["stand_in"]
        self.auto.description = t["auto"]
        self.cancel_button.description = t["cancel"]
        self.win_button.description = t["win"]
        self.rollouts.description = t["rollouts"]
        self._swap_options(self.rollout_bot, [(t["rb_random"], "random"), (t["rb_greedy"], "greedy")])
        self.rollout_bot.tooltip = t["rollout_bot"]
        self._swap_options(self.x_mode, [(t["x_ply"], "ply"), (t["x_round"], "round")])
        self.tree.labels = {"start": t["start"], "round": "R"}
        for head, key in self._panel_titles:
            head.value = html.escape(t[key])
        self.review_button.description = t["review"]
        self.review_rollouts.description = t["review_rollouts"]
        self.better_button.description = t["play_better"]
        self._flag_title.value = html.escape(t["flagged"])
        self.tutorial_button.description = t["tutorial"]
        if self.tutorial_button.value:
            self._show_page()
        self._show_rules()
        self._show_flags()
        self._show_seat_controls()

    def _swap_options(self, widget: Any, options: list[tuple[str, str]]) -> None:
        """New option labels, same value (new options select the first one; the value is put back)."""
        if list(widget.options) == options:
            return
        value = widget.value
        self._relabeling = True
        try:
            widget.options = options
            widget.value = value
        finally:
            self._relabeling = False

    def _show_seat_controls(self) -> None:
        n = self.players.value
        lang = self.lang_code
        tokens = seat_tokens(self.record.initial, lang) if self.record.initial.n_players == n else None
        for k, row in enumerate(self._seat_rows):
            if k < n:
                colour = charts.seat_colour(k, get_game(self.record.initial.game).seat_colours)
                name = tokens[k]["name"] if tokens else f"{k + 1}"
                self.seat_labels[k].value = (f'<span class="ssl-seatdot" style="background:{colour}"></span>'
                                             f'{html.escape(name)}')
            row.layout.display = None if k < n else "none"
        # The page's sign that the rows are shown for n seats (set last: browser tests wait for it).
        for cls in [c for c in self._seat_box._dom_classes if c.startswith("ssl-seats-")]:
            self._seat_box.remove_class(cls)
        self._seat_box.add_class(f"ssl-seats-{n}")

    # ---- the record and the current node ----------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The position on the board."""
        return self.node.state

    @property
    def busy(self) -> bool:
        """True while a background job runs."""
        job = self._job
        return job is not None

    def _wire_board(self) -> None:
        self.board.observe(lambda c: self.set_lang(c["new"]), "lang")
        self.board.on_action(self._on_board_action)

    def _board_fits(self, state: Any) -> None:
        """Swap in the board view of ``state``'s game (Die Speicherstadt's or Packet Row's) when it changes."""
        if getattr(self.board.state, "game", None) == state.game:
            return
        layout = self.board.layout
        self.board = board_for(state, lang=self.lang_code)
        self.board.layout = layout
        self._wire_board()
        if hasattr(self, "_main"):
            self._main.children = (self.board, *self._main.children[1:])

    def new_game(self, players: int | None = None, seed: int | None = None,
                 seats: Sequence[str] | None = None, game: str | None = None) -> None:
        """Start a new record: ``players`` 2–5, ``seed``, and per seat "human", "random", "greedy", "mcts"
        or a bot spec such as "mcts:iterations=50" (missing seats keep their setting). ``game`` is
        a key of the game chooser (:func:`game_variants`: "speicherstadt", "kaispeicher" for the game with its
        expansion, "packet_row", or any registered game's); None keeps the chooser's value."""
        if self._refuse_if_busy():
            return
        if game is not None:
            if game not in game_variants():
                raise ValueError(f"game must be one of {list(game_variants())}, not {game!r}")
            self.game.value = game
        if players is not None:
            if not 2 <= players <= MAX_SEATS:
                raise ValueError(f"players must be 2..{MAX_SEATS}, not {players!r}")
            self.players.value = players
        if seed is not None:
            self.seed.value = seed
        for k, spec in enumerate(seats or ()):
            self.set_seat(k, spec)
        info, variant = game_variants()[self.game.value]
        record = GameRecord.new(players=self.players.value, seed=self.seed.value, game=info.name,
                                **variant.options)
        self._use_record(record, record.root)
        self._say("")
        self._maybe_autoplay()

    def set_seat(self, seat: int, spec: str) -> None:
        """Who plays ``seat``: "human", "random", "greedy", "mcts" or a bot spec ("mcts:seconds=2")."""
        spec = spec.strip().lower()
        if spec not in SEAT_KINDS:
            make_bot(spec)  # a bad spec raises here, before anything changes
            dd = self.seat_kinds[seat]
            if spec not in [v for _, v in dd.options]:
                extra = [v for _, v in dd.options if v not in SEAT_KINDS] + [spec]
                dd.options = self._kind_options(self.lang_code, extra)
        self.seat_kinds[seat].value = spec
        self._bots.pop(seat, None)

    def _use_record(self, record: GameRecord, node: Node) -> None:
        with self._lock:
            self.record = record
            self._ids.clear()
            self._by_id.clear()
            self._explain.clear()
            self._shown_flag = None
            self._win.clear()
            self._traj.clear()
            self._bots.clear()
            self._tree_nodes = -1
            initial = record.initial
            n = initial.n_players
            if self.players.value != n:
                self.players.value = n
            self.game.value = variant_of(initial)
            self._board_fits(initial)
            if isinstance(record.seed, int) and self.seed.value != record.seed:
                self.seed.value = record.seed
            self.tree.seats = self._tree_seats()
            self._show_seat_controls()
            self._move_to(node)

    def _id(self, node: Node) -> int:
        got = self._ids.get(node)
        if got is None:
            got = self._ids[node] = len(self._by_id)
            self._by_id.append(node)
        return got

    def node_by_id(self, ident: int) -> Node:
        """The node with tree id ``ident`` (as the tree view sends it)."""
        return self._by_id[ident]

    def line(self) -> list[Node]:
        """The current line: from the start through the node on the board, on along first children."""
        path = self.record.path_to(self.node)
        while path[-1].children:
            path.append(path[-1].children[0])
        return path

    # ---- navigation -----------------------------------------------------------------------------------

    def goto(self, node: Node) -> None:
        """Put ``node`` (a node of this record) on the board."""
        if self._refuse_if_playing():
            return
        self.record.path_to(node)  # ValueError for a node of another record
        with self._lock:
            self._move_to(node)

    def first(self) -> None:
        """To the start position."""
        self.goto(self.record.root)

    def back(self) -> None:
        """One move back."""
        if self.node.parent is not None:
            self.goto(self.node.parent)

    def forward(self) -> None:
        """One move on along the line (the first child)."""
        if self.node.children:
            self.goto(self.node.children[0])

    def last(self) -> None:
        """To the end of the current line."""
        self.goto(self.line()[-1])

    def goto_ply(self, ply: int) -> None:
        """To ply ``ply`` of the current line (what the slider does)."""
        line = self.line()
        self.goto(line[max(0, min(ply, len(line) - 1))])

    def promote(self) -> None:
        """Make the line through the current node the main line."""
        if self._refuse_if_playing():
            return
        with self._lock:
            self.record.promote_to_main(self.node)
            self._tree_nodes = -1
            self._move_to(self.node)

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._syncing and change["new"] != self.node.ply:
            self.goto_ply(change["new"])

    def _on_tree(self, ident: Any) -> None:
        ok = isinstance(ident, int) and not isinstance(ident, bool) and 0 <= ident < len(self._by_id)
        node = self._by_id[ident] if ok else None
        if node is None or node.record is not self.record:  # a removed move is no longer in the record
            self._say(text(self.lang_code, "tree_id", got=show_value(ident)), error=True)
            return
        self.goto(node)

    # ---- playing --------------------------------------------------------------------------------------

    def play(self, action: str) -> Node:
        """Play ``action`` (notation) at the current node as a human move, like a click on the board: an
        existing child with it, else a new variation; then the bots move if they move by themselves.
        Raises :class:`IllegalAction` (and changes nothing) for an illegal action, RuntimeError while bots
        are moving."""
        with self._lock:
            if self._job is not None and self._job.plays:
                raise RuntimeError(text(self.lang_code, "busy", job=self._job_name(self._job)))
            node = self.node.play(action, by="human")
            self._move_to(node)
        self._maybe_autoplay()
        return node

    def _on_board_action(self, action: str) -> None:
        if self._job is not None and self._job.plays:
            self.board.error = text(self.lang_code, "board_busy")
            return
        try:
            self.play(action)
        except (IllegalAction, RuntimeError) as err:
            self.board.error = str(err)

    def seat_spec(self, seat: int) -> str:
        """Who plays ``seat``: "human" or a bot spec (MCTS with the chosen strength)."""
        kind = str(self.seat_kinds[seat].value)
        return f"mcts:{self.mcts_strength.value}" if kind == "mcts" else kind

    def bot_for(self, seat: int, stand_in: bool = False) -> Any:
        """The bot of ``seat`` (for a human seat: the stand-in Greedy bot if ``stand_in``, else None)."""
        spec = self.seat_spec(seat)
        if spec == "human":
            if not stand_in:
                return None
            spec = STAND_IN
        hit = self._bots.get(seat)
        if hit is None or hit[0] != spec:
            seed = derive_seed(str(self.record.seed), "seat", seat) % (2 ** 31)
            hit = self._bots[seat] = (spec, make_bot(spec, seed=seed))
        return hit[1]

    def _maybe_autoplay(self) -> None:
        """If bots move by themselves and a bot is to move, let the bots play until a human seat is to move
        (after the running job, if one is computing win chances)."""
        st = self.node.state
        if not (self.auto.value and not st.is_over and st.to_move is not None
                and self.bot_for(st.to_move) is not None):
            return
        with self._lock:
            if self._job is not None and not self._job.plays:
                self._pending_auto = True
                return
            self._start("auto", lambda job: self._play_on(job, until=lambda s: self.bot_for(s.to_move) is None))

    def bot_move(self) -> bool:
        """The seat to move lets its bot choose (a human seat: the Greedy bot). False if nothing started."""
        if self.node.state.is_over:
            self._say(text(self.lang_code, "over"))
            return False
        return self._start("bot", lambda job: self._play_on(job, moves=1))

    def play_to_round_end(self) -> bool:
        """Bots play every seat until the next round starts (or the game ends)."""
        start = self.node.state.round
        return self._start("round", lambda job: self._play_on(job, until=lambda s: s.round != start))

    def play_to_end(self) -> bool:
        """Bots play every seat to the end of the game."""
        return self._start("end", lambda job: self._play_on(job))

    def _play_on(self, job: Job, until: Callable[[Any], bool] | None = None, moves: int | None = None) -> None:
        """Let the bots move from the current node until ``until(state)``, ``moves`` moves, the end or cancel."""
        lang = self.lang_code
        played = 0
        start = self.node.state
        last_round = start.round + max(1, start.pile_size // max(1, len(start.offer))) \
            if hasattr(start, "pile_size") else start.round + 1
        while not job.cancel.is_set():
            node = self.node
            st = node.state
            if st.is_over or (moves is not None and played >= moves) or (until is not None and until(st)):
                break
            seat = st.to_move
            bot = self.bot_for(seat, stand_in=True)
            self._set_status(text(lang, "thinking", seat=st.seat_name(seat, lang)))
            obs = st.observe(seat)
            action = bot.choose(obs)
            if job.cancel.is_set():
                break
            with self._lock:
                child = node.play(action, by=dict(bot.params()))
                self._note_explanation(child, bot, obs)
                self.node = child
                played += 1
                now = time.monotonic()
                if now - self._last_show >= SHOW_EVERY or moves == 1:
                    self._move_to(child)
            rounds = max(1, last_round - start.round + 1)
            self._set_progress(min(rounds * 3, (child.state.round - start.round) * 3 + _phase_index(child.state)),
                               rounds * 3, text(lang, "played", n=played, round=child.state.round))
        with self._lock:
            self._move_to(self.node)
        if job.cancel.is_set():
            self._say(text(lang, "cancelled"))

    def _note_explanation(self, node: Node, bot: Any, obs: Any) -> None:
        """Keep the bot's reasons for the move into ``node``: MCTS's root statistics (``explain`` reuses the
        search ``choose`` just ran), Greedy's action values."""
        if bot.name in ("mcts", "greedy") and hasattr(bot, "explain"):
            self._explain[node] = (bot.name, bot.explain(obs))

    # ---- win chances ----------------------------------------------------------------------------------

    def win_positions(self) -> list[Node]:
        """The positions the win chances are computed for: the start of each round and the last node along
        the current line (and along the main line, when the board shows a variation), and the node on the
        board."""
        lines = [self.line()]
        if not self.node.is_mainline():
            lines.append(self.record.mainline())
        picked: list[Node] = []
        for line in lines:
            starts = [line[0]] + [b for a, b in itertools.pairwise(line) if b.state.round != a.state.round]
            for node in [*starts, line[-1]]:
                if node not in picked:
                    picked.append(node)
        if self.node not in picked:
            picked.append(self.node)
        return picked

    def compute_win_chances(self) -> bool:
        """Estimate each seat's win probability (fair mode, ``rollouts`` rollouts) along the current line."""
        rollouts = int(self.rollouts.value)
        bot = str(self.rollout_bot.value)
        nodes = [n for n in self.win_positions() if (n, rollouts, bot) not in self._win]
        return self._start("win", lambda job: self._evaluate(job, nodes, rollouts, bot))

    def _evaluate(self, job: Job, nodes: list[Node], rollouts: int, bot: str) -> None:
        lang = self.lang_code
        self._set_progress(0, max(1, len(nodes)), text(lang, "win_progress", i=0, n=len(nodes)))
        for i, node in enumerate(nodes):
            if job.cancel.is_set():
                self._say(text(lang, "cancelled"))
                break
            df = evaluate(node.state, rollouts=rollouts, bot=None if bot == "random" else bot, mode="fair", seed=0)
            self._win[(node, rollouts, bot)] = df
            self._set_progress(i + 1, max(1, len(nodes)), text(lang, "win_progress", i=i + 1, n=len(nodes)))
            self._schedule_charts()
        else:
            self._say(text(lang, "done_win", n=len(nodes), rollouts=rollouts), ok=True)
        self._schedule_charts(now=True)

    # ---- jobs -----------------------------------------------------------------------------------------

    def _job_name(self, job: Job) -> str:
        return text(self.lang_code, f"job_{job.kind}")

    def _refuse_if_busy(self) -> bool:
        if self._job is not None:
            self._say(text(self.lang_code, "busy", job=self._job_name(self._job)), error=True)
            return True
        return False

    def _refuse_if_playing(self) -> bool:
        if self._job is not None and self._job.plays:
            self._say(text(self.lang_code, "busy", job=self._job_name(self._job)), error=True)
            return True
        return False

    def _start(self, kind: str, work: Callable[[Job], None]) -> bool:
        """Run ``work(job)`` as the one background job; False (and a message) if another job runs."""
        with self._lock:
            if self._refuse_if_busy():
                return False
            job = self._job = Job(kind)
        self._say("")
        self._set_busy(True)
        self._show_activity()

        def run() -> None:
            try:
                work(job)
            except Exception as err:  # shown in the app, never lost in a thread
                self._say(text(self.lang_code, "error", error=err), error=True)
            finally:
                with self._lock:
                    self._job = None
                    self._set_busy(False)
                    if self._pending_auto:
                        self._pending_auto = False
                        self._maybe_autoplay()
                    self._show_activity()

        if self.threaded:
            job.thread = threading.Thread(target=run, name=f"speicherstadt-lab-{kind}", daemon=True)
            job.thread.start()
        else:
            run()
        return True

    def cancel(self) -> None:
        """Ask the running job to stop (after the move or position it is working on)."""
        job = self._job
        if job is not None:
            job.cancel.set()

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the running job has finished and the charts have caught up (for scripts and tests)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:  # a job that ends may start the next one (bots after win chances) under the lock
                job = self._job
            if job is None:
                break
            if job.thread is not None:
                job.thread.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                raise TimeoutError(f"the {job.kind} job is still running after {timeout} s")
            time.sleep(0.005)
        self.flush_charts()

    def close(self) -> None:
        """Stop the running job and pending chart updates, and close every widget of the app."""
        self.cancel()
        self.wait()
        timer = self._timer
        if timer is not None:
            timer.cancel()
        stack: list[Any] = [self.widget, *self.seat_kinds, *self.seat_labels]  # the seats not shown, too
        while stack:
            widget = stack.pop()
            stack.extend(getattr(widget, "children", ()))
            widget.close()

    def _show_activity(self) -> None:
        """The page's sign whether a job runs: class ssl-busy or ssl-idle on the app (set once the next job, if
        any, has started, so a page never sees a passing idle between two jobs)."""
        busy = self._job is not None
        self.widget.remove_class("ssl-idle" if busy else "ssl-busy")
        self.widget.add_class("ssl-busy" if busy else "ssl-idle")

    def _set_busy(self, busy: bool) -> None:
        job = self._job
        plays = busy and job is not None and job.plays
        for b in (self.bot_button, self.round_button, self.end_button, self.win_button, self.new_button,
                  self.review_button):
            b.disabled = busy
        self.loader.disabled = busy
        self.saver.disabled = plays
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button, self.promote_button,
                  self.better_button):
            b.disabled = plays
        self.slider.disabled = plays
        self.cancel_button.disabled = not busy
        self.progress.layout.display = "" if busy else "none"
        if busy:
            self.progress.value = 0
            self.status.value = ""
        else:
            self.status.value = ""
            with self._lock:
                self._show_nav()

    def _set_progress(self, value: int, total: int, label: str) -> None:
        self.progress.max = max(1, total)
        self.progress.value = max(0, min(value, self.progress.max))
        self.status.value = html.escape(label)

    def _set_status(self, label: str) -> None:
        self.status.value = html.escape(label)

    def _say(self, message: str, error: bool = False, ok: bool = False) -> None:
        if not message:
            self.message.value = ""
            return
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.message.value = f'<span class="{cls}">{html.escape(message)}</span>'

    # ---- save and load --------------------------------------------------------------------------------

    def save_json(self) -> str:
        """The record as JSON text (what the save button downloads)."""
        with self._lock:
            return self.record.to_json(pretty=True)

    def _file(self) -> tuple[str, str]:
        seed = self.record.seed
        return f"speicherstadt-{self.record.initial.n_players}p-seed{seed}.json", self.save_json()

    def load_json(self, data: str | bytes) -> bool:
        """Replace the record by one read from JSON text; on a malformed record the message shows the
        :class:`RecordError` text, nothing changes, and the result is False."""
        if self._refuse_if_busy():
            return False
        lang = self.lang_code
        if isinstance(data, bytes | bytearray | memoryview):
            try:
                data = bytes(data).decode("utf-8")
            except UnicodeDecodeError:
                self._say(text(lang, "load_error", error=text(lang, "not_text")), error=True)
                return False
        try:
            record = GameRecord.from_json(data)
        except RecordError as err:
            self._say(text(lang, "load_error", error=err), error=True)
            return False
        n = record.initial.n_players
        for k in range(n, MAX_SEATS):
            self._bots.pop(k, None)
        self._use_record(record, record.end())
        self._say(text(lang, "loaded", plies=len(record.mainline()) - 1, branches=len(record.branch_points())),
                  ok=True)
        return True

    # ---- showing --------------------------------------------------------------------------------------

    def _move_to(self, node: Node) -> None:
        """Put ``node`` on the board and bring every view along (call with the lock held)."""
        self.node = node
        path = self.record.path_to(node)
        self.board.show(node.state, [n.state for n in path[-(LOG_SIZE + 1):-1]])
        self._last_show = time.monotonic()
        self._show_nav(path)
        self._show_tree()
        self._show_panels()
        if hasattr(self, "flag_list"):
            self._show_flags()
        self._schedule_charts()

    def _show_nav(self, path: list[Node] | None = None) -> None:
        node = self.node
        line = self.line()
        last = len(line) - 1
        self._syncing = True
        try:
            self.slider.max = max(1, last)
            self.slider.value = node.ply
        finally:
            self._syncing = False
        playing = self._job is not None and self._job.plays
        self.first_button.disabled = self.back_button.disabled = playing or node.parent is None
        self.forward_button.disabled = self.last_button.disabled = playing or not node.children
        self.slider.disabled = playing or last == 0
        main = node.is_mainline()
        lang = self.lang_code
        badge = (f'<span class="ssl-mainline">{html.escape(text(lang, "main"))}</span>' if main else
                 f'<span class="ssl-variation">{html.escape(text(lang, "variation"))}</span>')
        self.position.value = f'<b>{html.escape(text(lang, "ply", ply=node.ply, last=last))}</b> {badge}'
        self.promote_button.layout.display = "none" if main else ""
        self.promote_button.disabled = playing

    def _show_tree(self) -> None:
        count = len(self.record.nodes())
        if count != self._tree_nodes:
            self.tree.tree = self._tree_data()
            self._tree_nodes = count
        self.tree.current = self._id(self.node)

    def _tree_data(self) -> dict[str, Any]:
        """The tree for the view: the main line, each item with its variations (``v``), round marks (``r``)."""
        root = self.record.root

        def line(first: Node) -> list[dict[str, Any]]:
            items: list[dict[str, Any]] = []
            node: Node | None = first
            prev_round = None
            while node is not None:
                parent = node.parent
                assert parent is not None
                rnd = parent.state.round
                item: dict[str, Any] = {"i": self._id(node), "s": node.actor, "a": node.action}
                if rnd != prev_round:
                    item["r"] = rnd
                prev_round = rnd
                if parent.children[0] is node and len(parent.children) > 1:
                    item["v"] = [line(sib) for sib in parent.children[1:]]
                    prev_round = None
                items.append(item)
                node = node.children[0] if node.children else None
            return items

        return {"root": self._id(root), "line": line(root.children[0]) if root.children else []}

    def _show_panels(self) -> None:
        """The bot's reasons for the move on the board, if a bot made it."""
        lang = self.lang_code
        t = TEXTS[lang]
        got = self._explain.get(self.node)
        if got is None:
            self.explanation.value = f'<div class="ssl-none">{html.escape(t["no_explain"])}</div>'
            return
        kind, df = got
        node = self.node
        seat = node.parent.state.seat_name(node.actor, lang) if node.parent is not None else ""
        head = html.escape(text(lang, "why", seat=seat, action=node.action or ""))
        if kind == "mcts":
            cols = [("action", t["action"], "{}"), ("visits", t["visits"], "{:d}"),
                    ("mean_score", t["score"], "{:.1f}"), ("win_share", t["wins"], "{:.0%}")]
        else:
            cols = [("action", t["action"], "{}"), ("value", t["value"], "{:.2f}")]
        rows = []
        for _, r in df.head(EXPLAIN_ROWS).iterrows():
            cells = []
            for key, _, fmt in cols:
                v = r[key]
                cells.append(f'<td class="{"num" if key != "action" else ""}">'
                             f'{html.escape(fmt.format(v) if pd.notna(v) else "–")}</td>')
            chosen = ' class="ssl-chosen"' if r["action"] == node.action else ""
            rows.append(f"<tr{chosen}>{''.join(cells)}</tr>")
        more = f"<div class='ssl-none'>+{len(df) - EXPLAIN_ROWS}</div>" if len(df) > EXPLAIN_ROWS else ""
        header = "".join(f"<th>{html.escape(label)}</th>" for _, label, _ in cols)
        self.explanation.value = (f'<div class="ssl-why">{head}</div><table><tr>{header}</tr>{"".join(rows)}'
                                  f"</table>{more}")

    # ---- charts ---------------------------------------------------------------------------------------

    def _schedule_charts(self, now: bool = False) -> None:
        """Refresh the charts ``chart_delay`` seconds from now (a newer call replaces a pending one)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if now or self.chart_delay <= 0:
            self.refresh_charts()
            return
        self._timer = threading.Timer(self.chart_delay, self.refresh_charts)
        self._timer.daemon = True
        self._timer.start()

    def flush_charts(self) -> None:
        """Refresh the charts now if a refresh is pending."""
        timer = self._timer
        if timer is not None:
            timer.cancel()
            self._timer = None
            self.refresh_charts()

    def _trajectory(self, node: Node) -> pd.DataFrame:
        got = self._traj.get(node)
        if got is None:
            got = self._traj[node] = self.record.trajectory(node)
            while len(self._traj) > TRAJECTORY_CACHE:
                self._traj.pop(next(iter(self._traj)))
        return got

    def chart_specs(self) -> tuple[charts.Spec, charts.Spec]:
        """The specs of the progress and win charts for the node on the board."""
        with self._lock:
            record, node, lang, x = self.record, self.node, self.lang_code, str(self.x_mode.value)
            main_end = record.end()
            line_end = node
            while line_end.children:
                line_end = line_end.children[0]
            on_main = node.is_mainline()
            fork = None
            if not on_main:
                fork_node = node
                while not fork_node.is_mainline():
                    assert fork_node.parent is not None
                    fork_node = fork_node.parent
                fork = fork_node.ply
            rollouts, rbot = int(self.rollouts.value), str(self.rollout_bot.value)
            main_nodes = record.mainline()
            win_main = [(n, self._win.get((n, rollouts, rbot))) for n in main_nodes]
            win_branch: list[tuple[Node, pd.DataFrame | None]] = []
            if fork is not None:
                path = record.path_to(line_end)
                shared = [(n, self._win.get((n, rollouts, rbot))) for n in path[:fork + 1]]
                start = [item for item in shared if item[1] is not None][-1:]  # the dashed line leaves from here
                win_branch = start + [(n, self._win.get((n, rollouts, rbot))) for n in path[fork + 1:]]
        st = node.state
        names = [st.seat_name(i, lang) for i in range(st.n_players)]
        current = charts.position_x(node.ply, st.round, st.is_over, x)
        main = self._trajectory(main_end)
        branch = self._trajectory(line_end) if fork is not None else None
        colours = get_game(st.game).seat_colours
        progress = charts.progress_spec(main, branch, names=names, x=x, current=current, fork=fork, lang=lang,
                                        colours=colours)

        def table(items: list[tuple[Node, pd.DataFrame | None]]) -> pd.DataFrame:
            return charts.win_table((n.ply, charts.position_x(n.ply, n.state.round, n.state.is_over, "round"), df)
                                    for n, df in items if df is not None)

        wins = charts.win_spec(table(win_main), table(win_branch) if fork is not None else None, names=names, x=x,
                               current=current, lang=lang, marks=self.review_marks(x) if self.reviewed else None,
                               colours=colours)
        return progress, wins

    def refresh_charts(self) -> None:
        """Bring the charts up to date with the node on the board."""
        if not hasattr(self, "chart"):
            return  # still building the controls
        with self._chart_lock:
            self._chart_gen += 1
            gen = self._chart_gen
        progress, wins = self.chart_specs()
        with self._chart_lock:  # never held while waiting for self._lock: no lock-order deadlock
            if gen < self._chart_synced:
                return  # a later refresh (newer state) has already been shown
            charts.sync_figure(self.chart, charts.dashboard_spec(progress, wins))
            self._chart_synced = gen
            for trace in self.chart.data:  # a click on a review mark jumps to that decision
                meta = trace.meta if isinstance(trace.meta, dict) else {}
                if meta.get("series") == "review":
                    trace.on_click(self._on_mark_click)

    # ---- game review ----------------------------------------------------------------------------------

    @property
    def reviewed(self) -> bool:
        """True if the record holds a review (run here or loaded with the record)."""
        return isinstance(self.record.root.annotations.get(REVIEW_KEY), dict)

    def review(self) -> Review:
        """The review saved in the record along the main line (ValueError if there is none)."""
        with self._lock:
            return Review.from_record(self.record)

    def review_game(self, rollouts: int | None = None) -> bool:
        """Review every decision of the main line in the background (``rollouts`` per action, default the
        control's value), with progress and cancel; the findings go into the record's annotations."""
        if rollouts is not None:
            self.review_rollouts.value = rollouts
        n = int(self.review_rollouts.value)
        with self._lock:
            path = self.record.mainline()
        return self._start("review", lambda job: self._review(job, path, n))

    def _review(self, job: Job, path: list[Node], rollouts: int) -> None:
        lang = self.lang_code
        todo = [k for k in range(1, len(path)) if not self._reviewed_at(path[k], rollouts)]
        total = len(path) - 1
        done = total - len(todo)
        start = time.perf_counter()
        self._set_progress(done, total, text(lang, "review_progress", i=done, n=total))
        for k in todo:
            if job.cancel.is_set():
                self._say(text(lang, "cancelled"))
                break
            with self._lock:
                record = self.record
            if path[0] is not record.root:
                break  # another record was loaded meanwhile
            run_review(record, rollouts=rollouts, node=path[k], since=path[k - 1], progress=False, luck=False)
            path[k].annotations[REVIEW_KEY]["rollouts"] = rollouts
            done += 1
            self._set_progress(done, total, text(lang, "review_progress", i=done, n=total))
            if done % 10 == 0:
                self._schedule_charts()
        else:
            settings = self.record.root.annotations.get(REVIEW_KEY)
            if isinstance(settings, dict):
                settings["seconds"] = round(time.perf_counter() - start, 1)
            d = Review.from_record(self.record).decisions
            self._say(text(lang, "done_review", n=len(d), mistakes=int((d["flag"] == "mistake").sum()),
                           inaccuracies=int((d["flag"] == "inaccuracy").sum())), ok=True)
        with self._lock:
            self._show_flags()
        self._schedule_charts(now=True)

    @staticmethod
    def _reviewed_at(node: Node, rollouts: int) -> bool:
        ann = node.annotations.get(REVIEW_KEY)
        return isinstance(ann, dict) and ann.get("rollouts", rollouts) == rollouts

    def flagged(self) -> list[Node]:
        """The nodes of the main line whose move the review flagged (inaccuracy or mistake), in order."""
        out = []
        for nd in self.record.mainline()[1:]:
            ann = nd.annotations.get(REVIEW_KEY)
            if isinstance(ann, dict) and ann.get("flag"):
                out.append(nd)
        return out

    def review_marks(self, x: str = "ply") -> pd.DataFrame:
        """The flagged decisions as chart marks (:data:`charts.MARK_COLUMNS`)."""
        rows = []
        for nd in self.flagged():
            ann = nd.annotations[REVIEW_KEY]
            before = nd.parent.state if nd.parent is not None else nd.state
            rows.append({"ply": nd.ply, "x": charts.position_x(nd.ply, before.round, before.is_over, x),
                         "seat": nd.actor, "action": nd.action, "best_action": ann.get("best", ""),
                         "win_prob": ann.get("win_prob", 0.0), "win_loss": ann.get("win_loss", 0.0),
                         "score_loss": ann.get("score_loss", 0.0), "flag": ann["flag"]})
        return pd.DataFrame(rows, columns=charts.MARK_COLUMNS)

    def show_flag(self, node: Node | int) -> None:
        """Jump to a flagged decision (its node, or its ply on the main line): the board shows the position in
        which the move was chosen, the panel the better move, its expected gain and its explanation."""
        if isinstance(node, int):
            line = self.record.mainline()
            node = line[max(1, min(node, len(line) - 1))]
        if node.parent is None:
            return
        self._shown_flag = node
        self.goto(node.parent)
        with self._lock:
            self._show_flags()

    def play_better(self) -> Node | None:
        """Play the better move of the decision shown (a new variation, or the existing one)."""
        node = self._shown_flag
        if node is None or node.parent is None:
            return None
        best = node.annotations.get(REVIEW_KEY, {}).get("best")
        if not best:
            return None
        with self._lock:
            self._move_to(node.parent)
        return self.play(best)

    def _on_mark_click(self, trace: Any, points: Any, _state: Any = None) -> None:
        for i in getattr(points, "point_inds", []) or []:
            plies = list(trace.customdata or [])
            if 0 <= i < len(plies):
                self.show_flag(int(plies[i]))
                return

    def _on_flag_list(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.show_flag(int(change["new"]))

    def _show_flags(self) -> None:
        """The flagged-moves list and, for the decision shown, the better alternative."""
        lang = self.lang_code
        t = TEXTS[lang]
        nodes = self.flagged() if self.reviewed else []
        st = self.record.initial
        options = []
        for nd in nodes:
            ann = nd.annotations[REVIEW_KEY]
            name = st.seat_name(nd.actor, lang)
            options.append((f"{nd.ply}. {name}: {nd.action} → {ann.get('best')} ({t[ann['flag']]})", nd.ply))
        shown = self._shown_flag
        self._syncing = True
        try:
            if list(self.flag_list.options) != options:
                self.flag_list.options = options
            self.flag_list.value = shown.ply if shown is not None and shown in nodes and shown.is_mainline() else None
        finally:
            self._syncing = False
        if shown is None or shown.parent is None or self.node is not shown.parent:
            self.better_button.layout.display = "none"
            note = t["no_review"] if not self.reviewed else (t["no_flags"] if not nodes else "")
            self.alternative.value = f'<div class="ssl-none">{html.escape(note)}</div>' if note else ""
            return
        ann = shown.annotations.get(REVIEW_KEY, {})
        before = shown.parent.state
        best = ann.get("best", "")
        try:
            why = before.explain_action(best, lang) if hasattr(before, "explain_action") else ""
        except Exception:  # an explanation is a help, never a reason to fail
            why = ""
        head = t["alt"].format(ply=shown.ply, seat=html.escape(before.seat_name(shown.actor, lang)),
                               action=html.escape(shown.action or ""),
                               flag=html.escape(t[ann.get("flag") or "mistake"]),
                               best=html.escape(best), win=float(ann.get("win_loss", 0.0)),
                               score=float(ann.get("score_loss", 0.0)))
        self.alternative.value = f'<div class="ssl-why">{head}</div><div>{html.escape(why)}</div>'
        self.better_button.layout.display = ""

    # ---- rules panel ----------------------------------------------------------------------------------

    def _show_rules(self) -> None:
        lang = self.lang_code
        data = _rules_data()
        st = self.record.initial
        phases = "".join(f"<li>{p[lang]}</li>" for p in data["phase"])
        cards = ""
        if getattr(st, "game", "") == "speicherstadt":
            seen: dict[str, str] = {}
            for card in st.cat.cards:
                if card.kind in seen:
                    continue
                info = card_info(st, card.id, lang)
                if info["text"]:
                    seen[card.kind] = (f"<li><b>{html.escape(info['kind_name'])}</b> ({html.escape(info['name'])}): "
                                       f"{html.escape(info['text'])}</li>")
            cards = (f"<h4>{html.escape(data['cards_title'][lang])}</h4><ul>{''.join(seen.values())}</ul>")
        self.rules.children[0].value = (f'<div class="ssl-rules" style="font-size:13px">'
                                        f"<h4>{html.escape(data['phases_title'][lang])}</h4><ol>{phases}</ol>{cards}"
                                        "</div>")
        self.rules.set_title(0, data["title"][lang])


_RULES: dict[str, Any] = {}


def _rules_data() -> dict[str, Any]:
    """The rules panel's texts (``data/messages/rules_panel.toml``), read once."""
    if not _RULES:
        path = resources.files("speicherstadt_lab") / "data" / "messages" / "rules_panel.toml"
        _RULES.update(tomllib.loads(path.read_text(encoding="utf-8")))
    return _RULES


def _phase_index(state: Any) -> int:
    return {"demand": 0, "purchase": 1, "loading": 2}.get(state.phase, 3)


__all__ = ["TEXTS", "Job", "LabApp", "Loader", "Saver", "TreeView"]
