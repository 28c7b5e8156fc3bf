"""Chance variations: ``state.rearranged`` / ``state.hidden_parts`` of both games and ``Node.rearrange`` in records.

A rearranged state keeps every public fact and sets the hidden, undrawn order by hand; the state it is called on
never changes, and a rearrangement that does not fit raises ``RearrangeError`` naming the field. Records keep
chance nodes (format 2), replay them exactly, still read format 1, and leave them out of a seat's export.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine import RearrangeError
from speicherstadt_lab.engine.conformance import check_game, get_adapter
from speicherstadt_lab.records import GameRecord, Node, chance_text
from speicherstadt_lab.reviewing import REVIEW_KEY
from tests.support.positions import random_moves

BOARDS = ("guild", "docks", "market", "bank")


# ---- helpers ------------------------------------------------------------------------------------------


def bots(n: int, seed: int = 0) -> list[Any]:
    return [make_bot("greedy", seed=seed + i) for i in range(n)]


def bot_step(state: Any, players: list[Any]) -> Any:
    seat = state.to_move
    return state.apply(players[seat].choose(state.observe(seat)))


def random_play(state: Any, steps: int, seed: int = 1) -> Any:
    return random_moves(state, steps, seed, "rearrange-test")


def views(state: Any) -> list[Any]:
    return [state.view(seat) for seat in [*range(state.n_players), None]]


def pile_of(state: Any) -> list[list[str]]:
    return state.hidden_parts()["pile"]


def next_cards(state: Any, k: int) -> list[str]:
    """``k`` non-fire cards that may be named as the next ``k`` of the pile: for each of the first ``k``
    positions a card of that position's season, taken from the bottom of the season's block."""
    cards = state.cat.by_id
    pile = pile_of(state)
    out: list[str] = []
    for _, season in pile[:k]:
        pick = next(c for c, se in reversed(pile) if se == season and c not in out and cards[c].kind != "fire")
        out.append(pick)
    return out


def expected_cargo(state: Any, named: list[str], bag: list[str]) -> list[tuple[str, ...]]:
    """The cargo each of the ``named`` cards brings when drawn in order from a bag in the order ``bag``."""
    cards, order = state.cat.by_id, list(state.goods)
    out, pos = [], 0
    for cid in named:
        card = cards[cid]
        if card.kind == "ship":
            out.append(tuple(sorted(bag[pos:pos + card.capacity], key=order.index)))
            pos += card.capacity
        else:
            out.append(())
    return out


# ---- Die Speicherstadt: the next cards and goods are the ones asked for -------------------------------


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_speicherstadt_supply_draws_the_rearranged_cards_and_goods(expansion: str | None) -> None:
    s = sl.new_game("speicherstadt", players=3, seed=4, expansion=expansion)
    before = s.to_dict()
    k = len(s.offer)
    named = next_cards(s, k)
    bag = sorted(s.hidden_parts()["bag"], reverse=True)
    r = s.rearranged(pile=named, bag=bag)
    assert s.to_dict() == before  # the state it was called on is unchanged
    assert [c for c, _ in pile_of(r)][:k] == named and r.hidden_parts()["bag"] == bag
    assert [se for _, se in pile_of(r)] == [se for _, se in pile_of(s)]  # the season sequence stays
    assert Counter(c for c, _ in pile_of(r)) == Counter(c for c, _ in pile_of(s))
    players = bots(3)
    while r.round == 1:
        r = bot_step(r, players)
    assert list(r.offer) == named
    assert [tuple(c) for c in r.cargo] == expected_cargo(r, named, bag)


def test_speicherstadt_a_fire_brought_forward_burns_in_the_next_supply() -> None:
    s = sl.new_game("speicherstadt", players=3, seed=11)
    rng = sl.Rng(11, "fire-forward")
    while pile_of(s)[0][1] == "A" or s.phase != "demand":  # on until season B (with the 1st fire) is on top
        s = s.apply(rng.choice(s.legal_actions()))
    assert "fire_1" in [c for c, _ in pile_of(s)]
    r = s.rearranged(pile=["fire_1"])
    assert pile_of(r)[0][0] == "fire_1"
    rnd = r.round
    players = bots(3, seed=5)
    while r.round == rnd:
        r = bot_step(r, players)
    assert any(e.key in ("fire", "fire_tie") and e.args["card"] == "fire_1" for e in r.events)


def test_speicherstadt_prefix_keeps_the_rest_in_its_order_per_season() -> None:
    s = sl.new_game("speicherstadt", players=2, seed=3)
    pile = [c for c, _ in pile_of(s)]
    r = s.rearranged(pile=[pile[5], pile[2]], bag=[s.hidden_parts()["bag"][-1]])
    assert [c for c, _ in pile_of(r)] == [pile[5], pile[2], pile[0], pile[1], pile[3], pile[4], *pile[6:]]
    bag = s.hidden_parts()["bag"]
    rest = list(bag)
    rest.remove(bag[-1])  # cubes of a good are alike: the first one of it moves up
    assert r.hidden_parts()["bag"] == [bag[-1], *rest]
    full = [c for c, _ in pile_of(s.determinize(7))]
    assert s.rearranged(pile=full, bag=s.determinize(7).hidden_parts()["bag"]).to_dict() == \
        s.determinize(7).to_dict()  # the whole order: the same state as that determinization
    assert s.rearranged().to_dict() == s.to_dict()  # nothing named: nothing changes


def test_speicherstadt_rearranging_an_observation_gives_a_full_state() -> None:
    s = random_play(sl.new_game("speicherstadt", players=3, seed=2), 30)
    obs = s.observe(1)
    named = next_cards(obs, 2)
    r = obs.rearranged(pile=named)
    assert obs.is_observation and not r.is_observation and r.observer is None
    assert [c for c, _ in pile_of(r)][:2] == named
    assert r.view(1) == s.view(1)
    assert r.legal_actions() == s.legal_actions()


# ---- Die Speicherstadt: what is refused --------------------------------------------------------------


def _speicherstadt_bad_cases(s: Any) -> list[tuple[dict[str, Any], str, str]]:
    pile = pile_of(s)
    first_season = pile[0][1]
    other = next(c for c, se in pile if se != first_season and se != "E")
    drawn = next(c.id for c in s.cat.cards if c.id not in {x for x, _ in pile})
    bag = s.hidden_parts()["bag"]
    good = bag[0]
    return [
        ({"pile": ["no_such_card"]}, "pile[0]", "unknown card id"),
        ({"pile": [drawn]}, "pile[0]", "not in the draw pile"),
        ({"pile": [pile[0][0], pile[0][0]]}, "pile[1]", "named twice"),
        ({"pile": [other]}, "pile[0]", "the order of the seasons is public"),
        ({"pile": ["fire_4"]}, "pile[0]", "cannot come where a card of season"),
        ({"pile": "fire_4"}, "pile", "must be a list of card ids"),
        ({"pile": [["x"]]}, "pile[0]", "must be one of the card ids"),
        ({"pile": {"a": 1}}, "pile", "must be a list"),
        ({"bag": [good] * (bag.count(good) + 1)}, f"bag[{bag.count(good)}]", "holds only"),
        ({"bag": ["gold"]}, "bag[0]", "unknown good"),
        ({"bag": [3]}, "bag[0]", "must be one of the goods"),
        ({"bag": None, "pile": 5}, "pile", "must be a list"),
    ]


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_speicherstadt_bad_rearrangements_name_the_field_and_change_nothing(expansion: str | None) -> None:
    s = random_play(sl.new_game("speicherstadt", players=3, seed=6, expansion=expansion), 20)
    before = s.to_dict()
    for parts, field, words in _speicherstadt_bad_cases(s):
        with pytest.raises(RearrangeError) as err:
            s.rearranged(**parts)
        assert err.value.field == field, (parts, str(err.value))
        assert words in str(err.value) and str(err.value).startswith(f"{field}: ")
        assert isinstance(err.value, ValueError)
        assert s.to_dict() == before
    with pytest.raises(TypeError):
        s.rearranged(deck=[])  # an unknown keyword


def test_speicherstadt_season_error_reads_well() -> None:
    s = sl.new_game("speicherstadt", players=2, seed=1)
    with pytest.raises(RearrangeError, match=r"^pile\[0\]: card 'fire_4' \(season 'E'\) cannot come where a card of "
                                             r"season 'A' lies; the order of the seasons is public$"):
        s.rearranged(pile=["fire_4"])


def test_speicherstadt_hidden_parts() -> None:
    s = sl.new_game("speicherstadt", players=4, seed=8, expansion="kaispeicher")
    parts = s.hidden_parts()
    assert set(parts) == {"pile", "bag"}
    json.dumps(parts)
    d = s.to_dict()
    assert [c for c, _ in parts["pile"]] == d["pile"] and parts["bag"] == d["bag"]
    assert all(s.cat.by_id[c].season == se for c, se in parts["pile"])
    assert parts["pile"][-1] == ["fire_4", "E"]


# ---- Die Speicherstadt: a rearranged state keeps every public fact (property) -------------------------


def _shuffled_within_seasons(pile: list[list[str]], perm: list[int]) -> list[str]:
    """The pile with its cards permuted by ``perm`` (indices), then sorted back into their seasons' positions."""
    by_season: dict[str, list[str]] = {}
    for i in perm:
        c, se = pile[i]
        by_season.setdefault(se, []).append(c)
    its = {se: iter(cs) for se, cs in by_season.items()}
    return [next(its[se]) for _, se in pile]


