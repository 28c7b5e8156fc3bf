"""GreedyBot and MCTSBot: legal in every phase, reproducible, blind to hidden order, and stronger than chance."""

from __future__ import annotations

import pandas as pd
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions, evaluate
from speicherstadt_lab.bots import RandomBot, make_bot
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.bots.mcts import MCTSBot
from speicherstadt_lab.engine.actions import Action
from speicherstadt_lab.engine.rng import Rng


def _play(state, bots, limit: int = 5000):
    """Play to the end; assert every choice is legal; return (final state, actions, phases seen)."""
    actions, phases = [], set()
    while not state.is_over:
        seat = state.to_move
        obs = state.observe(seat)
        action = bots[seat].choose(obs)
        assert action in state.legal_actions(), (state.phase, str(action))
        phases.add(state.phase)
        actions.append(str(action))
        state = state.apply(action)
        assert len(actions) < limit
    return state, actions, phases


def _last_round_completion(first_seed: int):
    """A last-round loading decision where one action completes a contract (first greedy game that has one)."""
    for seed in range(first_seed, first_seed + 30):
        state = sl.new_game(players=4, seed=seed)
        bot = GreedyBot(seed)
        rng = Rng(seed)
        while not state.is_over:
            if state.phase == "loading" and state.round == 10:
                seat = state.player(state.to_move)
                for a in state.legal_actions():
                    if a.kind == "contract":
                        card, placed = seat.contracts[a.args[1]]
                        if len(placed) + 1 == len(state.cat.card(card).goods):
                            return state, a
            state = state.apply(bot.act(state, rng))
    raise AssertionError("no greedy game reached a contract completion in its last round")


def _twin_states():
    """Two round-1 states equal in every public fact, differing in the hidden pile and bag order."""
    deck = sl.standard_deck(players=4, seed=21)
    first_d = next(i for i, c in enumerate(deck) if c in sl.default_catalog().by_id
                   and sl.default_catalog().by_id[c].season == "D")
    other = [*deck[:first_d], *reversed(deck[first_d:-1]), deck[-1]]
    bag = sl.new_game(players=4, seed=21).to_dict()["bag"]
    other_bag = [*bag[:20], *reversed(bag[20:])]
    a = sl.new_game(players=4, seed=21, deck=deck, bag=bag)
    b = sl.new_game(players=4, seed=21, deck=other, bag=other_bag)
    assert a.to_json() != b.to_json()
    return a, b


def test_make_bot_builds_registered_bots():
    assert isinstance(make_bot("greedy", seed=3), GreedyBot)
    m = make_bot("mcts:iterations=7,horizon=1", seed=3)
    assert isinstance(m, MCTSBot) and m.iterations == 7 and m.horizon == 1
    assert make_bot("mcts:horizon=0").horizon is None and MCTSBot().horizon == "auto"


def test_bots_play_legal_actions_in_all_phases():
    bots = [GreedyBot(seed=1), MCTSBot(seed=2, iterations=6, rollout="greedy", horizon=1), RandomBot(seed=3),
            GreedyBot(seed=4, epsilon=0.3)]
    final, actions, phases = _play(sl.new_game(players=4, seed=5), bots)
    assert phases == {"demand", "purchase", "loading"}
    assert final.is_over and len(actions) > 100


@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_plays_every_player_count(players):
    final, _, phases = _play(sl.new_game(players=players, seed=players), [GreedyBot(seed=i) for i in range(players)])
    assert final.is_over and phases == {"demand", "purchase", "loading"}


def test_equal_seeds_give_equal_games():
    def game(seed):
        bots = [GreedyBot(seed=seed), GreedyBot(seed=seed + 1, epsilon=0.2),
                MCTSBot(seed=seed, iterations=4, rollout="random"), RandomBot(seed=seed)]
        return _play(sl.new_game(players=4, seed=9), bots)[1]

    first = game(1)
    assert game(1) == first
    assert game(2) != first  # the seeds do matter (epsilon, random and MCTS use them)


def test_mcts_choice_depends_on_position_not_history():
    state = sl.new_game(players=4, seed=4)
    bot = MCTSBot(seed=8, iterations=12, rollout="random", horizon=1)
    a = bot.choose(state.observe(0))
    bot.choose(state.apply(a).observe(1))  # another search in between
    assert bot.choose(state.observe(0)) == a


@pytest.mark.parametrize("make", [lambda: GreedyBot(seed=5, epsilon=0.3),
                                  lambda: MCTSBot(seed=5, iterations=30, rollout="greedy", horizon=2)])
def test_bots_never_see_hidden_order(make):
    a, b = _twin_states()
    g = GreedyBot(seed=0)
    rng = Rng(0)
    checked = 0
    while a.round <= 2 and checked < 6:
        seat = a.to_move
        oa, ob = a.observe(seat), b.observe(seat)
        assert oa.to_json() == ob.to_json()
        if a.phase == "demand" or checked < 3:
            assert make().choose(oa) == make().choose(ob)
            checked += 1
        action = g.act(a, rng)
        a, b = a.apply(action), b.apply(action)
    assert checked == 6


