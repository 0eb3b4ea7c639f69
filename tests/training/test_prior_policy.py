"""The residual policy (:class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy`, issue
15): a policy on top of the heuristic, as the library plays and loads it.

The observation ends with the one-hot of the heuristic's move (``prior_feature``), after the
unchanged observation; an untrained residual policy plays the heuristic's moves; a model file or
an entry naming any other prior is refused (data, not code). Training one (``--prior``) is the
SB3 recipe's: ``lab/tests/sb3/test_prior_training.py``.
"""

from __future__ import annotations

import io
import json
import zipfile
from functools import partial
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch as th  # noqa: E402
from gymnasium import spaces  # noqa: E402

from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.agents.ppo import PolicyAgent, PPOAgent, UntrustedModelError  # noqa: E402
from boardgames_rl.agents.pretrained import PretrainedError, read_entry  # noqa: E402
from boardgames_rl.agents.prior_policy import PriorMaskablePolicy  # noqa: E402
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv  # noqa: E402
from boardgames_rl.envs.policy_obs import policy_obs_size, prior_feature  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from lab.recipes.export_pretrained import export_policy  # noqa: E402

GAMES = [("white_castle", {"num_players": 2}), ("castle_nightingale", {})]


def _policy(game, seed: int = 0, scale: float = 4.0) -> PriorMaskablePolicy:
    th.manual_seed(seed)
    policy = PriorMaskablePolicy(
        spaces.Box(-np.inf, np.inf, (policy_obs_size(game, prior=True),), np.float32),
        spaces.Discrete(game.num_actions),
        lambda _: 1e-3,
        net_arch=dict(pi=[16], vf=[16]),
        prior="heuristic",
        prior_scale=scale,
    )
    policy.set_training_mode(False)
    return policy


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_prior_feature_is_the_heuristics_move_and_reproducible(name, config):
    """The feature is a legal one-hot; two heuristics that saw the same decisions (Castle
    Nightingale's remembers the game) give the same feature; White Castle's has no memory, so a
    fresh one agrees at every decision."""
    game = make_game(name, **config)
    first, second = make_agent("heuristic", game), make_agent("heuristic", game)
    state, rng = game.new_state(5), np.random.default_rng(0)
    for _ in range(40):
        if state.is_terminal():
            break
        info = state.info_set(state.current_player)
        one = prior_feature(first, info)
        assert one.sum() == 1.0 and info.legal_action_mask[int(one.argmax())]
        np.testing.assert_array_equal(one, prior_feature(second, info))
        if name == "white_castle":
            np.testing.assert_array_equal(one, prior_feature(make_agent("heuristic", game), info))
        state.apply(int(rng.choice(np.flatnonzero(info.legal_action_mask))))


def test_the_prior_columns_come_after_the_unchanged_observation():
    """With a prior the observation is the plain one plus num_actions columns."""
    game = make_game("white_castle", num_players=2)
    plain = BatchedVecEnv(game, 1, seat=0, seat_feature=True, seed=0)
    with_prior = BatchedVecEnv(
        game, 1, seat=0, seat_feature=True, seed=0, prior=partial(make_agent, "heuristic", game)
    )
    try:
        a, b = plain.reset(), with_prior.reset()
        assert b.shape[1] == a.shape[1] + game.num_actions
        np.testing.assert_array_equal(a, b[:, : a.shape[1]])
    finally:
        plain.close()
        with_prior.close()


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_an_untrained_residual_policy_plays_the_heuristics_moves(name, config):
    """At initialisation the network's logits are near zero, so the greedy policy plays exactly
    the prior's move (training starts at the heuristic's strength)."""
    game = make_game(name, **config)
    agent = PolicyAgent(_policy(game), deterministic=True)
    heuristic = make_agent("heuristic", game)
    state, rng = game.new_state(2), np.random.default_rng(2)
    checked = 0
    while not state.is_terminal() and checked < 60:
        info = state.info_set(state.current_player)
        if info.legal_action_mask.sum() > 1:
            assert agent.act(info, rng) == int(prior_feature(heuristic, info).argmax())
            checked += 1
        state.apply(int(rng.choice(np.flatnonzero(info.legal_action_mask))))
    assert checked >= 20


def _residual_model_zip(path: Path, policy: PriorMaskablePolicy, prior: str) -> Path:
    """A ``model.zip`` of a residual policy in sb3-contrib's layout (as the SB3 recipe saves
    one): ``data`` naming ``prior`` in its ``policy_kwargs``, the weights in ``policy.pth``."""
    kwargs = {"net_arch": [16], "prior": prior, "prior_scale": 4.0}
    buf = io.BytesIO()
    th.save(policy.state_dict(), buf)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps({"policy_kwargs": kwargs}))
        z.writestr("policy.pth", buf.getvalue())
    return path


def test_a_file_naming_another_prior_is_refused(tmp_path):
    """A model file is data: a prior that would load other files (``ppo:path=...``) or anything
    outside SAFE_PRIORS is refused with one line, in a model.zip and in a pretrained entry."""
    game = make_game("white_castle", num_players=2)
    policy = PriorMaskablePolicy(
        spaces.Box(-np.inf, np.inf, (policy_obs_size(game, prior=True),), np.float32),
        spaces.Discrete(game.num_actions),
        lambda _: 1e-3,
        net_arch=[16],
        prior="heuristic",
        prior_scale=4.0,
    )
    fine = PPOAgent(_residual_model_zip(tmp_path / "fine.zip", policy, "heuristic"), game=game)
    assert isinstance(fine.policy, PriorMaskablePolicy) and fine.policy.prior == "heuristic"
    hostile = _residual_model_zip(tmp_path / "hostile.zip", policy, "ppo:path=/tmp/x.zip,trust=1")
    with pytest.raises(UntrustedModelError, match="custom policy settings"):
        PPOAgent(hostile)
    export_policy(
        _policy(game).state_dict(), game, [0, 1], "res", tmp_path, {"r": 1}, prior="heuristic"
    )
    js = tmp_path / "res.json"
    meta = json.loads(js.read_text())
    meta["architecture"]["prior"]["agent"] = "ppo:path=/tmp/x.zip"
    js.write_text(json.dumps(meta))
    with pytest.raises(PretrainedError, match="architecture.prior must be"):
        read_entry(js)
    with pytest.raises(PretrainedError, match="needs its prior"):
        export_policy(_policy(game).state_dict(), game, [0], "bad", tmp_path, {"r": 1})
