"""Potential-based reward shaping (Ng, Harada & Russell 1999) for the learner's env.

Each game may declare ``potential(state) -> per-seat array`` in its
:class:`~boardgames_rl.core.spec.GameSpec` (``GameSpec.potential``, found by
:func:`game_potential`): every seat's raw *progress* (relics banked, figures advanced, points
scored, ...). :class:`PotentialShaping` turns it into the env's
``reward_shaping(previous_state, new_state)``::

    Phi_p(s) = x_p(s) - mean_{q != p} x_q(s)          (progress relative to the others)
    F_p      = scale * (gamma * Phi_p(s') - Phi_p(s)), Phi(terminal) = 0

With the same ``gamma`` as the learner's discount this leaves the optimal policies unchanged
(the shaped return of an episode is the real one minus ``scale * Phi(s_0)``), while the learner
gets a signal long before the rare terminal reward. ``SingleAgentEnv`` calls it once per learner
decision (the state before the learner's action and the state at its next decision, opponents'
moves included), so one ``gamma`` per learner step matches PPO's discounting.

The potentials read the **true** state (hidden vase contents, secret scores): they are a
training signal only, never part of the observation or of the policy's input, and evaluation
always counts the real outcome.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, State
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.registry import game_spec

Potential = Callable[[State], np.ndarray]
"""``potential(state) -> float array [num_players]``: each seat's raw progress."""

SHAPING_KINDS = ("none", "potential")
"""Values of ``train_ppo --shaping``."""


def relative(values: np.ndarray) -> np.ndarray:
    """Each seat's value minus the mean of the other seats' (zero-sum for two players)."""
    x = np.asarray(values, dtype=np.float64)
    n = x.shape[0]
    if n < 2:
        return x.copy()
    return x - (x.sum() - x) / (n - 1)


def game_potential(game: Game) -> Potential:
    """The shaping potential the game's :class:`~boardgames_rl.core.spec.GameSpec` declares
    (clear error if none)."""
    potential = game_spec(game.name).potential
    if potential is None:
        raise InvalidConfigError(f"{game.name} declares no shaping potential: use --shaping none")
    return potential


class PotentialShaping:
    """``reward_shaping`` callable: ``scale * (gamma * Phi(new) - Phi(previous))`` per seat.

    Args:
        potential: raw per-seat progress (see the module docstring); made relative to the other
            seats when ``relative_to_others`` (default).
        gamma: the learner's discount factor, in (0, 1].
        scale: multiplies the shaping reward (``0`` turns it off).
        relative_to_others: use each seat's progress minus the mean of the others'.

    A terminal state has potential 0, so an episode's shaped return telescopes to the real
    return minus ``scale * Phi(s_0)``. Picklable (module-level potentials), so it works with
    ``SubprocVecEnv``.
    """

    def __init__(
        self,
        potential: Potential,
        gamma: float,
        scale: float = 1.0,
        relative_to_others: bool = True,
    ):
        if not 0 < gamma <= 1:
            raise InvalidConfigError(f"shaping gamma must be in (0, 1], got {gamma}")
        if not np.isfinite(scale) or scale < 0:
            raise InvalidConfigError(f"shaping scale must be a finite number >= 0, got {scale}")
        self.potential = potential
        self.gamma = float(gamma)
        self.scale = float(scale)
        self.relative_to_others = relative_to_others

    def phi(self, state: State) -> np.ndarray:
        """The per-seat potential of ``state`` (zeros once the game is over)."""
        n = state.game.num_players
        if state.is_terminal():
            return np.zeros(n)
        x = np.asarray(self.potential(state), dtype=np.float64)
        if x.shape != (n,) or not np.all(np.isfinite(x)):
            raise ValueError(f"{state.game.name}: potential must give {n} finite values, got {x!r}")
        return relative(x) if self.relative_to_others else x

    def __call__(self, previous: State, new: State) -> np.ndarray:
        return self.scale * (self.gamma * self.phi(new) - self.phi(previous))


def make_shaping(kind: str, game: Game, gamma: float, scale: float) -> RewardShaping | None:
    """``--shaping`` -> the env's ``reward_shaping`` (``None`` for ``"none"`` or scale 0)."""
    if kind not in SHAPING_KINDS:
        raise InvalidConfigError(f"shaping must be one of {', '.join(SHAPING_KINDS)}, got {kind!r}")
    if kind == "none":
        return None
    shaping = PotentialShaping(game_potential(game), gamma, scale)
    return shaping if shaping.scale > 0 else None
