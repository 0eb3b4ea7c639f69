"""``FastMaskablePPO`` (issue 14.3): MaskablePPO without its own overhead, training the same.

Brief: "It must train the same: ... the same seed gives the same weights (or same actions and
losses to float tolerance) as MaskablePPO over a few rollouts on a real game env. It must
save/load exactly like MaskablePPO (model.zip readable by the safe loader; resume works) and
support the residual policy class PriorMaskablePolicy."
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch as th  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.distributions import MaskableCategorical  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

from boardgames_rl.agents.ppo import load_policy  # noqa: E402
from boardgames_rl.agents.prior_policy import PriorMaskablePolicy  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from boardgames_rl.training.pool import OpponentPool  # noqa: E402
from lab.recipes.sb3 import fast_ppo  # noqa: E402
from lab.recipes.sb3.envs import build_vec_env  # noqa: E402
from lab.recipes.sb3.fast_ppo import (  # noqa: E402
    FastMaskablePPO,
    active_columns,
    entropy,
    masked_distribution,
    restricted_linear,
)

N_ENVS, N_STEPS, ROLLOUTS = 4, 32, 3
GAMES = [
    ("castle_nightingale", {}),  # 2,441 sparse inputs: the column-restricted first layer
    ("castle_flutterstone", {"num_players": 2}),  # 124 inputs: dense first layer
    ("night_of_the_ninja", {"num_players": 5}),
]


class Record(BaseCallback):
    """Every rollout step's actions (what the learner chose)."""

    def __init__(self) -> None:
        super().__init__()
        self.actions: list[np.ndarray] = []

    def _on_step(self) -> bool:
        self.actions.append(np.array(self.locals["actions"]).ravel().copy())
        return True


def _train(cls, name, config, policy="MlpPolicy", prior=None, **kwargs):
    game = make_game(name, **config)
    venv = build_vec_env(
        game, "random", OpponentPool.from_specs(game, ["random"]), N_ENVS, 7, prior=prior
    )
    policy_kwargs = {"net_arch": [32, 32]}
    if prior:
        policy_kwargs.update(prior=prior, prior_scale=2.0)
    model = cls(
        policy,
        venv,
        n_steps=N_STEPS,
        batch_size=64,
        n_epochs=2,
        seed=3,
        device="cpu",
        policy_kwargs=policy_kwargs,
        **kwargs,
    )
    record = Record()
    model.learn(N_ENVS * N_STEPS * ROLLOUTS, callback=record)
    venv.close()
    logs = {k: float(v) for k, v in model.logger.name_to_value.items()}
    return model, np.concatenate(record.actions), logs


def _assert_same(reference, fast, atol):
    ref_model, ref_actions, ref_logs = reference
    model, actions, logs = fast
    np.testing.assert_array_equal(actions, ref_actions)
    ref_state, state = ref_model.policy.state_dict(), model.policy.state_dict()
    assert ref_state.keys() == state.keys()
    for key in ref_state:
        th.testing.assert_close(state[key], ref_state[key], atol=atol, rtol=0, msg=key)
    assert logs.keys() == ref_logs.keys()
    for key in ref_logs:
        assert logs[key] == pytest.approx(ref_logs[key], rel=1e-4, abs=atol), key


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_same_seed_same_actions_losses_and_weights_as_maskableppo(name, config):
    """ "the same seed gives the same weights (or same actions and losses to float tolerance) as
    MaskablePPO over a few rollouts on a real game env": three rollouts and updates on the
    training env give the same actions, the same logged losses and weights within 1e-5."""
    reference = _train(MaskablePPO, name, config)
    fast = _train(FastMaskablePPO, name, config)
    assert fast[0].fast_path
    _assert_same(reference, fast, atol=1e-5)


def test_same_to_rounding_with_dense_layers_and_unfused_adam(monkeypatch):
    """Without the column-restricted first layer and the fused Adam, only the distribution's
    ops differ from MaskablePPO's (one ``log_softmax`` instead of two ``logsumexp``): every
    weight and logged figure within 1e-6 after three rollouts and updates."""
    monkeypatch.setattr(fast_ppo, "SPARSE_MIN_INPUTS", 10**9)
    monkeypatch.setattr(fast_ppo, "use_fused_adam", lambda optimizer: False)
    name, config = GAMES[0]
    reference, fast = _train(MaskablePPO, name, config), _train(FastMaskablePPO, name, config)
    _assert_same(reference, fast, atol=1e-6)


