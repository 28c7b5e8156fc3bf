"""One game-agnostic conformance harness (pgx style) that every game of the lab must pass.

It plays random playouts with explicit seeds and, after every step, checks what the state protocol
promises: the game's own invariants, at least two legal actions at every decision (one where the game says
it asks on purpose: ``lone_decision``), every legal action applies, ``apply`` never changes the state it is
called on, a lossless JSON round trip that plays on identically, views that are JSON-ready and free of hidden
orders, ``observe``/``determinize`` (and
``rearranged``, where a game has it) that keep the public facts, no position repeated (a repeat means an
endless line of play), determinism for equal seeds, refusal of actions that are not legal (with
``IllegalAction``, state unchanged), and the game's own end-of-game checks.

A game plugs in through a :class:`ConformanceAdapter`. :func:`get_adapter` finds it through the game's
plugin (its "conformance" capability), so the engine core imports no game.

    from speicherstadt_lab.engine.conformance import run_conformance
    report = run_conformance("speicherstadt", players=(2, 3, 4, 5), seeds=range(5))

A failure raises ``AssertionError`` naming the game, players, seed, step, action and the check.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import itertools
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Self

from .actions import Action, normalize
from .errors import IllegalAction
from .protocol import GameState, get_game, load_state, ranks
from .rng import Rng

#: Names of the checks; pass some of them as ``skip`` to leave them out of a run.
CHECKS = (
    "invariants",  # the game's own invariants hold in every state
    "decisions",  # to_move / is_over agree; ≥ 2 (lone_decision: ≥ 1) distinct, re-parsable legal actions
    "scores",  # score_breakdown sums to score for every seat
    "apply",  # every legal action applies and records events and last_action
    "unchanged",  # apply (legal or refused) leaves the state it was called on unchanged
    "round_trip",  # load_state(to_json()) equals the state and plays on identically
    "view",  # view(seat) is JSON-ready, hides the hidden orders and ignores them
    "observe",  # observe(seat) keeps the public facts and the legal actions, reveals nothing hidden
    "determinize",  # determinize(seed) keeps the public facts, is reproducible and plays on
    "rearrange",  # rearranged(...) keeps the public facts and the state it is called on, and plays on (if offered)
    "events",  # every event of a transition renders in every language
    "repetition",  # no position occurs twice in a playout
    "refusal",  # candidate actions that are not legal raise IllegalAction (full runs only)
    "determinism",  # equal seeds give equal games
    "game",  # the game's own end-of-game checks
)
LANGS = ("en", "de")
#: How many resampled twins the leak check tries before it calls a hidden order public (made only on a suspect).
TWINS = 16


def _no_hidden(state: GameState) -> list[list[Any]]:
    return []


def _default_public(state: GameState, seat: int | None) -> Any:
    return state.view(seat)


def _default_position(state: GameState) -> str:
    d = state.to_dict()
    d.pop("events", None)
    d.pop("last_action", None)
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def _no_transition_checks(before: GameState, action: str, after: GameState) -> list[str]:
    return []


def _never(state: GameState) -> bool:
    return False


@dataclass(frozen=True)
class ConformanceAdapter:
    """What a game supplies to the harness.

    ``new_game(players, seed)`` builds the first decision state; ``invariants(state)`` and
    ``game_checks(final, actions)`` return lists of violations (empty = fine); ``candidate_actions``
    yields action texts, legal or not, that together cover every legal action (the harness asserts
    that, so the refusal check cannot quietly miss a verb). ``hidden_sequences(state)`` lists the
    sequences whose order is secret, as they appear in JSON; ``public(state, seat)`` is what must
    not change when hidden information is resampled; ``position(state)`` identifies a position for
    the repetition check. ``rearrangement(state, seed)``: keyword arguments of a legal ``state.rearranged``
    call that moves the hidden order (e.g. the order of ``determinize(seed)``); None for a game that has no
    ``rearranged`` (the check is then left out). ``lone_decision(state)``: True where the game asks a seat with
    a single legal action on purpose (it decides whom to ask on public facts only, and the mover's secret
    happens to leave one action); the harness accepts one legal action there, never none.
    """

    game: str
    player_counts: tuple[int, ...]
    new_game: Callable[[int, int], GameState]
    invariants: Callable[[GameState], list[str]]
    candidate_actions: Callable[[GameState], Iterable[str]]
    game_checks: Callable[[GameState, Sequence[str]], list[str]]
    transition_checks: Callable[[GameState, str, GameState], list[str]] = _no_transition_checks
    hidden_sequences: Callable[[GameState], list[list[Any]]] = _no_hidden
    public: Callable[[GameState, int | None], Any] = _default_public
    position: Callable[[GameState], str] = _default_position
    rearrangement: Callable[[GameState, int], dict[str, Any]] | None = None
    lone_decision: Callable[[GameState], bool] = _never
    max_decisions: int = 20_000

    @classmethod
    def from_module(cls, module: str, **fields: Any) -> Self:
        """The adapter whose checks are the functions of ``module`` (a module name) named as the fields.

        The checks (``invariants``, ``candidate_actions``, ``game_checks``, ``transition_checks``,
        ``hidden_sequences``, ``public``, ``position``, ``rearrangement``, ``lone_decision``) are taken where the
        module defines them, and ``fields`` for the rest (``game``, ``player_counts``, ``new_game``, ...); an unknown
        field raises TypeError."""
        space = vars(importlib.import_module(module))
        found = {f.name: space[f.name] for f in dataclasses.fields(cls)
                 if f.name not in fields and callable(space.get(f.name))}
        return cls(**found, **fields)


@dataclass
class ConformanceReport:
    """What a run checked. ``determinize_changed`` counts states whose hidden order determinize changed
    (zero for a game with hidden information would mean the hiding checks never bit)."""

    game: str
    games: int = 0
    steps: int = 0
    actions_applied: int = 0
    candidates_refused: int = 0
    determinize_changed: int = 0
    games_by_players: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, other: ConformanceReport) -> None:
        """Count ``other``'s games, steps and time into this report (a run over many player counts and seeds)."""
        self.games += other.games
        self.steps += other.steps
        self.actions_applied += other.actions_applied
        self.candidates_refused += other.candidates_refused
        self.determinize_changed += other.determinize_changed
        for k, v in other.games_by_players.items():
            self.games_by_players[k] = self.games_by_players.get(k, 0) + v
        self.seconds += other.seconds

    def __str__(self) -> str:
        return (f"{self.game}: {self.games} games {dict(sorted(self.games_by_players.items()))}, "
                f"{self.steps} steps, {self.actions_applied} actions applied, "
                f"{self.candidates_refused} candidates refused, {self.seconds:.1f} s")


