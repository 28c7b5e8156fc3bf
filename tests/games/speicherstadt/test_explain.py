"""Plain-language explanations of actions (state.explain_action): every action kind, both languages, in context."""

from __future__ import annotations

import re

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.i18n import messages
from speicherstadt_lab.games.speicherstadt.explain import explain_actions
from speicherstadt_lab.games.speicherstadt.state import hooks_for
from tests.support.kai_scenario import drive, kai_game, passive, red_loading, rigged
from tests.support.scenario import play, stack_bag, stack_deck

LEFTOVER = re.compile(r"[{}|]")


def variant(action: sl.Action) -> str:
    """The action kind, with the variants that have texts of their own told apart."""
    if action.kind == "buy" and action.args == ("free",):
        return "buy free"
    if action.kind == "convert" and len(action.args) == 4:
        return "convert 2:1"
    return action.kind


def explain_all(state: sl.GameState, seen: dict[str, str]) -> None:
    """Explain every legal action in English and German; check the texts and note the kinds seen."""
    for action in state.legal_actions():
        en, de = state.explain_action(action), state.explain_action(action, "de")
        for text in (en, de):
            assert text.strip() and not LEFTOVER.search(text), f"{action}: {text!r}"
        assert en != de, f"{action}: the German text is the English one"
        seen.setdefault(variant(action), en)


def random_walk(state: sl.GameState, seed: int, seen: dict[str, str], max_steps: int = 5000) -> None:
    """Play uniformly at random to the end, explaining every legal action of every state on the way."""
    rng = sl.Rng(seed, "explain-test")
    for _ in range(max_steps):
        if state.is_over:
            return
        explain_all(state, seen)
        state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the random game did not end")


BASE_KINDS = {"place", "buy", "pass", "contract", "sell", "store", "keep", "take", "convert", "hallsell", "done"}


def test_every_action_of_random_base_games_explains_itself() -> None:
    seen: dict[str, str] = {}
    for players in (2, 5):
        random_walk(sl.new_game(players=players, seed=players), players, seen)
    # Rich holdings so that random play also stores, keeps, takes and converts.
    s = sl.new_game(players=3, seed=9, deck=stack_deck(3, ["warehouse", "ship_b1", "ship_b2", "tea_taster"],
                                                        late_fires=True))
    s = play(s, "place 0", "place 2", "place 3", "place 1", "place 2", "place 3", "place 1", "place 2", "place 3")
    random_walk(s, 1, seen)
    assert set(seen) == BASE_KINDS


def rich_kai_game() -> sl.GameState:
    """4 players in round 1; the seats own most of Kaispeicher's decision cards and a fire comes up in round 2,
    so random play meets every verb of the expansion."""
    s = kai_game(4, ["lighthouse", "playhouse", "ship1_b", "ship2_b", "contract_a2"],
                 ["town_hall", "ship_b1", "counting_office_a", "fireman_a1", "tailor"], later=["fire_1"])
    s = rigged(s, 0, cards=["coffee_break", "warehouse_workers", "spy", "fish_market", "fire_chief", "fireman_k3",
                            "harbour_master", "tea_house", "warehouse"], breaks=2, grey=2,
               contracts=[("contract_a1", ["coffee"]), ("contract_a3", ["coffee"])], warehouse=["tea", "saffron"])
    s = rigged(s, 1, cards=["insurance", "auction_hall", "smuggler", "truck", "coffee_roaster"],
               contracts=[("contract_b1", ["coffee"]), ("contract_c1", ["tea"])], hall=["rubber"])
    return rigged(s, 2, cards=["spice_trader", "port"], contracts=[("contract_b2", ["tea"])])


def test_every_action_of_random_kaispeicher_games_explains_itself() -> None:
    seen: dict[str, str] = {}
    for seed in range(3):
        random_walk(rich_kai_game(), seed, seen)
    random_walk(sl.new_game(players=2, seed=4, expansion="kaispeicher"), 4, seen)
    every = set(hooks_for("kaispeicher").rules) | {"buy free", "convert 2:1"}  # the base verbs and the expansion's
    assert set(seen) == every, f"never met: {sorted(every - set(seen))}"


