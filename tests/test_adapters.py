"""Unit tests of the generic adapters (GameAECEnv, env modules, VectorEnv, SingleAgentEnv) on the
toy game of ``boardgames_rl/testing/toy_game.py``."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pettingzoo
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from boardgames_rl.core.agent import Agent, RandomAgent
from boardgames_rl.core.errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
)
from boardgames_rl.core.game import InfoSet, State
from boardgames_rl.core.seeding import next_game_seed, seed_stream
from boardgames_rl.envs import env_functions, env_id, make_env, register_envs
from boardgames_rl.envs.aec import GameAECEnv
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.testing import env_snapshot, normalised, random_action
from boardgames_rl.testing.toy_game import (
    CLAIM_HIGH,
    DOUBT,
    KEEP,
    PASS,
    SWAP,
    TOY_NAME,
    ToyGame,
    ToyState,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def scores_shaping(previous: State, state: State) -> np.ndarray:
    """Potential-style shaping used in the tests: the change of the toy scores."""
    assert isinstance(previous, ToyState) and isinstance(state, ToyState)
    return np.asarray(state.scores, float) - np.asarray(previous.scores, float)


def run_aec_game(env: GameAECEnv, rng: np.random.Generator) -> list[tuple[str, int]]:
    """Play one random game through the AEC API; returns (agent, action) for every decision."""
    moves = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[rng.integers(len(legal))])
        moves.append((agent, a))
        env.step(a)
    return moves


# ============================================================================ GameAECEnv
@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3, "rounds": 2, "cap": 14}])
def test_aec_api_and_seed_tests(config: dict) -> None:
    api_test(GameAECEnv(ToyGame(**config)), num_cycles=1000)
    seed_test(lambda: GameAECEnv(ToyGame(**config)))
    api_test(make_env(TOY_NAME, **config), num_cycles=1000)
    seed_test(lambda: make_env(TOY_NAME, **config))


def test_aec_spaces_and_metadata(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3)
    assert env.metadata["name"] == "toy_bluff_v0"
    assert env.metadata["is_parallelizable"] is False
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    for a in env.possible_agents:
        space = env.observation_space(a)
        assert space is env.observation_space(a) and env.action_space(a) is env.action_space(a)
        assert isinstance(space, spaces.Dict)
        assert space["observation"].dtype == np.float32
        assert space["observation"].shape == (toy3.observation_spec.size,)
        assert space["action_mask"].dtype == np.int8
        assert env.action_space(a) == spaces.Discrete(toy3.num_actions)
    assert env.observation_space("player_0") is not env.observation_space("player_1")
    env.reset(seed=1)
    for a in env.possible_agents:
        assert env.observe(a) in env.observation_space(a)
    assert env.state() in env.state_space
    np.testing.assert_array_equal(env.state(), env.game_state.state_vector())


def test_aec_agent_selection_follows_the_game(toy3: ToyGame) -> None:
    """The same agent acts twice in a row (claim then swap/keep), another seat acts inside the
    mover's turn (doubt/trust), and agent_selection is always the player on move."""
    env = GameAECEnv(toy3)
    env.reset(seed=3)
    seen = []
    rng = np.random.default_rng(0)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        state = env.game_state
        assert agent == env.possible_agents[state.current_player]
        mover = state.turn % 3
        seen.append((agent, state.phase, mover))
        env.step(random_action(state, rng))
    # claim (phase 0) then swap (phase 1) by the same agent, then a response by the next seat
    assert seen[0] == ("player_0", 0, 0) and seen[1] == ("player_0", 1, 0)
    assert seen[2] == ("player_1", 2, 0)


