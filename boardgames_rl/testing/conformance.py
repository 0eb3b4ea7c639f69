"""The conformance suite: does a game honour the contract, and work unchanged through every adapter?

Call :func:`~boardgames_rl.testing.check_game` on a configured game, in a test of your own
(``pytest`` shows the first failed check with its message) or from a script::

    from boardgames_rl.testing import check_game
    from boardgames_rl.testing.toy_game import ToyGame  # stands for your game

    report = check_game(ToyGame(num_players=3))
    print(report)

Each check is also a public function of its own (``check_random_games(game)`` and so on), so a
test file can parametrise over them. A failed check raises :class:`ConformanceError` (an
``AssertionError``) whose message names the game, the seed or state and what was wrong. The checks:

* ``options``: every on/off option of the game's class reads ``true/false, yes/no, on/off, 1/0``
  alike and refuses anything else with one :class:`~boardgames_rl.core.errors.InvalidConfigError`;
* ``pettingzoo_api``: PettingZoo's ``api_test`` and ``seed_test`` on the raw AEC env, and (if the
  game is registered) on the env from ``pettingzoo.make``;
* ``random_games``: seeded random games end within ``max_game_length`` actions; at every step the
  mask is non-empty and ``core.game.legal_list`` (what search loops read) lists its actions,
  ``current_player`` in range, returns zero before the end and finite at the
  end, every player's observation inside its spec and equal to what ``write_observation``
  writes, ``state_vector`` inside its spec;
* ``info_sets``: states sampled from an information set give that player the same observation,
  mask and ``current_player`` as the true state, carry their own chance generator and play on to
  the end (the leak firewall);
* ``clone`` and ``dict_round_trip``: clones are independent and continue identically; ``to_dict``
  is JSON-safe and ``from_dict`` rebuilds an identical state;
* ``state_errors`` and ``env_errors``: illegal, wrong-player, malformed and game-over actions raise
  the right :class:`~boardgames_rl.core.errors.GameError` subclass, name the game and leave the
  state (and the AEC env) unchanged; players not on move see an all-zero mask; a seat or an
  action id out of range raises the same error class in every game (``check_misuse``);
* ``fresh_process``: the same seed gives the same trajectory in a new Python process;
* ``vector_env``: :class:`~boardgames_rl.envs.vector.VectorEnv` equals N single AEC envs;
* ``single_agent_env``: gymnasium's ``check_env`` on ``SingleAgentEnv`` and (with the ``[train]``
  extra) a few steps of sb3-contrib ``MaskablePPO`` that only ever take legal actions.

:func:`~boardgames_rl.testing.check_agent_no_peeking` checks an agent: on two different true states
that share the player's information set, the agent, given the same seed, chooses the same action.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from boardgames_rl.core.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidConfigError,
    InvalidPlayerError,
    MalformedActionError,
    WrongPlayerError,
)
from boardgames_rl.core.game import TERMINAL, Game, State, legal_list
from boardgames_rl.testing.random_play import (
    normalised,
    play_out,
    random_action,
    random_states,
    trajectory_hash,
)

__all__ = [
    "CHECKS",
    "ConformanceError",
    "ConformanceReport",
    "check_agent_no_peeking",
    "check_clone",
    "check_dict_round_trip",
    "check_env_errors",
    "check_fresh_process",
    "check_game",
    "check_info_sets",
    "check_misuse",
    "check_pettingzoo_api",
    "check_random_games",
    "check_single_agent_env",
    "check_state_errors",
    "check_vector_env",
    "env_snapshot",
]

MALFORMED = (-1, "num_actions", 1.5, "3", None, True, np.array([1, 2]))


class ConformanceError(AssertionError):
    """A game or agent broke the contract; the message says where and how."""


def _require(condition: Any, message: str) -> None:
    if not condition:
        raise ConformanceError(message)


def _expect_error(
    exc_type: type[BaseException], fn: Callable[[], Any], where: str
) -> BaseException:
    try:
        fn()
    except exc_type as exc:
        return exc
    except Exception as exc:  # a different error class is a contract violation too
        raise ConformanceError(
            f"{where}: expected {exc_type.__name__}, got {type(exc).__name__}: {exc}"
        ) from exc
    raise ConformanceError(f"{where}: expected {exc_type.__name__}, nothing was raised")


def _malformed_values(game: Game) -> list[Any]:
    return [game.num_actions if isinstance(v, str) and v == "num_actions" else v for v in MALFORMED]


def _registered_name(game: Game) -> str | None:
    from boardgames_rl.registry import list_games

    return game.name if game.name in list_games() else None


def _diff_fields(game: Game, a: np.ndarray, b: np.ndarray) -> list[str]:
    spec = game.observation_spec
    return [
        f.name
        for f in spec.fields
        if not np.array_equal(a[spec.slices[f.name]], b[spec.slices[f.name]])
    ]


def env_snapshot(env: Any) -> dict[str, Any]:
    """Everything observable about a GameAECEnv (for 'unchanged after an error' checks)."""
    raw = env.unwrapped
    return {
        "state": normalised(raw.game_state.to_dict()),
        "agents": list(raw.agents),
        "agent_selection": raw.agent_selection,
        "rewards": dict(raw.rewards),
        "cumulative": dict(raw._cumulative_rewards),
        "terminations": dict(raw.terminations),
        "truncations": dict(raw.truncations),
        "infos": {a: dict(i) for a, i in raw.infos.items()},
        "observations": {
            a: {k: v.tolist() for k, v in raw.observe(a).items()} for a in raw.possible_agents
        },
    }


# ---------------------------------------------------------------------------- PettingZoo API
def check_pettingzoo_api(game: Game) -> None:
    """PettingZoo's ``api_test`` and ``seed_test`` on the raw env and the registered env."""
    import pettingzoo
    from pettingzoo.test import api_test, seed_test

    from boardgames_rl.envs.aec import GameAECEnv

    config = dict(game.config)
    with warnings.catch_warnings():
        # api_test warns about every Dict observation space of a non-built-in env.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(GameAECEnv(game), num_cycles=1000)
        seed_test(lambda: GameAECEnv(type(game)(**config)))
        name = _registered_name(game)
        if name is not None:
            from boardgames_rl.envs import env_id, make_env

            api_test(pettingzoo.make("aec", env_id(name), **config), num_cycles=1000)
            seed_test(lambda: make_env(name, **config))


