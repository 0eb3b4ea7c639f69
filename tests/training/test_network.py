"""training/network.py: the rollout copy, the masked distribution, the draw, SB3's layout."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

from boardgames_rl.agents.ppo import policy_from_weights
from boardgames_rl.training.network import (
    SPARSE_MIN_INPUTS,
    ActorCritic,
    RolloutWeights,
    active_columns,
    entropy,
    masked_distribution,
    masked_log_softmax,
    sample,
)

OBS, ACTIONS, HIDDEN = 2 * SPARSE_MIN_INPUTS, 23, [32, 16]


def _net(seed: int = 0) -> ActorCritic:
    th.manual_seed(seed)
    net = ActorCritic(OBS, ACTIONS, HIDDEN)
    with th.no_grad():  # biases away from their zero initialisation, so they count too
        for name, p in net.named_parameters():
            if name.endswith("bias"):
                p.normal_(0, 0.3)
    return net


def _batch(kind: str, rows: int = 37, seed: int = 1) -> th.Tensor:
    g = th.Generator().manual_seed(seed)
    x = th.zeros(rows, OBS)
    if kind == "sparse":  # a few active columns, the rest zero in every row
        cols = th.randperm(OBS, generator=g)[:20]
        x[:, cols] = th.randn(rows, 20, generator=g) * (th.rand(rows, 20, generator=g) < 0.5)
    else:
        x = th.randn(rows, OBS, generator=g)
    return x


def _legal(rows: int, seed: int = 2) -> th.Tensor:
    g = th.Generator().manual_seed(seed)
    legal = (th.rand(rows, ACTIONS, generator=g) < 0.3).float()
    legal[th.arange(rows), th.randint(0, ACTIONS, (rows,), generator=g)] = 1.0  # one at least
    return legal


def _dense_reference(net: ActorCritic, x: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    """The actor-critic written out with plain matrix products (no column selection)."""
    h_pi, h_vf = x, x
    for pi, vf in zip(
        net.mlp_extractor.policy_net, net.mlp_extractor.value_net, strict=True
    ):  # Linear, Tanh, Linear, Tanh
        h_pi, h_vf = pi(h_pi), vf(h_vf)
    return net.action_net(h_pi), net.value_net(h_vf)[:, 0]


@pytest.mark.parametrize("kind", ["sparse", "dense"])
def test_rollout_weights_give_the_forward_logits_and_values(kind: str) -> None:
    net, x = _net(), _batch(kind)
    assert (active_columns(x) is not None) == (kind == "sparse")  # both paths are exercised
    with th.no_grad():
        logits, values = net(x)
        r_logits, r_values = RolloutWeights(net)(x)
        d_logits, d_values = _dense_reference(net, x)
    assert logits.shape == (len(x), ACTIONS) and values.shape == (len(x),)
    assert th.allclose(r_logits, logits, atol=1e-5) and th.allclose(r_values, values, atol=1e-5)
    assert th.allclose(d_logits, logits, atol=1e-5) and th.allclose(d_values, values, atol=1e-5)
    assert logits.std() > 0.01 and values.std() > 0.01  # not a comparison of constants


def test_sparse_forward_gives_the_dense_gradients() -> None:
    net, x = _net(), _batch("sparse")
    logits, values = net(x)
    (logits.square().sum() + values.sum()).backward()
    sparse = {n: p.grad.clone() for n, p in net.named_parameters()}
    net.zero_grad()
    logits, values = _dense_reference(net, x)
    (logits.square().sum() + values.sum()).backward()
    for name, p in net.named_parameters():
        assert th.allclose(sparse[name], p.grad, atol=1e-5), name
    assert sparse["mlp_extractor.policy_net.0.weight"].abs().sum() > 0


def test_rollout_weights_are_a_copy_fixed_for_the_rollout() -> None:
    net, x = _net(), _batch("dense")
    rollout = RolloutWeights(net)
    before = rollout(x)[0].clone()
    with th.no_grad():
        net.action_net.weight.add_(1.0)
    assert th.equal(rollout(x)[0], before)
    assert not th.allclose(RolloutWeights(net)(x)[0], before)


def test_masked_log_softmax_gives_illegal_actions_probability_zero() -> None:
    th.manual_seed(3)
    logits = th.randn(50, ACTIONS) * 5
    logits[0, :] = 30.0  # illegal actions with the largest logits
    legal = _legal(50)
    probs = masked_log_softmax(logits, legal).exp()
    assert th.all(probs[legal == 0] == 0)
    assert th.all(probs[legal == 1] > 0)
    assert th.allclose(probs.sum(-1), th.ones(50), atol=1e-6)
    # on the legal actions: the softmax of their logits alone
    for row in range(50):
        keep = legal[row] == 1
        expected = th.softmax(logits[row, keep], -1)
        assert th.allclose(probs[row, keep], expected, atol=1e-6)


def test_masked_distribution_gives_the_log_softmax_and_its_probabilities() -> None:
    th.manual_seed(7)
    logits, legal = th.randn(60, ACTIONS) * 4, _legal(60, seed=8)
    logp, probs = masked_distribution(logits, legal)
    assert th.equal(logp, masked_log_softmax(logits, legal))
    assert th.allclose(probs, logp.exp(), atol=1e-6)
    assert th.all(probs[legal == 0] == 0) and th.all(probs[legal == 1] > 0)
    assert th.allclose(probs.sum(-1), th.ones(60), atol=1e-6)
    expected = th.tensor(
        [-(p[m == 1] * p[m == 1].log()).sum() for p, m in zip(probs, legal, strict=True)]
    )
    assert th.allclose(entropy(logp, probs), expected, atol=1e-5)
    assert th.allclose(entropy(logp), expected, atol=1e-5)
    assert th.isfinite(entropy(logp, probs)).all()


def test_sample_never_picks_an_illegal_action_and_follows_the_distribution() -> None:
    th.manual_seed(4)
    logits = th.tensor([[2.0, 0.0, 1.0, 5.0, -1.0, 0.5]])
    legal = th.tensor([[1.0, 1.0, 1.0, 0.0, 1.0, 0.0]])
    probs = masked_log_softmax(logits, legal).exp()
    draws = 20_000
    actions = sample(probs.expand(draws, -1).contiguous())
    counts = np.bincount(actions.numpy(), minlength=6)
    assert counts[3] == 0 and counts[5] == 0
    freq, p = counts / draws, probs[0].numpy()
    # 5 standard deviations of a frequency over 20k draws is below 0.02
    assert np.all(np.abs(freq - p) < 0.02), (freq, p)
    assert counts[1] > 0 and counts[4] > 0  # the rare legal actions are drawn too


def test_sample_over_many_masks_stays_legal() -> None:
    th.manual_seed(5)
    logits, legal = th.randn(4000, ACTIONS) * 3, _legal(4000, seed=6)
    actions = sample(masked_distribution(logits, legal)[1])
    assert th.all(legal[th.arange(4000), actions] == 1)


def test_parameters_in_sb3_maskable_policy_order_and_shapes() -> None:
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    sb3 = MaskableActorCriticPolicy(
        spaces.Box(-np.inf, np.inf, (OBS,), np.float32),
        spaces.Discrete(ACTIONS),
        lambda _: 0.0,
        net_arch=dict(pi=HIDDEN, vf=HIDDEN),
    )
    ours = [(n, tuple(p.shape)) for n, p in _net().named_parameters()]
    theirs = [(n, tuple(p.shape)) for n, p in sb3.named_parameters()]
    assert ours == theirs
    assert list(_net().state_dict()) == list(sb3.state_dict())


def test_state_dict_loads_into_policy_from_weights_with_the_same_probabilities() -> None:
    net, x = _net(), th.cat([_batch("sparse", 20), _batch("dense", 20)])
    legal = _legal(len(x))
    policy = policy_from_weights(net.state_dict(), "the test's network")
    with th.no_grad():
        ours = masked_log_softmax(net(x)[0], legal).exp()
        dist = policy.get_distribution(x, action_masks=legal.bool().numpy())
        theirs = dist.distribution.probs
        their_values = policy.predict_values(x)[:, 0]
    assert th.allclose(ours, theirs, atol=1e-5)
    assert th.allclose(net(x)[1].detach(), their_values, atol=1e-5)
    assert th.all(theirs[legal == 0] == 0)


def test_a_network_without_hidden_layers_is_refused() -> None:
    for hidden in ([], [16, 0]):
        with pytest.raises(ValueError, match="hidden layer"):
            ActorCritic(OBS, ACTIONS, hidden)