def end_checks(final: GameState, actions: Sequence[str], last_event: str) -> list[str]:
    """The end every game's playout reaches: over with nobody to move, the end recorded by the last transition (its
    last event ``last_event``), the winners the seats ranked first, and at least one decision on the way."""
    problems: list[str] = []
    if final.phase != "over" or final.to_move is not None or not final.is_over:
        problems.append(f"ended in phase {final.phase!r} with to_move {final.to_move!r}")
    if not final.events or final.events[-1].key != last_event:
        problems.append(f"the last transition did not record {last_event}")
    places = ranks(final)
    if final.winners() != [i for i, r in enumerate(places) if r == 1]:
        problems.append(f"winners {final.winners()} disagree with ranks {places}")
    if not actions:
        problems.append("the game ended without a decision")
    return problems


def get_adapter(game: str, **options: Any) -> ConformanceAdapter:
    """The adapter of a registered game: its plugin's "conformance" capability, called with ``options`` (a
    variant the game's adapter supports, for example an expansion)."""
    factory = get_game(game).capability("conformance")
    if factory is None:
        raise ValueError(f"game: {game!r} declares no conformance adapter (no 'conformance' capability)")
    adapter = factory(**options)
    if not isinstance(adapter, ConformanceAdapter):
        raise TypeError(f"the conformance capability of {game!r} must return a ConformanceAdapter")
    return adapter