def sample_args(template: str) -> dict[str, object]:
    """A value for every placeholder of ``template``, by the naming convention of the message files."""
    args: dict[str, object] = {}
    for name in re.findall(r"\{(\w+)", template):
        if name.startswith("seats"):
            args[name] = [0, 1]
        elif name.startswith("seat"):
            args[name] = 1
        elif name.startswith("card"):
            args[name] = "warehouse"
        elif name.startswith("goods"):
            args[name] = ["tea", "rubber"]
        elif name.startswith("good"):
            args[name] = "tea"
        else:
            args[name] = 2
    return args


def test_every_template_exists_in_both_languages_and_formats() -> None:
    state = sl.new_game(players=2, seed=0)
    table = messages._tables["explain"]
    assert len(table) > 60
    for key, texts in table.items():
        assert set(texts) == {"en", "de"}, key
        for lang in ("en", "de"):
            args = sample_args(texts["en"] + texts["de"])
            text = messages.text("explain", key, lang, args, state)
            assert text and not LEFTOVER.search(text), (key, lang, text)


# ---- specific texts ------------------------------------------------------------------------------------------


def round_one() -> sl.GameState:
    deck = stack_deck(4, ["warehouse", "contract_c1", "ship_b1", "tea_taster", "contract_a1"], late_fires=True)
    return sl.new_game(players=4, deck=deck, bag=stack_bag(["tea", "saffron", "rubber"]))


def test_placing_says_the_price_and_who_is_below() -> None:
    s = play(round_one(), "place 2", "place 2")
    assert s.to_move == 2 and s.price(2) == 2
    assert s.explain_action("place 2") == (
        "Put a worker above the Ship on water space 2. It would be the 3rd worker there: the card costs 3 now and "
        "gets cheaper for you if the players below you (Red and Blue) pass. The ship carries tea, saffron and "
        "rubber. You have 5 coins.")
    assert s.explain_action("place 2", "de") == (
        "Setze einen Arbeiter über Schiff auf Wasserfeld 2. Es wäre der 3. Arbeiter dort: die Karte kostet jetzt 3 "
        "und wird für dich billiger, wenn die Spieler unter dir (Rot und Blau) verzichten. Das Schiff trägt Tee, "
        "Safran und Kautschuk. Du hast 5 Münzen.")
    assert s.explain_action("place 0").startswith(
        "Put a worker above the Warehouse on water space 0. It would be the first worker there: you decide first, "
        "at price 1 now")
    assert "Red" not in s.explain_action("place 1")  # nobody is below on an empty space


def purchase() -> sl.GameState:
    s = play(round_one(), "place 2", "place 2", "place 2", "place 0", "place 0", "place 1", "place 3", "place 4",
             "place 4", "place 4", "place 1", "place 3")
    assert s.phase == "purchase" and s.workers[0] == (3, 0) and s.to_move == 3
    return s


def test_buy_and_pass_name_the_price_and_the_next_buyer() -> None:
    s = purchase()
    assert s.explain_action("buy") == ("Buy the Warehouse for 2 coins (you have 5). You could store up to 4 cubes "
                                       "for later rounds; 1 point per stored cube at the end.")
    assert s.explain_action("pass") == "Take your worker back; Red decides next at price 1."
    assert s.explain_action("pass", "de") == "Nimm deinen Arbeiter zurück; als Nächstes entscheidet Rot zum Preis 1."
    s = s.apply("pass").apply("pass")  # nobody takes the Warehouse: the Contract (Blue, Green) is next
    assert s.to_move == 1 and s.workers[1] == (1, 2)
    assert s.explain_action("buy") == ("Buy the Contract for 2 coins (you have 5). It asks for tea, saffron and "
                                       "rubber: 8 points at the end if you complete it.")
    assert s.explain_action("pass") == "Take your worker back; Green decides next at price 1."


def test_the_last_worker_passing_discards_the_ship_and_its_goods() -> None:
    s = drive(purchase(), lambda x: "pass", until=lambda x: x.phase == "purchase" and x.workers[2] == (2,))
    assert s.explain_action("pass") == ("Take your worker back; nobody else is above the Ship, so it goes to the "
                                        "discard pile and its tea, saffron and rubber to the stock.")


