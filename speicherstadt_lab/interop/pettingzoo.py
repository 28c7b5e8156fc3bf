"""Our games as PettingZoo AEC environments: ``env(game="speicherstadt", players=3, expansion=None)``.

- agents ``player_0`` … (seat order); the agent to act is the engine's ``to_move``.
- ``action_space(agent)``: ``Discrete(catalogue size)`` over :mod:`.encoding`'s action catalogue (our notation;
  ``env.action_text(id)`` gives the text in the current position).
- ``observation_space(agent)``: ``Dict({"observation": Box(float32, n), "action_mask": Box(int8 0/1, size)})``;
  ``observation`` is :mod:`.encoding`'s tensor of ``view(seat)`` (what the seat may see, field by field in the
  schemas there), ``action_mask`` the seat's legal ids (all zero when it is not its turn).
- ``reset(seed=...)`` starts ``new_game(..., seed=seed)`` (no seed: one is drawn); the same seed, the same game.
- rewards only at the end: the winners share 1, the others get 0 (as the OpenSpiel adapter); every agent is then
  terminated. No truncation (the games end by their rules).
- ``render()``: the position as text (round, phase, seat to move, scores, the last action, the legal actions).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from . import INSTALL_HINT

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - exercised without the extra
    raise ImportError(f"speicherstadt_lab.interop.pettingzoo needs PettingZoo and Gymnasium: {INSTALL_HINT}") from e

from ..engine.protocol import GameState, get_game, new_game
from .encoding import action_catalogue, observation_encoder


def utility(state: GameState) -> list[float]:
    """The winners share 1, the others get 0 (all share if none is named)."""
    n = state.n_players
    winners = state.winners() or list(range(n))
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(n)]


class SpeicherstadtEnv(AECEnv):
    """An AEC environment over one of our games (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "speicherstadt_lab", "is_parallelizable": False,
    }

    def __init__(self, game: str = "speicherstadt", players: int = 3, expansion: str | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        info = get_game(game)
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"players: {info.title} is for {info.min_players} to {info.max_players} players")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.game, self.players, self.expansion, self.render_mode = game, players, expansion, render_mode
        self.metadata = {**self.metadata, "name": f"speicherstadt_lab_{expansion or game}_{players}p"}
        self.catalogue = action_catalogue(game, players, expansion)
        self.encoder = observation_encoder(game, players, expansion)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.catalogue.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.catalogue.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent``: the encoded view and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent``: every action the catalogue numbers."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``seed`` is the game's seed (none: one drawn from this env's own generator)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = seed if seed is not None else self._seeds.randrange(2**31)
        kw: dict[str, Any] = {"players": self.players, "seed": game_seed}
        if self.expansion:
            kw["expansion"] = self.expansion
        self.state = new_game(self.game, **kw)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[int(self.state.to_move)]  # type: ignore[arg-type]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` observes now: its encoded view, and the mask of its legal actions (none when it is not to
        move)."""
        seat = self._seat[agent]
        assert self.state is not None, "call reset() first"
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        if not self.state.is_over and self.state.to_move == seat:
            mask = self.catalogue.mask(self.state)
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask}

    def action_text(self, action: int) -> str:
        """The notation of catalogue id ``action`` in the current position."""
        return self.catalogue.text_of(self.state, int(action))

    def step(self, action: int | None) -> None:
        """Play action number ``action`` for the agent to move (ValueError if it is not legal); rewards follow at the
        end."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        action = int(action)  # type: ignore[arg-type]
        if action not in self.catalogue.legal_ids(self.state):
            raise ValueError(f"action {action} ({self.catalogue.texts[action]!r}) is not legal now")
        self.state = self.state.apply(self.catalogue.text_of(self.state, action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_over:
            for a, r in zip(self.possible_agents, utility(self.state), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = self._next_live(agent)
        else:
            self.agent_selection = self.possible_agents[int(self.state.to_move)]  # type: ignore[arg-type]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _next_live(self, agent: str) -> str:
        i = self.agents.index(agent)
        return self.agents[(i + 1) % len(self.agents)]

    def render(self) -> str | None:
        """The position as text (printed in "human" mode, returned in "ansi" mode)."""
        if self.render_mode is None:
            return None
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def text(self) -> str:
        """Round, phase, seat to move, scores, the last action and the legal actions, as text."""
        s = self.state
        if s is None:
            return "(not started: call reset())"
        scores = ", ".join(f"{s.seat_name(i)} {s.score(i)}" for i in range(s.n_players))
        mover = "game over" if s.is_over else f"to move: {s.seat_name(s.to_move)}"  # type: ignore[arg-type]
        lines = [f"{get_game(s.game).title} · round {s.round} · phase {s.phase} · {mover}", f"scores: {scores}"]
        if s.last_action:
            lines.append(f"last action: {s.last_action}")
        if s.is_over:
            lines.append("winners: " + ", ".join(s.seat_name(i) for i in s.winners()))
        else:
            lines.append("legal: " + " | ".join(str(a) for a in s.legal_actions()))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""
        pass


def env(game: str = "speicherstadt", players: int = 3, expansion: str | None = None,
        render_mode: str | None = None) -> SpeicherstadtEnv:
    """An AEC environment of ``game`` (``expansion="kaispeicher"`` for the expansion) for ``players`` seats."""
    return SpeicherstadtEnv(game, players, expansion, render_mode)