def playout_actions(adapter: ConformanceAdapter, players: int, seed: int) -> tuple[list[str], GameState]:
    """The uniform random playout the harness checks, without checks: (action texts, final state)."""
    rng = Rng(seed, "conformance", "playout")
    state = adapter.new_game(players, seed)
    actions: list[str] = []
    while not state.is_over:
        if len(actions) >= adapter.max_decisions:
            raise AssertionError(f"{adapter.game} {players}p seed={seed}: no end within {adapter.max_decisions} "
                                 "decisions")
        text = str(rng.choice(state.legal_actions()))
        actions.append(text)
        state = state.apply(text)
    return actions, state


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 80 else text[:77] + "..."


def _first_diff(a: Sequence[str], b: Sequence[str]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _count_list(obj: Any, target: list[Any]) -> int:
    """How often ``target`` stands as a list (or tuple) anywhere inside ``obj``."""
    n = 0
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list | tuple):
            if len(x) == len(target) and list(x) == target:
                n += 1
            stack.extend(x)
    return n


def _leaks(obj: Any, hidden: list[list[Any]],
           twins: Iterable[tuple[Any, list[list[Any]]]] | None = None) -> list[Any] | None:
    """A list inside ``obj`` that spells out one of the hidden sequences in its secret order.

    Without ``twins`` every such list counts. With ``twins`` (the same view of states with the same
    public facts and resampled hidden orders, as ``(view, hidden_sequences)``, made lazily), a list counts
    only when a twin whose sequence is in another order shows that list fewer times: a list that stays is
    public (a ship's cargo can equal the last three cubes in the bag). A sequence no twin reorders (its order
    follows from public facts) is not reported.
    """
    secret = [(i, h) for i, h in enumerate(hidden) if len(h) >= 2 and h != sorted(h, key=repr)]
    if not secret:
        return None
    found = [(i, h, n) for i, h in secret if (n := _count_list(obj, h))]
    if not found or twins is None:
        return found[0][1] if found else None
    made: list[tuple[Any, list[list[Any]]]] = []
    source = iter(twins)
    for i, h, n in found:
        for k in itertools.count():
            if k == len(made):
                twin = next(source, None)
                if twin is None:
                    break
                made.append(twin)
            view, twin_hidden = made[k]
            if i < len(twin_hidden) and twin_hidden[i] != h:
                if _count_list(view, h) < n:
                    return h
                break
    return None


