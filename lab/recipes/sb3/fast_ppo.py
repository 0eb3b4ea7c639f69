"""``FastMaskablePPO``: sb3-contrib's ``MaskablePPO`` without its own overhead (issue 14.3).

The same algorithm, the same random draws, the same saved files; only the bookkeeping around
the network is cheaper. Profiled on a free env with a game's observation size (2,441 floats,
175 actions; ``lab/benchmarks/training_speed.py``'s "ceiling"), MaskablePPO's extra time over SB3
PPO went to:

* **the masked distribution**: every forward (a rollout step, a minibatch) builds a
  ``MaskableCategorical``, which runs ``Categorical.__init__`` twice with argument validation
  (``logsumexp`` twice, constraint checks, a ``probs`` cache), then ``log_prob`` validates the
  sample again; ``th.where`` with ``-1e8`` and the ``exp`` of those ``-1e8`` are slow CPU paths
  (with many actions the minibatch's distribution cost more than its network). Here the same
  tensors, to float rounding, come from a few direct ops (:func:`masked_distribution`):
  the illegal logits lowered by ``1e8`` with one ``add``, ``log_softmax``, ``softmax``,
  ``multinomial``, ``gather``.
* **the first layer on sparse observations**: the games' observations are mostly zeros, and
  so are most of a batch's columns (fewer in a rollout step than in a minibatch), so the actor's
  and critic's first layers multiply only the non-zero columns
  (:func:`restricted_linear`; in rollouts from a per-rollout transposed copy of the weight).
  Same sums without their zero terms, same gradients (zero for unused columns, as before).
* **the optimiser**: ``Adam``'s single-tensor loop reads and writes each ~312k-float first-layer
  weight several times per step (``sqrt``, ``addcdiv_``, ``lerp_``...). The policy's own Adam
  switches to torch's fused CPU kernel (``fused=True``, one pass; the same update to float
  rounding), also after ``load_state_dict`` (resume).
* **mask fetching**: with a :class:`~boardgames_rl.envs.batched_sb3.BatchedVecEnv` the masks are
  read straight from its ``action_masks()``; other envs go through ``get_action_masks`` as
  before.

Profiled on the real training env (``FastMaskablePPO.learn`` on Castle Nightingale: rollout
inference and bookkeeping beside the env, and the updates, where the two first layers' products
and their weight gradients weigh most), the second round removed per-step and per-minibatch
overhead:

* **the rollout network** (:class:`RolloutNet`): the weights are fixed during a rollout, so once
  per rollout the actor's and the critic's first-layer weights are transposed and put side by
  side, the hidden layers and the two heads made block-diagonal: a rollout step is one
  ``addmm`` per layer (the first on the batch's non-zero columns) and in-place activations.
* **the action draw** (:func:`sample`): ``th.multinomial(probs, 1, True)`` is, for one sample,
  ``argmax(probs / Exp(1))`` after validity checks (reductions and host syncs); the same draw
  without them (same actions, same generator state; a numpy check of the sampled
  log-probabilities raises on non-finite probabilities instead). The mask offsets are made in
  numpy.
* **the rollout buffer**: rows are written straight into ``MaskableRolloutBuffer``'s arrays
  (:meth:`FastMaskablePPO._store`: ``add`` without its intermediate copies) and minibatches
  gathered with one ``index_select`` per field from tensors sharing the buffer's memory
  (:meth:`FastMaskablePPO._minibatches`: ``get`` indexes the arrays, then copies the result
  into new tensors); the same permutation draw, the same samples.

What is left is the arithmetic: the first layers' products on a minibatch's non-zero columns
and their weight gradients, Adam's pass over every weight, and
about 15 small ops per rollout step. Sparse kernels (``torch.sparse`` CSR/COO products,
``embedding_bag`` over the non-zero entries) were measured slower than the column-restricted
dense product here, mostly in the backward pass and in finding the non-zeros.

The rest of :meth:`collect_rollouts` and :meth:`train` is MaskablePPO's code, line for line
(callbacks see the same locals, the logger the same keys; a callback must not change the
weights in the middle of a rollout, which none does). Policies other than the MLP policy
and :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy` (or non-``Discrete``
action spaces) use MaskablePPO's own path unchanged. A model saved by this class is an ordinary
MaskablePPO ``model.zip`` (the algorithm class is not stored; the policy settings are
untouched), so :func:`boardgames_rl.agents.ppo.load_policy` and ``MaskablePPO.load`` read it and
``FastMaskablePPO.load`` reads MaskablePPO's files.

The profiles and measurements behind each step, with their dates and commits:
``docs/results/behind_the_code.md`` ("``FastMaskablePPO``"); the speed of training beside SB3's
PPO: ``lab/benchmarks/training_speed.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import (
    MaskableDictRolloutBuffer,
    MaskableRolloutBuffer,
    MaskableRolloutBufferSamples,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.buffers import RolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import FlattenExtractor, MlpExtractor
from stable_baselines3.common.utils import explained_variance, obs_as_tensor
from stable_baselines3.common.vec_env import VecEnv
from torch.nn import functional as F

from boardgames_rl.agents.prior_policy import PriorMaskablePolicy

HUGE_NEG = -1e8
"""The logit MaskableCategorical gives an illegal action."""
FAST_POLICIES = (MaskableActorCriticPolicy, PriorMaskablePolicy)
"""Policy classes (exactly these types) whose heads the fast path computes itself."""
SPARSE_MIN_INPUTS = 256
"""Observations narrower than this go through the first layers densely."""
SPARSE_MAX_FRACTION = 0.5
"""A batch whose non-zero columns are more than this share of the observation goes densely."""


def active_columns(x: th.Tensor) -> th.Tensor | None:
    """The columns of a ``[B, D]`` batch that are non-zero in some row, or None when a dense
    product is as cheap (narrow observations, or more than half the columns active)."""
    if x.dim() != 2 or x.shape[1] < SPARSE_MIN_INPUTS:
        return None
    if x.device.type == "cpu":  # numpy's any is several times faster than torch's on CPU
        cols = th.from_numpy(np.flatnonzero(x.detach().numpy().any(0)))
    else:
        cols = x.any(0).nonzero().squeeze(1)
    return None if cols.numel() > SPARSE_MAX_FRACTION * x.shape[1] else cols


def restricted_linear(
    x: th.Tensor, cols: th.Tensor, layer: th.nn.Linear, weight_t: th.Tensor | None = None
) -> th.Tensor:
    """``layer`` applied to observations whose columns outside ``cols`` are zero, ``x`` holding
    the others: only those columns of the weight are multiplied (the same sums without their
    zero terms; gradients reach only those columns, the others' are zero as in the dense
    product). ``weight_t``: the weight transposed and contiguous (no gradient), whose rows are
    cheaper to gather than the weight's columns."""
    if weight_t is None:
        return F.linear(x, layer.weight.index_select(1, cols), layer.bias)
    w = weight_t.index_select(0, cols)
    return th.mm(x, w) if layer.bias is None else th.addmm(layer.bias, x, w)


