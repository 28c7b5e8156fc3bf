"""Helpers for the rules scenario tests: stacked decks and bags, scripted play, and small policies.

A scenario stacks the draw pile (``deck=``, top first) and the bag (``bag=``, first drawn first), then
plays scripted actions through the public notation, exactly as a user or a record would. The policies
drive the game through the rounds a scenario does not care about, without touching any hidden state.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt import check_invariants
from speicherstadt_lab.games.speicherstadt.setup import game_cards

CAT = sl.default_catalog()


def goods_of(expansion: str | None = None) -> tuple[str, ...]:
    """The goods of a game with ``expansion`` (None: the base game alone), in catalogue order."""
    return tuple(g.id for g in CAT.goods if g.expansion in (None, expansion))


GOODS = goods_of()
SEATS_EN = ("Red", "Blue", "Green", "Yellow", "Purple")
SEATS_DE = ("Rot", "Blau", "Grün", "Gelb", "Lila")

Policy = Callable[[Any], str]


def card(card_id: str) -> Any:
    """The default catalogue's card (its data: kind, season, goods, strength, ...)."""
    return CAT.card(card_id)


def cards_in_play(players: int, expansion: str | None = None) -> list[str]:
    """Ids of the cards a game with ``players`` (and ``expansion``) uses, in catalogue order (seasons A..E)."""
    idx, _ = game_cards(CAT, players, expansion)
    return [CAT.cards[i].id for i in idx]


def stack_deck(players: int, top: Sequence[str] = (), *, late_fires: bool = False,
               bottom: Sequence[str] = (), expansion: str | None = None, name: str = "stack_deck") -> list[str]:
    """A legal draw pile for ``players`` (and ``expansion``): ``top`` first in that order, then the other cards in
    catalogue order.

    ``bottom`` cards go just above ``fire_4`` (which is always last). With ``late_fires`` every fire not
    placed explicitly also goes down there, so no fire interrupts the rounds a scenario plays. ``name`` starts
    a refusal's text (the helper the test called).
    """
    legal = cards_in_play(players, expansion)
    final = [c for c in legal if card(c).season == "E"]
    placed = Counter([*top, *bottom, *final])
    extra = placed - Counter(legal)
    if extra:
        raise ValueError(f"{name}: {sorted(extra.elements())} not available (twice, or removed for {players}p)")
    rest = list((Counter(legal) - placed).elements())
    rest.sort(key=legal.index)
    fires = [c for c in rest if card(c).kind == "fire"] if late_fires else []
    middle = [c for c in rest if c not in fires]
    return [*top, *middle, *fires, *bottom, *final]


def stack_bag(top: Sequence[str] = (), expansion: str | None = None, name: str = "stack_bag") -> list[str]:
    """The bag (45 cubes; 54 with Kaispeicher) with ``top`` drawn first, then the rest cycling through the goods in
    catalogue order (coffee, tea, saffron, rubber, carpet, then the expansion's); ``name`` starts a refusal's text."""
    goods = goods_of(expansion)
    left = Counter({g.id: g.count for g in CAT.goods if g.id in goods})
    left.subtract(top)
    if any(v < 0 for v in left.values()):
        raise ValueError(f"{name}: more cubes than the game has in {list(top)}")
    rest: list[str] = []
    while sum(left.values()):
        for g in goods:
            if left[g] > 0:
                rest.append(g)
                left[g] -= 1
    return [*top, *rest]


def play(state: Any, *actions: str) -> Any:
    """Apply ``actions`` in order (notation); a refusal names the step at fault."""
    for k, text in enumerate(actions):
        try:
            state = state.apply(text)
        except sl.IllegalAction as e:
            raise AssertionError(f"step {k} {text!r} refused ({e.rule}): {e}; state {state!r}") from e
    return state


def refusal(state: Any, action: Any) -> sl.IllegalAction:
    """The :class:`sl.IllegalAction` that ``state.apply(action)`` raises (fails the test if it is accepted)."""
    try:
        state.apply(action)
    except sl.IllegalAction as e:
        return e
    raise AssertionError(f"{action!r} was accepted in {state!r}")


def places(*spaces: int) -> list[str]:
    """``place N`` actions for a demand phase, in turn order."""
    return [f"place {n}" for n in spaces]


def current_space(state: Any) -> int:
    """The water space whose card is being purchased (the leftmost card still in play with workers)."""
    for i, (cid, col) in enumerate(zip(state.offer, state.workers, strict=True)):
        if cid is not None and col:
            return i
    raise ValueError("no card is being purchased")


def event_keys(state: Any) -> list[str]:
    return [e.key for e in state.events]


def events_of(state: Any, key: str) -> list[dict[str, Any]]:
    return [e.args for e in state.events if e.key == key]


def drive(state: Any, policy: Policy, *, until: Callable[[Any], bool] | None = None,
          max_steps: int = 20_000, check: bool = False, seen: list[Any] | None = None) -> Any:
    """Apply ``policy(state)`` until ``until(state)`` holds or the game is over.

    With ``check`` every state's invariants are verified; ``seen`` collects every state reached.
    """
    for _ in range(max_steps):
        if check:
            problems = check_invariants(state)
            assert not problems, problems
        if seen is not None:
            seen.append(state)
        if state.is_over or (until is not None and until(state)):
            return state
        state = state.apply(policy(state))
    raise AssertionError(f"policy did not reach the goal within {max_steps} steps: {state!r}")