def loading() -> sl.GameState:
    """Red bought the contract (tea, saffron, rubber), the ship with those goods and the Tea Taster for 1 coin
    each; Red's loading turn."""
    s = play(round_one(), "place 1", "place 0", "place 0", "place 4", "place 2", "place 0", "place 4", "place 4",
             "place 3", "place 0", "place 4", "place 0")
    s = drive(s, lambda x: "buy" if x.to_move == 0 else "pass", until=lambda x: x.phase == "loading")
    assert s.player(0).cards == ("contract_c1", "ship_b1", "tea_taster") and s.to_move == 0 and s.coins[0] == 2
    return s


def test_loading_texts_count_the_contract_and_what_expires() -> None:
    s = loading()
    assert s.explain_action("contract tea 0") == ("Put the tea on contract 0 (tea, saffron and rubber): 1 of 3 "
                                                  "placed; completing it is worth 8 points.")
    assert s.explain_action("contract tea 0", "de") == ("Lege Tee auf Auftrag 0 (Tee, Safran und Kautschuk): 1 von 3 "
                                                        "belegt; erfüllt bringt er 8 Punkte.")
    assert s.explain_action("done") == ("End your loading turn: tea, saffron and rubber still on the dock expire to "
                                        "the stock.")
    assert s.explain_action("sell tea") == "Sell the tea to your Tea Taster for 1 coin (you would have 3)."
    s = play(s, "contract tea 0", "contract saffron 0")
    assert s.explain_action("contract rubber 0") == ("Put the rubber on contract 0 (tea, saffron and rubber): that "
                                                     "completes it, 8 points at the end.")
    assert s.explain_action("done") == "End your loading turn: rubber still on the dock expires to the stock."


def test_kaispeicher_texts_use_the_numbers_of_the_position() -> None:
    s = red_loading(dock=["glass", "coffee", "tea"], cards=["harbour_master", "glassblower"], stock=["rubber"])
    texts = explain_actions(s)
    assert texts["sell glass"] == "Sell the glass to your Glassblower for 3 coins (you would have 7)."
    assert texts["convert coffee tea to rubber"] == (
        "Give coffee and tea to the stock and take 1 rubber from the stock (the Harbour Master's 2:1 exchange; "
        "0 rubber left in the stock then).")
    assert not any(a.startswith("convert") and a.count(" ") == 5 for a in texts)  # no 3:1 with the Harbour Master


def test_an_illegal_action_is_refused_with_the_engines_rule() -> None:
    s = purchase()
    with pytest.raises(sl.IllegalAction) as info:
        s.explain_action("place 0")
    assert info.value.rule == "phase"
    s = loading()
    for text, rule in (("store tea", "no_warehouse"), ("contract coffee 0", "contract_good"),
                       ("contract tea 3", "contract_missing"), ("sell rubber", "merchant"), ("fly away", "notation")):
        with pytest.raises(sl.IllegalAction) as info:
            s.explain_action(text, "de")
        assert info.value.rule == rule
    with pytest.raises(ValueError):
        s.explain_action("done", "fr")


def test_explaining_changes_nothing() -> None:
    s = loading()
    before = s.to_json()
    explain_actions(s, "de")
    assert s.to_json() == before


def test_observations_explain_the_same() -> None:
    s = purchase()
    assert explain_actions(s.observe(s.to_move)) == explain_actions(s)


def test_grey_workers_and_stop_in_kaispeicher() -> None:
    s = rigged(kai_game(2, ["lighthouse", "playhouse", "tailor"]), 0, cards=["warehouse_workers"], grey=2)
    s = play(s, "place 1", "place 0", "place 2", "place 0", "place 2", "place 0", "place 2", "place 0")
    assert s.to_move == 0 and s.price(1) == 1
    assert s.explain_action("place 1").startswith("Put a grey worker (Warehouse Workers) above the Playhouse on "
                                                  "water space 1: it buys for you and then leaves the game. It would "
                                                  "be the 2nd worker there: the card costs 2 now")
    assert s.explain_action("stop") == ("Place no more grey workers this round; your 2 grey workers wait for a later "
                                        "round.")
    s = drive(s, passive, until=lambda x: x.phase != "demand")
    assert s.round == 1
