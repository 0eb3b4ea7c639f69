"""Training the residual policy (``--prior heuristic``, issue 15) with the SB3 recipe.

The observation ends with the one-hot of the heuristic's move (``prior_feature``), identical in
the batched env and the gym env; a run trains, saves, loads without unpickling, resumes and
exports; ``--value-warmup`` holds the actor; cloning a teacher into a residual policy works. The
policy itself, as the library plays and loads it: ``tests/training/test_prior_policy.py``.
"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch as th  # noqa: E402

from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.agents.ppo import PPOAgent  # noqa: E402
from boardgames_rl.agents.pretrained import read_entry  # noqa: E402
from boardgames_rl.agents.prior_policy import PriorMaskablePolicy  # noqa: E402
from boardgames_rl.arena import play_series  # noqa: E402
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv  # noqa: E402
from boardgames_rl.envs.policy_obs import policy_obs_size, prior_feature  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402
from boardgames_rl.training.pool import OpponentPool  # noqa: E402
from lab.recipes.export_pretrained import export_policy  # noqa: E402
from lab.recipes.sb3.envs import build_vec_env  # noqa: E402

from .helpers import tiny_run  # noqa: E402

GAMES = [("white_castle", {"num_players": 2}), ("castle_nightingale", {})]


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_batched_and_gym_envs_give_the_same_prior_observations(name, config):
    """``build_vec_env(prior="heuristic")``: the batched env (in-process and with a worker) and
    SB3's DummyVecEnv of gym envs give the same observations, the feature last, for the same
    seed and actions; the feature is the heuristic's move for the learner's info set."""
    game = make_game(name, **config)
    pool = OpponentPool.from_specs(game, ["heuristic"], [1.0])
    envs = [
        build_vec_env(game, "random", pool, 2, seed=3, vec=vec, num_workers=w, prior="heuristic")
        for vec, w in (("batched", 0), ("batched", 1), ("dummy", 0))
    ]
    try:
        obs = [e.reset() for e in envs]
        rng = np.random.default_rng(1)
        n = game.num_actions
        for _ in range(25):
            for o in obs[1:]:
                np.testing.assert_array_equal(o, obs[0])
            assert (obs[0][:, -n:].sum(axis=1) == 1).all()
            masks = envs[0].env_method("action_masks")
            for j, mask in enumerate(masks):
                assert mask[int(obs[0][j, -n:].argmax())]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs = []
            for e in envs:
                e.step_async(actions)
                obs.append(e.step_wait()[0])
        if name != "white_castle":  # a heuristic with memory: checked by the equality above
            return
        # the in-process slots' features are the heuristic's moves for their info sets
        assert isinstance(envs[0], BatchedVecEnv)  # in-process
        core = envs[0].core
        for j, env in enumerate(core.envs):
            info = env.game_state.info_set(env._seat)
            want = prior_feature(make_agent("heuristic", game), info)
            np.testing.assert_array_equal(obs[0][j, -n:], want)
    finally:
        for e in envs:
            e.close()


def test_a_residual_run_trains_loads_safely_resumes_and_exports(tmp_path):
    """End to end: ``train --prior heuristic`` saves a model whose kwargs are plain JSON; the
    safe loader (nothing unpickled) rebuilds a PriorMaskablePolicy with the learned scale; the
    agent plays legal games; the run resumes; the export plays like the loaded model."""
    out = tmp_path / "run"
    game = make_game("white_castle", num_players=2)
    settings = tiny_run(out, "white_castle", 128, "-c", "num_players=2", "--prior", "heuristic")
    assert settings["prior"] == "heuristic"
    with zipfile.ZipFile(out / "model.zip") as z:
        kwargs = json.loads(z.read("data"))["policy_kwargs"]
    assert kwargs == {"net_arch": [32, 32], "prior": "heuristic", "prior_scale": 3.0}
    agent = PPOAgent(out / "model.zip", game=game)
    assert isinstance(agent.policy, PriorMaskablePolicy)
    assert agent.policy.prior == "heuristic"
    series = play_series(game, [agent, "random"], 2, seed=0, progress=False)
    assert len(series.records) == 2
    resumed = tiny_run(out, "white_castle", 128, "--resume")
    assert resumed["num_timesteps"] > settings["num_timesteps"]
    state = PPOAgent(out / "model.zip").policy.state_dict()
    export_policy(
        state, game, [0, 1], "res", tmp_path, {"recipe": "test"}, dtype="float32", prior="heuristic"
    )
    arch = read_entry(tmp_path / "res.json").meta["architecture"]
    assert arch["prior"]["agent"] == "heuristic"
    assert arch["observation_size"] == policy_obs_size(game, prior=True)
    mine = make_agent(f"pretrained:dir={tmp_path}", game)
    ref = PPOAgent(out / "model.zip", game=game)
    s, rng = game.new_state(4), np.random.default_rng(4)
    for _ in range(30):
        info = s.info_set(s.current_player)
        np.testing.assert_allclose(
            mine.action_probabilities(info), ref.action_probabilities(info), atol=1e-4
        )
        s.apply(int(rng.choice(np.flatnonzero(info.legal_action_mask))))


def test_prior_flag_errors_are_one_line(tmp_path, capsys):
    """``--prior`` naming an agent outside SAFE_PRIORS, a negative scale: one-line errors."""
    for extra, match in (
        (["--prior", "ismcts"], "--prior must be one of"),
        (["--prior", "heuristic", "--prior-scale", "-1"], "--prior-scale must be >= 0"),
    ):
        with pytest.raises(SystemExit) as e:
            tiny_run(tmp_path / "x", "white_castle", 64, *extra)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert match in err and len(err.splitlines()) == 1


def test_value_warmup_holds_the_actor_and_trains_the_critic(tmp_path):
    """``--value-warmup N``: during the first N steps the actor (policy net, action head, prior
    scale) does not change while the critic does; past N the actor learns too. Real PPO updates
    on the batched White Castle env; the flag is a saved run setting."""
    from sb3_contrib import MaskablePPO

    from lab.recipes.sb3.callbacks import ValueWarmupCallback, actor_parameters

    game = make_game("white_castle", num_players=2)
    pool = OpponentPool.from_specs(game, ["random"], [1.0])
    venv = build_vec_env(game, "random", pool, 2, seed=0, prior="heuristic")
    try:
        model = MaskablePPO(
            PriorMaskablePolicy,
            venv,
            n_steps=64,
            batch_size=64,
            n_epochs=2,
            learning_rate=1e-3,
            seed=0,
            policy_kwargs=dict(net_arch=[16], prior="heuristic", prior_scale=3.0),
        )

        def actor_and_critic():
            actor = [p.detach().clone() for p in actor_parameters(model.policy)]
            critic = [p.detach().clone() for p in model.policy.value_net.parameters()]
            return actor, critic

        actor0, critic0 = actor_and_critic()
        model.learn(128, callback=ValueWarmupCallback(10**6))
        actor1, critic1 = actor_and_critic()
        assert all(th.equal(a, b) for a, b in zip(actor0, actor1, strict=True))
        assert not all(th.equal(a, b) for a, b in zip(critic0, critic1, strict=True))
        model.learn(128, callback=ValueWarmupCallback(0), reset_num_timesteps=False)
        actor2, _ = actor_and_critic()
        assert not all(th.equal(a, b) for a, b in zip(actor1, actor2, strict=True))
    finally:
        venv.close()
    settings = tiny_run(tmp_path / "run", "white_castle", 64, "--value-warmup", "500")
    assert settings["value_warmup"] == 500


def test_cloning_a_teacher_into_a_residual_policy(tmp_path):
    """``--prior heuristic --bc-games N``: the demonstrations carry the prior feature (the
    policy's input size), cloning runs and writes bc.csv, and PPO goes on from it."""
    out = tmp_path / "bc"
    extra = ("-c", "num_players=2", "--prior", "heuristic", "--bc-games", "2", "--bc-epochs", "1")
    settings = tiny_run(out, "white_castle", 64, *extra)
    assert settings["bc_games"] == 2 and (out / "bc.csv").is_file()
    agent = PPOAgent(out / "model.zip", game=make_game("white_castle", num_players=2))
    assert isinstance(agent.policy, PriorMaskablePolicy)