def first_layers(policy: Any) -> tuple[list[th.nn.Module], list[th.nn.Module]] | None:
    """The actor's and the critic's layers when both start with a ``Linear`` reading the
    flattened observation (the MLP policies' layout), else None."""
    ext = getattr(policy, "mlp_extractor", None)
    if (
        not policy.share_features_extractor
        or type(policy.features_extractor) is not FlattenExtractor
        or type(ext) is not MlpExtractor
    ):
        return None
    nets = (list(ext.policy_net), list(ext.value_net))
    if not all(net and type(net[0]) is th.nn.Linear for net in nets):
        return None
    return nets


ACTIVATIONS: dict[type, Any] = {th.nn.Tanh: th.tanh_, th.nn.ReLU: th.relu_}
"""Activation modules the rollout network applies itself (in place, on fresh tensors)."""


class RolloutNet:
    """The policy's logits and values with its weights fixed (one rollout, no autograd) in few
    ops: the actor and the critic side by side, one ``addmm`` per layer (the first layer's
    weight transposed and concatenated, ``[D, H_pi + H_vf]``, its rows for the batch's non-zero
    columns; the hidden layers and the two heads block-diagonal), activations in place. The
    same sums as the two separate networks (the off-diagonal blocks add exact zeros), to float
    rounding. :meth:`build` returns None for layouts it does not know."""

    def __init__(self, w1t: th.Tensor, b1: th.Tensor, ops: list[Any], num_actions: int):
        self.w1t, self.b1, self.ops, self.num_actions = w1t, b1, ops, num_actions

    @staticmethod
    def _bias(layer: th.nn.Linear) -> th.Tensor:
        return layer.weight.new_zeros(layer.out_features) if layer.bias is None else layer.bias

    @classmethod
    def build(cls, policy: Any, layers: tuple[list[Any], list[Any]] | None) -> RolloutNet | None:
        if layers is None:
            return None
        pi, vf = layers
        heads = (policy.action_net, policy.value_net)
        if len(pi) != len(vf) or not all(type(h) is th.nn.Linear for h in heads):
            return None
        with th.no_grad():
            ops: list[Any] = []
            for i, (a, b) in enumerate(zip(pi, vf, strict=True)):
                if type(a) is th.nn.Linear and type(b) is th.nn.Linear:
                    if i == 0:
                        continue
                    w = th.block_diag(a.weight, b.weight).t().contiguous()
                    ops.append((w, th.cat([cls._bias(a), cls._bias(b)])))
                elif type(a) is type(b) and type(a) in ACTIVATIONS:
                    ops.append(ACTIVATIONS[type(a)])
                else:
                    return None
            w = th.block_diag(heads[0].weight, heads[1].weight).t().contiguous()
            ops.append((w, th.cat([cls._bias(heads[0]), cls._bias(heads[1])])))
            w1t = th.cat([pi[0].weight, vf[0].weight]).t().contiguous()
            b1 = th.cat([cls._bias(pi[0]), cls._bias(vf[0])])
        return cls(w1t, b1, ops, int(heads[0].out_features))

    def __call__(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Raw logits ``[B, A]`` and values ``[B, 1]`` of a ``[B, D]`` batch."""
        cols = active_columns(features)
        if cols is None:
            h = th.addmm(self.b1, features, self.w1t)
        else:
            h = th.addmm(self.b1, features.index_select(1, cols), self.w1t.index_select(0, cols))
        for op in self.ops:
            h = th.addmm(op[1], h, op[0]) if type(op) is tuple else op(h)
        return h[:, : self.num_actions], h[:, self.num_actions :]


def masked_distribution(logits: th.Tensor, masks: th.Tensor | None) -> tuple[th.Tensor, th.Tensor]:
    """Log-probabilities and probabilities of ``MaskableCategorical(logits=logits, masks=masks)``
    (``masks``: 1.0 legal, 0.0 illegal, or None), to float rounding: illegal logits are
    lowered by 1e8 with one ``add`` (``masked_fill`` / ``where`` and the ``exp`` of a
    ``-1e8`` are several times slower on CPU), then one ``log_softmax`` and one ``softmax``
    instead of two ``logsumexp`` normalisations. Illegal actions get probability exactly 0."""
    return shifted_distribution(logits, None if masks is None else masks - 1.0)


def shifted_distribution(
    logits: th.Tensor, offsets: th.Tensor | None
) -> tuple[th.Tensor, th.Tensor]:
    """:func:`masked_distribution` from ``masks - 1.0`` (0.0 legal, -1.0 illegal), made by the
    caller (in a rollout step, in numpy from the env's boolean masks: one torch op fewer)."""
    if offsets is not None:
        logits = th.add(logits, offsets, alpha=-HUGE_NEG)
    return logits.log_softmax(-1), logits.softmax(-1)


def sample(probs: th.Tensor) -> th.Tensor:
    """``th.multinomial(probs, 1, True)`` (``Categorical.sample``'s draw), the same actions from
    the same random draws: for one sample torch takes ``argmax(probs / q)`` with ``q`` an
    ``Exp(1)`` draw of ``probs``' shape (its "Gumbel" fast path); here without its validity
    checks (reductions and host syncs), for which :meth:`FastMaskablePPO.collect_rollouts`
    checks the sampled log-probabilities in numpy."""
    return (probs / th.empty_like(probs).exponential_(1)).argmax(-1, keepdim=True)


def entropy(log_probs: th.Tensor, probs: th.Tensor) -> th.Tensor:
    """``MaskableCategorical.entropy``: an illegal action's probability is exactly 0, so its
    term (``-1e8 * 0``) is 0, as MaskableCategorical's explicit masking makes it."""
    return -(log_probs * probs).sum(-1)


def use_fused_adam(optimizer: th.optim.Optimizer) -> bool:
    """Switch a CPU ``Adam`` to torch's fused kernel (same update, one pass over each tensor),
    now and after every ``load_state_dict``; returns whether it did."""
    if type(optimizer) is not th.optim.Adam:
        return False
    params = [p for g in optimizer.param_groups for p in g["params"]]
    if not params or any(p.device.type != "cpu" or not p.is_floating_point() for p in params):
        return False
    if any(g.get("differentiable") for g in optimizer.param_groups):
        return False

    def fuse(opt: th.optim.Optimizer) -> None:
        for group in opt.param_groups:
            group["foreach"] = None
            group["fused"] = True

    fuse(optimizer)
    optimizer._step_supports_amp_scaling = True  # what Adam(fused=True) sets
    if not getattr(optimizer, "_fast_ppo_hooked", False):
        optimizer.register_load_state_dict_post_hook(fuse)
        optimizer._fast_ppo_hooked = True
    return True


class FastMaskablePPO(MaskablePPO):
    """``MaskablePPO`` with a cheaper rollout step and minibatch (see the module docstring);
    constructor, ``learn``, ``save`` and ``load`` are MaskablePPO's."""

    def _setup_model(self) -> None:
        super()._setup_model()
        use_fused_adam(self.policy.optimizer)

    CACHES = ("_layers_of", "_rollout_net", "_rollout_weights", "_rollout_prior_scale")
    """Attributes rebuilt on use (the policy's first layers, the rollout network and its
    weights): never saved. A model saved during a rollout (a checkpoint, an evaluation's best)
    once pickled them into the zip's ``data``, a copy of the whole policy and more."""

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), *self.CACHES]

    # ------------------------------------------------------------------ the policy's heads
    @property
    def fast_path(self) -> bool:
        """Whether this model's policy and action space take the fast path."""
        return type(self.policy) in FAST_POLICIES and isinstance(self.action_space, spaces.Discrete)

    def _heads(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Raw action logits ``[B, A]`` and values ``[B, 1]``, as the policy's ``forward``."""
        policy: Any = self.policy
        layers = self._first_layers()
        if layers is not None and obs.dim() == 2 and obs.dtype == th.float32:
            features = obs  # FlattenExtractor's preprocess and flatten leave it as it is
        else:
            features = policy.extract_features(obs)
        net = self.__dict__.get("_rollout_net")
        if net is not None and not th.is_grad_enabled():
            logits, values = net(features)
            if isinstance(policy, PriorMaskablePolicy):
                logits = logits + self._rollout_prior_scale * policy._prior_of(obs)
            return logits, values
        cols = None if layers is None else active_columns(features)
        if layers is not None and cols is not None:
            x = features.index_select(1, cols)
            latent_pi, latent_vf = (self._sparse_mlp(x, cols, net) for net in layers)
        elif policy.share_features_extractor:
            latent_pi, latent_vf = policy.mlp_extractor(features)
        else:
            pi_features, vf_features = features
            latent_pi = policy.mlp_extractor.forward_actor(pi_features)
            latent_vf = policy.mlp_extractor.forward_critic(vf_features)
        logits = policy.action_net(latent_pi)
        if isinstance(policy, PriorMaskablePolicy):
            logits = logits + policy.prior_scale * policy._prior_of(obs)
        return logits.view(-1, int(self.action_space.n)), policy.value_net(latent_vf)  # type: ignore[attr-defined]

    def _first_layers(self) -> tuple[list[th.nn.Module], list[th.nn.Module]] | None:
        """:func:`first_layers` of the current policy (looked up once per policy object)."""
        if getattr(self, "_layers_of", (None,))[0] is not self.policy:
            self._layers_of = (self.policy, first_layers(self.policy))
        return self._layers_of[1]

    def _sparse_mlp(self, x: th.Tensor, cols: th.Tensor, net: list[th.nn.Module]) -> th.Tensor:
        """``net`` on observations whose columns outside ``cols`` are zero (``x`` holds the
        others), the first layer by :func:`restricted_linear`; during a rollout (weights fixed,
        no autograd) from a transposed copy of its weight made once per rollout."""
        first: Any = net[0]
        cache = self.__dict__.get("_rollout_weights")
        weight_t = None
        if cache is not None and not th.is_grad_enabled():
            weight_t = cache.get(id(first))
            if weight_t is None:
                weight_t = cache[id(first)] = first.weight.detach().t().contiguous()
        h = restricted_linear(x, cols, first, weight_t)
        for layer in net[1:]:
            h = layer(h)
        return h

    def _tensor(self, array: np.ndarray | None) -> th.Tensor | None:
        """``array`` as a tensor on the policy's device (sharing its memory on CPU)."""
        return None if array is None else th.as_tensor(array, device=self.device)

    def _masks(self, masks: Any, logits: th.Tensor) -> th.Tensor | None:
        """Masks as float ``[B, A]`` (the rollout buffer's already are)."""
        if masks is None:
            return None
        return th.as_tensor(masks, dtype=logits.dtype, device=logits.device).reshape(logits.shape)

    def _act(
        self, obs: th.Tensor, action_masks: np.ndarray | None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """``policy(obs, action_masks=...)``: sampled actions, values, their log-probabilities."""
        logits, values = self._heads(obs)
        offsets = None
        if action_masks is not None:  # the env's masks (bool or float), as masks - 1.0
            offsets = np.asarray(action_masks, np.float32).reshape(logits.shape) - np.float32(1)
        log_probs, probs = shifted_distribution(logits, self._tensor(offsets))
        actions = sample(probs)
        return actions.view(-1), values, log_probs.gather(-1, actions).view(-1)

    def _evaluate(
        self, obs: th.Tensor, actions: th.Tensor, action_masks: th.Tensor | None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """``policy.evaluate_actions``: values, log-probabilities of ``actions``, entropies."""
        logits, values = self._heads(obs)
        log_probs, probs = masked_distribution(logits, self._masks(action_masks, logits))
        log_prob = log_probs.gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
        return values, log_prob, entropy(log_probs, probs)

    @staticmethod
    def _mask_reader(env: VecEnv) -> Any:
        """The cheapest way to read ``env``'s masks: its own ``action_masks()`` when the VecEnv
        class has one (the batched env), else ``get_action_masks`` (``env_method``)."""
        if callable(getattr(type(env), "action_masks", None)):
            return env.action_masks  # type: ignore[attr-defined]
        return lambda: get_action_masks(env)

    # ------------------------------------------------------------------ MaskablePPO's loops
    def collect_rollouts(
        self,
        env: VecEnv,
        callback: BaseCallback,
        rollout_buffer: RolloutBuffer,
        n_rollout_steps: int,
        use_masking: bool = True,
    ) -> bool:
        """MaskablePPO's ``collect_rollouts`` with :meth:`_act` for ``self.policy(...)``."""
        if not self.fast_path:
            return super().collect_rollouts(
                env, callback, rollout_buffer, n_rollout_steps, use_masking
            )
        # the weights are fixed until train(): the rollout network is made from them once
        self._rollout_weights: dict[int, th.Tensor] | None = {}
        self._rollout_net = RolloutNet.build(self.policy, self._first_layers())
        if isinstance(self.policy, PriorMaskablePolicy):
            self._rollout_prior_scale = self.policy.prior_scale.detach().clone()
        try:
            return self._collect(env, callback, rollout_buffer, n_rollout_steps, use_masking)
        finally:
            self._rollout_weights = self._rollout_net = None

    def _collect(
        self,
        env: VecEnv,
        callback: BaseCallback,
        rollout_buffer: RolloutBuffer,
        n_rollout_steps: int,
        use_masking: bool,
    ) -> bool:
        assert isinstance(rollout_buffer, MaskableRolloutBuffer | MaskableDictRolloutBuffer), (
            "RolloutBuffer doesn't support action masking"
        )
        assert self._last_obs is not None, "No previous observation was provided"
        self.policy.set_training_mode(False)
        n_steps = 0
        action_masks = None
        rollout_buffer.reset()
        if use_masking and not is_masking_supported(env):
            raise ValueError(
                "Environment does not support action masking. Consider using ActionMasker wrapper"
            )
        read_masks = self._mask_reader(env)
        callback.on_rollout_start()

        while n_steps < n_rollout_steps:
            with th.no_grad():
                obs_tensor = obs_as_tensor(self._last_obs, self.device)  # type: ignore[arg-type]
                if use_masking:
                    action_masks = read_masks()
                sampled, values, log_probs = self._act(obs_tensor, action_masks)
            actions = sampled.cpu().numpy()
            if not np.isfinite(log_probs.cpu().numpy()).all():  # th.multinomial's checks did it
                raise ValueError(
                    "FastMaskablePPO: the policy's action probabilities are not finite"
                )
            new_obs, rewards, dones, infos = env.step(actions)
            self.num_timesteps += env.num_envs
            callback.update_locals(locals())
            if not callback.on_step():
                return False
            self._update_info_buffer(infos, dones)
            n_steps += 1
            actions = actions.reshape(-1, 1)
            # timeouts bootstrap with the value function (SB3 issue #633)
            for idx, done in enumerate(dones):
                if (
                    done
                    and infos[idx].get("terminal_observation") is not None
                    and infos[idx].get("TimeLimit.truncated", False)
                ):
                    terminal_obs = self.policy.obs_to_tensor(infos[idx]["terminal_observation"])[0]
                    with th.no_grad():
                        terminal_value = self.policy.predict_values(terminal_obs)[0]
                    rewards[idx] += self.gamma * terminal_value
            self._store(
                rollout_buffer,
                self._last_obs,
                actions,
                rewards,
                self._last_episode_starts,
                values,
                log_probs,
                action_masks,
            )
            self._last_obs = new_obs  # type: ignore[assignment]
            self._last_episode_starts = dones

        with th.no_grad():
            values = self.policy.predict_values(obs_as_tensor(new_obs, self.device))  # type: ignore[arg-type]
        rollout_buffer.compute_returns_and_advantage(last_values=values, dones=dones)
        callback.on_rollout_end()
        return True

    @staticmethod
    def _store(
        buffer: MaskableRolloutBuffer | MaskableDictRolloutBuffer,
        obs: Any,
        actions: np.ndarray,
        rewards: np.ndarray,
        episode_starts: Any,
        values: th.Tensor,
        log_probs: th.Tensor,
        action_masks: np.ndarray | None,
    ) -> None:
        """``buffer.add(obs, actions, rewards, episode_starts, values, log_probs,
        action_masks=action_masks)``: for a ``MaskableRolloutBuffer`` with a ``Box`` observation
        the same rows written straight in (without the intermediate copies ``add`` makes)."""
        if type(buffer) is not MaskableRolloutBuffer or not isinstance(
            buffer.observation_space, spaces.Box
        ):
            buffer.add(
                obs, actions, rewards, episode_starts, values, log_probs, action_masks=action_masks
            )
            return
        pos, n = buffer.pos, buffer.n_envs
        if action_masks is not None:
            buffer.action_masks[pos] = action_masks.reshape((n, buffer.mask_dims))
        buffer.observations[pos] = obs
        buffer.actions[pos] = actions.reshape((n, buffer.action_dim))
        buffer.rewards[pos] = rewards
        buffer.episode_starts[pos] = episode_starts
        buffer.values[pos] = values.numpy().reshape(-1)
        buffer.log_probs[pos] = log_probs.numpy()
        buffer.pos += 1
        if buffer.pos == buffer.buffer_size:
            buffer.full = True

    BUFFER_FIELDS = (
        "observations",
        "actions",
        "values",
        "log_probs",
        "advantages",
        "returns",
        "action_masks",
    )
    """A ``MaskableRolloutBuffer``'s arrays, in ``MaskableRolloutBufferSamples``' order."""

    def _minibatches(self, buffer: RolloutBuffer, batch_size: int | None) -> Iterator[Any]:
        """``buffer.get(batch_size)``: the same permutation (the same ``np.random`` draw at the
        same moment) and the same samples; for a ``MaskableRolloutBuffer`` on CPU each field is
        gathered with one ``index_select`` from a tensor sharing the buffer's memory (``get``
        indexes the array, then copies the result into a new tensor)."""
        if type(buffer) is not MaskableRolloutBuffer or buffer.device.type != "cpu":
            yield from buffer.get(batch_size)
            return
        assert buffer.full, ""
        total = buffer.buffer_size * buffer.n_envs
        indices = np.random.permutation(total)
        if not buffer.generator_ready:
            for name in self.BUFFER_FIELDS:
                buffer.__dict__[name] = buffer.swap_and_flatten(buffer.__dict__[name])
            buffer.generator_ready = True
        fields = [th.as_tensor(getattr(buffer, name)) for name in self.BUFFER_FIELDS]
        for i in (2, 3, 4, 5):  # values, log_probs, advantages, returns: flattened
            fields[i] = fields[i].reshape(-1)
        fields[6] = fields[6].reshape(-1, buffer.mask_dims)
        batch_size = batch_size or total
        for start in range(0, total, batch_size):
            rows = th.from_numpy(indices[start : start + batch_size])
            yield MaskableRolloutBufferSamples(*(f.index_select(0, rows) for f in fields))

    def train(self) -> None:
        """MaskablePPO's ``train`` with :meth:`_evaluate` for ``policy.evaluate_actions``."""
        if not self.fast_path:
            return super().train()
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        clip_range = self.clip_range(self._current_progress_remaining)  # type: ignore[operator]
        if self.clip_range_vf is not None:
            clip_range_vf = self.clip_range_vf(self._current_progress_remaining)  # type: ignore[operator]
        entropy_losses, pg_losses, value_losses, clip_fractions = [], [], [], []
        continue_training = True
        for epoch in range(self.n_epochs):
            approx_kl_divs = []
            for rollout_data in self._minibatches(self.rollout_buffer, self.batch_size):
                actions = rollout_data.actions.long().flatten()
                values, log_prob, entropy = self._evaluate(
                    rollout_data.observations, actions, rollout_data.action_masks
                )
                values = values.flatten()
                advantages = rollout_data.advantages
                if self.normalize_advantage:
                    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                ratio = th.exp(log_prob - rollout_data.old_log_prob)
                policy_loss_1 = advantages * ratio
                policy_loss_2 = advantages * th.clamp(ratio, 1 - clip_range, 1 + clip_range)
                policy_loss = -th.min(policy_loss_1, policy_loss_2).mean()
                pg_losses.append(policy_loss.item())
                clip_fractions.append(th.mean((th.abs(ratio - 1) > clip_range).float()).item())
                if self.clip_range_vf is None:
                    values_pred = values
                else:
                    values_pred = rollout_data.old_values + th.clamp(
                        values - rollout_data.old_values, -clip_range_vf, clip_range_vf
                    )
                value_loss = F.mse_loss(rollout_data.returns, values_pred)
                value_losses.append(value_loss.item())
                entropy_loss = -th.mean(entropy)
                entropy_losses.append(entropy_loss.item())
                loss = policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss
                with th.no_grad():
                    log_ratio = log_prob - rollout_data.old_log_prob
                    approx_kl_div = th.mean((th.exp(log_ratio) - 1) - log_ratio).cpu().numpy()
                    approx_kl_divs.append(approx_kl_div)
                if self.target_kl is not None and approx_kl_div > 1.5 * self.target_kl:
                    continue_training = False
                    if self.verbose >= 1:
                        print(
                            f"Early stopping at step {epoch} due to reaching max kl: "
                            f"{approx_kl_div:.2f}"
                        )
                    break
                self.policy.optimizer.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += 1
            if not continue_training:
                break
        explained_var = explained_variance(
            self.rollout_buffer.values.flatten(), self.rollout_buffer.returns.flatten()
        )
        self.logger.record("train/entropy_loss", np.mean(entropy_losses))
        self.logger.record("train/policy_gradient_loss", np.mean(pg_losses))
        self.logger.record("train/value_loss", np.mean(value_losses))
        self.logger.record("train/approx_kl", np.mean(approx_kl_divs))
        self.logger.record("train/clip_fraction", np.mean(clip_fractions))
        self.logger.record("train/loss", loss.item())
        self.logger.record("train/explained_variance", explained_var)
        self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
        self.logger.record("train/clip_range", clip_range)
        if self.clip_range_vf is not None:
            self.logger.record("train/clip_range_vf", clip_range_vf)
