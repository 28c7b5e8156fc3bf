"""Puzzles: positions from self-play games where one move is clearly best, verified, themed and graded.

A puzzle is found in two steps, so a noisy first look never becomes a puzzle:

1. *Screening*: at decisions of self-play games (mixed bots, several player counts) the quick comparison of moves
   (``compare_actions(method="hybrid")``, a few greedy rollouts scored by the value model) keeps a position when its
   top move leads the second by at least :data:`MARGIN` and by twice the lead's standard error.
2. *Verification*, on fresh seeds: every screened candidate (the top :data:`CANDIDATES` moves) is played out
   :data:`VERIFY_ROLLOUTS` times to the end by greedy bots from positions the mover cannot tell apart (fair mode:
   what the mover cannot see is resampled). The puzzle stands when the verified best move leads the others by at
   least :data:`MARGIN` and its 95% interval does not overlap any other's.

Why a margin of 10 percentage points: with 400 play-outs a win share's 95% interval is about ±5 points wide, so
two moves' intervals stop overlapping at a lead of about 10 points; a smaller lead could not be verified at this
budget, and a larger one would leave out most positions where a learner can still find the move by reasoning.

The *acceptable* answers are the best move and every move that leads to the very same position (loading the same
cube in another order of notation, say). The *difficulty* (1 easiest to 4) is the first of the solver levels
:data:`SOLVERS` (weakest first) that finds an acceptable move in at least half of :data:`SOLVER_TRIES` tries; 4 when
none does (random bots are no level: with two moves they find half of any puzzle). The *explanation* is built when
asked, in English or German, from the game's own rule texts (``state.explain_action``) and the measured numbers.

Puzzle files are plain JSON (``speicherstadt-lab/puzzles/1``), read with ``json`` only; the shipped ones are in
``speicherstadt_lab/data/puzzles/``. ``speicherstadt-lab puzzles`` mines new ones; ``benchmarks/puzzles.py``
re-verifies the shipped ones with new seeds and more play-outs.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .analysis import Leaf, _paired_se, _rollouts, _summary, compare_actions, hybrid_horizon, t95
from .bots import make_bot
from .engine.errors import RecordError
from .engine.i18n import load_messages, messages
from .engine.protocol import GameState, get_game, new_game, state_from_dict
from .engine.rng import Rng, derive_seed
from .records import record_game

FORMAT = "speicherstadt-lab/puzzles/1"

#: The lead (win share, 0..1) the best move must have over every other, screened and verified.
MARGIN = 0.10
#: Greedy play-outs per candidate move in the verification (fresh seeds).
VERIFY_ROLLOUTS = 400
#: Hybrid rollouts per move in the screening.
SCREEN_ROLLOUTS = 24
#: How many of the screening's top moves are verified.
CANDIDATES = 3
#: Hybrid rollouts a move before the screening's futility check (the rest of :data:`SCREEN_ROLLOUTS` only if it
#: passes).
SCREEN_FIRST = 8
#: The screening's futility bound: Student's t, 7 degrees of freedom, one-sided 1% (3.00), on 8 paired rollouts.
FUTILITY_T = 3.00
#: Play-outs a candidate after which the verification checks whether any candidate can still lead by the margin.
VERIFY_LOOKS = (100, 200, 300)
#: The verification's futility bound: a move's lead + 2.326 standard errors (one-sided 1%) under :data:`MARGIN`
#: stops it. A position that truly leads by the margin is dropped at one look with at most 1% chance, at any of the
#: three with at most 3% (Bonferroni); a position is never *accepted* early.
FUTILITY_Z = 2.326
#: The bots a puzzle is tried on, weakest first: the difficulty is the first that finds it.
SOLVERS = ("greedy", "mcts:iterations=100", "mcts:iterations=400")
#: Tries per solver (different seeds) for the difficulty.
SOLVER_TRIES = 3
#: The bots self-play games are played by (each seat draws one): mistakes make positions worth a puzzle, and
#: search bots would make the games themselves cost more than the verification.
SELF_PLAY_BOTS = ("random", "greedy", "greedy", "greedy:epsilon=0.3")

load_messages("puzzles")


class PuzzleError(ValueError):
    """A puzzle or puzzle file that is malformed: the message names the field (``puzzles[3].best``)."""


@dataclass(frozen=True)
class Puzzle:
    """One verified puzzle: a position (``state``), whose move it is, the best move and its numbers."""

    id: str
    game: str
    expansion: str | None
    players: int
    seat: int
    position: dict[str, Any]  # the state's ``to_dict`` (the exact position, hidden order included)
    best: str
    acceptable: tuple[str, ...]
    margin: float  # the best move's lead over the next best, win share 0..1
    margin_ci: tuple[float, float]  # its 95% interval (paired play-outs)
    theme: str
    difficulty: int  # 1 (random bots find it) .. len(SOLVERS) + 1 (no solver level does)
    moves: tuple[dict[str, Any], ...] = ()  # verified candidates: action, win_prob, win_lo, win_hi, score_mean
    found_by: dict[str, float] = field(default_factory=dict)  # solver -> share of tries that found the best move
    rollouts: int = VERIFY_ROLLOUTS
    source: dict[str, Any] = field(default_factory=dict)  # how it was found: game seed, ply, bots, played move

    @property
    def state(self) -> GameState:
        """The puzzle's position (a new state each time)."""
        return state_from_dict(self.position)

    @property
    def variant(self) -> str:
        """The shipped file it belongs to: ``kaispeicher`` with the expansion, else the game's name."""
        return self.expansion or self.game

    @property
    def second(self) -> dict[str, Any]:
        """The verified numbers of the next best move."""
        return self.moves[1] if len(self.moves) > 1 else {}

    def is_answer(self, action: Any) -> bool:
        """Whether ``action`` (notation or Action) solves the puzzle."""
        text = str(self.state.parse_action(action))
        return text in self.acceptable

    def theme_name(self, lang: str = "en") -> str:
        """The theme in words."""
        return messages.text("puzzles", f"theme_{self.theme}", lang, {})

    def explanation(self, lang: str = "en") -> str:
        """Why the best move is best, in the rules' words and the measured numbers (``lang`` "en" or "de")."""
        state = self.state
        phrase = getattr(state, "phrase_action", None)
        name = phrase(self.best, lang) if phrase else self.best
        name = name[:1].upper() + name[1:]  # it opens the text
        second = self.second
        args = {
            "move": name, "rules": state.explain_action(self.best, lang), "theme": self.theme_name(lang),
            "p": _pct(self.moves[0]["win_prob"]), "lo": _pct(self.moves[0]["win_lo"]),
            "hi": _pct(self.moves[0]["win_hi"]),
            "second": (phrase(second["action"], lang) if phrase else second["action"]) if second else "—",
            "p2": _pct(second["win_prob"]) if second else "—",
            "margin": _pct(self.margin), "mlo": _pct(self.margin_ci[0]), "mhi": _pct(self.margin_ci[1]),
            "n": self.rollouts, "seat": state.seat_name(self.seat, lang),
        }
        return messages.text("puzzles", "explanation", lang, args)

    def task(self, lang: str = "en") -> str:
        """The task in one sentence."""
        state = self.state
        return messages.text("puzzles", "task", lang, {"seat": state.seat_name(self.seat, lang),
                                                      "theme": self.theme_name(lang)})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (the file format's entry)."""
        return {"id": self.id, "game": self.game, "expansion": self.expansion, "players": self.players,
                "seat": self.seat, "best": self.best, "acceptable": list(self.acceptable),
                "margin": round(self.margin, 4), "margin_ci": [round(x, 4) for x in self.margin_ci],
                "theme": self.theme, "difficulty": self.difficulty, "moves": [dict(m) for m in self.moves],
                "found_by": dict(self.found_by), "rollouts": self.rollouts, "source": dict(self.source),
                "position": self.position}

    @classmethod
    def from_dict(cls, data: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle from its JSON data; :class:`PuzzleError` naming the field for anything malformed, and the
        best move checked to be legal in the position."""
        if not isinstance(data, dict):
            raise PuzzleError(f"{where}: must be an object")

        def get(key: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
            if key not in data:
                if optional:
                    return None
                raise PuzzleError(f"{where}.{key}: missing")
            value = data[key]
            if value is None and optional:
                return None
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                raise PuzzleError(f"{where}.{key}: {value!r} is not a {getattr(kind, '__name__', kind)}")
            return value

        game = get("game", str)
        try:
            info = get_game(game)
        except ValueError as err:
            raise PuzzleError(f"{where}.game: {err}") from None
        expansion = get("expansion", str, optional=True)
        if expansion is not None and expansion not in info.expansions:
            raise PuzzleError(f"{where}.expansion: {info.title} has no expansion {expansion!r}")
        try:
            state = state_from_dict(get("position", dict))
        except (RecordError, ValueError) as err:
            raise PuzzleError(f"{where}.position: {err}") from None
        seat = get("seat", int)
        if state.to_move != seat:
            raise PuzzleError(f"{where}.seat: the position asks seat {state.to_move}, not {seat}")
        legal = {str(a) for a in state.legal_actions()}
        best = get("best", str)
        acceptable = get("acceptable", list)
        for k, text in enumerate([best, *acceptable]):
            name = "best" if k == 0 else f"acceptable[{k - 1}]"
            if not isinstance(text, str) or text not in legal:
                raise PuzzleError(f"{where}.{name}: {text!r} is not a legal move in the position")
        if best not in acceptable:
            raise PuzzleError(f"{where}.acceptable: must include the best move {best!r}")
        margin_ci = get("margin_ci", list)
        if len(margin_ci) != 2 or not all(isinstance(x, int | float) for x in margin_ci):
            raise PuzzleError(f"{where}.margin_ci: two numbers (the 95% interval)")
        theme = get("theme", str)
        themes = _themes(game)
        if theme not in themes:
            raise PuzzleError(f"{where}.theme: {theme!r} is not one of {', '.join(themes)}")
        difficulty = get("difficulty", int)
        if not 1 <= difficulty <= len(SOLVERS) + 1:
            raise PuzzleError(f"{where}.difficulty: 1 to {len(SOLVERS) + 1}, not {difficulty}")
        moves = get("moves", list)
        for k, m in enumerate(moves):
            if not isinstance(m, dict) or not {"action", "win_prob", "win_lo", "win_hi"} <= set(m):
                raise PuzzleError(f"{where}.moves[{k}]: an object with action, win_prob, win_lo, win_hi")
        if not moves or moves[0]["action"] != best:
            raise PuzzleError(f"{where}.moves: the first entry must be the best move's numbers")
        return cls(id=get("id", str), game=game, expansion=expansion, players=state.n_players, seat=seat,
                   position=data["position"], best=best, acceptable=tuple(acceptable),
                   margin=float(get("margin", (int, float))), margin_ci=(float(margin_ci[0]), float(margin_ci[1])),
                   theme=theme, difficulty=difficulty, moves=tuple(moves),
                   found_by=dict(get("found_by", dict, optional=True) or {}),
                   rollouts=get("rollouts", int, optional=True) or VERIFY_ROLLOUTS,
                   source=dict(get("source", dict, optional=True) or {}))


def _pct(p: float) -> str:
    return f"{100 * p:.0f}"


def _themes(game: str) -> tuple[str, ...]:
    cap = get_game(game).capability("puzzles")
    return tuple(cap.THEMES) if cap is not None else ()


def theme_of(state: GameState, action: Any) -> str:
    """The theme of ``action`` in ``state``, by the game's "puzzles" capability."""
    cap = get_game(state.game).capability("puzzles")
    if cap is None:
        raise ValueError(f"{get_game(state.game).title} declares no puzzle themes")
    return str(cap.theme(state, action))


def themes(game: str = "speicherstadt") -> list[str]:
    """The themes a game's puzzles may carry."""
    return list(_themes(game))


# -- files ------------------------------------------------------------------------------------------------------


def read_puzzles(source: str | Path | dict[str, Any]) -> list[Puzzle]:
    """The puzzles of a puzzle file (a path or its data), each checked (:class:`PuzzleError` names the field)."""
    if isinstance(source, dict):
        data = source
    else:
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise PuzzleError(f"puzzles: cannot read {source}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"format: a puzzle file starts with \"format\": \"{FORMAT}\"")
    items = data.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleError("puzzles: must be a list")
    return [Puzzle.from_dict(p, f"puzzles[{k}]") for k, p in enumerate(items)]


def write_puzzles(puzzles: Iterable[Puzzle], path: str | Path) -> None:
    """Save puzzles as a puzzle file (JSON, one puzzle a line for readable diffs); written beside and moved in, so a
    reader or a run stopped midway never sees half a file."""
    lines = [json.dumps(p.to_dict(), ensure_ascii=False, separators=(",", ":")) for p in puzzles]
    body = ",\n".join(lines)
    path = Path(path)
    part = path.with_name(path.name + ".part")
    part.write_text(f'{{"format": "{FORMAT}", "puzzles": [\n{body}\n]}}\n', encoding="utf-8")
    os.replace(part, path)


def shipped_variants() -> list[str]:
    """The variants with a shipped puzzle file."""
    folder = resources.files("speicherstadt_lab.data").joinpath("puzzles")
    if not folder.is_dir():  # none shipped yet
        return []
    return sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".json"))