@settings(max_examples=40)
@given(data=st.data(), expansion=st.sampled_from([None, "kaispeicher"]), players=st.sampled_from([2, 3, 5]),
       steps=st.integers(0, 150))
def test_speicherstadt_rearranged_keeps_every_public_fact(data: Any, expansion: str | None, players: int,
                                                          steps: int) -> None:
    s = random_play(sl.new_game("speicherstadt", players=players, seed=steps % 7, expansion=expansion), steps)
    parts = s.hidden_parts()
    pile = _shuffled_within_seasons(parts["pile"], data.draw(st.permutations(range(len(parts["pile"])))))
    bag = data.draw(st.permutations(parts["bag"]))
    cut_pile = data.draw(st.integers(0, len(pile)))
    cut_bag = data.draw(st.integers(0, len(bag)))
    before = s.to_dict()
    r = s.rearranged(pile=pile[:cut_pile], bag=list(bag[:cut_bag]))
    assert s.to_dict() == before
    assert views(r) == views(s)
    assert r.fingerprint() == s.fingerprint()
    assert [str(a) for a in r.legal_actions()] == [str(a) for a in s.legal_actions()]
    assert [c for c, _ in r.hidden_parts()["pile"]][:cut_pile] == pile[:cut_pile]
    assert r.hidden_parts()["bag"][:cut_bag] == list(bag[:cut_bag])
    assert sl.load_state(r.to_json()).to_dict() == r.to_dict()