# ---------------------------------------------------------------------------- random games
def _check_observations(state: State, game: Game, where: str) -> None:
    # Hot loop (every player, every step of every game): the messages are built only on failure.
    spec = game.observation_spec
    low, high, size = spec.low, spec.high, spec.size
    for p in range(game.num_players):
        obs = state.observation(p)
        if not (isinstance(obs, np.ndarray) and obs.dtype == np.float32):
            raise ConformanceError(
                f"{where}: observation({p}) must be a float32 array, got {type(obs).__name__} "
                f"{getattr(obs, 'dtype', None)}"
            )
        if obs.shape != (size,):
            raise ConformanceError(f"{where}: observation({p}) shape {obs.shape}")
        written = np.full(size, np.nan, np.float32)  # every entry must be written
        state.write_observation(p, written)
        if not np.array_equal(written, obs):
            raise ConformanceError(
                f"{where}: write_observation({p}) (what vector envs read) is not observation({p})"
            )
        if not ((obs >= low).all() and (obs <= high).all()):
            bad = {
                f.name: obs[spec.slices[f.name]].tolist()
                for f in spec.fields
                if np.any(obs[spec.slices[f.name]] < f.low)
                or np.any(obs[spec.slices[f.name]] > f.high)
            }
            raise ConformanceError(f"{where}: observation({p}) out of the spec bounds: {bad}")


