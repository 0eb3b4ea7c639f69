"""A residual policy: MaskablePPO's MLP policy on top of a prior agent (needs ``[train]``).

The observation ends with the prior feature (:func:`~boardgames_rl.envs.policy_obs.prior_feature`:
the one-hot of the move the prior agent, by default the heuristic, would make). The logits are

    logits = action_net(mlp(observation)) + prior_scale * prior_onehot

with ``prior_scale`` a learned scalar (initial value ``prior_scale``). At the start of training
the network's logits are small, so the policy plays the prior's move with high probability (a
greedy policy plays it always): training starts from the prior's strength and learns where to
depart from it, instead of learning the game from nothing. This is residual policy learning
(Silver et al. 2018, "Residual Policy Learning"; Johannink et al. 2019) applied to a discrete,
masked policy. The prior agent reads only the player's info set, so the policy still sees only
what its player could know.

Saved models keep ``policy_kwargs = {"net_arch", "prior", "prior_scale"}`` (plain JSON), and the
state dict holds ``prior_scale``: :func:`boardgames_rl.agents.ppo.policy_from_weights` rebuilds
the policy without unpickling.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.type_aliases import Schedule

DEFAULT_PRIOR = "heuristic"
DEFAULT_PRIOR_SCALE = 3.0


class PriorMaskablePolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose logits add ``prior_scale`` times the prior feature
    (the observation's last ``num_actions`` entries); see the module docstring.

    Args:
        prior: agent spec of the prior (``"heuristic"``), used by whoever builds observations for
            this policy (the training env, :class:`~boardgames_rl.agents.ppo.PolicyAgent`).
        prior_scale: initial value of the learned scale.
    """

    def __init__(
        self,
        *args: Any,
        prior: str = DEFAULT_PRIOR,
        prior_scale: float = DEFAULT_PRIOR_SCALE,
        **kwargs: Any,
    ):
        self.prior = str(prior)
        self.initial_prior_scale = float(prior_scale)
        self._prior_obs: th.Tensor | None = None
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Schedule) -> None:
        # the parameter exists before the optimiser is made (super()._build makes it)
        self.prior_scale = th.nn.Parameter(th.tensor(self.initial_prior_scale))
        super()._build(lr_schedule)

    @property
    def num_prior(self) -> int:
        return int(self.action_space.n)  # type: ignore[attr-defined]

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(prior=self.prior, prior_scale=self.initial_prior_scale)
        return data

    def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> MaskableDistribution:
        logits = self.action_net(latent_pi)
        if self._prior_obs is None:
            raise RuntimeError("PriorMaskablePolicy: the action distribution needs the observation")
        logits = logits + self.prior_scale * self._prior_obs
        return self.action_dist.proba_distribution(action_logits=logits)

    def _prior_of(self, obs: Any) -> th.Tensor:
        """The prior feature: the observation's last ``num_actions`` entries, as floats."""
        return obs[..., -self.num_prior :].float()

    @contextmanager
    def _reading_prior(self, obs: Any) -> Iterator[None]:
        """Hold the observation's prior feature while SB3 builds the action distribution."""
        self._prior_obs = self._prior_of(obs)
        try:
            yield
        finally:
            self._prior_obs = None

    def forward(
        self, obs: th.Tensor, deterministic: bool = False, action_masks: np.ndarray | None = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        with self._reading_prior(obs):
            return super().forward(obs, deterministic, action_masks)

    def evaluate_actions(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: th.Tensor | None = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        with self._reading_prior(obs):
            return super().evaluate_actions(obs, actions, action_masks)

    def get_distribution(
        self, obs: Any, action_masks: np.ndarray | None = None
    ) -> MaskableDistribution:
        with self._reading_prior(obs):
            return super().get_distribution(obs, action_masks)