def passive(state: Any) -> str:
    """Nobody buys: workers spread over the emptiest spaces, every seat passes, loading ends at once."""
    if state.phase == "demand":
        legal = [a.args[0] for a in state.legal_actions()]
        return f"place {min(legal, key=lambda i: (len(state.workers[i]), i))}"
    if state.phase == "purchase":
        return "pass"
    return "done"


def next_round(state: Any, policy: Policy = passive) -> Any:
    """Play to the start of the next round's demand (or the end of the game)."""
    r = state.round
    return drive(state, policy, until=lambda s: s.round > r and s.phase == "demand")


def red_buys_three(top: Sequence[str], bag_top: Sequence[str] = (), **kw: Any) -> Any:
    """4 players, round 1: Red buys the cards on spaces 0, 1 and 2 for 1 coin each; the others pass on 3 and 4.

    Returns the state at Red's loading turn (Red holds the metal coin, so Red loads first).
    """
    s = sl.new_game(players=4, deck=stack_deck(4, top, late_fires=True), bag=stack_bag(bag_top), **kw)
    s = play(s, *places(0, 3, 4, 3, 1, 4, 3, 4, 2, 3, 4, 3))
    s = play(s, "buy", "buy", "buy", *["pass"] * 9)
    assert s.phase == "loading" and s.loading_seat == 0 and s.to_move == 0
    assert s.coins == (2, 5, 5, 5)
    return s


class RandomPolicy:
    """Uniform choice among the legal actions from a seeded :class:`sl.Rng` stream (never the global ``random``).

    Unlike a position-keyed bot its stream advances with every choice, so a loop of moves
    (keep a cube, take it back, ...) always ends.
    """

    def __init__(self, seed: int) -> None:
        self.rng = sl.Rng(seed, "scenario-random")

    def __call__(self, state: Any) -> str:
        return str(self.rng.choice(state.legal_actions()))


class Collector:
    """A scripted player per seat: buy the wanted cards, pass on the rest, use cubes on contracts first.

    ``wants[seat]`` is the set of card ids that seat buys. In demand a seat puts a worker on a wanted card
    nobody has claimed yet, otherwise on a card nobody wants (the emptiest), so wanted cards cost 1 coin.
    In loading each dock cube goes to a contract, else a merchant, else the warehouse; the rest expires.
    """

    def __init__(self, wants: dict[int, set[str]]) -> None:
        self.wants = wants

    def _wanted_by_anyone(self, cid: str | None) -> bool:
        return any(cid in w for w in self.wants.values())

    def __call__(self, state: Any) -> str:
        seat = state.to_move
        mine = self.wants.get(seat, set())
        legal = [str(a) for a in state.legal_actions()]
        if state.phase == "demand":
            free = [int(a.split()[1]) for a in legal]
            for i in free:
                if state.offer[i] in mine and not state.workers[i]:
                    return f"place {i}"
            junk = [i for i in free if not self._wanted_by_anyone(state.offer[i])] or free
            return f"place {min(junk, key=lambda i: (len(state.workers[i]), i))}"
        if state.phase == "purchase":
            return "buy" if state.offer[current_space(state)] in mine else "pass"
        for prefix in ("contract ", "sell ", "store "):
            for a in legal:
                if a.startswith(prefix):
                    return a
        return "done"


def rigged(state: Any, seat: int, *, cards: Sequence[str] = (), contracts: Sequence[tuple[str, Sequence[str]]] = (),
           warehouse: Sequence[str] = (), hall: Sequence[str] = (), coins: int | None = None,
           track: int | None = None, dock: Sequence[str] | None = None, stock: Sequence[str] = (),
           **extra: int) -> Any:
    """``state`` with extra holdings for ``seat``, rebuilt through ``to_dict``/``load_state``.

    Cards come from the draw pile or the discard pile, cubes from the bag, so every card and cube is
    still in exactly one place (``load_state`` checks that). For scoring tests that need many cards.
    ``dock`` replaces the cubes on the dock (the old ones go back to the bag), ``stock`` moves cubes from the bag
    to the stock; ``extra`` sets other fields of the seat (Kaispeicher's ``breaks``, ``grey``, ``delivered``).
    """
    order = goods_of(state.expansion)  # the goods of the position's game, in catalogue order
    d = json.loads(state.to_json())
    if dock is not None:
        d["bag"].extend(d["dock"])
        for g in dock:
            d["bag"].remove(g)
        d["dock"] = sorted(dock, key=order.index)
    for g in stock:
        d["bag"].remove(g)
        d["stock"][g] += 1
    s = d["seats"][seat]
    for cid in [*cards, *(c for c, _ in contracts)]:
        for place in ("pile", "discard"):
            if cid in d[place]:
                d[place].remove(cid)
                break
        else:
            raise ValueError(f"rigged: {cid} is neither on the pile nor on the discard pile")
        s["cards"].append(cid)
    for cid, goods in contracts:
        s["contracts"].append([cid, list(goods)])
    for g in [*(g for _, gs in contracts for g in gs), *warehouse, *hall]:
        d["bag"].remove(g)
    s["warehouse"] = sorted([*s["warehouse"], *warehouse], key=order.index)
    s["hall"] = sorted([*s["hall"], *hall], key=order.index)
    if coins is not None:
        s["coins"] = coins
    if track is not None:
        s["track"] = track
    s.update(extra)
    return sl.load_state(json.dumps(d))