# ---- Packet Row --------------------------------------------------------------------------------------


def _pool(state: Any, board: str) -> list[str]:
    parts = state.hidden_parts()
    return [*parts["decks"][board], *parts["removed"][board]]


@pytest.mark.parametrize("players", [2, 3])
def test_packet_row_refill_draws_the_rearranged_cards(players: int) -> None:
    s = sl.new_game("packet_row", players=players, seed=5)
    before = s.to_dict()
    named = {}
    for b in BOARDS:
        pool = _pool(s, b)
        named[b] = list(reversed(pool))[:8]  # with 2 players this starts with the removed cards
    r = s.rearranged(decks=named)
    assert s.to_dict() == before
    for b in BOARDS:
        assert r.hidden_parts()["decks"][b][:8] == named[b]
        assert Counter(_pool(r, b)) == Counter(_pool(s, b))
        assert len(r.hidden_parts()["decks"][b]) == len(s.hidden_parts()["decks"][b])
    if players == 2:
        assert any(r.hidden_parts()["removed"][b] != s.hidden_parts()["removed"][b] for b in BOARDS)
    assert views(r) == views(s)
    players_ = bots(players, seed=2)
    prev = r
    while r.round == 1 and not r.is_over:
        prev, r = r, bot_step(r, players_)
    refilled = [e.args["board"] for e in r.events if e.key.startswith("pr_refill")]
    assert refilled
    size = prev.nt.current_size[players]
    for b in refilled:
        moved = [c for c in prev.supply(b)["future"] if c is not None]
        now = r.supply(b)
        drawn = [c for c in now["current"] if c is not None][len(moved):] + [c for c in now["future"] if c is not None]
        assert [c for c in now["current"] if c is not None][:len(moved)] == moved
        assert drawn == named[b][:size - len(moved) + prev.nt.future_size]


