"""Issue 14.2: "a batched single-agent view (the learner's seat, opponents played inside) that is a
proper SB3 ``VecEnv`` with ``action_masks()`` and a ``gymnasium.vector.VectorEnv``, usable by
sb3-contrib ``MaskablePPO`` directly, with worker processes that share memory (no per-step pickling
of whole buffers) and step asynchronously"; and from the task: "same seed -> same trajectories,
in-process and with any worker count", "auto-reset, episode infos", "worker crash -> one-line
error", "close() leaves no process"."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
import warnings

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv

from boardgames_rl.core.agent import Agent, RandomAgent
from boardgames_rl.core.errors import IllegalActionError, MalformedActionError
from boardgames_rl.envs.batched import BatchedVectorEnv, BrokenSlotsError
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv, SeededDummyVecEnv
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game

CONFIGS = [
    ("castle_flutterstone", {"num_players": 2}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 5}),
    ("white_castle", {"num_players": 2}),
]
IDS = [f"{n}{c.get('num_players', '')}" for n, c in CONFIGS]
FLUTTER = make_game("castle_flutterstone", num_players=2)


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def _trajectory(venv: BatchedVecEnv, steps: int, seed: int = 0) -> list:
    """Everything the learner sees for ``steps`` steps of random legal play."""
    rng = np.random.default_rng(seed)
    obs = venv.reset()
    out: list = [obs, [dict(i) for i in venv.reset_infos]]
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        obs, rewards, dones, infos = venv.step(_random_actions(masks, rng))
        out.append((masks, obs, rewards, dones))
        for i in np.flatnonzero(dones):
            info = infos[i]
            ep = info["episode"]
            out.append((i, info["terminal_observation"], ep["r"], ep["l"], info["returns"]))
    return out


def _same(a: list, b: list) -> bool:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, tuple | list):
            assert len(x) == len(y)
            for p, q in zip(x, y, strict=True):
                if isinstance(p, dict):
                    assert p == q
                else:
                    np.testing.assert_array_equal(p, q)
        else:
            np.testing.assert_array_equal(x, y)
    return True


@pytest.mark.parametrize("name,config", CONFIGS, ids=IDS)
def test_same_seed_same_trajectories_in_process_and_with_workers(name, config) -> None:
    """Task: "Seeding: same seed -> same trajectories, in-process and with any worker count"."""
    game = make_game(name, **config)
    steps = 40 if name != "castle_nightingale" else 25
    runs = []
    counts = (0, 2, "2 main") if name != "castle_flutterstone" else (0, 1, 2, 3, "2 asleep")
    if name == "castle_flutterstone":
        counts += ("2 main", "3 main", "3 main asleep")
    for workers in counts:
        more: dict = {"worker_spin": 0.0} if "asleep" in str(workers) else {}
        if "main" in str(workers):
            more["main_steps"] = True
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            venv = BatchedVecEnv(
                game, 5, seat="random", seed=7, num_workers=int(str(workers)[0]), **more
            )
        try:
            runs.append(_trajectory(venv, steps))
        finally:
            venv.close()
    for other in runs[1:]:
        assert _same(runs[0], other)
    again = BatchedVecEnv(game, 5, seat="random", seed=8)
    try:
        assert not np.array_equal(_trajectory(again, 1)[0], runs[0][0])  # another seed differs
    finally:
        again.close()


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=IDS)
def test_slot_i_plays_the_games_of_a_single_agent_env_seeded_seed_i(name, config) -> None:
    """Module docstring: "slot ``i`` is seeded ``(seed, i)`` ... plays exactly the games of a
    ``GameAECEnv`` (or ``SingleAgentEnv``) reset with ``(seed, i)`` and then reset without a seed
    after each game" (its observations written into the buffer by ``write_observation``, the
    single env's made by ``observation``)."""
    game = make_game(name, **config)
    venv = BatchedVecEnv(game, 3, seat="random", seed=100)
    singles = [SingleAgentEnv(game, seat="random", illegal_action="raise") for _ in range(3)]
    obs = venv.reset()
    want = [env.reset(seed=(100, i))[0] for i, env in enumerate(singles)]
    np.testing.assert_array_equal(obs, np.stack(want))
    rng = np.random.default_rng(1)
    ended = steps = 0
    while ended < 3 and steps < 3000:  # until three games have ended and restarted
        steps += 1
        actions = _random_actions(venv.action_masks(), rng)
        obs, rewards, dones, infos = venv.step(actions)
        for i, env in enumerate(singles):
            o, r, term, trunc, _ = env.step(int(actions[i]))
            assert rewards[i] == np.float32(r) and dones[i] == (term or trunc)
            if term or trunc:
                np.testing.assert_array_equal(infos[i]["terminal_observation"], o)
                o, _ = env.reset()
                ended += 1
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(venv.action_masks()[i], env.action_masks())
    assert ended >= 3


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=IDS)
def test_write_observation_refuses_a_buffer_it_would_misread(name, config) -> None:
    """``State.write_observation`` writes ``observation`` into a float32 vector of its size, and
    refuses any other buffer in one line (a float64 or int buffer would take the values as
    something else, or cast them)."""
    from boardgames_rl.core.errors import InvalidPlayerError

    game = make_game(name, **config)
    state, size = game.new_state(3), game.observation_spec.size
    out = np.zeros(size, np.float32)
    state.write_observation(1, out)
    np.testing.assert_array_equal(out, state.observation(1))
    for bad in (np.zeros(size), np.zeros(size, np.int32), np.zeros(size + 1, np.float32),
                np.zeros((1, size), np.float32)):  # fmt: skip
        with pytest.raises(ValueError, match=f"{name}: write_observation needs a float32 array"):
            state.write_observation(0, bad)
    with pytest.raises(InvalidPlayerError):
        state.write_observation(game.num_players, out)