def test_greedy_beats_random():
    wins, games = 0.0, 0
    for deal in range(3):
        for hero in range(4):
            bots = [GreedyBot(seed=deal) if i == hero else RandomBot(seed=10 * deal + i) for i in range(4)]
            final, _, _ = _play(sl.new_game(players=4, seed=100 + deal), bots)
            w = final.winners()
            wins += 1 / len(w) if hero in w else 0.0
            games += 1
    assert wins / games >= 0.6  # a fair share is 0.25


def test_greedy_completes_contracts_and_explains():
    state, best = _last_round_completion(3)
    obs = state.observe(state.to_move)
    table = GreedyBot(seed=0).explain(obs)
    assert isinstance(table, pd.DataFrame) and list(table.columns) == ["action", "value"]
    assert sorted(table["action"]) == sorted(str(a) for a in obs.legal_actions())
    assert table["value"].is_monotonic_decreasing
    assert table["action"][0] == str(best) == str(GreedyBot(seed=0).choose(obs))


def test_mcts_finds_the_obvious_move_and_explains():
    # Last round, loading: a cube on the dock completes a contract. Whatever order MCTS plays its turn in,
    # the contract must be complete when the turn ends (ending the turn first throws the points away).
    state, best = _last_round_completion(6)
    seat = state.to_move
    k = best.args[1]
    bot = MCTSBot(seed=1, iterations=400, rollout="random")
    obs = state.observe(seat)
    first = bot.choose(obs)
    table = bot.explain(obs)  # reuses the last search
    assert list(table.columns) == ["action", "visits", "value", "mean_score", "win_share"]
    assert table["visits"].sum() == 400 == table.attrs["iterations"]
    assert table["action"][0] == str(first) != "done"
    by_action = table.set_index("action")
    assert by_action.loc[str(best), "mean_score"] > by_action.loc["done", "mean_score"]
    while state.phase == "loading" and state.to_move == seat:
        state = state.apply(bot.choose(state.observe(seat)))
    card, placed = state.player(seat).contracts[k]
    assert len(placed) == len(state.cat.card(card).goods)


def test_mcts_seconds_budget_and_horizon():
    state = sl.new_game(players=4, seed=2)
    bot = MCTSBot(seed=0, seconds=0.2, rollout="greedy", horizon=1)
    assert bot.choose(state.observe(state.to_move)) in state.legal_actions()
    assert bot.last_stats["visits"].sum() >= 1  # how many fit in 0.2 s depends on the machine: benchmarks/bots.py


