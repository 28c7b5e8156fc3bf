"""Hints during play: the move the lab's judgement prefers for a seat, and why, from what that seat may see only.

``hint(state)`` asks the seat to move's *observation* (``state.observe(seat)``: the draw pile's order, the bag's and
other seats' secret cards replaced), so a hint can never give away hidden information: the moves are compared by
the quick judgement (greedy rollouts a few rounds deep scored by the value model, the live panel's and the review's
method) on positions resampled from that observation alone. The text names the move with its card and price, says
what it does in the rules' words (``explain_action``), and gives its lead over the next best move with the
rollouts' 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .analysis import QUICK, compare_actions, t95
from .engine.i18n import load_messages, messages
from .engine.protocol import GameState

load_messages("puzzles")


@dataclass(frozen=True)
class Hint:
    """A hint for one seat: the preferred move, the next best, the lead and its 95% interval (win share 0..1)."""

    seat: int
    action: str
    second: str | None
    win_prob: float
    lead: float
    lead_ci: tuple[float, float]
    observation: GameState

    def text(self, lang: str = "en") -> str:
        """The hint in words (``lang`` "en" or "de")."""
        obs = self.observation
        args: dict[str, Any] = {"move": obs.phrase_action(self.action, lang),
                                "rules": obs.explain_action(self.action, lang),
                                "p": f"{100 * self.win_prob:.0f}"}
        if self.second is None:
            return messages.text("puzzles", "hint_only", lang, args)
        args.update(second=obs.phrase_action(self.second, lang), lead=f"{100 * self.lead:.0f}",
                    lo=f"{100 * self.lead_ci[0]:.0f}", hi=f"{100 * self.lead_ci[1]:.0f}")
        lo, hi = self.lead_ci
        # a lead whose interval includes 0 is no lead: say so (identical play-outs are a tie, not "0 to 0 points")
        key = "hint" if lo > 0 else "hint_tie" if lo == hi == self.lead == 0 else "hint_close"
        return messages.text("puzzles", key, lang, args)


def hint(state: GameState, seed: int = 0, rollouts: int | None = None) -> Hint:
    """The hint for the seat to move in ``state``, computed from that seat's observation only."""
    seat = state.to_move
    if seat is None:
        raise ValueError("hint: nobody is to move (the game is over)")
    obs = state if state.is_observation else state.observe(seat)
    n = rollouts or QUICK["rollouts"]
    df = compare_actions(obs, rollouts=n, method="hybrid", bot=QUICK["bot"], seed=seed, processes=1)
    best = str(df.loc[0, "action"])
    if len(df) < 2:
        return Hint(seat, best, None, float(df.loc[0, "win_prob"]), 0.0, (0.0, 0.0), obs)
    lead = float(df.loc[0, "win_prob"] - df.loc[1, "win_prob"])
    half = t95(n - 1) * float(df.loc[1, "win_gap_se"])
    return Hint(seat, best, str(df.loc[1, "action"]), float(df.loc[0, "win_prob"]), lead,
                (lead - half, lead + half), obs)


__all__ = ["Hint", "hint"]
