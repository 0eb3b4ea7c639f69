"""The TorchRL recipe (issue 17.3): TorchRL's own ``PettingZooWrapper`` steps every game with
masks that are the engine's, the ``MaskedCategorical`` actor only plays legal actions, and
``lab/experiments/torchrl_ppo.py`` runs one short PPO update on every game."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torchrl", reason="the [torchrl] extra is not installed")

import torch  # noqa: E402
from torchrl.envs import EnvBase  # noqa: E402

from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.interop import torchrl as bg_torchrl  # noqa: E402
from boardgames_rl.interop.torchrl import ACTING, ACTION, GROUP, MASK, OBS  # noqa: E402
from boardgames_rl.registry import list_games  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "torchrl_ppo", ROOT / "lab/experiments/torchrl_ppo.py"
)
assert _spec is not None and _spec.loader is not None
torchrl_ppo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(torchrl_ppo)

GAMES = ["castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle"]
TINY = ["--iterations", "1", "--frames", "128", "--minibatch", "64", "--epochs", "1"]
TINY += ["--hidden", "32", "--eval-games", "1", "--seed", "2"]


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Small networks on a shared 2-core machine: one intra-op thread (10x less CPU)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("name", list_games())
def test_wrapper_steps_the_engine_with_its_masks(name: str) -> None:
    """Step TorchRL's wrapper with the masked actor through one whole game and into the next
    (TorchRL resets it): at every step exactly the seat on move is marked acting, its action
    mask is the engine's legal mask, every seat's observation is the engine's, the action
    played is legal, and on the last step of a game every seat's reward is its return."""
    env = bg_torchrl.make_env(name, seed=4)
    assert isinstance(env, EnvBase)
    aec = env._env  # our GameAECEnv inside TorchRL's wrapper
    actor, _ = bg_torchrl.make_actor_critic(env, hidden=(16,))
    torch.manual_seed(0)
    td = env.reset()
    ended, steps, after_reset = 0, 0, 0
    while after_reset < 5:
        steps += 1
        after_reset += ended
        assert steps <= aec.game.max_game_length + 5, "the first game never ended"
        state = aec.game_state
        p = state.current_player
        n = state.game.num_players
        assert td[ACTING].tolist() == [i == p for i in range(n)]
        np.testing.assert_array_equal(td[MASK][p].numpy(), state.legal_action_mask())
        for i in range(n):
            np.testing.assert_array_equal(td[OBS][i].numpy(), state.observation(i))
        with torch.no_grad():
            td = actor(td)
        action = int(td[ACTION][p])
        assert state.legal_action_mask()[action], (name, action)
        td, following = env.step_and_maybe_reset(td)
        if bool(td["next", "done"]):
            ended += 1
            assert state.is_terminal()
            rewards = td["next", GROUP, "reward"].squeeze(-1).numpy()
            np.testing.assert_allclose(rewards, state.returns())
        td = following
    assert ended == 1


def test_make_env_rejects_an_unknown_game() -> None:
    with pytest.raises(InvalidConfigError, match="unknown game 'chess'"):
        bg_torchrl.make_env("chess")


@pytest.mark.parametrize("name", GAMES)
def test_one_short_ppo_update(name: str) -> None:
    """issue 17.3: 'a CI test steps it and runs one short update' (on every game): the update
    changes both networks, its losses are finite, and the greedy evaluation game that follows
    plays only legal actions (the script checks every action against its mask)."""
    report = torchrl_ppo.main(["--game", name, *TINY])
    (row,) = report["history"]
    assert row["frames"] == 128
    assert all(math.isfinite(row[k]) for k in ("policy", "value", "entropy"))
    assert report["eval"]["decisions"] > 0
    torch.manual_seed(2)  # the script's seed: the same initial networks
    actor0, critic0 = bg_torchrl.make_actor_critic(bg_torchrl.make_env(name), hidden=(32,))
    for before, after in ((actor0, report["actor"]), (critic0, report["critic"])):
        start, end = before.state_dict(), after.state_dict()
        assert start.keys() == end.keys()
        assert any(not torch.equal(start[k], end[k]) for k in start), "the update changed nothing"


def test_script_rejects_bad_flags(capsys) -> None:
    for argv in (["--game", "white_castle", "--hidden", "a,b"], ["--game", "x", "--frames", "0"]):
        with pytest.raises(SystemExit):
            torchrl_ppo.parse_args(argv)
        assert "error:" in capsys.readouterr().err.strip().splitlines()[-1]


def test_without_the_extra_the_import_names_it() -> None:
    """A missing optional package: a one-line error naming the ``[torchrl]`` extra."""
    code = (
        "import sys; sys.modules['torchrl'] = None\n"
        "from boardgames_rl.core.errors import MissingExtraError\n"
        "try:\n    import boardgames_rl.interop.torchrl\n"
        "except MissingExtraError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.splitlines()
    assert line.endswith("pip install 'boardgames-rl[torchrl]'"), line