def test_aec_rewards_at_end_only(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(random_action(env.game_state, rng))
        if not env.game_state.is_terminal():
            assert not any(env.rewards.values()), "no reward before the end"
    returns = env.game_state.returns()
    assert returns.any()
    np.testing.assert_allclose([totals[a] for a in env.possible_agents], returns)
    assert env.agents == []


def test_aec_truncation(toy_cut: ToyGame) -> None:
    env = GameAECEnv(toy_cut)
    rng = np.random.default_rng(2)
    outcomes = set()
    for seed in range(20):
        env.reset(seed=seed)
        while not (any(env.terminations.values()) or any(env.truncations.values())):
            env.step(random_action(env.game_state, rng))
        truncated = env.game_state.truncated
        assert all(env.truncations.values()) == truncated
        assert all(env.terminations.values()) == (not truncated)
        outcomes.add(truncated)
    assert outcomes == {True, False}


def test_aec_reward_shaping(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3, reward_shaping=scores_shaping)
    env.reset(seed=9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    run = []
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        run.append(agent)
        env.step(None if terminated or truncated else random_action(env.game_state, rng))
    # total = final scores (sum of score changes) + final returns
    state = env.game_state
    expected = np.asarray(state.scores, float) + state.returns()
    np.testing.assert_allclose([totals[a] for a in env.possible_agents], expected)


def test_aec_errors_leave_env_unchanged(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3)
    env.reset(seed=4)
    env.step(CLAIM_HIGH)  # claim -> swap phase: only SWAP/KEEP legal
    before = env_snapshot(env)
    for bad, exc in [(PASS, IllegalActionError), (DOUBT, IllegalActionError),
                     (-1, MalformedActionError), (7, MalformedActionError),
                     (1.5, MalformedActionError), ("3", MalformedActionError),
                     (None, MalformedActionError), (True, MalformedActionError),
                     (np.array([1, 2]), MalformedActionError)]:  # fmt: skip
        with pytest.raises(exc) as info:
            env.step(bad)
        assert "toy_bluff" in str(info.value)
        assert env_snapshot(env) == before
    with pytest.raises(IllegalActionError, match=r"Legal: 3 \(swap\), 4 \(keep\)"):
        env.step(PASS)
    env.step(np.int64(KEEP))  # numpy integers are fine
    assert env.agent_selection == "player_1"


def test_aec_dead_step_and_game_over(toy2: ToyGame) -> None:
    env = GameAECEnv(toy2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        env.step(random_action(env.game_state, rng))
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_aec_render_modes(toy2: ToyGame, capsys: pytest.CaptureFixture[str]) -> None:
    env = GameAECEnv(toy2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "toy_bluff" in text
    env = GameAECEnv(toy2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "toy_bluff" in capsys.readouterr().out
    env = GameAECEnv(toy2, render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3
    assert img.shape[2] == 3
    env = GameAECEnv(toy2)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert env.render() is None
    env.close()
    with pytest.raises(ValueError):
        GameAECEnv(toy2, render_mode="bogus")


def test_aec_seed_stream(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3)
    env.reset(seed=42)
    first = normalised(env.game_state.to_dict())
    env.reset()
    second = normalised(env.game_state.to_dict())
    stream = seed_stream(42)
    assert first == normalised(toy3.new_state(next_game_seed(stream)).to_dict())
    assert second == normalised(toy3.new_state(next_game_seed(stream)).to_dict())
    env.reset(seed=42)
    assert normalised(env.game_state.to_dict()) == first
    env.reset(seed=(42, 1))  # sequences work too (what VectorEnv slot 1 uses)
    assert normalised(env.game_state.to_dict()) == normalised(
        toy3.new_state(next_game_seed(seed_stream((42, 1)))).to_dict()
    )


def test_aec_info_set_and_helpers(toy3: ToyGame) -> None:
    env = GameAECEnv(toy3)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    env.reset(seed=8)
    for a in env.possible_agents:
        info = env.info_set(a)
        assert isinstance(info, InfoSet) and not isinstance(info, State)
        np.testing.assert_array_equal(info.observation, env.observe(a)["observation"])
        np.testing.assert_array_equal(info.legal_action_mask, env.observe(a)["action_mask"] == 1)
    assert env.legal_action_names("player_0") == ["claim_low", "claim_high"]
    assert env.legal_action_names("player_1") == []


# ============================================================================ env modules
def test_pettingzoo_make_and_idempotent_registration() -> None:
    env = pettingzoo.make("aec", env_id(TOY_NAME), num_players=3)
    assert env.unwrapped.game == ToyGame(num_players=3)
    assert env_id(TOY_NAME) == "boardgames_rl/toy_bluff-v0"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert register_envs() == []
        import boardgames_rl.envs

        importlib.reload(boardgames_rl.envs)
        import boardgames_rl  # noqa: F401


def test_env_functions_wrapping(toy3: ToyGame) -> None:
    raw_env, env_fn = env_functions(TOY_NAME)
    raw = raw_env(num_players=3, render_mode="ansi")
    assert isinstance(raw, GameAECEnv) and raw.game == toy3 and raw.render_mode == "ansi"
    env = env_fn(num_players=3)
    with pytest.raises(AttributeError):
        _ = env.agents  # OrderEnforcingWrapper: nothing before reset
    env.reset(seed=1)
    env.step(CLAIM_HIGH)
    before = env_snapshot(env)
    with pytest.raises(IllegalActionError):  # legal-range but masked: our error surfaces
        env.step(PASS)
    for bad in (99, -1, 1.5, "3", None, True):  # no bounds wrapper: the game's own error
        with pytest.raises(MalformedActionError):
            env.step(bad)
    assert env_snapshot(env) == before
    env.step(SWAP)


def test_castle_flutterstone_module_is_generic() -> None:
    from boardgames_rl.envs import castle_flutterstone_v0

    assert castle_flutterstone_v0.raw_env.__name__ == "raw_env"
    assert castle_flutterstone_v0.env.__name__ == "env"


# ============================================================================ VectorEnv
def _aec_slots(game, seed: int, n: int) -> list[GameAECEnv]:
    envs = [GameAECEnv(game) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=(seed, i))
    return envs


@pytest.mark.parametrize("config", [{"num_players": 3}, {"num_players": 3, "rounds": 2, "cap": 14}])
def test_vector_matches_aec_envs(config: dict) -> None:
    game = ToyGame(**config)
    n = 5
    venv = VectorEnv(game, n, seed=17)
    envs = _aec_slots(game, 17, n)
    out = venv.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        for i, env in enumerate(envs):
            s = env.game_state
            assert out.current_player[i] == s.current_player
            np.testing.assert_array_equal(out.observation[i], s.observation(s.current_player))
            np.testing.assert_array_equal(out.action_mask[i], s.legal_action_mask())
            assert normalised(venv.states[i].to_dict()) == normalised(s.to_dict())
        actions = venv.sample_random_actions(rng)
        out = venv.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            done = any(env.terminations.values()) or any(env.truncations.values())
            assert bool(out.done[i]) == done
            if done:
                ended += 1
                np.testing.assert_array_equal(out.rewards[i], [env.rewards[a] for a in env.agents])
                np.testing.assert_array_equal(out.final_returns[i], env.game_state.returns())
                assert out.truncated[i] == env.game_state.truncated
                assert 0 < out.episode_lengths[i] <= game.max_game_length
                env.reset()
            else:
                assert out.episode_lengths[i] == 0 and not out.rewards[i].any()
    assert ended >= 2 * n


def test_vector_output_types(toy3: ToyGame) -> None:
    venv = VectorEnv(toy3, 3, seed=0)
    out = venv.reset()
    d, a = toy3.observation_spec.size, toy3.num_actions
    assert out.observation.shape == (3, d) and out.observation.dtype == np.float32
    assert out.action_mask.shape == (3, a) and out.action_mask.dtype == bool
    assert out.current_player.shape == (3,) and out.current_player.dtype == np.int64
    assert out.rewards.shape == (3, 3) and out.rewards.dtype == np.float32
    assert out.terminated.dtype == bool and out.truncated.dtype == bool
    assert out.final_returns.shape == (3, 3) and out.episode_lengths.shape == (3,)
    nxt = venv.step(venv.sample_random_actions(np.random.default_rng(0)))
    assert nxt.observation is not out.observation  # copies by default
    raw = VectorEnv(toy3, 3, seed=0, copy=False)
    o1 = raw.reset()
    o2 = raw.step(raw.sample_random_actions(np.random.default_rng(0)))
    assert o1.observation is o2.observation  # internal buffers, overwritten in place


def test_vector_reset_seeding(toy3: ToyGame) -> None:
    a = VectorEnv(toy3, 2, seed=5)
    b = VectorEnv(toy3, 2)
    oa, ob = a.reset(), b.reset(seed=5)
    np.testing.assert_array_equal(oa.observation, ob.observation)
    assert [normalised(s.to_dict()) for s in a.states] == [
        normalised(s.to_dict()) for s in b.states
    ]
    a.reset()  # continues each slot's stream: the second game of slot i
    stream = seed_stream((5, 1))
    next_game_seed(stream)
    assert normalised(a.states[1].to_dict()) == normalised(
        toy3.new_state(next_game_seed(stream)).to_dict()
    )
    c = VectorEnv(toy3, 2)
    c.reset()
    assert isinstance(c.seed, int)


def test_vector_errors_leave_slots_unchanged(toy3: ToyGame) -> None:
    venv = VectorEnv(toy3, 4, seed=1)
    out = venv.reset()
    before = [normalised(s.to_dict()) for s in venv.states]
    legal = venv.sample_random_actions(np.random.default_rng(0))
    bad = legal.copy()
    bad[2] = int(np.flatnonzero(~out.action_mask[2])[0])
    with pytest.raises(IllegalActionError, match=r"slots \[2\]"):
        venv.step(bad)
    malformed = [
        legal[:3],
        legal.astype(float),
        np.array([0, 0, 0, 99]),
        np.array([-1, 0, 0, 0]),
        legal.astype(bool),
    ]
    for actions in malformed:
        with pytest.raises(MalformedActionError):
            venv.step(actions)
    assert [normalised(s.to_dict()) for s in venv.states] == before
    venv.step(legal)
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(toy3, 2).step(np.zeros(2, dtype=int))


def test_vector_sample_random_actions_uniform(toy3: ToyGame) -> None:
    venv = VectorEnv(toy3, 64, seed=2)
    out = venv.reset()
    rng = np.random.default_rng(5)
    counts = np.zeros((64, toy3.num_actions))
    for _ in range(400):
        a = venv.sample_random_actions(rng)
        assert out.action_mask[np.arange(64), a].all()
        counts[np.arange(64), a] += 1
    # first decisions of the first round: claim_low / claim_high, each with probability 1/2
    freq = counts[:, :2].sum(0) / counts.sum()
    assert np.all(np.abs(freq - 0.5) < 0.02)


def test_vector_reward_shaping(toy3: ToyGame) -> None:
    venv = VectorEnv(toy3, 3, seed=3, reward_shaping=scores_shaping)
    venv.reset()
    rng = np.random.default_rng(0)
    running = np.zeros((3, 3))
    checked = 0
    for _ in range(60):
        playing = list(venv.states)  # the finished game's state object survives the auto-reset
        out = venv.step(venv.sample_random_actions(rng))
        running += out.rewards
        for i in np.flatnonzero(out.done):
            expected = np.asarray(playing[i].scores, float) + playing[i].returns()
            np.testing.assert_allclose(running[i], expected)
            np.testing.assert_array_equal(out.final_returns[i], playing[i].returns())
            running[i] = 0
            checked += 1
    assert checked >= 3


def test_vector_workers_identical(toy_cut: ToyGame) -> None:
    outs = []
    for workers in (0, 2):
        with VectorEnv(toy_cut, 5, seed=21, num_workers=workers) as venv:
            rng = np.random.default_rng(7)
            trail = [venv.reset()]
            for _ in range(40):
                trail.append(venv.step(venv.sample_random_actions(rng)))
            outs.append(trail)
    for a, b in zip(*outs, strict=True):
        for k in a.__dict__:
            np.testing.assert_array_equal(getattr(a, k), getattr(b, k), err_msg=k)


def test_vector_workers_report_errors(toy3: ToyGame) -> None:
    with VectorEnv(toy3, 4, seed=0, num_workers=2) as venv:
        out = venv.reset()
        bad = venv.sample_random_actions(np.random.default_rng(0))
        bad[3] = int(np.flatnonzero(~out.action_mask[3])[0])
        with pytest.raises(IllegalActionError):
            venv.step(bad)
        with pytest.raises(RuntimeError, match="num_workers=0"):
            _ = venv.states
    with pytest.raises(RuntimeError, match="closed"):
        venv.reset()


# ============================================================================ SingleAgentEnv
@pytest.mark.parametrize("seat", [0, 1, "random"])
@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3, "rounds": 2, "cap": 14}])
def test_single_agent_check_env(config: dict, seat) -> None:
    # gymnasium's step-determinism check samples an action *before* reset and assumes it is
    # valid in the new game; with masked actions it may not be, so the checked env ends the
    # episode on an illegal action ("lose") instead of raising (the default, tested elsewhere).
    env = SingleAgentEnv(ToyGame(**config), seat=seat, illegal_action="lose")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        check_env(env)
        check_env(
            SingleAgentEnv(ToyGame(**config), seat=seat, render_mode="ansi", illegal_action="lose")
        )


def test_single_agent_maskable_ppo_learns(toy3: ToyGame) -> None:
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv(toy3, seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, verbose=0)
    model.learn(256)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)]


class RecordingAgent(Agent):
    """Random agent that records what it was given."""

    def __init__(self) -> None:
        self.seen: list[InfoSet] = []
        self.resets = 0

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        assert isinstance(info_set, InfoSet) and not isinstance(info_set, State)
        assert info_set.current_player == info_set.player
        self.seen.append(info_set)
        return RandomAgent().act(info_set, rng)

    def reset(self) -> None:
        self.resets += 1


def test_single_agent_trajectory_holds_only_learner_decisions(toy3: ToyGame) -> None:
    opponents = [RecordingAgent(), RecordingAgent()]
    env = SingleAgentEnv(toy3, seat=1, opponents=opponents)
    rng = np.random.default_rng(0)
    for episode in range(10):
        obs, info = env.reset(seed=episode)
        assert info["seat"] == 1
        done = False
        steps = 0
        while not done:
            state = env.game_state
            assert state.current_player == 1
            np.testing.assert_array_equal(obs, state.observation(1))
            np.testing.assert_array_equal(env.action_masks(), state.legal_action_mask())
            legal = np.flatnonzero(env.action_masks())
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            steps += 1
            done = terminated or truncated
            if not done:
                assert reward == 0.0 and info == {}
        assert reward == info["returns"][1] == env.game_state.returns()[1]
        assert info["episode_steps"] == steps
        assert not env.action_masks().any()
        with pytest.raises(GameOverError):
            env.step(0)
    assert {i.player for i in opponents[0].seen} == {0}
    assert {i.player for i in opponents[1].seen} == {2}
    assert opponents[0].resets == opponents[1].resets == 10


def test_single_agent_same_games_as_aec(toy3: ToyGame) -> None:
    env = SingleAgentEnv(toy3, seat=0)
    aec = GameAECEnv(toy3)
    env.reset(seed=99)
    aec.reset(seed=99)
    for _ in range(3):
        assert normalised(env.game_state.to_dict()) == normalised(aec.game_state.to_dict())
        env.reset()
        aec.reset()


def test_single_agent_seeding_is_deterministic(toy3: ToyGame) -> None:
    def episode(seed: int) -> list:
        env = SingleAgentEnv(toy3, seat="random")
        obs, info = env.reset(seed=seed)
        trail = [info["seat"], obs.tolist()]
        done = False
        while not done:
            obs, r, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            trail += [obs.tolist(), r]
            done = term or trunc
        return trail

    assert episode(3) == episode(3)
    seats = {SingleAgentEnv(toy3, seat="random").reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2}


def test_single_agent_opponent_forms(toy3: ToyGame) -> None:
    shared = RecordingAgent()
    env = SingleAgentEnv(toy3, seat=0, opponents=shared)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert {i.player for i in shared.seen} <= {1, 2} and shared.seen

    pool_calls = []

    def pool(rng: np.random.Generator) -> list[Agent]:
        pool_calls.append(rng)
        return [RandomAgent(), RandomAgent()]

    env = SingleAgentEnv(toy3, seat="random", opponents=pool)
    for s in range(3):
        env.reset(seed=s)
    assert len(pool_calls) == 3
    with pytest.raises(ValueError, match="2 Agents"):
        SingleAgentEnv(toy3, opponents=[RandomAgent()]).reset(seed=0)
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(toy3, seat=3)


def test_single_agent_illegal_actions(toy3: ToyGame) -> None:
    env = SingleAgentEnv(toy3, seat=0, illegal_action="raise")  # raises, nothing changes
    env.reset(seed=0)
    before = normalised(env.game_state.to_dict())
    with pytest.raises(IllegalActionError):
        env.step(DOUBT)
    assert normalised(env.game_state.to_dict()) == before
    with pytest.raises(MalformedActionError):  # malformed always raises
        env.step(1.5)
    env.step(CLAIM_HIGH)  # the episode goes on

    env = SingleAgentEnv(toy3, seat=0, illegal_action="lose")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(DOUBT)
    assert terminated and not truncated and reward == -1.0 and info["illegal_action"]
    with pytest.raises(GameOverError):
        env.step(0)


def test_single_agent_action_space_samples_legal_actions(toy3: ToyGame) -> None:
    import copy
    import pickle

    env = SingleAgentEnv(toy3, seat=0)
    env.reset(seed=3)
    env.action_space.seed(0)
    for _ in range(50):
        a = env.action_space.sample()
        assert env.action_masks()[a]
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    restored = pickle.loads(pickle.dumps(env.action_space))
    assert restored.n == env.action_space.n and 0 <= restored.sample() < restored.n
    assert copy.deepcopy(env.action_space) == env.action_space


def test_single_agent_reward_shaping(toy3: ToyGame) -> None:
    env = SingleAgentEnv(toy3, seat=2, reward_shaping=scores_shaping)
    env.reset(seed=4)
    total, done = 0.0, False
    while not done:
        _, r, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        total += r
        done = term or trunc
    state = env.game_state
    assert total == pytest.approx(state.scores[2] + state.returns()[2])


class StartsOverToy(ToyGame):
    """Odd seeds give a game that is over before anyone acts (to test the reset loop)."""

    def new_state(self, seed: int | None = None) -> ToyState:
        s = super().new_state(seed)
        if seed is not None and seed % 2:
            s.over = True
        return s


def test_single_agent_restarts_games_the_learner_never_plays() -> None:
    game = StartsOverToy(num_players=2)
    env = SingleAgentEnv(game, seat=1)
    for s in range(10):
        _, info = env.reset(seed=s)
        assert info["game_seed"] % 2 == 0
        assert env.game_state.current_player == 1
    cut = ToyGame(num_players=3, cap=2)  # seat 2 never gets a decision
    with pytest.raises(RuntimeError, match="3 games in a row"):
        SingleAgentEnv(cut, seat=2, max_reset_attempts=3).reset(seed=0)


def test_single_agent_render(toy2: ToyGame) -> None:
    env = SingleAgentEnv(toy2, render_mode="ansi")
    env.reset(seed=0)
    assert "toy_bluff" in env.render()
    env = SingleAgentEnv(toy2, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().dtype == np.uint8