def test_packet_row_contracts_swap_only_secret_ones() -> None:
    s = sl.new_game("packet_row", players=3, seed=7)
    parts = s.hidden_parts()
    own, box = parts["contracts"], parts["box"]
    assert set(own) == {"0", "1", "2"}
    r = s.rearranged(contracts={1: box[0]})
    rp = r.hidden_parts()
    assert rp["contracts"] == {"0": own["0"], "1": box[0], "2": own["2"]}
    assert Counter([*rp["contracts"].values(), *rp["box"]]) == Counter([*own.values(), *box])
    assert r.view(None) == s.view(None) and r.view(0) == s.view(0) and r.view(2) == s.view(2)
    assert r.view(1) != s.view(1)  # seat 1 now holds (and so knows) another contract
    swap = s.rearranged(contracts={"0": own["1"], "1": own["0"]})  # seats as text, as JSON writes them
    assert swap.hidden_parts()["contracts"] == {"0": own["1"], "1": own["0"], "2": own["2"]}
    taken = s.rearranged(contracts={0: own["2"]})  # seat 2's was given away: it takes the first unused one
    assert taken.hidden_parts()["contracts"] == {"0": own["2"], "1": own["1"], "2": box[0]}
    assert own["0"] in taken.hidden_parts()["box"]
    obs = s.observe(0)
    r0 = obs.rearranged(contracts={1: obs.hidden_parts()["box"][0]})
    assert r0.observer is None and r0.view(0) == s.view(0)


def test_packet_row_bad_rearrangements_name_the_field_and_change_nothing() -> None:
    s = random_play(sl.new_game("packet_row", players=2, seed=3), 6)
    parts = s.hidden_parts()
    guild, docks = parts["decks"]["guild"], parts["decks"]["docks"]
    own, box = parts["contracts"], parts["box"]
    absent = next(c for c in s.supply("guild")["current"] if c is not None and c not in _pool(s, "guild"))
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"decks": {"harbour": []}}, "decks.harbour", "unknown deck"),
        ({"decks": {7: []}}, "decks.7", "unknown deck"),
        ({"decks": {"guild": ["nope"]}}, "decks.guild[0]", "unknown card id"),
        ({"decks": {"guild": [docks[0]]}}, "decks.guild[0]", "not in the guild deck"),
        ({"decks": {"guild": [absent]}}, "decks.guild[0]", "not in the guild deck"),
        ({"decks": {"guild": guild + guild}}, f"decks.guild[{len(guild)}]", "holds only"),
        ({"decks": {"guild": [], 0: []}}, "decks.guild", "named twice"),
        ({"decks": {"guild": "abc"}}, "decks.guild", "must be a list"),
        ({"decks": {"guild": [1]}}, "decks.guild[0]", "must be one of the card ids"),
        ({"decks": ["guild"]}, "decks", "must be an object"),
        ({"contracts": {5: box[0]}}, "contracts[5]", "not a seat"),
        ({"contracts": {"x": box[0]}}, "contracts[x]", "not a seat"),
        ({"contracts": {0: guild[0]}}, "contracts[0]", "not a starting contract"),
        ({"contracts": {0: 3}}, "contracts[0]", "must be a starting contract id"),
        ({"contracts": {0: box[0], 1: box[0]}}, "contracts[1]", "already given"),
        ({"contracts": [box[0]]}, "contracts", "must be an object"),
    ]
    before = s.to_dict()
    for kw, field, words in cases:
        with pytest.raises(RearrangeError) as err:
            s.rearranged(**kw)
        assert err.value.field == field, (kw, str(err.value))
        assert words in str(err.value), str(err.value)
        assert s.to_dict() == before
    obs = s.observe(0)
    with pytest.raises(RearrangeError, match=r"contracts\[0\]: .*observer"):
        obs.rearranged(contracts={0: box[0]})
    over = random_play(s, 5000)
    assert over.is_over
    with pytest.raises(RearrangeError, match=r"contracts\[1\]: seat 1 holds no secret starting contract"):
        over.rearranged(contracts={1: own["1"]})