def check_random_games(game: Game, games: int = 500, seed: int = 20240601) -> None:
    """Seeded random games end in time, with per-step sanity checks (see the module docstring)."""
    rng = np.random.default_rng(seed)
    n_players, n_actions = game.num_players, game.num_actions
    sspec = game.state_spec
    for g in range(games):
        state = game.new_state(g)
        steps = 0
        while not state.is_terminal():
            # Hot loop: each message is built only when its check fails.
            cp = state.current_player
            if not (isinstance(cp, int | np.integer) and 0 <= cp < n_players):
                raise ConformanceError(
                    f"{game.name}: game seed {g}, step {steps}: current_player {cp!r} out of range"
                )
            mask = state.legal_action_mask()
            if not (mask.dtype == bool and mask.shape == (n_actions,)):
                raise ConformanceError(f"{game.name}: game seed {g}, step {steps}: bad mask")
            if not mask.any():
                raise ConformanceError(
                    f"{game.name}: game seed {g}, step {steps}: empty legal action mask in a "
                    "non-terminal state"
                )
            if legal_list(state) != mask.nonzero()[0].tolist():
                raise ConformanceError(
                    f"{game.name}: game seed {g}, step {steps}: legal_list (what search loops "
                    f"read) is not the mask's actions"
                )
            returns = np.asarray(state.returns())
            if returns.shape != (n_players,) or returns.any():
                raise ConformanceError(
                    f"{game.name}: game seed {g}, step {steps}: returns must be all zero before "
                    f"the end, got {returns}"
                )
            _check_observations(state, game, f"{game.name}: game seed {g}, step {steps}")
            state.apply(random_action(state, rng))
            steps += 1
            if steps > game.max_game_length:
                raise ConformanceError(
                    f"{game.name}: game seed {g} not over after "
                    f"max_game_length={game.max_game_length} actions"
                )
        where = f"{game.name}: game seed {g}, end after {steps} actions"
        _require(state.current_player == TERMINAL, f"{where}: current_player must be -1")
        _require(not state.legal_action_mask().any(), f"{where}: mask must be empty when terminal")
        returns = np.asarray(state.returns(), dtype=np.float64)
        _require(
            returns.shape == (n_players,) and np.all(np.isfinite(returns)),
            f"{where}: bad final returns {returns}",
        )
        _check_observations(state, game, where)
        sv = state.state_vector()
        _require(sv.dtype == np.float32 and sspec.contains(sv), f"{where}: state_vector off spec")


# ---------------------------------------------------------------------------- information sets
def check_info_sets(game: Game, states: int = 200, samples: int = 5, seed: int = 11) -> None:
    """Sampled states agree with the true one on all the player may know; they play on."""
    rng = np.random.default_rng(seed + 1)
    for k, state in enumerate(random_states(game, states, seed=seed)):
        before = normalised(state.to_dict())
        for p in range(game.num_players):
            where = f"{game.name}: state {k} (depth-random), player {p}"
            obs = state.observation(p)
            mask = state.legal_action_mask_for(p)
            if p != state.current_player:
                _require(not mask.any(), f"{where}: a player not on move must see a zero mask")
            info = state.info_set(p)
            _require(
                info.player == p and info.current_player == state.current_player,
                f"{where}: info_set player/current_player wrong",
            )
            _require(
                np.array_equal(info.observation, obs), f"{where}: info_set observation differs"
            )
            _require(
                np.array_equal(info.legal_action_mask, mask), f"{where}: info_set mask differs"
            )
            for s in range(samples):
                sample = info.sample(rng)
                _require(isinstance(sample, State) and sample is not state, where)
                _require(
                    sample.current_player == state.current_player,
                    f"{where}, sample {s}: current_player {sample.current_player} != "
                    f"{state.current_player}",
                )
                _require(sample.is_terminal() == state.is_terminal(), f"{where}, sample {s}")
                _require(
                    np.array_equal(sample.observation(p), obs),
                    f"{where}, sample {s}: observation differs in fields "
                    f"{_diff_fields(game, sample.observation(p), obs)}",
                )
                _require(
                    np.array_equal(sample.legal_action_mask_for(p), mask),
                    f"{where}, sample {s}: legal action mask differs",
                )
        _require(
            normalised(state.to_dict()) == before,
            f"{game.name}: state {k}: info_set/sample mutated it",
        )
    # Samples carry their own chance generator (future chance is hidden too) and are full states.
    for k, state in enumerate(random_states(game, 20, seed=seed + 2)):
        if state.is_terminal():
            continue
        sample = state.info_set(state.current_player).sample(rng)
        true_rng = state.to_dict()["state"].get("rng")
        if true_rng is not None:
            _require(
                sample.to_dict()["state"]["rng"] != true_rng,
                f"{game.name}: state {k}: the sample copied the true chance generator",
            )
        play_out(sample, rng, game.max_game_length)


