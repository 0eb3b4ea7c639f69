"""Issue 14.2/14.3, the batched env's speed work: "worker processes that share memory (no per-step
pickling of whole buffers) and step asynchronously"; "opponents never build what they do not use
(a random opponent needs only the mask)". Must not regress: "same seed -> same trajectories
in-process and with any number of workers", "a crashing or killed worker gives a one-line error
and no hang"; and the module docstring of :mod:`boardgames_rl.envs.batched`: "malformed or
illegal actions (checked against the current masks) raise before any slot moves"."""

from __future__ import annotations

import os
import signal
import time
import warnings
from functools import partial

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.core.errors import IllegalActionError, MalformedActionError
from boardgames_rl.envs.batched import BatchedVectorEnv
from boardgames_rl.envs.batched_sb3 import BatchedVecEnv
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.registry import make_game
from boardgames_rl.training.pool import OpponentPool
from tests.test_batched_env import _random_actions, _same, _trajectory

FLUTTER = make_game("castle_flutterstone", num_players=2)


@pytest.mark.parametrize(
    "name,config", [("castle_flutterstone", {"num_players": 3}), ("night_of_the_ninja", {})]
)
def test_prior_and_seat_feature_trajectories_are_the_same_for_any_worker_count(name, config):
    """ "same seed -> same trajectories in-process and with any number of workers", with the
    prior feature (``prior``) and the seat feature appended, a random seat and 7 slots split
    unevenly (1, 2 and 3 workers)."""
    game = make_game(name, **config)
    prior = partial(make_agent, "heuristic", game)
    runs = []
    for workers in (0, 1, 2, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            venv = BatchedVecEnv(
                game, 7, seat="random", seed=11, num_workers=workers, prior=prior, seat_feature=True
            )
        try:
            runs.append(_trajectory(venv, 30))
        finally:
            venv.close()
    assert runs[0][0].shape[1] == policy_obs_size(game, prior=True)
    for other in runs[1:]:
        assert _same(runs[0], other)


class CountingRandomAgent(RandomAgent):
    """RandomAgent's choices through the generic opponent path (``agent.act`` on its view)."""


@pytest.mark.pure_only  # counts the engine's validate_action calls
def test_random_opponents_take_the_mask_path_and_play_the_same_games(monkeypatch) -> None:
    """The opponent loop draws a :class:`RandomAgent`'s move from the state's mask itself (no
    view, no second legality check); the games are those of the generic path (a RandomAgent
    subclass is played through ``agent.act``)."""
    game = make_game("night_of_the_ninja", num_players=5)
    cls = type(game.new_state(0))
    checks = [0]
    original = cls.validate_action

    def counting(self, action, player=None):
        checks[0] += 1
        return original(self, action, player)

    monkeypatch.setattr(cls, "validate_action", counting)

    def play(opponent) -> list:
        venv = BatchedVecEnv(game, 3, seat="random", opponents=opponent, seed=5)
        try:
            return _trajectory(venv, 40)
        finally:
            venv.close()

    fast = play(RandomAgent())
    assert checks[0] == 0  # neither the learner's checked actions nor the opponents' are rechecked
    generic = play(CountingRandomAgent())
    assert checks[0] > 0  # the counter works: the generic path checks each opponent move
    assert _same(fast, generic)


@pytest.mark.parametrize(
    ("name", "config"),
    [
        ("castle_flutterstone", {"num_players": 3}),
        ("castle_nightingale", {}),
        ("night_of_the_ninja", {"num_players": 6}),
        ("white_castle", {"num_players": 4}),
    ],
)
def test_random_opponents_on_the_fast_path_play_the_generic_paths_games(name, config) -> None:
    """In both builds, every game: the opponent loop's own draw for a :class:`RandomAgent` (the
    state's legal list, ``core.draws``) plays the games of ``RandomAgent.act`` on a view."""
    game = make_game(name, **config)

    def play(opponent) -> list:
        venv = BatchedVecEnv(game, 3, seat="random", opponents=opponent, seed=11)
        try:
            return _trajectory(venv, 60)
        finally:
            venv.close()

    assert _same(play(RandomAgent()), play(CountingRandomAgent()))


def test_single_agent_env_still_checks_the_learners_actions() -> None:
    """``SingleAgentEnv.step`` (not the batched env) gets unchecked actions: ``illegal_action``
    still decides what an illegal one does."""
    env = SingleAgentEnv(FLUTTER, seat=0, illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    lose = SingleAgentEnv(FLUTTER, seat=0)
    lose.reset(seed=0)
    _, reward, terminated, _, info = lose.step(bad)
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_actions_of_any_integer_dtype_or_a_list_are_accepted_and_bools_refused() -> None:
    """The batched step "expects an integer array of shape (N,)" (or (N, 1)): int32, uint16, a
    list of ints all step the same games; bools and floats raise one line before anything
    moves."""
    venv = BatchedVecEnv(FLUTTER, 4, seed=3)
    clean = BatchedVecEnv(FLUTTER, 4, seed=3)
    try:
        venv.reset()
        clean.reset()
        rng = np.random.default_rng(0)
        for i in range(12):
            actions = _random_actions(venv.action_masks(), rng)
            for bad in (actions.astype(bool), actions.astype(np.float64)):
                with pytest.raises(MalformedActionError) as info:
                    venv.step(bad)
                assert "\n" not in str(info.value)
            given = [actions.astype(np.int32), actions.astype(np.uint16), actions.tolist()][i % 3]
            if i % 4 == 3:
                given = np.asarray(given).reshape(-1, 1)
            got = venv.step(given)
            want = clean.step(actions)
            for a, b in zip(got[:3], want[:3], strict=True):
                np.testing.assert_array_equal(a, b)
    finally:
        venv.close()
        clean.close()


def test_the_wire_carries_large_commands_and_answers() -> None:
    """Commands and answers are pickles behind a length on the worker socket: one far larger
    than a socket buffer arrives whole in both directions."""
    venv = BatchedVecEnv(FLUTTER, 4, seed=0, num_workers=2)
    try:
        venv.reset()
        big = np.arange(300_000, dtype=np.int64)  # 2.4 MB
        venv.set_attr("payload", big, indices=[3])
        (back,) = venv.get_attr("payload", indices=[3])
        np.testing.assert_array_equal(back, big)
        obs, *_ = venv.step(_random_actions(venv.action_masks(), np.random.default_rng(0)))
        assert obs.shape == (4, FLUTTER.observation_spec.size)
    finally:
        venv.close()


class SlowRandom(RandomAgent):
    def act(self, info_set, rng) -> int:
        time.sleep(0.2)
        return super().act(info_set, rng)


def test_a_worker_killed_during_a_step_gives_a_one_line_error_and_no_hang() -> None:
    """ "a crashing or killed worker gives a one-line error and no hang", here killed while its
    slots step (after ``step_async``, before ``step_wait``)."""
    venv = BatchedVectorEnv(FLUTTER, 4, seed=0, opponents=SlowRandom(), num_workers=2)
    try:
        venv.reset()
        venv.core.start(_random_actions(venv.action_masks(), np.random.default_rng(0)))
        os.kill(venv.core._procs[0].pid, signal.SIGKILL)
        t = time.perf_counter()
        with pytest.raises(RuntimeError) as info:
            venv.core.wait()
        assert time.perf_counter() - t < 10
        message = str(info.value)
        assert "\n" not in message and "worker 0 (pid" in message and "slots 0-1" in message
        with pytest.raises(RuntimeError, match="worker 0 is dead"):
            venv.step(_random_actions(venv.action_masks(), np.random.default_rng(0)))
    finally:
        venv.close()
    assert not any(p.is_alive() for p in venv.core._procs)


class ShapingBomb:
    """A reward-shaping callback that raises from its ``after + 1``-th call on (each worker has
    its own copy, called once per slot and step)."""

    def __init__(self, after: int):
        self.after, self.calls = after, 0

    def __call__(self, previous, state) -> np.ndarray:
        self.calls += 1
        if self.calls > self.after:
            raise RuntimeError("shaping exploded")
        return np.zeros(state.game.num_players)


def test_errors_in_several_workers_in_one_step_raise_the_first_and_reset_recovers() -> None:
    """Module docstring: "An exception inside a slot ... propagates naming the slot": when slots
    of both workers raise in the same step (the third: 2 slots per worker, 4 calls allowed), the
    first worker's slot is named, every answer of that step is read (the next commands get their
    own answers), and ``reset()`` makes the env step again."""
    import boardgames_rl.envs.batched as batched

    failed: list[int] = []
    wait_step = batched.BatchedCore._wait_step

    def spy(self):
        try:
            return wait_step(self)
        finally:
            failed.append(int(self.buffers["failed"][0]))

    venv = BatchedVecEnv(FLUTTER, 4, seat=0, reward_shaping=ShapingBomb(4), seed=0, num_workers=2)
    try:
        venv.reset()
        rng = np.random.default_rng(0)
        batched.BatchedCore._wait_step = spy  # type: ignore[method-assign]
        try:
            venv.step(_random_actions(venv.action_masks(), rng))
            venv.step(_random_actions(venv.action_masks(), rng))
            with pytest.raises(Exception, match=r"^slot 0: RuntimeError: shaping exploded$"):
                venv.step(_random_actions(venv.action_masks(), rng))
        finally:
            batched.BatchedCore._wait_step = wait_step  # type: ignore[method-assign]
        assert failed == [0, 0, 2]  # both workers' slots raised in the third step
        venv.set_attr("reward_shaping", None)
        assert venv.get_attr("seat") == [0, 0, 0, 0]  # answers are in step with commands
        venv.reset()
        for _ in range(5):
            venv.step(_random_actions(venv.action_masks(), rng))
    finally:
        venv.close()


def _play_to_end(env: SingleAgentEnv, rng: np.random.Generator) -> None:
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        done = any(env.step(int(action))[2:4])


class RememberingAgent(RandomAgent):
    """A random player that keeps a count (memory): not memoryless, though its class derives
    from one that is."""

    def __init__(self) -> None:
        self.acted = self.resets = 0

    def act(self, info_set, rng):
        self.acted += 1
        return super().act(info_set, rng)

    def reset(self) -> None:
        self.resets += 1


@pytest.mark.parametrize(
    "opponents,parts",
    [
        (None, 2),  # RandomAgent on every seat: the state, then the opening
        ([RandomAgent(), RandomAgent()], 2),
        (RememberingAgent(), 1),  # memory: its moves wait for the reset
        (lambda rng: RandomAgent(), 1),  # a callable may change before the reset
        (OpponentPool.from_specs(make_game("castle_flutterstone", num_players=3), ["random"]), 2),
        (
            OpponentPool.from_specs(
                make_game("castle_flutterstone", num_players=3), ["random", "self"], [1.0, 1.0]
            ),
            1,  # snapshots may join it
        ),
    ],
    ids=["none", "random list", "memory", "callable", "random pool", "self-play pool"],
)
def test_a_game_built_ahead_is_the_game_the_reset_starts(opponents, parts) -> None:
    """``SingleAgentEnv.prepare_next_game`` (what idle workers call): the reset after it starts
    the same game (seed, seat, observation, and the opponents' moves before the learner's
    first decision) as without it; the opening is played ahead only for memoryless opponents
    not drawn from a pool (``parts``: how many calls do something); a reset with a seed
    discards it; an env never reset has no stream to draw from."""
    game = make_game("castle_flutterstone", num_players=3)  # the learner is not always first
    fresh = SingleAgentEnv(game, seat="random", opponents=opponents)
    assert fresh.prepare_next_game() is False
    ahead, plain = (SingleAgentEnv(game, seat="random", opponents=opponents) for _ in range(2))
    for env in (ahead, plain):
        env.reset(seed=3)
    opened = 0
    for game_index in range(6):
        rng_a, rng_p = np.random.default_rng(game_index), np.random.default_rng(game_index)
        for _ in range(parts):
            assert ahead.prepare_next_game() is True
        assert ahead.prepare_next_game() is False
        if isinstance(opponents, RememberingAgent):
            before = (opponents.acted, opponents.resets)
            ahead.prepare_next_game()
            assert (opponents.acted, opponents.resets) == before  # nothing played early
        opened += ahead._next_game.opening is not None
        _play_to_end(ahead, rng_a)
        _play_to_end(plain, rng_p)
        (obs_a, info_a), (obs_p, info_p) = ahead.reset(), plain.reset()
        assert info_a == info_p
        np.testing.assert_array_equal(obs_a, obs_p)
        np.testing.assert_array_equal(ahead.action_masks(), plain.action_masks())
        np.testing.assert_array_equal(ahead.game_state.to_dict(), plain.game_state.to_dict())
    assert opened == (6 if parts == 2 else 0)
    ahead.prepare_next_game()
    obs_a, info_a = ahead.reset(seed=9)
    obs_p, info_p = SingleAgentEnv(game, seat="random", opponents=opponents).reset(seed=9)
    assert info_a == info_p
    np.testing.assert_array_equal(obs_a, obs_p)


def test_memoryless_is_declared_by_the_class_itself() -> None:
    from boardgames_rl.core.agent import is_memoryless

    assert is_memoryless(RandomAgent()) and not is_memoryless(RememberingAgent())
    assert not is_memoryless(make_agent("heuristic", FLUTTER))


def test_waiting_workers_build_the_next_games_and_the_games_stay_the_same() -> None:
    """Workers build each slot's next game while they wait (so a step that ends a game does not
    pay for ``new_state``): after a pause every slot has one, and over games that end the
    trajectories are those of the in-process env (which builds none)."""
    game = make_game("castle_flutterstone", num_players=2)
    runs = []
    for workers in (0, 2):
        venv = BatchedVecEnv(game, 4, seat="random", seed=5, num_workers=workers)
        try:
            runs.append(_trajectory(venv, 150))
            if workers:
                time.sleep(1.0)  # the workers are idle: they build what is missing
                ready = venv.get_attr("_next_game")
                assert all(r is not None for r in ready), ready
            else:
                assert all(r is None for r in venv.get_attr("_next_game"))
        finally:
            venv.close()
    ended = sum(len(x) == 5 and isinstance(x[0], int | np.integer) for x in runs[0])
    assert ended >= 4, ended  # games ended (and so started from a game built ahead)
    assert _same(runs[0], runs[1])