def test_the_sb3_facade_gives_what_dummy_vec_env_with_monitor_gives() -> None:
    """SB3 ``VecEnv`` conventions: ``seed()`` then ``reset()``, auto-reset, and the episode infos
    of ``Monitor`` ("episode": r, l), "terminal_observation" and "TimeLimit.truncated"."""
    venv = BatchedVecEnv(FLUTTER, 3, seat=1)
    assert isinstance(venv, VecEnv)
    dummy = SeededDummyVecEnv(
        [
            (lambda: Monitor(SingleAgentEnv(FLUTTER, seat=1, illegal_action="raise")))
            for _ in range(3)
        ]
    )
    assert venv.seed(5) == [(5, 0), (5, 1), (5, 2)]  # the package's rule, not SB3's 5 + i
    assert dummy.seed(5) == [(5, 0), (5, 1), (5, 2)]
    np.testing.assert_array_equal(venv.reset(), dummy.reset())
    assert [i["seat"] for i in venv.reset_infos] == [1, 1, 1]
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        masks = get_action_masks(venv)
        np.testing.assert_array_equal(masks, np.stack(dummy.env_method("action_masks")))
        actions = _random_actions(masks, rng)
        a, b = venv.step(actions), dummy.step(actions)
        for x, y in zip(a[:3], b[:3], strict=True):
            np.testing.assert_array_equal(x, y)
            assert x.dtype == y.dtype
        for ia, ib in zip(a[3], b[3], strict=True):
            assert ia["TimeLimit.truncated"] == ib["TimeLimit.truncated"]
            assert ("episode" in ia) == ("episode" in ib)
            if "episode" in ia:
                episodes += 1
                assert ia["episode"]["r"] == ib["episode"]["r"]
                assert ia["episode"]["l"] == ib["episode"]["l"]
                np.testing.assert_array_equal(
                    ia["terminal_observation"], ib["terminal_observation"]
                )
    assert episodes >= 3
    assert is_masking_supported(venv) and venv.env_is_wrapped(Monitor) == [True] * 3
    assert venv.get_attr("seat", indices=[0, 2]) == [1, 1]
    venv.close()


def test_checks_sb3_applies_to_vec_envs() -> None:
    """SB3 has no VecEnv checker; its ``VecCheckNan`` wrapper (raise on NaN/inf) plus the space
    checks ``check_env`` makes on one env: every observation is in the observation space with its
    dtype, masks are boolean ``[N, A]`` with a legal action in each row."""
    for name, config in CONFIGS:
        game = make_game(name, **config)
        venv = VecCheckNan(BatchedVecEnv(game, 4, seat="random", seed=3), raise_exception=True)
        obs = venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(15):
            assert obs.shape == (4, *venv.observation_space.shape) and obs.dtype == np.float32
            assert all(venv.observation_space.contains(o) for o in obs)
            masks = venv.env_method("action_masks")
            assert all(
                m.dtype == bool and m.shape == (game.num_actions,) and m.any() for m in masks
            )
            obs, rewards, dones, _ = venv.step(_random_actions(np.stack(masks), rng))
            assert rewards.dtype == np.float32 and dones.dtype == bool
        venv.close()