def test_residual_prior_policy_trains_the_same():
    """ "support the residual policy class PriorMaskablePolicy": with ``--prior heuristic``'s
    policy and env the fast path (which adds ``prior_scale`` x the prior one-hot to the logits)
    takes the same actions and reaches the same weights, ``prior_scale`` included."""
    args = ("white_castle", {"num_players": 2}, PriorMaskablePolicy, "heuristic")
    reference = _train(MaskablePPO, *args)
    fast = _train(FastMaskablePPO, *args)
    assert fast[0].fast_path and isinstance(fast[0].policy, PriorMaskablePolicy)
    _assert_same(reference, fast, atol=1e-5)
    assert fast[0].policy.prior_scale.item() != 2.0  # it learned


def test_a_negative_entropy_coefficient_sharpens_the_policy():
    """``--ent-coef`` below 0 is an entropy penalty: the same seed and rollouts end with a
    policy of lower entropy than without it (and ``0`` lower than a positive bonus)."""
    name, config = GAMES[1]
    entropies = {
        coef: -_train(FastMaskablePPO, name, config, ent_coef=coef, learning_rate=1e-3)[2][
            "train/entropy_loss"
        ]
        for coef in (-0.5, 0.0, 0.5)
    }
    assert entropies[-0.5] < entropies[0.0] < entropies[0.5], entropies


def test_masked_distribution_is_maskable_categoricals():
    """The direct ops give MaskableCategorical's log-probabilities, probabilities, entropy and
    their gradients to float rounding, with a mask and without one; illegal actions get
    probability exactly 0 and no gradient."""
    g = th.Generator().manual_seed(0)
    raw = th.randn(6, 9, generator=g) * 3
    masks = th.rand(6, 9, generator=g) < 0.4
    masks[:, 0] = True
    actions = th.zeros(6, dtype=th.long)
    for m in (masks, None):
        ref_logits, logits = raw.clone().requires_grad_(), raw.clone().requires_grad_()
        dist = MaskableCategorical(logits=ref_logits, masks=m)
        log_probs, probs = masked_distribution(logits, None if m is None else m.float())
        legal = th.ones_like(masks) if m is None else m
        th.testing.assert_close(log_probs[legal], dist.logits[legal], atol=1e-6, rtol=1e-6)
        th.testing.assert_close(probs, dist.probs, atol=1e-7, rtol=1e-6)
        assert th.all(probs[~legal] == 0)
        ent = entropy(log_probs, probs)
        th.testing.assert_close(ent, dist.entropy(), atol=1e-6, rtol=1e-6)
        (dist.log_prob(actions).sum() + dist.entropy().sum()).backward()
        (log_probs.gather(-1, actions[:, None]).sum() + ent.sum()).backward()
        th.testing.assert_close(logits.grad, ref_logits.grad, atol=1e-6, rtol=1e-5)
        assert th.all(logits.grad[~legal] == 0)


def test_column_restricted_first_layer_matches_the_dense_one():
    """The first layers multiply only the batch's non-zero observation columns: the outputs and
    the weight gradients equal the dense layer's to float rounding, and the columns no
    observation uses get exactly zero gradient (as in the dense product)."""
    g = th.Generator().manual_seed(1)
    x = (th.rand(64, 600, generator=g) < 0.05).float() * th.rand(64, 600, generator=g)
    x[:, 300:] = 0.0
    cols = active_columns(x)
    assert cols is not None and cols.max() < 300
    layer = th.nn.Linear(600, 16)
    dense = layer(x)
    dense.square().sum().backward()
    dense_grad = layer.weight.grad.clone()
    layer.zero_grad()
    sparse = restricted_linear(x.index_select(1, cols), cols, layer)
    sparse.square().sum().backward()
    th.testing.assert_close(sparse, dense, atol=1e-6, rtol=1e-5)
    th.testing.assert_close(layer.weight.grad, dense_grad, atol=1e-6, rtol=1e-5)
    assert th.count_nonzero(layer.weight.grad[:, 300:]) == 0
    with th.no_grad():  # the rollout variant: rows of the transposed weight
        weight_t = layer.weight.t().contiguous()
        rows = restricted_linear(x.index_select(1, cols), cols, layer, weight_t)
    th.testing.assert_close(rows, dense.detach(), atol=1e-6, rtol=1e-5)
    assert active_columns(th.ones(4, 600)) is None  # dense batches go densely
    assert active_columns(th.zeros(4, 100)) is None  # so do narrow observations


