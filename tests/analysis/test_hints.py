"""Hints: the preferred move from what the seat may see only, in words, with the lead's interval."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.hints import hint


@pytest.fixture(scope="module")
def packet_row_node() -> sl.Node:
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    record = sl.record_game(sl.new_game("packet_row", players=3, seed=4), bots)
    return record.mainline()[30]


def test_a_hint_names_a_legal_move_and_explains_it(packet_row_node: sl.Node) -> None:
    state = packet_row_node.state
    h = hint(state)
    legal = {str(a) for a in state.legal_actions()}
    assert h.seat == state.to_move and h.action in legal and h.second in legal and h.action != h.second
    assert h.lead_ci[0] <= h.lead <= h.lead_ci[1]
    for lang, word in (("en", "Hint: "), ("de", "Tipp: ")):
        text = h.text(lang)
        assert text.startswith(word) and "{" not in text and f"{100 * h.lead:.0f}" in text
        assert state.explain_action(h.action, lang) in text


def test_a_hint_never_depends_on_what_the_seat_cannot_see(packet_row_node: sl.Node) -> None:
    state = packet_row_node.state
    decks = state.hidden_parts()["decks"]
    board = next(b for b, cards in decks.items() if len(set(cards[:3])) > 1)
    other = next(c for c in decks[board] if c != decks[board][0])
    changed = packet_row_node.rearrange(decks={board: [other]}).state
    assert changed.hidden_parts()["decks"][board][0] != decks[board][0]  # a different hidden order …
    a, b = hint(state), hint(changed)
    assert (a.action, a.second, a.lead, a.text("de")) == (b.action, b.second, b.lead, b.text("de"))  # … same hint


def test_the_base_game_too_and_no_hint_after_the_end() -> None:
    record = sl.record_game(sl.new_game(players=3, seed=2), [make_bot("greedy", seed=s) for s in range(3)])
    state = record.mainline()[10].state
    h = hint(state)
    assert h.action in {str(a) for a in state.legal_actions()} and "Tipp" in h.text("de")
    with pytest.raises(ValueError, match="nobody is to move"):
        hint(record.mainline()[-1].state)


def test_a_lead_whose_interval_includes_zero_is_called_no_lead() -> None:
    """A clear lead says its points; a gap whose 95% interval includes 0 says either move is fine, its sign in words;
    identical play-outs say so instead of printing "0 to 0", and a lead the same in every play-out instead of
    "5 to 5"."""
    import dataclasses

    base = hint(sl.new_game(players=3, seed=1))
    clear = dataclasses.replace(base, second=base.second or base.action, lead=0.09, lead_ci=(0.02, 0.16))
    close = dataclasses.replace(clear, lead=0.03, lead_ci=(-0.01, 0.07))
    tie = dataclasses.replace(clear, lead=0.0, lead_ci=(0.0, 0.0))
    assert "9 percentage points more" in clear.text("en") and "2 to 16" in clear.text("en")
    assert "it is 3 percentage points lower" in close.text("en") and "-1 to 7" in close.text("en")
    assert "liegt sie um 3 Prozentpunkte niedriger" in close.text("de")
    # the sign is said in words: a runner-up ahead on average (but not clearly) is "higher", never "a gap of -3"
    behind = dataclasses.replace(clear, lead=-0.03, lead_ci=(-0.09, 0.03))
    assert "it is 3 percentage points higher" in behind.text("en") and "-3 percentage" not in behind.text("en")
    assert "liegt sie um 3 Prozentpunkte höher" in behind.text("de")
    # a lead the same in every play-out has no spread to show: "5 to 5" is said in words
    same = dataclasses.replace(clear, lead=0.05, lead_ci=(0.05, 0.05))
    assert "5 percentage points more" in same.text("en") and "by the same in every play-out" in same.text("en")
    assert "5 to 5" not in same.text("en") and "in jeder Ausspielung um gleich viel" in same.text("de")
    assert "exactly as well in every play-out" in tie.text("en") and "0 to 0" not in tie.text("en")
    assert "genau so gut" in tie.text("de")


def test_the_hint_is_the_strongest_levels_move_and_its_runner_up(packet_row_node: sl.Node) -> None:
    """The move is what level 6 plays from the seat's observation, the second what its search rated next; the text
    names the level (a weaker level asked for by number is named without "strongest")."""
    from speicherstadt_lab.hints import HINT_LEVEL

    state = packet_row_node.state
    obs = state.observe(state.to_move)
    h = hint(state)
    bot = make_bot(f"level:{HINT_LEVEL}", seed=0)
    assert HINT_LEVEL == 6 and h.level == 6
    assert h.action == str(bot.choose(obs))
    assert h.second == next(a for a in bot.explain(obs)["action"] if a != h.action)
    assert "Level 6 · Expert, the strongest level" in h.text("en")
    assert "Stufe 6 · Experte, der stärksten Stufe" in h.text("de")
    weak = hint(state, level=3)
    assert weak.level == 3 and weak.action == str(make_bot("level:3", seed=0).choose(obs))
    assert "Level 3 · Steady." in weak.text("en") and "strongest" not in weak.text("en")


def test_a_runner_up_the_quick_judgement_clearly_prefers_is_said_so() -> None:
    import dataclasses

    base = hint(sl.new_game(players=3, seed=1))
    against = dataclasses.replace(base, second=base.second or base.action, lead=-0.08, lead_ci=(-0.14, -0.02))
    en, de = against.text("en"), against.text("de")
    assert "8 percentage points higher (95% interval 2 to 14)" in en and "the two judges differ" in en
    assert "um 8 Prozentpunkte höher ein (95-%-Intervall 2 bis 14)" in de