# ---------------------------------------------------------------------------- clone / dicts
def check_clone(game: Game, states: int = 40, seed: int = 5) -> None:
    """Clones are independent of the original and continue identically."""
    rng = np.random.default_rng(seed - 2)
    for k, state in enumerate(random_states(game, states, seed=seed)):
        where = f"{game.name}: state {k}"
        original = normalised(state.to_dict())
        clone = state.clone()
        _require(clone is not state and normalised(clone.to_dict()) == original, where)
        actions, trail = [], []
        while not clone.is_terminal():
            a = random_action(clone, rng)
            clone.apply(a)
            actions.append(a)
            trail.append(normalised(clone.to_dict()))
        _require(
            normalised(state.to_dict()) == original,
            f"{where}: advancing the clone changed the original",
        )
        for i, a in enumerate(actions):
            state.apply(a)
            _require(
                normalised(state.to_dict()) == trail[i],
                f"{where}: original and clone diverge {i + 1} actions after cloning",
            )
        _require(np.array_equal(state.returns(), clone.returns()), f"{where}: returns differ")


def check_dict_round_trip(game: Game, states: int = 40, seed: int = 6) -> None:
    """``to_dict`` is JSON-safe; :func:`boardgames_rl.load_state
    <boardgames_rl.registry.load_state>` (a registered game) and ``game.state_from_dict`` rebuild
    it."""
    rng = np.random.default_rng(seed - 2)
    registered = _registered_name(game) is not None
    for k, state in enumerate(random_states(game, states, seed=seed)):
        where = f"{game.name}: state {k}"
        d = state.to_dict()
        d2 = json.loads(json.dumps(d, allow_nan=False))
        _require(
            d["game"] == game.name and d2["config"] == normalised(game.config),
            f"{where}: to_dict must name the game and its config",
        )
        rebuilt = [game.state_from_dict(d2)]
        if registered:
            from boardgames_rl.registry import load_state

            rebuilt.append(load_state(d2))
        for r in rebuilt:
            _require(type(r) is type(state), f"{where}: from_dict gave {type(r).__name__}")
            _require(normalised(r.to_dict()) == d2, f"{where}: round trip is not exact")
            _require(r.current_player == state.current_player, f"{where}: current_player")
            for p in range(game.num_players):
                _require(
                    np.array_equal(r.observation(p), state.observation(p)),
                    f"{where}: observation({p}) differs after the round trip",
                )
            _require(
                np.array_equal(r.legal_action_mask(), state.legal_action_mask()),
                f"{where}: mask differs after the round trip",
            )
        steps = 0
        while not state.is_terminal():
            a = random_action(state, rng)
            for s in (state, *rebuilt):
                s.apply(a)
            ref = normalised(state.to_dict())
            steps += 1
            for r in rebuilt:
                _require(
                    normalised(r.to_dict()) == ref,
                    f"{where}: rebuilt state diverges {steps} actions later",
                )
        for r in rebuilt:
            _require(np.array_equal(r.returns(), state.returns()), f"{where}: returns differ")


