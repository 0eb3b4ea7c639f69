"""The seat feature: what a policy sees is ``state.observation(seat)`` plus, when the game's view is
seat-relative, a one-hot of the absolute seat.

Every observation in boardgames_rl is written from the observer's point of view. Castle
Nightingale's has a ``role`` field (ninja / samurai), so the seat is already there. The other games
rotate the per-player rows so that row 0 is the observer: the absolute seat (which matters through
the turn order, e.g. who moves first) is not visible. A policy trained with ``seat="random"``
(one shared policy for all seats) would then not know which seat it plays, so for those games a
one-hot of ``num_players`` entries is appended. The rule is applied the same way in training
(:mod:`boardgames_rl.training.envs`) and at play time (:mod:`boardgames_rl.agents.ppo`), whatever
the seat option, so one saved model works with any seat.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import Game

SEAT_FIELDS = ("role",)
"""Observation fields that already identify the observer's absolute seat."""


def seat_in_observation(game: Game) -> bool:
    """True when ``game.observation_spec`` already tells the observer its absolute seat."""
    return any(name in game.observation_spec for name in SEAT_FIELDS)


def policy_obs_size(game: Game) -> int:
    """Length of the vector a policy sees for ``game``."""
    extra = 0 if seat_in_observation(game) else game.num_players
    return game.observation_spec.size + extra


def policy_obs_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of the policy's observation (the spec's bounds, plus [0, 1] for the seat)."""
    spec = game.observation_spec
    if seat_in_observation(game):
        return spec.low.copy(), spec.high.copy()
    n = game.num_players
    low = np.concatenate([spec.low, np.zeros(n, np.float32)])
    high = np.concatenate([spec.high, np.ones(n, np.float32)])
    return low, high


def policy_observation(observation: np.ndarray, seat: int, game: Game) -> np.ndarray:
    """``observation`` (the player's own view) as the policy sees it: a ``float32`` copy, with the
    one-hot of ``seat`` appended for seat-relative games."""
    obs = np.asarray(observation, dtype=np.float32)
    if obs.shape != (game.observation_spec.size,):
        raise ValueError(
            f"{game.name}: observation of shape {obs.shape}, expected "
            f"({game.observation_spec.size},)"
        )
    if seat_in_observation(game):
        return obs.copy()
    onehot = np.zeros(game.num_players, np.float32)
    onehot[seat] = 1.0
    return np.concatenate([obs, onehot])