def load_puzzles(game: str = "speicherstadt", expansion: str | None = None, theme: str | None = None,
                 difficulty: int | None = None) -> list[Puzzle]:
    """The shipped puzzles of a game (``expansion="kaispeicher"`` or ``game="kaispeicher"`` for the expansion's),
    optionally only one theme and one difficulty; ordered easiest first."""
    variant = expansion or game
    if variant not in shipped_variants():
        raise ValueError(f"no shipped puzzles for {variant!r}; there are: {', '.join(shipped_variants()) or 'none'}")
    ref = resources.files("speicherstadt_lab.data").joinpath("puzzles", f"{variant}.json")
    found = read_puzzles(json.loads(ref.read_text(encoding="utf-8")))
    found = [p for p in found if (theme is None or p.theme == theme)
             and (difficulty is None or p.difficulty == difficulty)]
    return sorted(found, key=lambda p: (p.difficulty, p.id))


# -- mining -----------------------------------------------------------------------------------------------------


def _play(state: GameState, actions: Sequence[str], first: int, stop: int, seed: int, method: str) -> list[list[Leaf]]:
    """Rollouts ``first`` .. ``stop - 1`` of each action, as ``compare_actions`` plays them (same seeds, so a run cut
    into pieces gives the very numbers of one run): greedy play-outs to the end, or hybrid ones scored by the model."""
    horizon = hybrid_horizon(state) if method == "hybrid" else None
    acts = [state.parse_action(a) for a in actions]
    return _rollouts(state, acts, range(first, stop), "greedy", "fair", seed, viewer=state.to_move, horizon=horizon)


