"""A script without ``if __name__ == "__main__":`` makes vector envs with worker processes.

The workers are spawned without importing the script again (``boardgames_rl.envs.workers``), so
the script runs once, its workers step the same games as in-process slots, and it ends: no hang,
no dead worker. Each script runs in a real subprocess with a timeout.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BATCHED = """
    import numpy as np
    from boardgames_rl import make_game, Agent
    from boardgames_rl.envs.batched import BatchedVectorEnv

    print("script body runs", flush=True)

    class FirstLegal(Agent):  # defined in the script: travels to the workers by value
        def act(self, info_set, rng):
            return int(np.flatnonzero(info_set.legal_action_mask)[0])

    game = make_game("castle_nightingale")
    def play(workers):
        env = BatchedVectorEnv(game, 4, seat=0, seed=3, num_workers=workers, opponents=FirstLegal())
        obs, _ = env.reset()
        rng = np.random.default_rng(0)
        total = 0.0
        for _ in range(60):
            actions = [int(rng.choice(np.flatnonzero(m))) for m in env.action_masks()]
            obs, reward, *_ = env.step(np.array(actions))
            total += float(reward.sum())
        env.close()
        return total, obs
    a, b = play(2), play(0)
    assert a[0] == b[0] and np.array_equal(a[1], b[1]), "workers and in-process slots differ"
    print("done", flush=True)
"""

VECTOR = """
    import numpy as np
    from boardgames_rl import make_game
    from boardgames_rl.envs.vector import VectorEnv

    print("script body runs", flush=True)

    def shaping(before, after):  # a function of the script's own
        return np.zeros(after.game.num_players)

    game = make_game("castle_flutterstone", num_players=3)
    venv = VectorEnv(game, num_envs=4, seed=1, num_workers=2, reward_shaping=shaping)
    step = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in step.action_mask]
        step = venv.step(np.array(actions))
    venv.close()
    print("done", flush=True)
"""


@pytest.mark.parametrize("body", [BATCHED, VECTOR], ids=["batched", "vector"])
def test_a_script_without_the_main_guard_runs_once_and_ends(tmp_path: Path, body: str) -> None:
    script = tmp_path / "no_guard.py"
    script.write_text(textwrap.dedent(body))
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=180, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.count("script body runs") == 1, out.stdout
    assert out.stdout.strip().endswith("done")