@settings(max_examples=30)
@given(data=st.data(), players=st.sampled_from([2, 3, 4]), steps=st.integers(0, 80))
def test_packet_row_rearranged_decks_keep_every_public_fact(data: Any, players: int, steps: int) -> None:
    s = random_play(sl.new_game("packet_row", players=players, seed=steps % 5), steps)
    decks = {}
    for b in BOARDS:
        size = len(s.hidden_parts()["decks"][b])
        order = data.draw(st.permutations(_pool(s, b)))
        decks[b] = list(order[:data.draw(st.integers(0, size))])
    before = s.to_dict()
    r = s.rearranged(decks=decks)
    assert s.to_dict() == before
    assert views(r) == views(s)
    assert r.fingerprint() == s.fingerprint()
    assert [str(a) for a in r.legal_actions()] == [str(a) for a in s.legal_actions()]
    for b in BOARDS:
        assert r.hidden_parts()["decks"][b][:len(decks[b])] == decks[b]


# ---- the conformance harness runs the check -----------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), [("speicherstadt", {}), ("speicherstadt", {"expansion": "kaispeicher"}),
                                               ("packet_row", {})])
def test_conformance_checks_rearranging(game: str, options: dict[str, Any]) -> None:
    ad = get_adapter(game, **options)
    assert ad.rearrangement is not None
    cheap = ("refusal", "round_trip", "observe", "events", "determinism")
    check_game(ad, 2, 0, skip=cheap)
    broken = dataclasses.replace(ad, rearrangement=lambda s, seed: {"pile" if game == "speicherstadt" else "decks":
                                                                     ["nope"]})
    with pytest.raises(AssertionError, match=r"\[rearrange\]"):
        check_game(broken, 2, 0, skip=cheap)


# ---- records: chance variations ---------------------------------------------------------------------


def bot_line(node: Node, plies: int, seed: int = 0) -> Node:
    """``plies`` greedy moves from ``node`` (each bot sees its observation)."""
    players = bots(node.state.n_players, seed)
    for _ in range(plies):
        st_ = node.state
        if st_.is_over:
            break
        bot = players[st_.to_move]
        node = node.play(bot.choose(st_.observe(st_.to_move)), by=dict(bot.params()))
    return node


@pytest.fixture(scope="module")
def chance_record() -> tuple[GameRecord, Node, Node]:
    """A 3-player game: 12 greedy moves, then the main line goes on for 30 more, and at ply 12 a chance
    variation (the next two cards and a good set by hand) is played out to the end."""
    rec = GameRecord.new(players=3, seed=21, headers={"event": "what if"})
    at = bot_line(rec.root, 12)
    bot_line(at, 30, seed=1)
    chance = at.rearrange(pile=next_cards(at.state, 2), bag=["coffee"], comment="what if?")
    chance.play_out(bots(3, seed=9))
    return rec, at, chance


def test_rearrange_adds_a_chance_child(chance_record: tuple[GameRecord, Node, Node]) -> None:
    _, at, chance = chance_record
    assert at.children[-1] is chance and at.children[0] is not chance
    assert chance.chance == {"pile": next_cards(at.state, 2), "bag": ["coffee"]}
    assert chance.action == chance_text(chance.chance) and chance.action.startswith("~ pile: ")
    assert chance.actor is None and chance.ply == at.ply + 1 and chance.comment == "what if?"
    assert chance.state.to_dict() == at.state.rearranged(**chance.chance).to_dict()
    assert views(chance.state) == views(at.state)
    again = at.rearrange(pile=tuple(next_cards(at.state, 2)), bag=["coffee"], by={"bot": "x"})
    assert again is chance and chance.by == "human"  # the same parts: the existing child
    assert "chance" in repr(chance)
    assert not chance.is_mainline() and at.is_mainline()


def test_a_chance_record_round_trips_and_replays_exactly(chance_record: tuple[GameRecord, Node, Node],
                                                        tmp_path: Any) -> None:
    rec, at, chance = chance_record
    text = rec.to_json()
    data = json.loads(text)
    assert data["format"] == "speicherstadt-lab/2"
    entry = data["moves"][at.ply]["variations"][0][0]
    assert entry == {"chance": chance.chance, "by": "human", "comment": "what if?"}
    back = GameRecord.from_json(text)
    assert back == rec and back.to_json() == text
    for a, b in zip(rec.nodes(), back.nodes(), strict=True):
        assert (a.action, a.chance, a.actor, a.ply) == (b.action, b.chance, b.actor, b.ply)
        assert a.state.to_dict() == b.state.to_dict()
    sparse = GameRecord.from_json(text, cache_every=7)  # states rebuilt by replay, chance nodes too
    for a, b in zip(rec.nodes(), sparse.nodes(), strict=True):
        assert a.state.to_dict() == b.state.to_dict()
    path = tmp_path / "what-if.json"
    rec.save(path)
    assert GameRecord.load(path) == rec