@pytest.mark.parametrize("name,config", CONFIGS, ids=IDS)
def test_maskable_ppo_learns_on_the_batched_env(name, config) -> None:
    """ "usable by sb3-contrib MaskablePPO directly": a few hundred steps of ``learn`` on every
    game (the rollout buffer holds legal actions only)."""
    game = make_game(name, **config)
    venv = BatchedVecEnv(game, 4, seat="random", seed=0, seat_feature=True)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [16]},
    )  # fmt: skip
    model.learn(256)
    buffer = model.rollout_buffer
    actions = buffer.actions.reshape(-1).astype(int)
    masks = buffer.action_masks.reshape(len(actions), game.num_actions).astype(bool)
    assert masks[np.arange(len(actions)), actions].all()
    assert model.num_timesteps == 256
    venv.close()


def test_maskable_ppo_learns_with_workers() -> None:
    venv = BatchedVecEnv(FLUTTER, 4, seat="random", seed=0, num_workers=2, seat_feature=True)
    try:
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu",
            policy_kwargs={"net_arch": [16]},
        )  # fmt: skip
        model.learn(256)
        assert model.num_timesteps == 256
    finally:
        venv.close()


def test_the_gymnasium_facade_follows_the_vector_api() -> None:
    """gymnasium's vector conventions: ``single_observation_space`` / batched spaces, autoreset
    mode in ``metadata`` (``SAME_STEP``: "final_obs" / "final_info" with their masks)."""
    venv = BatchedVectorEnv(FLUTTER, 3, seat=0)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.single_observation_space.shape == (FLUTTER.observation_spec.size,)
    assert venv.observation_space.shape == (3, FLUTTER.observation_spec.size)
    assert list(venv.action_space.nvec) == [FLUTTER.num_actions] * 3
    obs, info = venv.reset(seed=11)
    assert venv.observation_space.contains(obs) and list(info["seat"]) == [0, 0, 0]
    single = SingleAgentEnv(FLUTTER, seat=0, illegal_action="raise")
    o, _ = single.reset(seed=(11, 1))  # slot 1 is seeded (11, 1)
    np.testing.assert_array_equal(obs[1], o)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        actions = _random_actions(venv.action_masks(), rng)
        obs, rewards, term, trunc, infos = venv.step(actions)
        o, r, t1, t2, _ = single.step(int(actions[1]))
        assert rewards[1] == np.float32(r) and term[1] == t1 and trunc[1] == t2
        if term.any() or trunc.any():
            done = term | trunc
            np.testing.assert_array_equal(infos["_final_obs"], done)
            for i in np.flatnonzero(done):
                assert infos["final_obs"][i].shape == obs[i].shape
                assert infos["final_info"]["episode"]["l"][i] >= 1
            if done[1]:
                np.testing.assert_array_equal(infos["final_obs"][1], o)
                ended += 1
                assert infos["final_info"]["episode"]["r"][1] == pytest.approx(r)
                o, _ = single.reset()
        np.testing.assert_array_equal(obs[1], o)
    assert ended >= 1
    assert venv.get_attr("seat") == (0, 0, 0)
    venv.close()


def test_seat_feature_appends_the_seat_one_hot() -> None:
    """``seat_feature=True``: the one-hot of the learner's seat after the observation (what the
    training env's policy sees; Castle Nightingale's role field already tells it)."""
    venv = BatchedVecEnv(FLUTTER, 6, seat="random", seed=2, seat_feature=True)
    obs = venv.reset()
    size = FLUTTER.observation_spec.size
    seats = [i["seat"] for i in venv.reset_infos]
    np.testing.assert_array_equal(obs[:, size:], np.eye(2, dtype=np.float32)[seats])
    venv.close()
    night = make_game("castle_nightingale")
    venv = BatchedVecEnv(night, 2, seat_feature=True)
    assert venv.observation_space.shape == (night.observation_spec.size,)
    venv.close()