def _table(actions: Sequence[str], res: list[list[Leaf]], seat: int) -> list[dict[str, Any]]:
    """``compare_actions``' rows from the leaves: best first (win share, then score), the top's paired lead's SE."""
    rows = [{"action": str(a), **_summary(r, seat), "res": r} for a, r in zip(actions, res, strict=True)]
    rows.sort(key=lambda row: (-row["win_prob"], -row["score_mean"]))
    for row in rows:
        row["win_gap_se"] = _paired_se(rows[0]["res"], row["res"], seat, 1)
    return rows


def lead_bound(res: list[list[Leaf]], seat: int, z: float) -> float:
    """How far any move may still lead: per move the least over its rivals of its paired lead + ``z`` SE, the most
    over the moves (the futility check of :func:`screen` and :func:`verify`; win share 0..1)."""
    best = -math.inf
    for k, mine in enumerate(res):
        reach = math.inf
        for j, other in enumerate(res):
            if j != k:
                d = [a[1][seat] - b[1][seat] for a, b in zip(mine, other, strict=True)]
                mean = sum(d) / len(d)
                se = _paired_se(mine, other, seat, 1)
                reach = min(reach, mean + z * (0.0 if math.isnan(se) else se))
        best = max(best, reach)
    return best


def screen(state: GameState, seed: int, rollouts: int = SCREEN_ROLLOUTS) -> list[str] | None:
    """The top moves worth verifying, best first, or None when no move clearly leads (the first step).

    Staged: after :data:`SCREEN_FIRST` rollouts a move a position whose every move's lead is out of reach
    (:func:`lead_bound` with :data:`FUTILITY_T` below :data:`MARGIN`) is dropped; the others play all ``rollouts``
    and are judged on them as ``compare_actions(method="hybrid")`` would."""
    if state.to_move is None or len(state.legal_actions()) < 2:
        return None
    seat = state.to_move
    actions = [str(a) for a in state.legal_actions()]
    first = min(SCREEN_FIRST, rollouts)
    res = _play(state, actions, 0, first, seed, "hybrid")
    if first < rollouts:
        if lead_bound(res, seat, FUTILITY_T) < MARGIN:
            return None
        more = _play(state, actions, first, rollouts, seed, "hybrid")
        res = [a + b for a, b in zip(res, more, strict=True)]
    rows = _table(actions, res, seat)
    lead = rows[0]["win_prob"] - rows[1]["win_prob"]
    se = rows[1]["win_gap_se"]
    if lead < MARGIN or (se > 0 and lead < 2 * se):
        return None
    return [row["action"] for row in rows[:CANDIDATES]]