def test_a_chance_node_adds_no_events_and_one_step_row(chance_record: tuple[GameRecord, Node, Node]) -> None:
    rec, at, chance = chance_record
    end = rec.path_to(chance)[-1]
    while end.children:
        end = end.children[0]
    ev = rec.events(end)
    assert not (ev["ply"] == chance.ply).any()
    tr = rec.trajectory(end)
    rows = tr[tr["ply"] == chance.ply]
    assert list(rows["action"].unique()) == [chance.action] and rows["actor"].isna().all()
    same = tr[tr["ply"] == at.ply]
    assert list(rows["coins"]) == list(same[same["kind"] == "step"]["coins"])


def test_play_never_reuses_a_chance_child(chance_record: tuple[GameRecord, Node, Node]) -> None:
    _, at, _ = chance_record
    child = at.play(at.children[0].action)
    assert child is at.children[0] and child.chance is None


def test_rearrange_refusals_change_nothing() -> None:
    rec = GameRecord.new(players=2, seed=4)
    node = bot_line(rec.root, 3)
    text = rec.to_json()
    with pytest.raises(RearrangeError) as err:
        node.rearrange(pile=["fire_4"])
    assert err.value.field == "pile[0]"
    with pytest.raises(ValueError, match="at least one hidden part"):
        node.rearrange()
    with pytest.raises(ValueError, match="at least one hidden part"):
        node.rearrange(pile=None)
    with pytest.raises(ValueError, match="by"):
        node.rearrange(pile=[], by=5)
    with pytest.raises(TypeError):
        node.rearrange(cards=[])
    assert rec.to_json() == text and not node.children


def test_version_1_files_still_load() -> None:
    rec = GameRecord.new(players=2, seed=5)
    bot_line(rec.root, 20)
    data = rec.to_dict()
    data["format"] = "speicherstadt-lab/1"
    back = GameRecord.from_dict(data)
    assert back == rec
    assert back.to_dict()["format"] == "speicherstadt-lab/2"  # written as the current version
    data["moves"][3] = {"chance": {"pile": []}, "by": "human"}
    with pytest.raises(sl.RecordError, match=r"'moves\[3\]': unknown field\(s\) \['chance'\]"):
        GameRecord.from_dict(data)  # format 1 has no chance nodes


@pytest.mark.parametrize(("chance", "extra", "message"), [
    ({"pile": ["nope"]}, {}, "'moves[5].chance.pile[0]': unknown card id 'nope' (at ply 6)"),
    ({"pile": ["fire_4"]}, {}, "'moves[5].chance.pile[0]': card 'fire_4' (season 'E') cannot come where"),
    ({"bag": ["coffee"] * 99}, {}, "'moves[5].chance.bag["),
    ({"bag": "coffee"}, {}, "'moves[5].chance.bag': must be a list of goods"),
    ({"cards": []}, {}, "'moves[5].chance.cards': not a hidden part of speicherstadt (its parts are pile, bag)"),
    ({"pile": None}, {}, "'moves[5].chance.pile': must not be null"),
    ({}, {}, "'moves[5].chance': must be an object"),
    (["pile"], {}, "'moves[5].chance': must be an object"),
    ({"pile": []}, {"action": "place 0"}, "'moves[5]': a move has either 'action' or 'chance', not both"),
    ({"pile": []}, {"actor": 1}, "'moves[5]': unknown field(s) ['actor']"),
])
def test_malformed_chance_entries_are_rejected_naming_the_field(chance: Any, extra: dict[str, Any],
                                                               message: str) -> None:
    rec = GameRecord.new(players=2, seed=5)
    bot_line(rec.root, 12)
    data = rec.to_dict()
    data["moves"] = [*data["moves"][:5], {"chance": chance, "by": "human", **extra}]
    with pytest.raises(sl.RecordError) as err:
        GameRecord.from_dict(data)
    assert message in str(err.value), str(err.value)
    assert str(err.value).startswith("record field ")