# ------------------------------------------------------------------------------ bad input, faults
def test_bad_actions_raise_one_line_and_nothing_moves() -> None:
    """ "Bad input gets a one-line error": malformed or illegal actions are refused before any slot
    moves."""
    venv = BatchedVecEnv(FLUTTER, 3, seed=0)
    obs = venv.reset()
    masks = venv.action_masks()
    legal = np.array([np.flatnonzero(m)[0] for m in masks])
    illegal = legal.copy()
    illegal[2] = int(np.flatnonzero(~masks[2])[0])
    for bad, error in [
        (illegal, IllegalActionError),
        (np.array([0, 1]), MalformedActionError),
        (np.array([0.5, 1, 2]), MalformedActionError),
        (np.array([0, 1, FLUTTER.num_actions]), MalformedActionError),
    ]:
        with pytest.raises(error) as info:
            venv.step(bad)
        assert "\n" not in str(info.value)
    assert "slots [2]" in str(pytest.raises(IllegalActionError, venv.step, illegal).value)
    np.testing.assert_array_equal(venv.action_masks(), masks)
    got, *_ = venv.step(legal)  # the env goes on as if nothing happened
    clean = BatchedVecEnv(FLUTTER, 3, seed=0)
    np.testing.assert_array_equal(clean.reset(), obs)
    np.testing.assert_array_equal(clean.step(legal)[0], got)
    venv.close()
    clean.close()
    with pytest.raises(ValueError, match="num_envs"):
        BatchedVecEnv(FLUTTER, 0)
    with pytest.raises(ValueError, match="seat"):
        BatchedVecEnv(FLUTTER, 2, seat=2)
    for spin in (-1.0, float("nan"), float("inf"), "2ms"):
        with pytest.raises(ValueError, match="worker_spin must be seconds >= 0"):
            BatchedVecEnv(FLUTTER, 2, num_workers=1, worker_spin=spin)


class Exploding(Agent):
    """An opponent that raises from its ``at``-th move on."""

    def __init__(self, at: int):
        self.at, self.moves = at, 0

    def act(self, info_set, rng) -> int:
        self.moves += 1
        if self.moves >= self.at:
            raise RuntimeError("opponent exploded")
        return int(np.flatnonzero(info_set.legal_action_mask)[0])


@pytest.mark.parametrize("workers,main_steps", [(0, False), (2, False), (2, True)])
def test_a_slot_that_cannot_be_put_back_asks_for_a_reset(workers: int, main_steps: bool) -> None:
    """An exception inside a slot (here an opponent's) propagates naming the slot. This
    opponent's moves depend on a count it never resets, so replaying its game raises again: the
    slot cannot be put back (``BrokenSlotsError``), and the env refuses to step until
    ``reset()``, which restarts every slot (with ``main_steps`` too, where slots 0-1 are this
    process's own)."""
    venv = BatchedVecEnv(
        FLUTTER,
        4,
        seat=0,
        opponents=Exploding(3),
        seed=0,
        num_workers=workers,
        main_steps=main_steps,
    )
    try:
        venv.reset()
        rng = np.random.default_rng(0)
        with pytest.raises(BrokenSlotsError, match=r"^slot \d: RuntimeError: opponent exploded"):
            for _ in range(10):
                venv.step(_random_actions(venv.action_masks(), rng))
        with pytest.raises(RuntimeError, match="call reset"):
            venv.step(_random_actions(venv.action_masks(), rng))
        venv.set_attr("opponents", RandomAgent())  # every slot's next games: random opponents
        venv.reset()
        for _ in range(5):
            venv.step(_random_actions(venv.action_masks(), rng))
    finally:
        venv.close()


@pytest.mark.parametrize(
    "spin,main_steps",
    [(0.0, False), (5.0, False), (0.2, True)],
    ids=["asleep", "spinning", "main steps"],
)
def test_a_dead_worker_gives_a_one_line_error_naming_it(spin: float, main_steps: bool) -> None:
    """Task: "workers that die give a one-line error" (as VectorEnv's dead-worker test), whether
    it died asleep on its socket or spinning on the shared block; with ``main_steps`` this
    process, watching the shared block for it, stops watching after ``worker_spin``."""
    venv = BatchedVecEnv(FLUTTER, 4, seed=0, num_workers=2, worker_spin=spin, main_steps=main_steps)
    w = len(venv.core._procs) - 1  # the worker of slots 2-3
    try:
        venv.reset()
        os.kill(venv.core._procs[w].pid, signal.SIGKILL)
        time.sleep(0.5)
        with pytest.raises(RuntimeError) as info:
            venv.step(_random_actions(venv.action_masks(), np.random.default_rng(0)))
        message = str(info.value)
        assert "\n" not in message
        assert f"worker {w} (pid" in message and "slots 2-3) is dead (exit code -9)" in message
        with pytest.raises(RuntimeError, match=f"worker {w} is dead"):
            venv.step(_random_actions(venv.action_masks(), np.random.default_rng(0)))
    finally:
        venv.close()
    assert not any(p.is_alive() for p in venv.core._procs)


