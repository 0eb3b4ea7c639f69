"""Agents backed by a trained sb3-contrib ``MaskablePPO`` policy.

* :class:`PolicyAgent` plays with an in-memory policy (frozen self-play snapshots use it);
* :class:`PPOAgent` loads a saved ``model.zip`` (``make_agent("ppo:path=runs/x/model.zip")``);
  loaded models are cached per file, so many agents on one file share one network.

Both see only ``info_set.observation``, ``info_set.legal_action_mask`` and their own seat
(``info_set.player``, for the seat feature of :mod:`boardgames_rl.training.seat`).
``deterministic=True`` plays the most probable legal action; ``False`` draws from the masked
policy distribution with the ``rng`` given to :meth:`act` (reproducible).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from boardgames_rl.agents.base import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.training.seat import policy_obs_size, policy_observation

_MODEL_CACHE: dict[tuple[str, float], Any] = {}


def freeze_policy(policy: Any) -> Any:
    """An independent copy of an SB3 ``policy`` on the CPU, in eval mode, without gradients (nor
    optimizer state): later training of the original does not change it. A policy frozen by this
    function is returned as is."""
    if getattr(policy, "_boardgames_frozen", False):
        return policy
    frozen = policy.__class__(**policy._get_constructor_parameters())
    frozen.load_state_dict(policy.state_dict())
    frozen.to("cpu")
    frozen.set_training_mode(False)
    frozen.optimizer = None
    for p in frozen.parameters():
        p.requires_grad_(False)
    frozen._boardgames_frozen = True
    return frozen


def check_spaces(policy: Any, game: Game, source: str) -> None:
    """Raise ``InvalidConfigError`` unless ``policy`` was trained for ``game`` 's spaces."""
    want_obs = (policy_obs_size(game),)
    obs_shape = tuple(policy.observation_space.shape)
    n_actions = int(getattr(policy.action_space, "n", -1))
    if obs_shape != want_obs or n_actions != game.num_actions:
        raise InvalidConfigError(
            f"{source} does not fit {game.name} {game.config}: the model takes observations of "
            f"shape {obs_shape} and has {n_actions} actions, the game needs {want_obs} and "
            f"{game.num_actions}. Use a model trained on this game and configuration."
        )


class PolicyAgent(Agent):
    """Plays with a ``MaskableActorCriticPolicy`` held in memory."""

    def __init__(self, policy: Any, deterministic: bool = True, name: str = "policy"):
        self.policy = policy
        self.deterministic = bool(deterministic)
        self.name = name
        self._checked: set[Game] = set()

    def action_probabilities(self, info_set: InfoSet) -> np.ndarray:
        """The masked policy distribution over actions (float64, sums to 1 over legal ones)."""
        game = info_set.game
        if game not in self._checked:
            check_spaces(self.policy, game, f"policy {self.name!r}")
            self._checked.add(game)
        mask = np.asarray(info_set.legal_action_mask, dtype=bool)
        if not mask.any():
            raise ValueError(f"{game.name}: no legal action for player {info_set.player}")
        obs = policy_observation(info_set.observation, info_set.player, game)
        with th.no_grad():
            dist = self.policy.get_distribution(
                th.as_tensor(obs[None]), action_masks=mask[None]
            )
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        probs = self.action_probabilities(info_set)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(len(probs), p=probs))


def load_model(path: str | os.PathLike) -> Any:
    """``MaskablePPO.load(path)`` on the CPU, cached per (file, modification time)."""
    p = Path(path)
    if p.suffix != ".zip" and p.with_suffix(".zip").is_file():
        p = p.with_suffix(".zip")
    if p.is_dir() and (p / "model.zip").is_file():
        p = p / "model.zip"
    if not p.is_file():
        raise InvalidConfigError(
            f"no PPO model at {str(path)!r}: give the model.zip written by "
            "`boardgames-rl train` / experiments/train_ppo.py (or its run folder)"
        )
    key = (str(p.resolve()), p.stat().st_mtime)
    if key not in _MODEL_CACHE:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(p), device="cpu")
        model.policy.set_training_mode(False)
        _MODEL_CACHE[key] = model
    return _MODEL_CACHE[key]


class PPOAgent(PolicyAgent):
    """A saved MaskablePPO model as an agent.

    Args:
        path: the ``model.zip`` (or the run folder holding it).
        deterministic: most probable legal action (default) or a draw with the ``rng``.
        game: when given, the model's spaces are checked against it now (else at the first act).
    """

    def __init__(
        self, path: str | os.PathLike, deterministic: bool = True, game: Game | None = None
    ):
        model = load_model(path)
        super().__init__(model.policy, deterministic=deterministic, name=f"ppo:{path}")
        self.path = str(path)
        if game is not None:
            check_spaces(model.policy, game, f"PPO model {self.path!r}")
            self._checked.add(game)


def build(game: Game, path: str | None = None, deterministic: bool = True) -> PPOAgent:
    """Registry factory: ``make_agent("ppo:path=runs/x/model.zip,deterministic=false", game)``."""
    if path is None:
        raise InvalidConfigError("the ppo agent needs a model: use 'ppo:path=runs/<run>/model.zip'")
    return PPOAgent(path, deterministic=deterministic, game=game)