class _Checker:
    """Checks one playout; ``fail`` raises with the full context of the current step."""

    def __init__(self, adapter: ConformanceAdapter, players: int, seed: int, full: bool, skip: frozenset[str]):
        self.a = adapter
        self.players = players
        self.seed = seed
        self.full = full
        self.skip = skip
        self.step = 0
        self.state: GameState | None = None
        self.action: str | None = None
        self.report = ConformanceReport(adapter.game)

    def on(self, check: str) -> bool:
        return check not in self.skip

    def fail(self, check: str, detail: str) -> NoReturn:
        s = self.state
        where = "" if s is None else f" (round {s.round}, {s.phase}, to move {s.to_move})"
        act = "" if self.action is None else f" action {self.action!r}"
        raise AssertionError(f"{self.a.game} {self.players}p seed={self.seed} step {self.step}{where}{act}: "
                             f"[{check}] {detail}")

    def expect(self, check: str, ok: bool, detail: str | Callable[[], str]) -> None:
        if not ok:
            self.fail(check, detail() if callable(detail) else detail)

    # -- per state ------------------------------------------------------------------------------

    def invariants(self, s: GameState, what: str) -> None:
        if self.on("invariants"):
            problems = self.a.invariants(s)
            self.expect("invariants", not problems, lambda: f"{what}: " + "; ".join(problems))

    def decisions(self, s: GameState, legal: list[Action]) -> None:
        if not self.on("decisions"):
            return
        if s.is_over:
            self.expect("decisions", s.to_move is None, f"game over but to_move is {s.to_move}")
            self.expect("decisions", legal == [], f"game over but legal actions {[str(x) for x in legal]}")
            return
        self.expect("decisions", isinstance(s.to_move, int) and 0 <= s.to_move < s.n_players,
                    f"to_move {s.to_move!r} is not a seat")
        texts = [str(x) for x in legal]
        least = 1 if self.a.lone_decision(s) else 2
        self.expect("decisions", len(legal) >= least, f"a decision with {len(legal)} legal action(s): {texts}")
        self.expect("decisions", len(set(texts)) == len(texts), f"duplicate legal actions: {texts}")
        for x in legal:
            again = s.parse_action(str(x))
            self.expect("decisions", again == x and str(again) == str(x),
                        f"{str(x)!r} does not parse back to itself (got {str(again)!r})")

    def scores(self, s: GameState) -> None:
        if not self.on("scores"):
            return
        for seat in range(s.n_players):
            parts = s.score_breakdown(seat)
            total = s.score(seat)
            self.expect("scores", sum(parts.values()) == total,
                        f"seat {seat}: breakdown {parts} sums to {sum(parts.values())}, score is {total}")

    def children(self, s: GameState, legal: list[Action], before: str) -> GameState | None:
        """Apply every legal action (only the chosen one when no check looks at the others); return the child
        for ``self.action``."""
        if not (self.full or self.on("apply") or self.on("unchanged")):
            legal = [x for x in legal if str(x) == self.action]
        chosen = None
        for x in legal:
            text = str(x)
            try:
                child = s.apply(text)
            except Exception as e:
                self.fail("apply", f"legal action {text!r} raised {type(e).__name__}: {e}")
            self.report.actions_applied += 1
            if self.on("apply"):
                self.expect("apply", child.last_action is not None and normalize(child.last_action) == text,
                            f"after {text!r} last_action is {child.last_action!r}")
                self.expect("apply", len(child.events) > 0, f"{text!r} recorded no event")
                self.expect("apply", child is not s, f"{text!r} returned the same object")
            if self.on("unchanged") and s.to_json() != before:
                self.fail("unchanged", f"applying {text!r} changed the state it was applied to")
            if self.full:
                self.invariants(child, f"after legal action {text!r}")
            if text == self.action:
                chosen = child
        return chosen

    def round_trip(self, s: GameState, before: str, legal: list[Action], child: GameState) -> None:
        if not self.on("round_trip"):
            return
        try:
            loaded = load_state(before)
        except Exception as e:
            self.fail("round_trip", f"load_state(to_json()) raised {type(e).__name__}: {e}")
        self.expect("round_trip", loaded == s, "load_state(to_json()) != state")
        self.expect("round_trip", loaded.to_json() == before, "to_json of the loaded state differs")
        self.expect("round_trip", loaded.to_move == s.to_move and loaded.is_over == s.is_over,
                    "the loaded state has another seat to move")
        self.expect("round_trip", [str(x) for x in loaded.legal_actions()] == [str(x) for x in legal],
                    "the loaded state has other legal actions")
        if self.action is not None:
            self.expect("round_trip", loaded.apply(self.action) == child,
                        "the loaded state plays on differently")

    def view(self, s: GameState, seats: Sequence[int | None], hidden: list[list[Any]], det: GameState) -> None:
        if not self.on("view"):
            return
        for seat in seats:
            v = s.view(seat)
            try:
                text = json.dumps(v, ensure_ascii=False)
            except (TypeError, ValueError) as e:
                self.fail("view", f"view({seat}) is not JSON-serializable: {e}")
            leak = _leaks(json.loads(text), hidden, self._twins(s, seat, det))
            if leak is not None:
                self.fail("view", f"view({seat}) shows a hidden order: {leak[:8]}...")
            self.expect("view", self.a.public(det, seat) == self.a.public(s, seat),
                        f"view({seat}) changes when the hidden information is resampled")

    def _twins(self, s: GameState, seat: int | None, det: GameState) -> Iterator[tuple[Any, list[list[Any]]]]:
        """Views of ``det`` and of further determinizations of ``s`` (seeds follow from the run's seed)."""
        for k in range(TWINS):
            d = det if k == 0 else s.determinize(Rng(self.seed, "conformance", "twin", self.step, k).below(2**32))
            yield json.loads(json.dumps(d.view(seat))), self.a.hidden_sequences(d)

    def observe(self, s: GameState, seat: int, legal: list[Action], det_seed: int) -> None:
        if not self.on("observe"):
            return
        o = s.observe(seat)
        self.invariants(o, f"observe({seat})")
        self.expect("observe", [str(x) for x in o.legal_actions()] == [str(x) for x in legal],
                    f"observe({seat}) has other legal actions")
        self.expect("observe", o.to_move == s.to_move and o.is_over == s.is_over,
                    f"observe({seat}) has another seat to move")
        self.expect("observe", self.a.public(o, seat) == self.a.public(s, seat),
                    f"observe({seat}) changes the public facts")
        self.expect("observe", s.determinize(det_seed).observe(seat) == o,
                    f"observe({seat}) depends on the hidden order (differs after determinize({det_seed}))")
        d = o.determinize(det_seed)
        self.invariants(d, f"observe({seat}).determinize({det_seed})")
        self.expect("observe", self.a.public(d, seat) == self.a.public(s, seat),
                    f"observe({seat}).determinize({det_seed}) changes the public facts")
        self.expect("observe", [str(x) for x in d.legal_actions()] == [str(x) for x in legal],
                    f"observe({seat}).determinize({det_seed}) has other legal actions")
        if self.action is not None:
            try:
                d.apply(self.action)
            except Exception as e:
                self.fail("observe", f"observe({seat}).determinize({det_seed}) refuses the action: {e}")
        if self.full and self.on("round_trip"):
            self.expect("round_trip", load_state(o.to_json()) == o, f"observe({seat}) does not round-trip")

    def determinize(self, s: GameState, legal: list[Action], det_seed: int) -> GameState:
        d = s.determinize(det_seed)
        if not self.on("determinize"):
            return d
        self.invariants(d, f"determinize({det_seed})")
        self.expect("determinize", s.determinize(det_seed) == d, f"determinize({det_seed}) is not reproducible")
        self.expect("determinize", [str(x) for x in d.legal_actions()] == [str(x) for x in legal],
                    f"determinize({det_seed}) has other legal actions")
        self.expect("determinize", d.to_move == s.to_move, f"determinize({det_seed}) has another seat to move")
        if self.action is not None:
            try:
                d.apply(self.action)
            except Exception as e:
                self.fail("determinize", f"determinize({det_seed}) refuses the action: {e}")
        if d.to_json() != s.to_json():
            self.report.determinize_changed += 1
        return d

    def rearrange(self, s: GameState, legal: list[Action], det_seed: int, seats: Sequence[int | None],
                  before: str) -> None:
        """A chance variation keeps the public facts of ``seats``, the seat to move and the legal actions, leaves
        the state it came from unchanged, and plays on."""
        make = self.a.rearrangement
        rearranged = getattr(s, "rearranged", None)  # an optional member of the protocol
        if not self.on("rearrange") or make is None or rearranged is None:
            return
        before = before or s.to_json()
        parts = make(s, det_seed)
        try:
            r = rearranged(**parts)
        except Exception as e:
            self.fail("rearrange", f"rearranged({_short(parts)}) raised {type(e).__name__}: {e}")
        self.expect("rearrange", s.to_json() == before, "rearranged changed the state it was called on")
        self.invariants(r, "rearranged")
        self.expect("rearrange", r is not s and getattr(r, "observer", None) is None,
                    "rearranged returned the same object or an observation")
        for seat in seats:
            self.expect("rearrange", self.a.public(r, seat) == self.a.public(s, seat),
                        f"rearranged changes the public facts of view({seat})")
        self.expect("rearrange", r.to_move == s.to_move, "rearranged has another seat to move")
        self.expect("rearrange", [str(x) for x in r.legal_actions()] == [str(x) for x in legal],
                    "rearranged has other legal actions")
        hidden_parts = getattr(r, "hidden_parts", None)
        if hidden_parts is not None:
            try:
                json.dumps(hidden_parts())
            except (TypeError, ValueError) as e:
                self.fail("rearrange", f"hidden_parts() is not JSON-ready: {e}")
        if self.action is not None:
            try:
                r.apply(self.action)
            except Exception as e:
                self.fail("rearrange", f"the rearranged state refuses the action: {e}")

    def events(self, s: GameState) -> None:
        if not self.on("events"):
            return
        for ev in s.events:
            for lang in LANGS:
                try:
                    text = s.describe(ev, lang)
                except Exception as e:
                    self.fail("events", f"event {ev.key!r} {ev.args} has no {lang} text: {type(e).__name__}: {e}")
                self.expect("events", isinstance(text, str) and text.strip() != "",
                            f"event {ev.key!r} renders empty in {lang}")

    def refusal(self, s: GameState, legal: list[Action], before: str) -> None:
        if not (self.full and self.on("refusal")):
            return
        legal_texts = {str(x) for x in legal}
        covered: set[str] = set()
        tried: list[str] = []
        for text in self.a.candidate_actions(s):
            try:
                parsed = str(s.parse_action(text))
            except IllegalAction:
                parsed = None
            if parsed is not None:
                covered.add(parsed)
                if parsed in legal_texts:
                    continue
            tried.append(text)
            try:
                s.apply(text)
            except IllegalAction as e:
                self.expect("refusal", isinstance(e.rule, str) and e.rule != "" and str(e) != "",
                            f"{text!r} refused without a rule key or message")
                self.expect("refusal", e.explain("de") != "", f"{text!r}: the refusal has no German text")
                self.report.candidates_refused += 1
                continue
            except Exception as e:
                self.fail("refusal", f"{text!r} raised {type(e).__name__} instead of IllegalAction: {e}")
            self.fail("refusal", f"{text!r} is not among the legal actions {sorted(legal_texts)} but applies")
        missing = legal_texts - covered
        self.expect("refusal", not missing, f"candidate_actions misses the legal action(s) {sorted(missing)}")
        if self.on("unchanged") and s.to_json() != before:
            for text in tried:  # find the culprit on a fresh copy
                fresh = load_state(before)
                with contextlib.suppress(IllegalAction):
                    fresh.apply(text)
                self.expect("unchanged", fresh.to_json() == before, f"refusing {text!r} changed the state")
            self.fail("unchanged", "refusing the candidate actions changed the state")

    # -- the playout ----------------------------------------------------------------------------

    def run(self) -> tuple[list[str], GameState]:
        a = self.a
        rng = Rng(self.seed, "conformance", "playout")
        det_rng = Rng(self.seed, "conformance", "determinize")
        s = a.new_game(self.players, self.seed)
        self.state = s
        if self.on("determinism"):
            self.expect("determinism", a.new_game(self.players, self.seed).to_json() == s.to_json(),
                        "new_game with the same seed gives another state")
        seen: dict[str, int] = {}
        actions: list[str] = []
        need_json = self.full or self.on("unchanged") or self.on("round_trip")
        need_det = self.on("view") or self.on("determinize")
        while True:
            self.state = s
            legal = s.legal_actions()
            self.action = str(rng.choice(legal)) if legal else None
            det_seed = det_rng.below(2**32)
            # Skipped checks cost nothing: the JSON, the twin and the hidden orders are made only for the checks
            # that read them (a soak run with the cheap checks plays ~2× faster).
            before = s.to_json() if need_json else ""
            self.invariants(s, "state")
            self.decisions(s, legal)
            self.scores(s)
            if self.on("repetition"):
                key = a.position(s)
                if key in seen:
                    self.fail("repetition", f"the position of step {seen[key]} repeats: a line of play that never "
                              f"ends (actions {actions[seen[key]:][:12]})")
                seen[key] = self.step
            if self.step > 0:
                self.events(s)
            if need_det:
                hidden = a.hidden_sequences(s)
                det = self.determinize(s, legal, det_seed)
                seats: list[int | None] = [*range(s.n_players), None] if self.full else [self.step % s.n_players]
                self.view(s, seats, hidden, det)
            if a.rearrangement is not None and self.on("rearrange"):
                looked: list[int | None] = [*range(s.n_players), None] if self.full else [self.step % s.n_players, None]
                self.rearrange(s, legal, det_seed, looked, before)
            watchers = range(s.n_players) if self.full else ([] if s.to_move is None else [s.to_move])
            for seat in watchers:
                self.observe(s, seat, legal, det_seed)
            child = self.children(s, legal, before)
            self.round_trip(s, before, legal, child)
            self.refusal(s, legal, before)
            self.report.steps += 1
            if s.is_over:
                break
            if self.action is None or child is None:
                self.fail("decisions", "the game is not over but nothing was chosen")
            problems = a.transition_checks(s, self.action, child)
            if problems:
                self.fail("apply", "; ".join(problems))
            actions.append(self.action)
            s = child
            self.step += 1
            self.expect("game", self.step <= a.max_decisions, f"no end within {a.max_decisions} decisions")
        self.action = None
        if self.on("game"):
            problems = a.game_checks(s, actions)
            if problems:
                self.fail("game", "; ".join(problems))
        if self.on("determinism"):
            again, final = playout_actions(a, self.players, self.seed)
            if again != actions:
                self.fail("determinism", f"the same seed played another game (first difference at step "
                          f"{_first_diff(again, actions)})")
            scores = [s.score(i) for i in range(s.n_players)]
            again_scores = [final.score(i) for i in range(final.n_players)]
            self.expect("determinism", again_scores == scores,
                        f"the same seed ended with scores {again_scores}, first time {scores}")
        self.report.games = 1
        self.report.games_by_players = {self.players: 1}
        return actions, s