def test_saved_model_is_a_maskableppo_file_for_every_loader(tmp_path):
    """ "save/load exactly like MaskablePPO": the file's policy settings are MaskablePPO's
    (plain); the safe loader (nothing unpickled) and ``MaskablePPO.load`` rebuild the same
    policy; ``FastMaskablePPO.load`` reads a MaskablePPO file and keeps the fused Adam."""
    model, _, _ = _train(FastMaskablePPO, *GAMES[1])
    path = tmp_path / "model.zip"
    model.save(path)
    reference = model.policy.state_dict()
    for policy in (load_policy(path), MaskablePPO.load(path, device="cpu").policy):
        state = policy.state_dict()
        assert state.keys() == reference.keys()
        assert all(th.equal(state[k], reference[k]) for k in reference)
    plain, _, _ = _train(MaskablePPO, *GAMES[1])
    plain.save(tmp_path / "plain.zip")
    loaded = FastMaskablePPO.load(tmp_path / "plain.zip", device="cpu")
    assert all(g["fused"] for g in loaded.policy.optimizer.param_groups)
    opt_state = plain.policy.optimizer.state_dict()
    assert [k for k in opt_state["state"]] == [
        k for k in loaded.policy.optimizer.state_dict()["state"]
    ]
    assert all(
        th.equal(loaded.policy.state_dict()[k], v) for k, v in plain.policy.state_dict().items()
    )


def test_fused_adam_survives_load_state_dict():
    """Resume loads the optimiser state with ``load_state_dict`` (which replaces the param
    groups): the policy's Adam is fused before and after, and its step matches unfused Adam's."""
    model, _, _ = _train(FastMaskablePPO, *GAMES[1])
    plain, _, _ = _train(MaskablePPO, *GAMES[1])
    opt = model.policy.optimizer
    assert all(g["fused"] for g in opt.param_groups)
    opt.load_state_dict(copy.deepcopy(plain.policy.optimizer.state_dict()))  # as from a file
    assert all(g["fused"] for g in opt.param_groups)
    model.policy.load_state_dict(plain.policy.state_dict())
    for m in (model, plain):
        for p in m.policy.parameters():
            p.grad = th.full_like(p, 1e-3)
        m.policy.optimizer.step()
    for key, value in plain.policy.state_dict().items():
        th.testing.assert_close(model.policy.state_dict()[key], value, atol=1e-6, rtol=0)


class OtherPolicy(MaskableActorCriticPolicy):
    """A policy class the fast path does not know (it could change the heads)."""


def test_unknown_policy_classes_use_maskableppos_own_path():
    """Policies other than the MLP and the residual one keep MaskablePPO's collect_rollouts and
    train (the fast path computes only the heads it knows): same actions and weights."""
    reference = _train(MaskablePPO, *GAMES[1], policy=OtherPolicy)
    fast = _train(FastMaskablePPO, *GAMES[1], policy=OtherPolicy)
    assert not fast[0].fast_path
    _assert_same(reference, fast, atol=1e-6)


def test_sample_draws_what_multinomial_draws():
    """ "the same seed gives the same ... actions": ``sample`` (torch's one-sample multinomial
    without its checks) picks the same actions as ``th.multinomial(probs, 1, True)`` from the
    same generator state and leaves the generator where multinomial leaves it, masked (zero)
    probabilities included."""
    g = th.Generator().manual_seed(5)
    for _ in range(200):
        probs = th.rand(4, 37, generator=g) * (th.rand(4, 37, generator=g) < 0.2)
        probs[:, 3] += 1e-3
        probs = (probs / probs.sum(-1, keepdim=True)).log_softmax(-1).exp()
        state = th.get_rng_state()
        expected = th.multinomial(probs, 1, True)
        after = th.get_rng_state()
        th.set_rng_state(state)
        np.testing.assert_array_equal(fast_ppo.sample(probs).numpy(), expected.numpy())
        assert th.equal(th.get_rng_state(), after)
        assert th.all(probs.gather(-1, expected) > 0)