def verify(state: GameState, candidates: Sequence[str], seed: int,
           rollouts: int = VERIFY_ROLLOUTS, looks: Sequence[int] = VERIFY_LOOKS) -> dict[str, Any] | None:
    """The second step, on fresh seeds: the candidates played out by greedy bots from positions the mover cannot
    tell apart.

    The best, its lead with a 95% interval and every candidate's numbers, or None when the lead is
    under :data:`MARGIN` or the best's 95% interval overlaps another's.

    Sequential: at each of ``looks`` (play-outs a candidate, below ``rollouts``) the check stops, rejecting, when no
    candidate can still lead by :data:`MARGIN` (:func:`lead_bound` with :data:`FUTILITY_Z`); a position is only ever
    accepted on all ``rollouts``, with the numbers one run of ``compare_actions`` would give."""
    seat = state.to_move
    res: list[list[Leaf]] = [[] for _ in candidates]
    done = 0
    for stop in [*sorted(n for n in looks if 0 < n < rollouts), rollouts]:
        more = _play(state, candidates, done, stop, seed, "rollouts")
        res = [a + b for a, b in zip(res, more, strict=True)]
        done = stop
        if done < rollouts and lead_bound(res, seat, FUTILITY_Z) < MARGIN:
            return None
    rows = _table(candidates, res, seat)
    best, second = rows[0], rows[1]
    lead = float(best["win_prob"] - second["win_prob"])
    if lead < MARGIN or float(best["win_lo"]) <= max(float(r["win_hi"]) for r in rows[1:]):
        return None
    half = t95(rollouts - 1) * float(second["win_gap_se"])
    moves = tuple({"action": r["action"], **{k: round(float(r[k]), 4) for k in
                                             ("win_prob", "win_lo", "win_hi", "score_mean")}} for r in rows)
    return {"best": best["action"], "margin": lead, "margin_ci": (lead - half, lead + half), "moves": moves}


