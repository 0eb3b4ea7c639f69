"""Helpers of the conformance suite (also used by the adapter tests and the subprocess check)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from boardgames_rl.core.game import Game, State
from boardgames_rl.core.registry import game_entry, list_games


def case_id(name: str, config: dict[str, Any]) -> str:
    """Readable parametrisation id, e.g. ``castle_flutterstone[num_players=2]``."""

    def fmt(v: Any) -> str:
        return (
            str(v)
            if isinstance(v, str | int | float | bool)
            else json.dumps(v, separators=(",", ":"))
        )

    inner = ",".join(f"{k}={fmt(v)}" for k, v in config.items()) or "default"
    return f"{name}[{inner}]"


def game_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each of its ``test_configs``."""
    return [(name, dict(cfg)) for name in list_games() for cfg in game_entry(name).test_configs]


def random_action(state: State, rng: np.random.Generator) -> int:
    """A uniformly random legal action of the player on move."""
    legal = state.legal_actions()
    return int(legal[rng.integers(len(legal))])


def play_out(state: State, rng: np.random.Generator, max_steps: int) -> int:
    """Play uniformly random legal actions to the end; returns the number of actions."""
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise AssertionError(f"game not over after {max_steps} actions")
        state.apply(random_action(state, rng))
        steps += 1
    return steps


def random_states(game: Game, n: int, seed: int, per_game: int = 4) -> list[State]:
    """``n`` states reached by random play, at uniformly random depths (terminal ones included).

    Each game is played once to learn its length, then replayed (same seed, same actions) to clone
    the states at ``per_game`` random depths.
    """
    rng = np.random.default_rng(seed)
    out: list[State] = []
    g = 0
    while len(out) < n:
        game_seed = seed * 100_003 + g
        g += 1
        state = game.new_state(game_seed)
        actions = []
        while not state.is_terminal():
            a = random_action(state, rng)
            actions.append(a)
            state.apply(a)
        depths = set(rng.integers(0, len(actions) + 1, size=per_game).tolist())
        state = game.new_state(game_seed)
        for d in range(len(actions) + 1):
            if d in depths:
                out.append(state.clone())
            if d < len(actions):
                state.apply(actions[d])
    return out[:n]


def normalised(d: Any) -> Any:
    """A ``to_dict`` result as JSON would give it back (tuples -> lists); fails if not JSON-safe."""
    return json.loads(json.dumps(d, allow_nan=False))


def trajectory_hash(game: Game, seed: int) -> str:
    """SHA-256 of one seeded random game: every state dict, observation and action, and the end."""
    h = hashlib.sha256()
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        h.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        if state.is_terminal():
            break
        p = state.current_player
        h.update(np.ascontiguousarray(state.observation(p), dtype=np.float32).tobytes())
        a = random_action(state, rng)
        h.update(str(a).encode())
        state.apply(a)
        steps += 1
        if steps > game.max_game_length:
            raise AssertionError("game longer than max_game_length")
    h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    return h.hexdigest()


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