@pytest.mark.parametrize(
    ("net_arch", "activation"),
    [([32, 32], th.nn.Tanh), ({"pi": [48, 16], "vf": [24, 40]}, th.nn.ReLU), ([], th.nn.Tanh)],
)
def test_rollout_net_gives_the_policys_logits_and_values(net_arch, activation):
    """The rollout network (actor and critic side by side, block-diagonal layers, the batch's
    non-zero columns only) gives the policy's own logits and values to float rounding, for
    equal and different actor/critic widths and both activations; layouts it does not know
    (unequal depths, no hidden layer) get None (the per-network path)."""
    game = make_game("castle_nightingale")
    venv = build_vec_env(game, "random", OpponentPool.from_specs(game, ["random"]), 4, 11)
    model = FastMaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=8,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": net_arch, "activation_fn": activation},
    )
    net = fast_ppo.RolloutNet.build(model.policy, model._first_layers())
    if not net_arch:
        assert net is None
        return
    obs = venv.reset()
    for _ in range(5):
        with th.no_grad():
            x = th.as_tensor(obs)
            logits, values = net(x)
            features = model.policy.extract_features(x)
            latent_pi, latent_vf = model.policy.mlp_extractor(features)
            th.testing.assert_close(logits, model.policy.action_net(latent_pi), atol=1e-5, rtol=0)
            th.testing.assert_close(values, model.policy.value_net(latent_vf), atol=1e-5, rtol=0)
        masks = venv.action_masks()
        obs = venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))[0]
    venv.close()
    deeper = model._first_layers()
    assert fast_ppo.RolloutNet.build(model.policy, (deeper[0], deeper[1][:2])) is None


def test_buffer_rows_and_minibatches_are_maskableppos():
    """The rollout rows written straight into the buffer and the minibatches gathered with
    ``index_select`` equal ``MaskableRolloutBuffer.add`` / ``get``'s (same permutation draw)."""
    model, _, _ = _train(FastMaskablePPO, *GAMES[0])
    buffer = model.rollout_buffer
    twin = copy.deepcopy(buffer)
    twin.reset()
    buffer.reset()
    rng = np.random.default_rng(0)
    n, dim = buffer.n_envs, buffer.obs_shape[0]
    for _ in range(buffer.buffer_size):
        row = (
            (rng.random((n, dim)) < 0.05).astype(np.float32),
            rng.integers(0, 9, (n, 1)),
            rng.random(n).astype(np.float32),
            rng.random(n) < 0.1,
            th.as_tensor(rng.random((n, 1)), dtype=th.float32),
            th.as_tensor(rng.random(n), dtype=th.float32),
            rng.random((n, buffer.mask_dims)) < 0.3,
        )
        FastMaskablePPO._store(buffer, *row)
        twin.add(*row[:6], action_masks=row[6])
    assert buffer.full and twin.full
    for name in FastMaskablePPO.BUFFER_FIELDS + ("rewards", "episode_starts"):
        np.testing.assert_array_equal(getattr(buffer, name), getattr(twin, name), err_msg=name)
    np.random.seed(4)
    ours = list(model._minibatches(buffer, 48))
    np.random.seed(4)
    theirs = list(twin.get(48))
    assert len(ours) == len(theirs) == -(-buffer.buffer_size * n // 48)
    for a, b in zip(ours, theirs, strict=True):
        for x, y, name in zip(a, b, a._fields, strict=True):
            assert x.dtype == y.dtype and x.shape == y.shape, name
            assert th.equal(x, y), name


def test_non_finite_action_probabilities_stop_training_with_one_line():
    """Bad input gets a one-line error: weights that make the probabilities NaN (what
    ``th.multinomial``'s checks rejected) end the rollout with a ValueError."""
    game = make_game(*GAMES[1][:1], **GAMES[1][1])
    venv = build_vec_env(game, "random", OpponentPool.from_specs(game, ["random"]), 2, 1)
    model = FastMaskablePPO("MlpPolicy", venv, n_steps=8, batch_size=16, seed=0, device="cpu")
    with th.no_grad():
        model.policy.action_net.bias.fill_(float("nan"))
    with pytest.raises(ValueError, match="not finite") as info:
        model.learn(16)
    assert "\n" not in str(info.value)
    venv.close()
