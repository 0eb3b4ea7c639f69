"""A lean install: the base dependencies run every game and environment; extras name themselves.

The first test is the real path: a new virtual environment, ``pip install`` of this checkout with
no extras, then every game through ``pettingzoo.make`` and the AEC loop, with torch, matplotlib
and tqdm absent. The others check, in a process where the optional packages cannot be imported,
that the base features work and a feature that needs an extra says which one in one line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("torch", "matplotlib", "stable_baselines3", "sb3_contrib", "tqdm", "rlcard", "pygame")

AEC_LOOP = """
import sys
import pettingzoo
import boardgames_rl
from boardgames_rl.registry import list_games
for name in list_games():
    env = pettingzoo.make("aec", "boardgames_rl/" + name + "-v0")
    env.reset(seed=0)
    for agent in env.agent_iter(300):
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    env.close()
loaded = sorted(m for m in OPTIONAL if m in sys.modules)
assert not loaded, f"the base features imported optional packages: {loaded}"
print("ok", len(list_games()))
""".replace("OPTIONAL", repr(OPTIONAL))

# Makes the optional packages unimportable (as on a base install) before anything else runs.
BLOCKER = f"""
import importlib.abc, sys
class _Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Block())
"""


def _run_blocked(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )


def test_base_dependencies_are_numpy_gymnasium_pettingzoo_and_mypy_extensions() -> None:
    """mypy_extensions (one pure-Python file) holds ``mypyc_attr``, the compiled engines' class
    options, which the engines' source imports in both builds."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = sorted(d.split(">")[0].split("=")[0].split("[")[0] for d in project["dependencies"])
    assert names == ["gymnasium", "mypy_extensions", "numpy", "pettingzoo"]
    extras = project["optional-dependencies"]
    assert {"train", "viz", "bench", "dev"} <= set(extras)
    assert any(d.startswith("torch") for d in extras["train"])
    assert any(d.startswith("matplotlib") for d in extras["viz"])
    assert (ROOT / "LICENSE").is_file() and (ROOT / "CHANGELOG.md").is_file()
    assert (ROOT / "boardgames_rl" / "py.typed").is_file()


@pytest.mark.slow
def test_fresh_install_without_extras_runs_every_game(tmp_path: Path) -> None:
    """``pip install .`` (no extras) into a new virtual environment; every game's AEC loop runs
    there, and none of torch, matplotlib, stable-baselines3, sb3-contrib, tqdm is installed."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run(  # the pure build: this test is about the dependencies, and the
        [str(python), "-m", "pip", "install", "-q", str(ROOT)],  # README demo test compiles
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "BOARDGAMES_RL_PURE": "1"},
    )
    assert install.returncode == 0, install.stdout + install.stderr
    probe = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print([m for m in "
         f"{OPTIONAL!r} if u.find_spec(m)])"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert probe.stdout.strip() == "[]", f"a base install pulled optional packages: {probe.stdout}"
    lab = subprocess.run(  # -I: what is installed, not the clone nor PYTHONPATH
        [str(python), "-I", "-c", "import importlib.util as u; print([m for m in "
         "('lab', 'benchmarks', 'experiments') if u.find_spec(m)])"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert lab.stdout.strip() == "[]", f"the install shipped the lab: {lab.stdout}"
    run = subprocess.run(
        [str(python), "-c", AEC_LOOP],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout: the installed package is what runs
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok")


def test_base_features_run_without_the_optional_packages() -> None:
    code = AEC_LOOP + textwrap.dedent(
        """
        import numpy as np
        from boardgames_rl.registry import make_game
        from boardgames_rl.envs.vector import VectorEnv
        from boardgames_rl.envs.single_agent import SingleAgentEnv
        from boardgames_rl.agents.registry import make_agent
        for name in list_games():
            game = make_game(name)
            venv = VectorEnv(game, 4, seed=0)
            venv.reset()
            venv.step(venv.sample_random_actions(np.random.default_rng(0)))
            env = SingleAgentEnv(game, seat=0)
            env.reset(seed=0)
            state = game.new_state(0)
            for spec in ("random", "heuristic"):
                agent = make_agent(spec, game)
                action = agent.act(state.info_set(state.current_player), np.random.default_rng(0))
                assert state.legal_action_mask()[action]
            print(state.render(0)[:0], end="")
        print("base features ok")
        """
    )
    out = _run_blocked(code)
    assert out.returncode == 0, out.stderr
    assert "base features ok" in out.stdout


def test_pictures_without_matplotlib_name_the_viz_extra() -> None:
    out = _run_blocked(
        """
        from boardgames_rl.core.errors import MissingExtraError
        from boardgames_rl.registry import list_games, make_game
        for name in list_games():
            state = make_game(name).new_state(0)
            try:
                state.render_rgb()
            except MissingExtraError as exc:
                msg = str(exc)
                assert "boardgames-rl[viz]" in msg and "\\n" not in msg, msg
            else:
                raise AssertionError(f"{name}: rendered a picture without matplotlib")
        print("viz ok")
        """
    )
    assert out.returncode == 0, out.stderr
    assert "viz ok" in out.stdout
