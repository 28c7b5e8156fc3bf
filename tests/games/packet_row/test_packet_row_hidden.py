"""Packet Row's hidden information: ``view``, ``observe``, ``determinize``, ``fingerprint`` and what bots see.

Secret: the deck orders (and the two-player removed cards), the unused starting contracts, and each seat's
starting contract until it is fulfilled or the game ends. Every other hand card was taken from an open
supply: public to a perfect memory.
"""

from __future__ import annotations

import json

import speicherstadt_lab as sl
from speicherstadt_lab.bots import RandomBot
from speicherstadt_lab.games.packet_row import check_invariants
from speicherstadt_lab.games.packet_row.scenario import rigged, stacked_decks
from tests.support.positions import random_moves

STARTS = [c.id for c in sl.new_game("packet_row", players=2, seed=0).cat.start_contracts]


def game(order: list[str] | None = None, decks: dict[str, list[str]] | None = None, players: int = 4, seed: int = 9):
    return sl.new_game("packet_row", players=players, seed=seed, start_contracts=order, decks=decks)


def swapped(order: list[str], i: int, j: int) -> list[str]:
    out = list(order)
    out[i], out[j] = out[j], out[i]
    return out


def reversed_tails(players: int = 4) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Two stackings with the same supplies and different deck orders below them."""
    a = stacked_decks()
    k = 3 + 2 + 1  # the current supply, the future supply and one more card stay in place
    b = {board: cards[:k] + cards[k:][::-1] for board, cards in a.items()}
    return a, b


def play_some(s, steps: int, seed: int = 1):
    return random_moves(s, steps, seed, "hidden")


def test_view_shows_the_own_hand_and_of_the_others_only_the_cards_taken_openly() -> None:
    s = play_some(game(STARTS), 30)
    for seat in range(4):
        v = s.view(seat)
        json.dumps(v)
        for i, pv in enumerate(v["seats"]):
            hand = s.player(i).hand
            start = [c for c in hand if c.startswith("start_")]
            if i == seat:
                assert pv["hand"] == list(hand) and pv["secret"] == 0
            else:
                assert pv["hand"] == [c for c in hand if c not in start] and pv["secret"] == len(start)
                rest = {k: x for k, x in v.items() if k != "start_contracts_unseen"}  # the candidates, sorted
                assert not set(start) & set(json.dumps(rest).replace('"', " ").split())
                assert set(start) <= set(v["start_contracts_unseen"])
    for i, pv in enumerate(s.view(None)["seats"]):  # a spectator sees no starting contract
        assert not any(c.startswith("start_") for c in pv["hand"])
        assert pv["secret"] == sum(c.startswith("start_") for c in s.player(i).hand)


def test_views_do_not_change_with_the_hidden_information() -> None:
    base = game(STARTS)
    other = game(swapped(STARTS, 1, 2))  # seats 1 and 2 hold each other's starting contract
    assert base.view(0) == other.view(0) and base.view(3) == other.view(3) and base.view(None) == other.view(None)
    assert base.view(1) != other.view(1)
    a, b = reversed_tails()
    assert game(STARTS, a).view(0) == game(STARTS, b).view(0)
    assert game(STARTS, a).to_dict() != game(STARTS, b).to_dict()


def test_observe_replaces_hidden_parts_by_a_placeholder() -> None:
    a, b = reversed_tails()
    s1, s2 = game(STARTS, a), game(swapped(STARTS, 1, 2), b)
    for seat in (0, 3):
        o1, o2 = s1.observe(seat), s2.observe(seat)
        assert o1 == o2  # nothing hidden from ``seat`` shows through
        assert o1.player(seat).hand == s1.player(seat).hand
        assert o1.is_observation and o1.observer == seat
        assert not check_invariants(o1)
    assert s1.observe(1) != s2.observe(1)  # seat 1 knows its own starting contract
    assert [str(x) for x in s1.observe(0).legal_actions()] == [str(x) for x in s1.legal_actions()]
    spectator = s1.observe(None)
    assert spectator.observer == -1 and spectator == s2.observe(None)
    assert sl.load_state(spectator.to_json()) == spectator


def test_determinize_resamples_what_the_observer_does_not_know_and_keeps_the_rest() -> None:
    s = play_some(game(STARTS), 25)
    obs = s.observe(0)
    mine = s.player(0).hand
    seen_starts: set[tuple[str, ...]] = set()
    decks: set[tuple[str, ...]] = set()
    for seed in range(12):
        d = obs.determinize(seed)
        assert not check_invariants(d)
        assert d.view(0) == s.view(0)  # every public fact and seat 0's own hand
        assert d.player(0).hand == mine
        assert d.observer is None and d == obs.determinize(seed)
        seen_starts.add(tuple(c for i in (1, 2, 3) for c in d.player(i).hand if c.startswith("start_")))
        decks.add(tuple(d.to_dict()["boards"]["bank"]["deck"]))
        if s.to_move == 0:
            assert [str(x) for x in d.legal_actions()] == [str(x) for x in s.legal_actions()]
    assert len(seen_starts) > 1 and len(decks) > 1
    # A full state's determinize keeps every hand: only the decks are reshuffled.
    full = s.determinize(4)
    assert all(full.player(i).hand == s.player(i).hand for i in range(4))
    assert full.view(2) == s.view(2)


def test_a_fulfilled_starting_contract_is_public() -> None:
    order = ["start_cotton_nl", *(c for c in STARTS if c != "start_cotton_nl")]
    decks = stacked_decks(bottom=["cotton2", "ship_nl"])
    s = rigged(game(order, decks), 0, hand=["cotton2"], ships=["ship_nl"])
    assert s.view(1)["seats"][0]["secret"] == 1
    s = s.apply("fulfil start_cotton_nl ship nl goods cotton2")
    assert s.view(1)["seats"][0]["secret"] == 0
    assert "start_cotton_nl" in s.view(1)["boards"]["guild"]["discard"]
    assert "start_cotton_nl" not in s.view(1)["start_contracts_unseen"]


def test_bots_see_only_observations_with_canonical_placeholders() -> None:
    s = game(STARTS)
    seen = []

    class Spy(RandomBot):
        def choose(self, obs):
            seen.append(obs)
            return super().choose(obs)

    bots = [Spy(seed=i) for i in range(4)]
    for _ in range(20):
        s = s.apply(bots[s.to_move].choose(s.observe(s.to_move)))
    idx = {c: s.cat.by_id[c].idx for c in STARTS}
    for obs in seen:
        d = obs.to_dict()
        assert obs.is_observation and obs.observer == obs.to_move
        for b in ("guild", "docks", "market", "bank"):
            assert d["boards"][b]["deck"] == sorted(d["boards"][b]["deck"], key=lambda c: obs.cat.by_id[c].idx)
        others = [next(c for c in seat["hand"] if c.startswith("start_"))
                  for i, seat in enumerate(d["seats"]) if i != obs.observer]
        mine = next(c for c in d["seats"][obs.observer]["hand"] if c.startswith("start_"))
        pool = sorted((c for c in STARTS if c != mine), key=idx.__getitem__)
        assert others == pool[:3] and d["box"] == pool[3:]  # the first unknown ones, whatever the deal


def test_fingerprint_ignores_hidden_information() -> None:
    a, b = reversed_tails()
    s1, s2 = game(STARTS, a), game(swapped(STARTS, 1, 2), b)
    assert s1.fingerprint() == s2.fingerprint()
    assert s1.observe(0).fingerprint() == s2.observe(0).fingerprint()
    assert s1.observe(1).fingerprint() != s2.observe(1).fingerprint()
    assert s1.fingerprint() != s1.apply("choose bank").fingerprint()


def test_whether_a_seat_is_asked_never_depends_on_a_secret() -> None:
    """Every forced step is decided on what everyone can see: the same moves in worlds with other deals
    (until the end of play, when the hands are shown)."""
    s = game(STARTS, players=3, seed=4)
    rng = sl.Rng(4, "asked")
    other = game(swapped(STARTS, 1, 2), players=3, seed=4)
    steps = 0
    while s.phase in ("choose", "decide"):
        steps += 1
        assert s.to_move == other.to_move and s.view(0)["events"] == other.view(0)["events"]
        public = [str(a) for a in s.legal_actions() if "start_" not in str(a)]
        if not public:
            break
        pick = rng.choice(public)
        s, other = s.apply(pick), other.apply(pick)
    assert steps > 50 and s.phase in ("final", "over") and other.phase in ("final", "over")