def acceptable_moves(state: GameState, best: str) -> tuple[str, ...]:
    """The best move and every legal move that leads to the same position."""
    target = state.apply(best).fingerprint()
    same = [str(a) for a in state.legal_actions() if str(a) == best or state.apply(a).fingerprint() == target]
    return tuple(sorted(same, key=lambda a: a != best))


def difficulty_of(state: GameState, acceptable: Sequence[str], seed: int,
                  solvers: Sequence[str] = SOLVERS, tries: int = SOLVER_TRIES) -> tuple[int, dict[str, float]]:
    """The first solver level (1-based, weakest first) that finds an acceptable move in at least half its tries
    (each on what the mover sees only), and the shares of the levels tried; ``len(solvers) + 1`` when none does.

    A level stops trying once its verdict is sure (half its tries found it, or can no longer), and the levels after
    the first that finds it are not tried: the difficulty is what it would be with every try, at a fraction of the
    search; a share is of the tries made."""
    view = state.observe(state.to_move)
    shares: dict[str, float] = {}
    need = (tries + 1) // 2  # hits for "at least half"
    for k, spec in enumerate(solvers):
        hits = made = 0
        while made < tries and hits < need and made - hits <= tries - need:
            hits += str(make_bot(spec, seed=derive_seed(seed, "solver", spec, made)).choose(view)) in acceptable
            made += 1
        shares[spec] = hits / made
        if hits >= need:
            return k + 1, shares
    return len(solvers) + 1, shares


@dataclass(frozen=True)
class MineSettings:
    """What a mining run does (the CLI's options)."""

    game: str = "speicherstadt"
    expansion: str | None = None
    players: tuple[int, ...] = (3,)
    decisions_per_game: int = 30  # decisions screened per self-play game, drawn evenly at random
    screen_rollouts: int = SCREEN_ROLLOUTS
    verify_rollouts: int = VERIFY_ROLLOUTS
    solvers: tuple[str, ...] = SOLVERS
    solver_tries: int = SOLVER_TRIES
    bots: tuple[str, ...] = SELF_PLAY_BOTS


