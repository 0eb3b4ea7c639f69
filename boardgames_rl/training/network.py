"""The learner's network: an actor-critic MLP, its masked distribution, and a rollout copy.

:class:`ActorCritic` has sb3-contrib's ``MaskableActorCriticPolicy`` layout and parameter names
(``mlp_extractor.policy_net.0.weight`` ... ``action_net`` / ``value_net``; tanh activations;
orthogonal initialisation with gains sqrt(2), 0.01 and 1), so a saved ``model.zip`` is read by
:func:`boardgames_rl.agents.ppo.load_policy` (``ppo:path=...``), the exporter and every tool that
reads the runs of earlier versions, and those runs' weights load into it.

Three things keep it cheap on the games' observations, which are wide and mostly zero:

* :func:`active_columns` / the first layers multiply only the columns that are non-zero in some
  row of the batch (the same sums without their zero terms; the gradients of the other columns
  are zero, as in the dense product);
* :class:`RolloutWeights`: during a rollout the weights are fixed, so the actor and the critic
  are put side by side once per rollout (first layer transposed and concatenated, the hidden
  layers and the heads block-diagonal): a rollout step is one ``addmm`` per layer;
* :func:`masked_log_softmax` lowers illegal logits by ``1e8`` with one ``add`` (what a
  ``-1e8`` logit gives: probability exactly 0), and :func:`sample` draws
  ``argmax(p / Exp(1))`` (``torch.multinomial``'s draw for one sample, without its checks);
  :func:`masked_distribution` gives the probabilities beside the log-probabilities by a
  ``softmax`` of the same lowered logits, not by an ``exp`` of the log-probabilities (on CPU,
  ``exp`` of the illegal actions' ``-1e8`` is a slow path, which weighs with many actions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch as th
from torch import nn

HUGE_NEG = -1e8
"""The logit an illegal action gets."""
SPARSE_MIN_INPUTS = 256
"""Observations narrower than this go through the first layers densely."""
SPARSE_MAX_FRACTION = 0.5
"""A batch with more than this share of its columns non-zero goes densely."""


def _mlp(inputs: int, hidden: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for units in hidden:
        layers += [nn.Linear(inputs, units), nn.Tanh()]
        inputs = units
    return nn.Sequential(*layers)


def _init(module: nn.Module, gain: float) -> None:
    for layer in module.modules():
        if isinstance(layer, nn.Linear):
            nn.init.orthogonal_(layer.weight, gain=gain)
            nn.init.zeros_(layer.bias)


def active_columns(x: th.Tensor) -> th.Tensor | None:
    """The columns of a ``[B, D]`` batch that are non-zero in some row, or None when the dense
    product is as cheap (narrow observations, or more than half the columns active)."""
    if x.shape[1] < SPARSE_MIN_INPUTS:
        return None
    cols = th.from_numpy(np.flatnonzero(x.detach().numpy().any(0)))
    return None if cols.numel() > SPARSE_MAX_FRACTION * x.shape[1] else cols


class ActorCritic(nn.Module):
    """Actor and critic MLPs over one observation (``hidden`` units per layer, tanh), an action
    head of ``num_actions`` logits and a value head.

    A residual network (``prior``: the prior agent's spec, ``heuristic``) reads observations
    that end with the prior feature (``boardgames_rl.envs.policy_obs.prior_feature``, the
    one-hot of the prior's move) and adds ``prior_scale`` (a learned scalar, state dict key
    ``prior_scale``) times it to its logits: sb3-contrib's layout of
    ``boardgames_rl.agents.prior_policy.PriorMaskablePolicy``, so its ``model.zip`` plays
    as ``ppo:path=...`` and exports to a pretrained entry with its prior."""

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: Sequence[int],
        prior: str | None = None,
        prior_scale: float = 3.0,
    ):
        super().__init__()
        if not hidden or min(hidden) < 1:
            raise ValueError(f"the network needs at least one hidden layer, got {list(hidden)}")
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, list(hidden)
        self.prior = prior or None
        if self.prior is not None:
            if obs_size <= num_actions:
                raise ValueError("a residual network's input ends with the prior's one-hot")
            self.prior_scale = nn.Parameter(th.tensor(float(prior_scale)))
        self.mlp_extractor = nn.Module()
        self.mlp_extractor.policy_net = _mlp(obs_size, hidden)
        self.mlp_extractor.value_net = _mlp(obs_size, hidden)
        self.action_net = nn.Linear(hidden[-1], num_actions)
        self.value_net = nn.Linear(hidden[-1], 1)
        _init(self.mlp_extractor, math.sqrt(2))
        _init(self.action_net, 0.01)
        _init(self.value_net, 1.0)

    def _trunk(self, net: nn.Sequential, x: th.Tensor, cols: th.Tensor | None) -> th.Tensor:
        first = net[0]
        if cols is None:
            h = first(x)
        else:  # x holds only the active columns
            h = nn.functional.linear(x, first.weight.index_select(1, cols), first.bias)
        for layer in list(net)[1:]:
            h = layer(h)
        return h

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Logits ``[B, A]`` and values ``[B]`` of a ``[B, D]`` batch."""
        cols = active_columns(obs)
        x = obs if cols is None else obs.index_select(1, cols)
        latent_pi = self._trunk(self.mlp_extractor.policy_net, x, cols)
        latent_vf = self._trunk(self.mlp_extractor.value_net, x, cols)
        logits = self.action_net(latent_pi)
        if self.prior is not None:
            logits = logits + self.prior_scale * obs[:, -self.num_actions :]
        return logits, self.value_net(latent_vf).squeeze(-1)


class RolloutWeights:
    """The network's weights fixed for one rollout, actor and critic side by side: ``__call__``
    gives the same logits and values as :meth:`ActorCritic.forward` (to float rounding; the
    off-diagonal blocks add exact zeros) in one ``addmm`` per layer, without autograd."""

    def __init__(self, net: ActorCritic):
        pi, vf = net.mlp_extractor.policy_net, net.mlp_extractor.value_net
        linear_pi = [m for m in pi if isinstance(m, nn.Linear)]
        linear_vf = [m for m in vf if isinstance(m, nn.Linear)]
        with th.no_grad():
            self.w1t = th.cat([linear_pi[0].weight, linear_vf[0].weight]).t().contiguous()
            self.b1 = th.cat([linear_pi[0].bias, linear_vf[0].bias])
            self.layers = [
                (th.block_diag(a.weight, b.weight).t().contiguous(), th.cat([a.bias, b.bias]))
                for a, b in zip(linear_pi[1:], linear_vf[1:], strict=True)
            ]
            heads = (net.action_net, net.value_net)
            self.layers.append(
                (
                    th.block_diag(*(h.weight for h in heads)).t().contiguous(),
                    th.cat([h.bias for h in heads]),
                )
            )
        self.num_actions = net.num_actions
        self.prior_scale = float(net.prior_scale.detach()) if net.prior is not None else None

    def __call__(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        cols = active_columns(obs)
        if cols is None:
            h = th.addmm(self.b1, obs, self.w1t).tanh_()
        else:
            h = th.addmm(self.b1, obs.index_select(1, cols), self.w1t.index_select(0, cols))
            h.tanh_()
        for i, (w, b) in enumerate(self.layers):
            h = th.addmm(b, h, w)
            if i < len(self.layers) - 1:
                h.tanh_()
        logits = h[:, : self.num_actions]
        if self.prior_scale is not None:
            logits = logits + self.prior_scale * obs[:, -self.num_actions :]
        return logits, h[:, self.num_actions]


def masked_log_softmax(logits: th.Tensor, legal: th.Tensor) -> th.Tensor:
    """Log-probabilities of the policy restricted to the legal actions (``legal``: ``[B, A]``,
    1.0 legal, 0.0 illegal): an illegal logit is lowered by 1e8, so its probability is 0."""
    return th.add(logits, legal - 1.0, alpha=-HUGE_NEG).log_softmax(-1)


def masked_distribution(logits: th.Tensor, legal: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    """:func:`masked_log_softmax` and the probabilities, its ``exp`` (to float rounding), from
    one ``softmax`` of the same lowered logits (illegal actions: probability exactly 0)."""
    lowered = th.add(logits, legal - 1.0, alpha=-HUGE_NEG)
    return lowered.log_softmax(-1), lowered.softmax(-1)


def sample(probs: th.Tensor) -> th.Tensor:
    """One action per row of ``probs`` (``[B, A]``): ``argmax(probs / q)`` with ``q`` an
    ``Exp(1)`` draw, the draw ``torch.multinomial(probs, 1)`` makes, without its checks."""
    return (probs / th.empty_like(probs).exponential_(1)).argmax(-1)


def entropy(log_probs: th.Tensor, probs: th.Tensor | None = None) -> th.Tensor:
    """The entropy of each row (an illegal action's term is ``-1e8 * 0 = 0``); ``probs``: the
    probabilities when at hand (:func:`masked_distribution`), else ``log_probs.exp()``."""
    return -(log_probs * (log_probs.exp() if probs is None else probs)).sum(-1)


def adam(net: nn.Module, lr: float) -> th.optim.Adam:
    """Adam as SB3's policies build it (``eps=1e-5``), on torch's fused CPU kernel (one pass over
    each tensor; the same update to float rounding)."""
    return th.optim.Adam(net.parameters(), lr=lr, eps=1e-5, fused=True)