def test_close_leaves_no_process() -> None:
    before = {p.pid for p in mp.active_children()}
    venvs = [BatchedVecEnv(FLUTTER, 4, seed=0, num_workers=2) for _ in range(2)]
    gym_env = BatchedVectorEnv(FLUTTER, 4, seed=0, num_workers=2)
    procs = [p for v in venvs for p in v.core._procs] + list(gym_env.core._procs)
    assert len(procs) == 6 and all(p.is_alive() for p in procs)
    venvs[0].reset()
    venvs[0].step_async(_random_actions(venvs[0].action_masks(), np.random.default_rng(0)))
    for v in venvs:  # one with a step still pending
        v.close()
        v.close()  # twice is fine
    gym_env.close()
    assert not any(p.is_alive() for p in procs)
    assert {p.pid for p in mp.active_children()} <= before
    with pytest.raises(RuntimeError, match="closed"):
        venvs[1].reset()


# ------------------------------------------------------------------------------ shared memory
class SlowOpponent(RandomAgent):
    """A random opponent that sleeps on each move (to see the step run in the workers)."""

    def act(self, info_set, rng) -> int:
        time.sleep(0.3)
        return super().act(info_set, rng)


@pytest.mark.parametrize("spin", [0.0, 5.0], ids=["asleep", "spinning"])
def test_step_async_returns_at_once_and_the_pipes_carry_only_small_commands(
    monkeypatch, spin: float
) -> None:
    """ "pipes carry only small commands, never pickled whole buffers"; "step_async/step_wait
    really overlap": ``step_async`` hands the step to the workers and returns; the results
    appear in the shared buffers. A worker asleep on its socket gets one byte; a spinning one
    sees its post in the shared block and gets nothing on the socket."""
    from boardgames_rl.envs.vector import wire

    sent: list[bytes] = []
    venv = BatchedVecEnv(
        FLUTTER, 8, seat=0, opponents=SlowOpponent(), seed=0, num_workers=2, worker_spin=spin
    )
    try:
        venv.reset()
        time.sleep(0.2)  # the workers have gone to sleep (no spin) or are spinning
        write = wire.write  # every message the main process sends goes through it

        def spy(fd: int, data: bytes) -> None:
            sent.append(bytes(data))
            write(fd, data)

        monkeypatch.setattr(wire, "write", spy)
        rng = np.random.default_rng(0)
        for steps in range(1, 6):  # until a step where an opponent moves  # noqa: B007
            obs_before = venv.core.buffers["observation"].copy()
            t = time.perf_counter()
            venv.step_async(_random_actions(venv.action_masks(), rng))
            returned = time.perf_counter() - t
            obs, *_ = venv.step_wait()  # the opponents' moves, 0.3 s each, ran in the workers
            waited = time.perf_counter() - t
            assert returned < 0.1
            if waited >= 0.3:
                break
        assert waited >= 0.3
        assert not np.array_equal(obs, obs_before)
        # the actions are in the shared block: one byte per sleeping worker (both slept before
        # the first step; a later post may find one still building), none if spinning
        if spin == 0:
            assert sent[:2] == [wire.STEP] * 2 and set(sent) == {wire.STEP}
            assert len(sent) <= 2 * steps
        else:
            assert sent == []
    finally:
        venv.close()


def test_sb3_vec_env_wrappers_let_the_masks_through() -> None:
    """ "usable by sb3-contrib MaskablePPO directly", also under SB3's ``VecEnvWrapper`` s:
    ``VecNormalize`` forwards ``env_method("action_masks")`` to the batched env."""
    from stable_baselines3.common.vec_env import VecNormalize

    rng = np.random.default_rng(0)
    sb3 = VecNormalize(BatchedVecEnv(FLUTTER, 3, seed=0))
    sb3.reset()
    for _ in range(20):
        masks = get_action_masks(sb3)
        assert masks.shape == (3, FLUTTER.num_actions) and masks.any(axis=1).all()
        sb3.step(_random_actions(masks, rng))
    sb3.close()