class _Toy:
    """A two-seat toy game on the bare protocol: draw a hidden card, bank 2 points, or burn 3 (never good)."""

    game = "toy"
    phase = "play"
    n_players = 2
    events = ()

    def __init__(self, deck: tuple[int, ...] = (5, 0, 4, 1, 3, 2), points=(0, 0), turn: int = 0,
                 last: str | None = None) -> None:
        self.deck, self.points, self.turn, self.last_action = deck, points, turn, last

    round = property(lambda self: 1 + self.turn // 2)
    is_over = property(lambda self: self.turn >= 6)
    to_move = property(lambda self: None if self.is_over else self.turn % 2)

    def legal_actions(self):
        return [] if self.is_over else [Action("draw"), Action("bank"), Action("burn")]

    def apply(self, action):
        a = str(action)
        gain = {"draw": self.deck[0] if self.deck else 0, "bank": 2, "burn": -3}[a]
        deck = self.deck[1:] if a == "draw" else self.deck
        pts = list(self.points)
        pts[self.to_move] += gain
        return _Toy(deck, tuple(pts), self.turn + 1, a)

    def score(self, seat):
        return self.points[seat]

    def winners(self):
        return [i for i in range(2) if self.points[i] == max(self.points)]

    def determinize(self, seed):
        deck = list(self.deck)
        Rng(seed, "toy").shuffle(deck)
        return _Toy(tuple(deck), self.points, self.turn, self.last_action)

    def observe(self, seat):
        return _Toy(tuple(sorted(self.deck)), self.points, self.turn, self.last_action)

    def to_json(self):
        return repr((sorted(self.deck), self.points, self.turn, self.last_action))


def test_mcts_and_analysis_work_on_any_protocol_game():
    toy = _Toy()
    bot = MCTSBot(seed=0, iterations=300)  # "auto": no greedy bot for this game, random rollouts to the end
    assert bot.choose(toy.observe(0)) != Action("burn")
    table = bot.explain(toy.observe(0)).set_index("action")
    assert table.loc["burn", "visits"] < table["visits"].max()
    ranked = compare_actions(toy, rollouts=200, seed=1)
    assert ranked["action"].iloc[-1] == "burn"
    assert evaluate(toy, rollouts=50, seed=1)["win_prob"].sum() == pytest.approx(1.0)


def test_bots_play_kaispeicher_games_and_greedy_beats_random_there() -> None:
    """Every bot handles the expansion's phases and actions (reserve, spy, fire decisions, new loading verbs)."""
    seen: set[str] = set()
    for seed in range(3):
        s = sl.new_game(players=4, seed=seed, expansion="kaispeicher")
        bots = [make_bot("greedy", seed=i) for i in range(4)]
        while not s.is_over:
            a = bots[s.to_move].choose(s.observe(s.to_move))
            assert a in s.legal_actions()
            seen.add(a.kind)
            s = s.apply(a)
        assert s.round == 10
    assert {"reserve", "place", "buy", "done"} <= seen
    df = sl.simulate(16, 4, ["greedy", "random", "random", "random"], seed=3, executor="serial", progress=False,
                     rotate=True, expansion="kaispeicher")
    assert df.groupby("bot")["win_share"].mean()["greedy"] > 0.5


def test_mcts_chooses_legal_actions_in_a_kaispeicher_game() -> None:
    s = sl.new_game(players=3, seed=5, expansion="kaispeicher")
    bot = make_bot("mcts:iterations=12", seed=1)
    for _ in range(14):
        a = bot.choose(s.observe(s.to_move))
        assert a in s.legal_actions()
        s = s.apply(a)


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_the_greedy_heuristic_reused_between_decisions_values_as_a_fresh_one(expansion: str | None) -> None:
    """Between the decisions of a phase the heuristic keeps the seats' facts and the card values (a speed trick):
    at every decision of whole games, through observations and full states alike, every action's value is
    the one a heuristic built from scratch gives."""
    from speicherstadt_lab.bots.greedy import SpeicherstadtHeuristic, heuristic_for

    kw = {"expansion": expansion} if expansion else {}
    reused = 0
    for players, seed in ((3, 4), (5, 6)):
        state = sl.new_game(players=players, seed=seed, **kw)
        bots = [make_bot("greedy", seed=i) for i in range(players)]
        while not state.is_over:
            for view in (state.observe(state.to_move), state):
                actions = view.legal_actions()
                warm = heuristic_for(view)
                reused += warm._values is not None and SpeicherstadtHeuristic._last[1] is not warm
                values = warm.action_values(actions)
                SpeicherstadtHeuristic._last = SpeicherstadtHeuristic._pile = None
                assert heuristic_for(view).action_values(actions) == values
            state = state.apply(bots[state.to_move].choose(state.observe(state.to_move)))
    assert reused > 100  # the reuse did happen


def _decisions(game: str = "speicherstadt", n: int = 40, **kw) -> list:
    """The first ``n`` positions with a choice of a greedy game of ``game`` (each as its mover's observation)."""
    state = sl.new_game(game, players=3, seed=4, **kw)
    bot, out = GreedyBot(4), []
    while not state.is_over and len(out) < n:
        obs = state.observe(state.to_move)
        if len(obs.legal_actions()) > 1:
            out.append(obs)
        state = state.apply(bot.choose(obs))
    return out


@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_a_search_share_searches_that_share_of_decisions_and_plays_the_rollout_move_at_the_others(game: str) -> None:
    """``search_share``: the positions it searches are drawn from the seed (the same every time asked), about the share
    asked; at the others it plays the rollout bot's move and explains with the rollout bot's values, never a search."""
    positions = _decisions(game)
    half = MCTSBot(seed=2, iterations=6, search_share=0.5)
    searched = [half.searches(obs) for obs in positions]
    assert searched == [MCTSBot(seed=2, iterations=6, search_share=0.5).searches(obs) for obs in positions]
    assert 0.3 <= sum(searched) / len(searched) <= 0.7
    assert all(MCTSBot(seed=2, search_share=1).searches(obs) for obs in positions)
    assert not any(MCTSBot(seed=2, search_share=0).searches(obs) for obs in positions)
    greedy = GreedyBot(0)
    for obs, searches in zip(positions[:12], searched[:12], strict=True):
        move = half.choose(obs)
        table = half.explain(obs)
        if searches:
            assert half.last_stats is not None and table.attrs["iterations"] == 6 and "visits" in table
        else:
            assert half.last_stats is None and table.attrs["bot"] == "greedy"
            best = greedy.explain(obs)
            assert str(move) in set(best["action"][best["value"] >= best["value"].max() - 1e-9])
            assert list(table["action"]) == list(best["action"])
    assert half.params()["search_share"] == 0.5 and "search_share" not in MCTSBot().params()


@pytest.mark.parametrize("share", [-0.1, 1.5, "half", True])
def test_a_search_share_outside_zero_to_one_is_refused_naming_the_field(share) -> None:
    with pytest.raises(ValueError, match="search_share"):
        MCTSBot(search_share=share)
    assert make_bot("mcts:iterations=5,search_share=0.25").search_share == 0.25