# ---------------------------------------------------------------------------- errors
def _expect_unchanged(
    state: State, exc_type: type[GameError], action: Any, where: str, player: int | None = None
) -> str:
    before = normalised(state.to_dict())
    mask_before = state.legal_action_mask().copy()
    exc = _expect_error(
        exc_type, lambda: state.apply(action, player=player), f"{where}: apply({action!r})"
    )
    _require(
        normalised(state.to_dict()) == before, f"{where}: {exc_type.__name__} changed the state"
    )
    _require(
        np.array_equal(state.legal_action_mask(), mask_before),
        f"{where}: {exc_type.__name__} changed the mask",
    )
    message = str(exc)
    _require(
        message and state.game.name in message,
        f"{where}: unclear error message (must name the game): {message!r}",
    )
    return message


def check_state_errors(game: Game, states: int = 30, seed: int = 8) -> None:
    """Bad actions raise the right error, name the game and change nothing."""
    all_states = random_states(game, states, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for k, state in enumerate(all_states):
        where = f"{game.name}: state {k}"
        if state.is_terminal():
            _expect_unchanged(state, GameOverError, 0, where)
            continue
        illegal = np.flatnonzero(~state.legal_action_mask())
        if illegal.size:
            a = int(illegal[rng.integers(illegal.size)])
            message = _expect_unchanged(state, IllegalActionError, a, where)
            _require(str(a) in message, f"{where}: the error must name action {a}: {message!r}")
        if game.num_players > 1:
            other = (state.current_player + 1) % game.num_players
            legal = random_action(state, rng)
            _expect_unchanged(state, WrongPlayerError, legal, where, player=other)
        for value in _malformed_values(game):
            _expect_unchanged(state, MalformedActionError, value, where)
    terminal = all_states[0].clone()
    play_out(terminal, rng, game.max_game_length)
    _expect_unchanged(terminal, GameOverError, 0, f"{game.name}: finished game")
    check_misuse(game, all_states[: max(1, states // 5)])


BAD_SEATS = (-1, "num_players", 1.5, "0", None, True)


def check_misuse(game: Game, states: list[State] | None = None) -> None:
    """The same misuse raises the same error class in every game: a seat out of range gives
    :class:`~boardgames_rl.core.errors.InvalidPlayerError`, an action id out of range
    :class:`~boardgames_rl.core.errors.MalformedActionError`, each naming the game."""
    states = states if states is not None else random_states(game, 6, seed=21)
    seats = [game.num_players if v == "num_players" else v for v in BAD_SEATS]
    for k, state in enumerate(states):
        before = normalised(state.to_dict())
        for seat in seats:
            for method in ("observation", "info_set", "legal_action_mask_for"):
                where = f"{game.name}: state {k}: {method}({seat!r})"
                exc = _expect_error(
                    InvalidPlayerError, partial(getattr(state, method), seat), where
                )
                _require(game.name in str(exc), f"{where}: the message must name the game")
        for action in (-1, game.num_actions, 2.5, "1"):
            for owner in (game, state):
                where = f"{game.name}: {type(owner).__name__}.action_name({action!r})"
                _expect_error(MalformedActionError, partial(owner.action_name, action), where)  # type: ignore[arg-type]
        _require(normalised(state.to_dict()) == before, f"{game.name}: misuse changed state {k}")


def check_env_errors(game: Game, steps: int = 60, seed: int = 12) -> None:
    """The AEC env raises the engine's errors, changes nothing on them, masks players off move."""
    from boardgames_rl.envs.aec import GameAECEnv

    rng = np.random.default_rng(seed - 2)
    envs: list[Any] = [GameAECEnv(game)]
    name = _registered_name(game)
    if name is not None:
        from boardgames_rl.envs import make_env

        envs.append(make_env(name, **game.config))
    for env in envs:
        env.reset(seed=seed)
        done = 0
        while env.agents and done < steps:
            agent = env.agent_selection
            raw = env.unwrapped
            state = raw.game_state
            where = f"{game.name}: env step {done}"
            if raw.terminations[agent] or raw.truncations[agent]:
                env.step(None)
                continue
            for a in raw.possible_agents:
                m = raw.observe(a)["action_mask"]
                _require(m.dtype == np.int8, f"{where}: action_mask must be int8")
                if a == agent:
                    _require(
                        np.array_equal(m.astype(bool), state.legal_action_mask()),
                        f"{where}: {a}'s action_mask differs from the legal mask",
                    )
                else:
                    _require(not m.any(), f"{where}: {a} is not on move but sees a non-zero mask")
            before = env_snapshot(env)
            illegal = np.flatnonzero(~state.legal_action_mask())
            errors: list[tuple[type[GameError], Any]] = [
                (IllegalActionError, int(a)) for a in illegal[:3]
            ]
            errors += [(MalformedActionError, v) for v in _malformed_values(game)]
            for exc_type, value in errors:
                _expect_error(exc_type, partial(env.step, value), f"{where}: step({value!r})")
                _require(
                    env_snapshot(env) == before, f"{where}: env changed after {exc_type.__name__}"
                )
            env.step(random_action(state, rng))
            done += 1


# ---------------------------------------------------------------------------- determinism
_SUBPROCESS = """
import importlib, json, sys
sys.path[:0] = json.loads(sys.argv[1])
module, qualname, config, seeds = sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5:]
cls = getattr(importlib.import_module(module), qualname)
from boardgames_rl.testing.random_play import trajectory_hash
for seed in seeds:
    print(trajectory_hash(cls(**config), int(seed)))
"""


def check_fresh_process(game: Game, seeds: Iterable[int] = (0, 123456789)) -> None:
    """The same seed gives the same trajectory here, in a rebuilt game and in a new process
    (one process plays every seed, each in a game built afresh).

    The game's class must be importable by its module name (its module on ``sys.path``).
    """
    cls = type(game)
    _require(cls(**game.config) == game, f"{game.name}: the game must be rebuildable from config")
    seeds = tuple(seeds)
    local = [trajectory_hash(game, s) for s in seeds]
    _require(
        local == [trajectory_hash(cls(**game.config), s) for s in seeds],
        f"{game.name}: a rebuilt game plays a different trajectory",
    )
    env = dict(os.environ, PYTHONHASHSEED="4242")
    args = [json.dumps(sys.path), cls.__module__, cls.__qualname__, json.dumps(game.config)]
    out = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS, *args, *map(str, seeds)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    _require(out.returncode == 0, f"{game.name}: fresh process failed:\n{out.stderr}")
    hashes = out.stdout.split()
    for i, (seed, expected) in enumerate(zip(seeds, local, strict=True)):
        _require(
            i < len(hashes) and hashes[i] == expected,
            f"{game.name}: seed {seed}: the trajectory differs in a new process",
        )


def check_vector_env(game: Game, n: int = 4, seed: int = 31) -> None:
    """``VectorEnv`` equals N single AEC envs seeded ``(seed, i)``, across auto-resets."""
    from boardgames_rl.envs.aec import GameAECEnv
    from boardgames_rl.envs.vector import VectorEnv

    venv = VectorEnv(game, n, seed=seed)
    envs = [GameAECEnv(game) for _ in range(n)]
    for i, env in enumerate(envs):
        env.reset(seed=(seed, i))
    out = venv.reset()
    rng = np.random.default_rng(0)
    finished = np.zeros(n, dtype=int)
    for step in range(3 * game.max_game_length + 10):
        for i, env in enumerate(envs):
            state = env.game_state
            where = f"{game.name}: vector step {step}, slot {i}"
            _require(out.current_player[i] == state.current_player, f"{where}: current_player")
            _require(
                np.array_equal(out.observation[i], state.observation(state.current_player)),
                f"{where}: observation",
            )
            _require(
                np.array_equal(out.action_mask[i], state.legal_action_mask()), f"{where}: mask"
            )
        if finished.min() >= 2:
            break
        actions = venv.sample_random_actions(rng)
        out = venv.step(actions)
        for i, env in enumerate(envs):
            where = f"{game.name}: vector step {step}, slot {i}"
            env.step(int(actions[i]))
            if env.agents and (any(env.terminations.values()) or any(env.truncations.values())):
                rewards = [env.rewards[a] for a in env.possible_agents]
                _require(np.allclose(out.rewards[i], rewards, rtol=1e-6), f"{where}: rewards")
                _require(
                    np.allclose(out.final_returns[i], env.game_state.returns(), rtol=1e-6),
                    f"{where}: final returns",
                )
                _require(out.terminated[i] == any(env.terminations.values()), f"{where}: term")
                _require(out.truncated[i] == any(env.truncations.values()), f"{where}: trunc")
                _require(out.episode_lengths[i] > 0, f"{where}: episode length")
                finished[i] += 1
                env.reset()
            else:
                _require(not out.terminated[i] and not out.truncated[i], f"{where}: ended early")
                _require(not out.rewards[i].any(), f"{where}: reward before the end")
    venv.close()
    _require(finished.min() >= 2, f"{game.name}: every vector slot should have finished 2 games")


# ---------------------------------------------------------------------------- Gymnasium / SB3
def check_single_agent_env(game: Game, train: bool | None = None) -> None:
    """gymnasium's ``check_env`` on ``SingleAgentEnv``; with sb3-contrib installed (or
    ``train=True``), a short MaskablePPO run that only takes legal actions of the learner's seat."""
    from gymnasium.utils.env_checker import check_env

    from boardgames_rl.envs.single_agent import SingleAgentEnv

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        # check_env steps an action sampled *before* a reset and assumes it is still valid
        # afterwards; this env ends the episode on an illegal action instead of raising.
        check_env(SingleAgentEnv(game, seat="random", illegal_action="lose"))
    if train is None:
        import importlib.util

        train = importlib.util.find_spec("sb3_contrib") is not None
    if not train:
        return
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    env = SingleAgentEnv(game, seat=game.num_players - 1, illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, verbose=0)
    # Without a logger of its own, SB3 makes an empty SB3-<time> folder in the system's temporary
    # folder at every learn(): a check writes nothing outside what its caller chose.
    model.set_logger(Logger(None, []))
    model.learn(192)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    _require(env.action_masks()[int(action)], f"{game.name}: the trained policy chose illegally")


# ---------------------------------------------------------------------------- agents
def check_agent_no_peeking(
    agent: Any, game: Game, states: int = 30, samples: int = 3, seed: int = 0
) -> None:
    """An agent (an :class:`~boardgames_rl.agents.Agent` or a spec string) sees only its
    information set: on two true states that share it, with the same seed, it acts the same.

    For each random state, the player on move's information set is sampled to a second true
    state; the agent is asked on the info set of each (with equal generators) and must agree.
    """
    if isinstance(agent, str):
        from boardgames_rl.agents.registry import make_agent

        agent = make_agent(agent, game)
    rng = np.random.default_rng(seed)
    for k, state in enumerate(random_states(game, states, seed=seed + 1)):
        if state.is_terminal():
            continue
        p = state.current_player
        for s in range(samples):
            other = state.info_set(p).sample(rng)
            choices = []
            for true_state in (state, other):
                agent.reset()
                choices.append(agent.act(true_state.info_set(p), np.random.default_rng(k)))
            _require(
                choices[0] == choices[1],
                f"{game.name}: {agent!r} chose {choices[0]} and {choices[1]} on two states of "
                f"one information set (state {k}, sample {s}): it reads hidden information",
            )
            _require(
                state.legal_action_mask()[choices[0]],
                f"{game.name}: {agent!r} chose illegal action {choices[0]} (state {k})",
            )


# ---------------------------------------------------------------------------- the suite
NOT_BOOLEANS: tuple[Any, ...] = ("maybe", "", "nein", 2, -1, 0.5, None, [True])
"""Values every on/off option must refuse (a typo, a number, nothing, a list)."""
OFF_WORDS: tuple[Any, ...] = (False, "false", "no", "off", "0", "OFF", 0)
ON_WORDS: tuple[Any, ...] = (True, "true", "yes", "on", "1", "Yes", 1)


def boolean_options(game: Game) -> list[str]:
    """The on/off options of ``game``'s class: constructor parameters whose default is a bool."""
    try:
        params = inspect.signature(type(game).__init__).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if isinstance(p.default, bool)]


def check_options(game: Game) -> None:
    """Every on/off option parses like every other game's (``core.options.parse_bool``): the words
    ``true/false, yes/no, on/off, 1/0`` in any case and Python bools give the same game as
    ``True``/``False``; anything else (``NOT_BOOLEANS``) is an ``InvalidConfigError`` naming
    the option, never read as on."""
    cls, config = type(game), dict(game.config)
    for key in boolean_options(game):
        for words, truth in ((OFF_WORDS, False), (ON_WORDS, True)):
            try:
                expected = cls(**{**config, key: truth}).config
            except InvalidConfigError:
                continue  # the value does not fit this configuration (e.g. another option)
            for word in words:
                try:
                    got = cls(**{**config, key: word}).config
                except InvalidConfigError as e:
                    raise ConformanceError(
                        f"{game.name}: option {key}={word!r} should mean {truth} but was refused "
                        f"({e}); parse on/off options with core.options.parse_bool"
                    ) from e
                _require(
                    got == expected,
                    f"{game.name}: option {key}={word!r} gave config {got}, expected {expected} "
                    f"({key}={truth})",
                )
        for bad in NOT_BOOLEANS:
            try:
                cls(**{**config, key: bad})
            except InvalidConfigError as e:
                _require(
                    key in str(e) and "\n" not in str(e),
                    f"{game.name}: refusing {key}={bad!r} the message must name {key} in one line, "
                    f"got {str(e)!r}",
                )
                continue
            except Exception as e:  # noqa: BLE001 - any other error is the failure reported
                raise ConformanceError(
                    f"{game.name}: option {key}={bad!r} raised {type(e).__name__} ({e}), not an "
                    "InvalidConfigError"
                ) from e
            raise ConformanceError(
                f"{game.name}: option {key}={bad!r} was accepted; an on/off option must refuse "
                "anything but true/false, yes/no, on/off, 1/0"
            )


CHECKS: dict[str, Callable[..., None]] = {
    "options": check_options,
    "pettingzoo_api": check_pettingzoo_api,
    "random_games": check_random_games,
    "info_sets": check_info_sets,
    "clone": check_clone,
    "dict_round_trip": check_dict_round_trip,
    "state_errors": check_state_errors,
    "env_errors": check_env_errors,
    "fresh_process": check_fresh_process,
    "vector_env": check_vector_env,
    "single_agent_env": check_single_agent_env,
}
"""Every check of :func:`~boardgames_rl.testing.check_game` by name, in the order it runs them (its
``checks`` and ``skip`` arguments take these names)."""


@dataclass
class ConformanceReport:
    """Which checks ran and how long each took (every check in it passed)."""

    game: str
    config: dict[str, Any]
    seconds: dict[str, float] = field(default_factory=dict)

    def __str__(self) -> str:
        lines = [f"{self.game} {self.config}: {len(self.seconds)} checks passed"]
        lines += [f"  {name:<18} {sec:6.2f} s" for name, sec in self.seconds.items()]
        return "\n".join(lines)


def check_game(
    game: Game, checks: Iterable[str] | None = None, skip: Iterable[str] = ()
) -> ConformanceReport:
    """Run the conformance suite on ``game`` (every check, or the named ``checks``).

    Raises :class:`ConformanceError` at the first failure; returns a report otherwise.
    """
    names = list(CHECKS) if checks is None else list(checks)
    unknown = sorted((set(names) | set(skip)) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown checks {unknown}; choose from {sorted(CHECKS)}")
    report = ConformanceReport(game.name, dict(game.config))
    for name in names:
        if name in skip:
            continue
        start = time.perf_counter()
        CHECKS[name](game)
        report.seconds[name] = time.perf_counter() - start
    return report