def mine_game(settings: MineSettings, seed: int) -> list[Puzzle]:
    """The puzzles of one self-play game (seed ``seed``; the player count and bots drawn from it)."""
    rng = Rng(seed, "puzzle-game")
    players = rng.choice(settings.players)
    specs = [rng.choice(settings.bots) for _ in range(players)]
    options = {"expansion": settings.expansion} if settings.expansion else {}
    start = new_game(settings.game, players=players, seed=derive_seed(seed, "deal"), **options)
    record = record_game(start, [make_bot(s, seed=derive_seed(seed, "bot", i)) for i, s in enumerate(specs)])
    decisions = [n for n in record.mainline()[:-1] if n.state.to_move is not None
                 and len(n.state.legal_actions()) > 1]
    order = list(range(len(decisions)))
    rng.shuffle(order)
    picked = sorted(order[:settings.decisions_per_game])
    found: list[Puzzle] = []
    for k in picked:
        node = decisions[k]
        state = node.state
        ply = node.ply
        candidates = screen(state, derive_seed(seed, "screen", k), settings.screen_rollouts)
        if candidates is None:
            continue
        verdict = verify(state, candidates, derive_seed(seed, "verify", k), settings.verify_rollouts)
        if verdict is None:
            continue
        acceptable = acceptable_moves(state, verdict["best"])
        level, shares = difficulty_of(state, acceptable, derive_seed(seed, "solve", k), settings.solvers,
                                      settings.solver_tries)
        played = node.children[0].action if node.children else None
        variant = settings.expansion or settings.game
        found.append(Puzzle(
            id=f"{variant}-{players}p-{seed}-{ply}", game=state.game, expansion=settings.expansion,
            players=players, seat=state.to_move, position=state.to_dict(), best=verdict["best"],
            acceptable=acceptable, margin=verdict["margin"], margin_ci=verdict["margin_ci"],
            theme=theme_of(state, verdict["best"]), difficulty=level, moves=verdict["moves"], found_by=shares,
            rollouts=settings.verify_rollouts,
            source={"seed": seed, "ply": ply, "bots": specs, "played": str(played) if played is not None else None}))
    return found


def mine(settings: MineSettings, games: int, seed: int = 0, processes: int | None = None,
         progress: Callable[[int, int], None] | None = None) -> list[Puzzle]:
    """Mine ``games`` self-play games (seeds ``seed`` .. ``seed + games - 1``) for puzzles; a process pool of
    ``processes`` (default: what ``resources.default_processes`` allows) plays them side by side."""
    from .resources import default_processes

    seeds = [seed + g for g in range(games)]
    n = processes or default_processes(len(seeds))
    found: list[Puzzle] = []
    if n <= 1:
        for k, s in enumerate(seeds):
            found.extend(mine_game(settings, s))
            if progress:
                progress(k + 1, len(seeds))
        return _unique(found)
    with ProcessPoolExecutor(n) as pool:
        for k, got in enumerate(pool.map(mine_game, [settings] * len(seeds), seeds)):
            found.extend(got)
            if progress:
                progress(k + 1, len(seeds))
    return _unique(found)


def _unique(puzzles: Iterable[Puzzle]) -> list[Puzzle]:
    """One puzzle per position (the first found)."""
    seen: set[str] = set()
    kept = []
    for p in puzzles:
        key = p.state.fingerprint()
        if key not in seen:
            seen.add(key)
            kept.append(p)
    return kept


def merge(old: Iterable[Puzzle], new: Iterable[Puzzle]) -> list[Puzzle]:
    """``old`` and ``new`` together, one per position and id (``old`` wins)."""
    ids: set[str] = set()
    kept = []
    for p in _unique([*old, *new]):
        if p.id not in ids:
            ids.add(p.id)
            kept.append(p)
    return kept


def standing(puzzle: Puzzle, seed: int, rollouts: int) -> dict[str, Any]:
    """Re-verify a puzzle on new seeds with ``rollouts`` play-outs a move: whether its answer stands (the best move
    still leads every other verified candidate, its 95% interval above theirs) and the new lead."""
    state = puzzle.state
    candidates = [m["action"] for m in puzzle.moves]
    df = compare_actions(state, rollouts=rollouts, bot="greedy", mode="fair", seed=seed, actions=candidates,
                         processes=1)
    top = str(df.loc[0, "action"])
    lead = float(df.loc[0, "win_prob"] - df.loc[1, "win_prob"]) if len(df) > 1 else math.inf
    clear = len(df) < 2 or float(df.loc[0, "win_lo"]) > float(df["win_hi"].iloc[1:].max())
    return {"id": puzzle.id, "theme": puzzle.theme, "stands": top in puzzle.acceptable and clear,
            "same_best": top in puzzle.acceptable, "lead": lead}


__all__ = ["FORMAT", "MARGIN", "Puzzle", "PuzzleError", "load_puzzles", "mine", "read_puzzles", "themes",
           "write_puzzles"]