def test_two_equal_chance_siblings_are_rejected() -> None:
    rec = GameRecord.new(players=2, seed=5)
    bot_line(rec.root, 8)
    data = rec.to_dict()
    same = {"chance": {"bag": ["tea"]}, "by": "human"}
    data["moves"][4]["variations"] = [[same], [dict(same)]]
    with pytest.raises(sl.RecordError, match=r"'moves\[4\]\.variations\[1\]\[0\]\.chance': the same chance "):
        GameRecord.from_dict(data)


def test_a_seat_export_leaves_chance_variations_out(chance_record: tuple[GameRecord, Node, Node]) -> None:
    rec, _, _ = chance_record
    export = rec.to_dict(as_seat=1)
    assert '"chance"' not in json.dumps(export)
    plain = GameRecord.from_json(rec.to_json())
    plain.remove(next(c for c in plain.nodes() if c.chance is not None))
    assert export == plain.to_dict(as_seat=1)  # as if the chance variation had never been made
    loaded = GameRecord.from_dict(export)
    assert loaded.is_observation and len(loaded.mainline()) == len(rec.mainline())


def test_a_chance_node_first_in_line_is_skipped_and_the_next_child_continues() -> None:
    rec = GameRecord.new(players=2, seed=6)
    at = bot_line(rec.root, 6)
    chance = at.rearrange(bag=["carpet"])
    bot_line(chance, 5)
    bot_line(at, 4, seed=3)  # a decision after the chance node: a variation of it
    assert at.children[0] is chance
    moves = rec.to_dict(as_seat=0)["moves"]
    alternative = [at.children[1]]
    while alternative[-1].children:
        alternative.append(alternative[-1].children[0])
    assert [m["action"] for m in moves[6:]] == [n.action for n in alternative]
    assert "variations" not in moves[6]
    loaded = GameRecord.from_dict(rec.to_dict(as_seat=0))
    assert len(loaded.mainline()) == 11


def test_an_observation_record_keeps_its_chance_variations() -> None:
    rec = GameRecord.new(players=2, seed=7)
    bot_line(rec.root, 10)
    obs = GameRecord.from_json(rec.to_json(as_seat=0))
    at = obs.mainline()[6]
    named = next_cards(at.state, 1)
    chance = at.rearrange(pile=named)
    assert not chance.state.is_observation
    bot_line(chance, 4)
    again = GameRecord.from_json(obs.to_json())
    assert again == obs and again.is_observation
    assert any(n.chance == {"pile": named} for n in again.nodes())


def test_packet_row_chance_variation_in_a_record() -> None:
    rec = GameRecord.new(players=2, seed=3, game="packet_row")
    at = bot_line(rec.root, 4)
    bot_line(at, 3)
    pool = _pool(at.state, "market")
    own = at.state.hidden_parts()["contracts"]
    chance = at.rearrange(decks={"market": pool[::-1][:5]}, contracts={1: own["0"], 0: own["1"]})
    assert chance.chance == {"decks": {"market": pool[::-1][:5]}, "contracts": {"1": own["0"], "0": own["1"]}}
    assert chance.action.startswith("~ decks: market ") and "; contracts: 1 " in chance.action
    chance.play_out(bots(2, seed=4))
    back = GameRecord.from_json(rec.to_json())
    assert back == rec
    for a, b in zip(rec.nodes(), back.nodes(), strict=True):
        assert a.state.to_dict() == b.state.to_dict()
    data = rec.to_dict()
    data["moves"][4]["variations"][0][0]["chance"] = {"decks": {"harbour": []}}
    with pytest.raises(sl.RecordError, match=r"'moves\[4\]\.variations\[0\]\[0\]\.chance\.decks\.harbour': unknown"):
        GameRecord.from_dict(data)


def test_review_skips_chance_nodes(chance_record: tuple[GameRecord, Node, Node]) -> None:
    rec, at, chance = chance_record
    line = rec.path_to(chance)
    end = chance
    for _ in range(2):
        end = end.children[0]
    review = sl.review(rec, rollouts=2, node=end, since=at, luck=False, progress=False)
    assert list(review.decisions["ply"]) == [chance.ply + 1, chance.ply + 2]
    assert REVIEW_KEY not in chance.annotations and REVIEW_KEY in chance.children[0].annotations
    assert line[-1] is chance