def check_game(adapter: ConformanceAdapter | str, players: int, seed: int, *, full: bool = False,
               skip: Iterable[str] = ()) -> ConformanceReport:
    """Play one random game (seeded) and check it after every step; raise ``AssertionError`` on a failure.

    ``full`` adds the expensive checks: refusal of every non-legal candidate action, views of every
    seat, invariants of every child state.
    """
    ad = get_adapter(adapter) if isinstance(adapter, str) else adapter
    skipped = frozenset(skip)
    unknown = skipped - set(CHECKS)
    if unknown:
        raise ValueError(f"skip: unknown check(s) {sorted(unknown)}; checks are {', '.join(CHECKS)}")
    if players not in ad.player_counts:
        raise ValueError(f"players: {ad.game} is checked for {ad.player_counts}, not {players!r}")
    t = time.perf_counter()
    checker = _Checker(ad, players, seed, full, skipped)
    checker.run()
    checker.report.seconds = time.perf_counter() - t
    return checker.report


def run_conformance(game: ConformanceAdapter | str = "speicherstadt", players: int | Iterable[int] | None = None,
                    seeds: Iterable[int] = range(3), *, full: bool = False,
                    skip: Iterable[str] = ()) -> ConformanceReport:
    """Check one random game per (player count, seed); ``players`` defaults to every count the game allows."""
    ad = get_adapter(game) if isinstance(game, str) else game
    counts = ad.player_counts if players is None else ((players,) if isinstance(players, int) else tuple(players))
    skip = tuple(skip)
    report = ConformanceReport(ad.game)
    for n in counts:
        for seed in seeds:
            report.add(check_game(ad, n, seed, full=full, skip=skip))
    return report
