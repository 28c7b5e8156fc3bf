"""Packet Row: fulfilling contracts (rulebook "Verträge erfüllen", its two examples, captain, merchant, gold bars).

The engine offers the *minimal* combinations: every card used is discarded, so no card may be left over. A
brute-force reference written here from the rule text (every subset of the hand, every captain and merchant
choice) must agree with the engine's list on random hands.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import speicherstadt_lab as sl
from speicherstadt_lab.games.packet_row import check_invariants
from speicherstadt_lab.games.packet_row.scenario import rigged, stacked_decks
from tests.support.positions import blue_with_open_fur_and_spain

CAT = sl.new_game("packet_row", players=4, seed=0).cat
GOODS = [g.id for g in CAT.goods]
DESTS = [d.id for d in CAT.dests]


def hand_state(hand=(), ships=(), *, start="start_tobacco_de", money=None, players=4):
    """Seat 0 (harbour master, about to choose a board) with ``hand`` and ``ships``; its starting contract
    ``start``."""
    order = [start, *(c.id for c in CAT.start_contracts if c.id != start)]
    decks = stacked_decks(bottom=[*hand, *ships])
    s = sl.new_game("packet_row", players=players, decks=decks, start_contracts=order)
    return rigged(s, 0, hand=list(hand), ships=list(ships), money=money)


def fulfils(state):
    return sorted(str(a) for a in state.legal_actions() if a.kind == "fulfil")


def refusal(state, action):
    with pytest.raises(sl.IllegalAction) as info:
        state.apply(action)
    return info.value


def test_example_1_one_contract_with_four_cards() -> None:
    s = hand_state(["grain_gb", "grain1", "grain3"], ["ship_gb"])
    assert fulfils(s) == ["fulfil grain_gb ship gb goods grain1 grain3"]
    after = s.apply("fulfil grain_gb ship gb goods grain1 grain3")
    assert after.money[0] == 25 + 35 and after.to_move == 0 and after.phase == "choose"
    assert after.player(0).hand == ("start_tobacco_de",) and after.player(0).ships == ()
    assert Counter(after.supply("guild")["discard"]) == Counter(["grain_gb"])
    assert Counter(after.supply("market")["discard"]) == Counter(["grain1", "grain3"])
    assert after.supply("docks")["discard"] == ("ship_gb",)
    assert [e.key for e in after.events] == ["pr_fulfil"]
    assert "+$35" in after.event_texts()[0] and "Großbritannien" in after.event_texts("de")[0]


def test_example_2_three_contracts_at_once_with_a_split_tobacco_card_and_surplus_cotton() -> None:
    hand = ["cotton_fr", "tobacco_fr", "tobacco_se", "cotton3", "cotton2", "tobacco3", "tobacco1"]
    s = hand_state(hand, ["ship_fr", "ship_se"])
    text = "fulfil cotton_fr tobacco_fr tobacco_se ship fr ship se goods cotton2 cotton3 tobacco1 tobacco3"
    assert text in fulfils(s)
    after = s.apply(text)
    assert after.money[0] == 25 + 35 + 15 + 15
    assert after.player(0).hand == ("start_tobacco_de",) and after.player(0).ships == ()
    discarded = sum(len(after.supply(b)["discard"]) for b in ("guild", "docks", "market", "bank"))
    assert discarded == 9


def test_the_rulebook_contract_three_cotton_to_the_netherlands_pays_25() -> None:
    s = hand_state(["cotton_nl", "cotton3"], ["ship_nl"])
    assert s.apply("fulfil cotton_nl ship nl goods cotton3").money[0] == 50


def test_surplus_units_are_lost_but_a_spare_card_is_refused() -> None:
    s = hand_state(["cotton_nl", "cotton2", "cotton2", "cotton1", "cotton3"], ["ship_nl"])
    options = fulfils(s)
    assert "fulfil cotton_nl ship nl goods cotton2 cotton2" in options  # 4 units for 3: one is lost
    assert "fulfil cotton_nl ship nl goods cotton3" in options
    assert "fulfil cotton_nl ship nl goods cotton1 cotton2" in options
    assert refusal(s, "fulfil cotton_nl ship nl goods cotton1 cotton3").rule == "pr.fulfil_surplus"
    assert refusal(s, "fulfil cotton_nl ship nl goods cotton1 cotton1").rule == "pr.fulfil_no_card"
    assert refusal(s, "fulfil cotton_nl ship nl goods cotton1").rule == "pr.fulfil_units"


def test_captain_sends_a_ship_elsewhere_and_is_discarded() -> None:
    s = hand_state(["fur_fr", "fur3", "captain"], ["ship_es"])
    assert fulfils(s) == ["fulfil fur_fr ship es captain fr goods fur3"]
    assert refusal(s, "fulfil fur_fr ship es goods fur3").rule == "pr.fulfil_dest"
    after = s.apply("fulfil fur_fr ship es captain fr goods fur3")
    assert "captain" not in after.player(0).hand and sorted(after.supply("docks")["discard"]) == ["captain", "ship_es"]
    assert [e.key for e in after.events] == ["pr_captain", "pr_fulfil"]
    assert "Spain" in after.event_texts()[0] and "France" in after.event_texts()[0]
    no_captain = hand_state(["fur_fr", "fur3"], ["ship_es"])
    assert fulfils(no_captain) == []
    assert refusal(no_captain, "fulfil fur_fr ship es captain fr goods fur3").rule == "pr.fulfil_no_captain"


def test_captain_keeps_a_ship_of_the_right_destination_for_later() -> None:
    s = hand_state(["fur_fr", "fur3", "captain"], ["ship_es", "ship_fr"])
    assert fulfils(s) == ["fulfil fur_fr ship es captain fr goods fur3", "fulfil fur_fr ship fr goods fur3"]


def test_one_ship_serves_several_contracts_only_to_one_destination_even_with_a_captain() -> None:
    # grain to France (2) and cotton to France (4) share one French ship.
    s = hand_state(["grain_fr", "cotton_fr", "grain2", "cotton3", "cotton1"], ["ship_fr"])
    assert "fulfil grain_fr cotton_fr ship fr goods grain2 cotton1 cotton3" in fulfils(s)
    assert s.apply("fulfil grain_fr cotton_fr ship fr goods grain2 cotton1 cotton3").money[0] == 25 + 15 + 35
    # Two destinations need two ships: one ship with a captain cannot go to both.
    t = hand_state(["grain_fr", "cotton_gb", "grain2", "cotton2", "captain"], ["ship_fr"])
    assert all("grain_fr cotton_gb" not in f for f in fulfils(t))
    assert refusal(t, "fulfil grain_fr cotton_gb ship fr goods grain2 cotton2").rule == "pr.fulfil_dest"
    assert refusal(t, "fulfil grain_fr cotton_gb ship fr captain gb goods grain2 cotton2").rule == "pr.fulfil_dest"


def test_two_captains_never_swap_two_ships_that_sail_to_the_right_places_anyway() -> None:
    # 4 grain to GB and 2 grain to France from two 3-grain cards: one card is split, so it is one fulfilment.
    s = hand_state(["grain_gb", "grain_fr", "grain3", "grain3", "captain", "captain"], ["ship_gb", "ship_fr"])
    assert "fulfil grain_gb grain_fr ship gb ship fr goods grain3 grain3" in fulfils(s)
    swapped = "fulfil grain_gb grain_fr ship gb captain fr ship fr captain gb goods grain3 grain3"
    assert swapped not in fulfils(s)
    assert refusal(s, swapped).rule == "pr.fulfil_surplus"


def test_a_second_ship_for_the_same_destination_is_refused_as_spare() -> None:
    s = hand_state(["grain_fr", "cotton_fr", "grain2", "cotton3", "cotton1"], ["ship_fr", "ship_fr"])
    text = "fulfil grain_fr cotton_fr ship fr ship fr goods grain2 cotton1 cotton3"
    assert text not in fulfils(s)
    assert refusal(s, text).rule == "pr.fulfil_surplus"


def test_merchant_changes_one_goods_card_into_another_good() -> None:
    # The rulebook's merchant example: 3 fur needed, 1 fur and 2 cotton in hand.
    s = hand_state(["fur_gb", "fur1", "cotton2", "merchant"], ["ship_gb"])
    assert fulfils(s) == ["fulfil fur_gb ship gb goods cotton2 merchant fur fur1"]
    after = s.apply("fulfil fur_gb ship gb goods cotton2 merchant fur fur1")
    assert after.money[0] == 50 and "merchant" not in after.player(0).hand
    assert after.events[0].key == "pr_merchant" and "cotton" in after.event_texts()[0]
    assert refusal(s, "fulfil fur_gb ship gb goods cotton2 merchant tobacco fur1").rule == "pr.fulfil_units"
    assert refusal(s, "fulfil fur_gb ship gb goods cotton2 merchant cotton fur1").rule == "pr.fulfil_merchant_same"
    assert refusal(s, "fulfil fur_gb ship gb goods fur1 merchant grain cotton2 merchant fur").rule == \
        "pr.fulfil_no_merchant"


def test_a_merchant_that_is_not_needed_is_refused() -> None:
    s = hand_state(["fur_gb", "fur3", "merchant"], ["ship_gb"])
    assert fulfils(s) == ["fulfil fur_gb ship gb goods fur3"]
    t = hand_state(["fur_gb", "fur3", "cotton3", "merchant"], ["ship_gb"])
    assert "fulfil fur_gb ship gb goods cotton3 merchant fur" in fulfils(t)  # keeps the fur for later
    assert refusal(t, "fulfil fur_gb ship gb goods gold1 merchant fur").rule == "pr.fulfil_merchant_gold"


def test_gold_one_bar_is_any_one_unit_two_bars_are_two_units_of_one_good() -> None:
    s = hand_state(["fur_nl", "tobacco_se", "fur1", "tobacco1", "gold2"], ["ship_nl", "ship_se"])
    options = fulfils(s)
    assert "fulfil fur_nl ship nl goods gold2" in options and "fulfil tobacco_se ship se goods gold2" in options
    assert not any("fur_nl tobacco_se" in o for o in options)  # 2 bars cannot be 1 fur + 1 tobacco
    text = "fulfil fur_nl tobacco_se ship nl ship se goods fur1 gold2 tobacco1"
    assert refusal(s, text).rule == "pr.fulfil_units"
    t = hand_state(["fur_nl", "fur1", "gold1"], ["ship_nl"])
    assert fulfils(t) == ["fulfil fur_nl ship nl goods gold1 fur1"]  # catalogue order: Docks cards first
    # Two bars on one card may go to two contracts of the same good (3 fur to GB and 3 fur to France from
    # 2 + 2 fur and the two bars: only one bar each way works).
    u = hand_state(["fur_gb", "fur_fr", "fur2", "fur2", "gold2"], ["ship_gb", "ship_fr"])
    assert "fulfil fur_gb fur_fr ship gb ship fr goods gold2 fur2 fur2" in fulfils(u)


def test_independent_contracts_are_fulfilled_one_after_the_other() -> None:
    s = hand_state(["fur_nl", "tobacco_se", "fur1", "tobacco1", "gold1", "gold1"], ["ship_nl", "ship_se"])
    text = "fulfil fur_nl tobacco_se ship nl ship se goods gold1 gold1 fur1 tobacco1"
    assert refusal(s, text).rule == "pr.fulfil_separate"
    assert text not in fulfils(s)
    s = s.apply("fulfil fur_nl ship nl goods fur1 gold1")
    s = s.apply("fulfil tobacco_se ship se goods tobacco1 gold1")
    assert s.money[0] == 25 + 15 + 15 and not check_invariants(s)


def test_refusals_name_missing_cards_and_ships() -> None:
    s = hand_state(["fur_nl", "fur2"], ["ship_nl"])
    assert refusal(s, "fulfil fur_es ship nl goods fur2").rule == "pr.fulfil_no_card"
    assert refusal(s, "fulfil fur_nl ship es goods fur2").rule == "pr.fulfil_no_ship"
    assert refusal(s, "fulfil fur_nl ship nl goods fur3").rule == "pr.fulfil_no_card"
    e = refusal(s, "fulfil fur_nl ship es goods fur2")
    assert "Spain" in str(e) and "Spanien" in e.explain("de")


def test_fulfilling_is_possible_at_every_decision_and_at_the_end() -> None:
    s = hand_state(["grain_gb", "grain3", "grain1"], ["ship_gb"])
    s = s.apply("choose market")
    while s.to_move != 0:
        s = s.apply("decline")
    assert "fulfil grain_gb ship gb goods grain1 grain3" in fulfils(s)
    assert s.apply("fulfil grain_gb ship gb goods grain1 grain3").to_move == 0  # still the same decision


def test_a_seat_that_could_pay_after_fulfilling_its_starting_contract_is_asked_fulfils_and_pays() -> None:
    # The position: Blue has no money; its fur card and its ship to Spain complete its secret starting
    # contract, and the Market offers grain 1 for $2. "Du kannst jederzeit während des Spiels Verträge erfüllen."
    s = blue_with_open_fur_and_spain().apply("choose market")
    assert s.to_move == 1 and s.supply("market")["current"][0] == "grain1"
    assert [str(a) for a in s.legal_actions()] == ["decline", "fulfil start_fur_es ship es goods fur3"]
    s = s.apply("fulfil start_fur_es ship es goods fur3")
    assert s.to_move == 1 and s.player(1).money == 25  # the same decision, now with the money
    assert "take market 0" in [str(a) for a in s.legal_actions()]
    s = s.apply("take market 0")
    assert s.player(1).money == 23 and "grain1" in s.player(1).hand
    assert not check_invariants(s)


def test_a_seat_whose_secret_might_be_fulfillable_is_asked_even_when_it_is_not() -> None:
    # The same open cards with a starting contract they do not fit: Blue is asked all the same (the table cannot
    # tell the two apart), and declining is its only legal action. Its decline reads as any other.
    s = blue_with_open_fur_and_spain("start_grain_gb").apply("choose market")
    assert s.to_move == 1 and [str(a) for a in s.legal_actions()] == ["decline"]
    assert s.asked_for_secrecy() and not check_invariants(s)
    assert s.observe(0).to_move == 1 and s.observe(0).asked_for_secrecy()
    s = s.apply("decline")
    assert s.events[0].key == "pr_decline"
    assert s.event_texts()[0] == "Blue takes no card from the Market."


def test_a_seat_no_starting_contract_could_help_is_declined_for_by_the_engine_like_a_choice() -> None:
    # No open goods or ship: no starting contract could be fulfilled, as everyone can tell. The engine declines
    # for Blue, with the event of a decline by choice.
    order = [c.id for c in CAT.start_contracts]
    s = sl.new_game("packet_row", players=3, start_contracts=order, decks=stacked_decks(
        {"market": ["market_university", "market_library", "market_town_hall"]}))
    s = rigged(s, 1, money=0).apply("choose market")
    assert s.to_move == 2 and "pr_decline" in [e.key for e in s.events]
    assert "Blue takes no card from the Market." in s.event_texts()


_FITS = [(c.id, c.good, c.dest) for c in CAT.start_contracts]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fit=st.sampled_from(_FITS), other=st.integers(0, 11), money=st.integers(0, 5),
       players=st.sampled_from([3, 4, 5]))
def test_a_forced_decline_and_a_chosen_one_look_the_same_to_every_other_seat(fit, other, money, players) -> None:
    """Two deals that differ only in Blue's secret starting contract: one its open cards fulfil (Blue may fulfil
    and declines by choice), one they cannot (decline is Blue's only action). Every other seat's view and
    observation, and the spectator's, are the same at Blue's decision and after it."""
    contract, good, dest = fit
    misfits = [c.id for c in CAT.start_contracts if c.good != good]
    misfit = misfits[other % len(misfits)]
    goods_card, ship = f"{good}3", f"ship_{dest}"
    market = ("market_university", "market_library", "market_town_hall", "market_church")

    def world(mine: str, boxed: str):
        rest = [c.id for c in CAT.start_contracts if c.id not in (mine, boxed)]
        order = [rest[0], mine, *rest[1:], boxed]
        decks = stacked_decks({"market": list(market)}, bottom=[goods_card, ship])
        s = sl.new_game("packet_row", players=players, decks=decks, start_contracts=order)
        return rigged(s, 1, hand=[goods_card], ships=[ship], money=money).apply("choose market")

    chosen, forced = world(contract, misfit), world(misfit, contract)
    assert chosen.to_move == forced.to_move == 1
    assert any(a.kind == "fulfil" for a in chosen.legal_actions())
    assert [str(a) for a in forced.legal_actions()] == ["decline"]
    for a, b in ((chosen, forced), (chosen.apply("decline"), forced.apply("decline"))):
        assert not check_invariants(a) and not check_invariants(b)
        for seat in (None, *(i for i in range(players) if i != 1)):
            assert a.view(seat) == b.view(seat)
            assert a.observe(seat).to_dict() == b.observe(seat).to_dict()
            assert a.observe(seat).fingerprint() == b.observe(seat).fingerprint()


# ---- the solver against a brute-force reading of the rules ------------------------------------------------------


def _units_ok(need: Counter[str], uses: list[tuple[str, str | None]]) -> bool:
    """Fixed targets for goods cards; gold bars choose any good (two bars: one good for both)."""
    supply: Counter[str] = Counter()
    golds = []
    for cid, target in uses:
        c = CAT.card(cid)
        if c.kind == "gold":
            golds.append(c.bars)
        else:
            supply[target or c.good] += c.amount
    for choice in itertools.product(GOODS, repeat=len(golds)):
        got = supply.copy()
        for g, bars in zip(choice, golds, strict=True):
            got[g] += bars
        if all(got[g] >= n for g, n in need.items()):
            return True
    return False


def _arrangements(ships: list[str], uses: list[str], captains: int, merchants: int):
    """Every way to point ``ships`` (dest ids) and ``uses`` (card ids) with at most so many captains/merchants."""
    ship_opts = [[(d, d)] + [(d, e) for e in DESTS if e != d] for d in ships]
    use_opts = [[(u, None)] + ([(u, g) for g in GOODS if g != CAT.card(u).good] if CAT.card(u).kind == "goods"
                               else []) for u in uses]
    for sh in itertools.product(*ship_opts):
        if sum(a != b for a, b in sh) > captains:
            continue
        for us in itertools.product(*use_opts):
            if sum(t is not None for _, t in us) <= merchants:
                yield list(sh), list(us)


def _works(contracts: list[str], sh: list[tuple[str, str]], us: list[tuple[str, str | None]]) -> bool:
    dests = {CAT.card(c).dest for c in contracts}
    need = Counter()
    for c in contracts:
        need[CAT.card(c).good] += CAT.card(c).amount
    return dests <= {b for _, b in sh} and _units_ok(need, us)


def reference(hand: list[str], ships: list[str]) -> set[str]:
    """Every fulfil text the rules allow with no spare card, contracts split only when they must go together."""
    contracts = [c for c in hand if CAT.card(c).kind == "contract"]
    items = [c for c in hand if CAT.card(c).kind in ("goods", "gold")]
    caps, merch = hand.count("captain"), hand.count("merchant")
    dest_of = {c.id: c.dest for c in CAT.cards if c.kind == "ship"}
    ship_dests = [dest_of[s] for s in ships]
    out = set()

    def subsets(xs):
        seen = set()
        for k in range(len(xs) + 1):
            for combo in itertools.combinations(sorted(xs), k):
                if combo not in seen:
                    seen.add(combo)
                    yield list(combo)

    def any_way(cs, ship_set, use_set, k_caps, k_merch):
        return any(_works(cs, sh, us) for sh, us in _arrangements(ship_set, use_set, k_caps, k_merch))

    for cs in subsets(contracts):
        if not cs:
            continue
        for ship_set in subsets(ship_dests):
            if not ship_set:
                continue
            for use_set in subsets(items):
                if not use_set:
                    continue
                for sh, us in _arrangements(ship_set, use_set, caps, merch):
                    if not _works(cs, sh, us):
                        continue
                    k_caps, k_merch = sum(a != b for a, b in sh), sum(t is not None for _, t in us)
                    smaller = [([*ship_set[:i], *ship_set[i + 1:]], use_set, k_caps, k_merch)
                               for i in range(len(ship_set))]
                    smaller += [(ship_set, [*use_set[:i], *use_set[i + 1:]], k_caps, k_merch)
                                for i in range(len(use_set))]
                    if k_caps:
                        smaller.append((ship_set, use_set, k_caps - 1, k_merch))
                    if k_merch:
                        smaller.append((ship_set, use_set, k_caps, k_merch - 1))
                    if any(any_way(cs, *x) for x in smaller):
                        continue
                    if len(cs) > 1 and _splits(cs, sh, us):
                        continue
                    out.add(_text(cs, sh, us))
    return out


def _splits(cs, sh, us) -> bool:
    for k in range(1, len(cs)):
        for part in itertools.combinations(range(len(cs)), k):
            c1 = [cs[i] for i in part]
            c2 = [cs[i] for i in range(len(cs)) if i not in part]
            for mask in range(1 << len(sh)):
                s1 = [x for i, x in enumerate(sh) if mask >> i & 1]
                s2 = [x for i, x in enumerate(sh) if not mask >> i & 1]
                for umask in range(1, (1 << len(us)) - 1):
                    u1 = [x for i, x in enumerate(us) if umask >> i & 1]
                    u2 = [x for i, x in enumerate(us) if not umask >> i & 1]
                    if s1 and s2 and _works(c1, s1, u1) and _works(c2, s2, u2):
                        return True
    return False


def _text(cs, sh, us) -> str:
    order = {c.id: c.idx for c in CAT.cards}
    words = [*sorted(cs, key=order.__getitem__)]
    for a, b in sorted(sh, key=lambda x: (DESTS.index(x[0]), DESTS.index(x[1]))):
        words += ["ship", a] + (["captain", b] if a != b else [])
    words.append("goods")
    for u, t in sorted(us, key=lambda x: (order[x[0]], -1 if x[1] is None else GOODS.index(x[1]))):
        words += [u] + (["merchant", t] if t is not None else [])
    return "fulfil " + " ".join(words)


CONTRACTS = ["grain_gb", "grain_fr", "cotton_fr", "fur_nl", "fur_es", "tobacco_se", "tobacco_fr"]
GOODS_CARDS = {g: [f"{g}{k}" for k in (1, 2, 3)] for g in GOODS}


@st.composite
def hands(draw):
    """Hands that can often fulfil something: goods of the contracts' goods, ships mostly to their destinations."""
    contracts = draw(st.lists(st.sampled_from(CONTRACTS), min_size=1, max_size=3, unique=True))
    wanted = sorted({CAT.card(c).good for c in contracts})
    pool = [x for g in wanted for x in GOODS_CARDS[g]] + ["gold1", "gold2", "cotton2", "grain1"]
    items = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
    items = [x for i, x in enumerate(items) if items[:i].count(x) < 2]  # the decks hold two copies at least
    dests = [CAT.card(c).dest for c in contracts] + ["gb", "es"]
    ships = draw(st.lists(st.sampled_from(dests), min_size=1, max_size=3))
    captains = draw(st.integers(0, 2))
    merchants = draw(st.integers(0, 1))
    hand = [*contracts, *items, *["captain"] * captains, *["merchant"] * merchants]
    return hand, [f"ship_{d}" for d in ships]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_ships=hands())
def test_the_solver_lists_exactly_the_minimal_fulfilments(hand_ships) -> None:
    hand, ships = hand_ships
    s = hand_state(hand, ships)
    # The starting contract (3 tobacco to the German Confederation) is a contract in hand too.
    assert set(fulfils(s)) == reference([*hand, "start_tobacco_de"], ships)
    for text in fulfils(s):
        after = s.apply(text)
        assert not check_invariants(after)