def test_the_gymnasium_facade_needs_no_optional_package(tmp_path) -> None:
    """The gymnasium facade (and its workers) runs on a base install: stable-baselines3, torch
    and the other ``[train]`` packages are blocked in a fresh interpreter."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    code = textwrap.dedent(
        """
        import importlib.abc, sys
        OPTIONAL = ("torch", "stable_baselines3", "sb3_contrib", "tqdm", "matplotlib")
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in OPTIONAL:
                    raise ModuleNotFoundError(name)
        sys.meta_path.insert(0, Block())
        import numpy as np
        from boardgames_rl.registry import make_game
        from boardgames_rl.envs.batched import BatchedVectorEnv
        if __name__ == "__main__":
            venv = BatchedVectorEnv(make_game("white_castle"), 4, seed=0, num_workers=2)
            venv.reset()
            for _ in range(5):
                venv.step(np.argmax(venv.action_masks(), axis=1))
            venv.close()
            print("ok", [m for m in OPTIONAL if m in sys.modules])
        """
    )
    root = Path(__file__).resolve().parents[1]
    script = tmp_path / "probe.py"  # spawn workers re-import the main module: it must be a file
    script.write_text(code)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    run = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok []"


def test_a_constructor_that_raises_leaves_nothing_for_the_garbage_collector(monkeypatch) -> None:
    """A refused configuration raises its one-line error and nothing else: the half-built
    gymnasium facade, collected later, closes without an "Exception ignored" (it once raised
    ``AttributeError: 'BatchedVectorEnv' object has no attribute 'core'`` from ``__del__``)."""
    import gc
    import sys

    unraisable: list = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    for bad in ({"num_envs": 0}, {"num_envs": 2, "seat": 5}, {"num_envs": 2, "worker_spin": -1}):
        with pytest.raises(ValueError):
            BatchedVectorEnv(FLUTTER, **bad)
        gc.collect()
    assert not unraisable, [str(u.exc_value) for u in unraisable]


@pytest.mark.parametrize("num_envs", [1, 2, 5, 7, 64, 101])
def test_worker_chunks_cover_the_slots_in_order_sizes_within_one(num_envs: int) -> None:
    """Both vector envs split their slots with ``worker_chunks``: contiguous, in order, every
    slot once, sizes differing by at most one."""
    from boardgames_rl.envs.chunks import worker_chunks

    assert worker_chunks(num_envs, 0) == []
    for workers in range(1, num_envs + 1):
        chunks = worker_chunks(num_envs, workers)
        assert len(chunks) == workers
        assert [i for c in chunks for i in c] == list(range(num_envs))
        sizes = [len(c) for c in chunks]
        assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 1


# ------------------------------------------------------------------------------ main_steps
@pytest.mark.parametrize("spin", [0.0, 0.5], ids=["asleep", "spinning"])
def test_main_steps_this_process_is_the_first_worker(spin: float) -> None:
    """``main_steps=True``: ``num_workers - 1`` processes are started, this process steps the
    first chunk in ``step_wait`` (``step_async`` still returns at once), and a worker that
    finishes after it wakes it (worker asleep, this process asleep) or is seen in the shared
    block (spinning); per-slot calls reach this process's slots and the workers' alike."""
    venv = BatchedVecEnv(
        FLUTTER,
        8,
        seat=0,
        opponents=SlowOpponent(),
        seed=0,
        num_workers=2,
        worker_spin=spin,
        main_steps=True,
    )
    try:
        assert len(venv.core._procs) == 1 and "workers=2, main steps" in repr(venv)
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(5):  # until a step where an opponent moves
            t = time.perf_counter()
            venv.step_async(_random_actions(venv.action_masks(), rng))
            returned = time.perf_counter() - t
            obs, *_ = venv.step_wait()
            waited = time.perf_counter() - t
            assert returned < 0.1
            if waited >= 0.3:
                break
        assert waited >= 0.3
        np.testing.assert_array_equal(obs, venv.core.buffers["observation"])
        venv.set_attr("opponents", RandomAgent(), indices=[0, 7])  # one here, one in the worker
        kinds = [type(a).__name__ for a in venv.get_attr("opponents")]
        assert kinds == ["RandomAgent"] + ["SlowOpponent"] * 6 + ["RandomAgent"]
        masks = np.stack(venv.env_method("action_masks"))
        np.testing.assert_array_equal(masks, venv.action_masks())
    finally:
        venv.close()
    assert not any(p.is_alive() for p in venv.core._procs)


def test_main_steps_with_one_worker_is_the_in_process_env() -> None:
    venv = BatchedVecEnv(FLUTTER, 4, seed=0, num_workers=1, main_steps=True)
    try:
        assert venv.core._procs == [] and len(venv.core.envs) == 4
    finally:
        venv.close()
