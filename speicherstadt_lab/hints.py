"""Hints during play: the move the strongest opponent level would make for a seat, and why, from what that seat may
see only.

``hint(state)`` asks the seat to move's *observation* (``state.observe(seat)``: the draw pile's order, the bag's and
other seats' secret cards replaced), so a hint can never give away hidden information. The move is the one the
strongest level (``bots.levels``, level 6: search with the value model, docs/bots.md) plays there; its runner-up is the
move that level's search looked at next. The numbers come from the lab's quick judgement (greedy rollouts a few rounds
deep scored by the value model, the live panel's and the review's method) of just those two moves on positions
resampled from the observation: the win chance after the move and its lead over the runner-up with the rollouts' 95%
interval. The text names the move with its card and price and says what it does in the rules' words
(``explain_action``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .analysis import QUICK, compare_actions, t95
from .bots import make_bot
from .bots.levels import LEVELS, get_level
from .engine.i18n import load_messages, messages
from .engine.protocol import GameState

load_messages("puzzles")

#: The level whose move a hint gives: the strongest.
HINT_LEVEL = LEVELS[-1].number


@dataclass(frozen=True)
class Hint:
    """A hint for one seat: the move of ``level``, the move that level rated next, the win chance after the move and
    its lead over the next (win share 0..1; negative when the quick judgement prefers the next), with a 95% interval."""

    seat: int
    action: str
    second: str | None
    win_prob: float
    lead: float
    lead_ci: tuple[float, float]
    observation: GameState
    level: int = HINT_LEVEL

    def text(self, lang: str = "en") -> str:
        """The hint in words (``lang`` "en" or "de")."""
        obs = self.observation
        lv = get_level(self.level)
        args: dict[str, Any] = {"move": obs.phrase_action(self.action, lang),
                                "rules": obs.explain_action(self.action, lang),
                                "p": f"{100 * self.win_prob:.0f}",
                                "level": level_phrase(lv.number, lang)}
        if self.second is None:
            return messages.text("puzzles", "hint_only", lang, args)
        lo, hi = self.lead_ci
        args.update(second=obs.phrase_action(self.second, lang), lead=f"{100 * self.lead:.0f}",
                    lo=f"{100 * lo:.0f}", hi=f"{100 * hi:.0f}", gap=f"{-100 * self.lead:.0f}",
                    gap_lo=f"{-100 * hi:.0f}", gap_hi=f"{-100 * lo:.0f}")
        # a lead whose interval includes 0 is no lead: say so, its sign in words (identical play-outs are a tie, not
        # "0 to 0 points"; a lead the same in every play-out is said so, not "5 to 5"); one wholly below 0 means the
        # quick judgement prefers the level's second choice: the text says the two differ
        key = ("hint_tie" if lo == hi == self.lead == 0 else "hint_same" if lo == hi and lo > 0 else "hint" if lo > 0
               else "hint_against" if hi < 0 else "hint_close")
        rounded = round(100 * self.lead)
        args["compare"] = messages.text("puzzles", "hint_lower" if rounded > 0 else "hint_higher" if rounded < 0
                                        else "hint_even", lang, {"n": f"{abs(rounded)}"})
        return messages.text("puzzles", key, lang, args)


def level_phrase(number: int, lang: str = "en") -> str:
    """The level a hint comes from, for its text: "Level 6 · Expert, the strongest level" (the strongest says so)."""
    load_messages("levels")
    lv = get_level(number)
    label = messages.text("levels", "label", lang, {"n": lv.number, "name": lv.name(lang)})
    return messages.text("puzzles", "hint_strongest", lang, {"label": label}) if lv.number == HINT_LEVEL else label


def hint(state: GameState, seed: int = 0, rollouts: int | None = None, level: int | None = None) -> Hint:
    """The hint for the seat to move in ``state``, computed from that seat's observation only: the move of ``level``
    (default the strongest, :data:`HINT_LEVEL`) and the quick judgement's numbers for it and the level's runner-up."""
    seat = state.to_move
    if seat is None:
        raise ValueError("hint: nobody is to move (the game is over)")
    lv = get_level(HINT_LEVEL if level is None else level)
    obs = state if state.is_observation else state.observe(seat)
    n = rollouts or QUICK["rollouts"]
    legal = [str(a) for a in obs.legal_actions()]
    if len(legal) == 1:
        df = compare_actions(obs, rollouts=n, method="hybrid", bot=QUICK["bot"], seed=seed, processes=1)
        return Hint(seat, legal[0], None, float(df.loc[0, "win_prob"]), 0.0, (0.0, 0.0), obs, lv.number)
    bot = make_bot(f"level:{lv.number}", seed=seed)
    best = str(bot.choose(obs))
    second = next(str(a) for a in bot.explain(obs)["action"] if str(a) != best)  # its runner-up (most visited next)
    df = compare_actions(obs, rollouts=n, method="hybrid", bot=QUICK["bot"], seed=seed, processes=1,
                         actions=[best, second]).set_index("action")
    lead = float(df.loc[best, "win_prob"] - df.loc[second, "win_prob"])
    half = t95(n - 1) * float(df["win_gap_se"].max())  # the pair's gap (0 on the top row, the gap's on the other)
    return Hint(seat, best, second, float(df.loc[best, "win_prob"]), lead, (lead - half, lead + half), obs, lv.number)


__all__ = ["HINT_LEVEL", "Hint", "hint"]
