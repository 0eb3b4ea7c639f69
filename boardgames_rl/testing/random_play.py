"""Seeded random play: the states and trajectories the conformance checks and tests are built on."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from boardgames_rl.core.game import Game, State


def random_action(state: State, rng: np.random.Generator) -> int:
    """A uniformly random legal action of the player on move."""
    legal = state.legal_actions()
    return int(legal[rng.integers(len(legal))])


def play_out(state: State, rng: np.random.Generator, max_steps: int) -> int:
    """Play uniformly random legal actions to the end; returns the number of actions.

    Raises ``AssertionError`` if the game is not over after ``max_steps`` actions.
    """
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise AssertionError(f"{state.game.name}: game not over after {max_steps} actions")
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


def random_play_states(
    game: Game, count: int, seed: int, first_game_seed: int, keep: float
) -> list[State]:
    """``count`` states (clones) from random play over as many games as it takes.

    Every state is kept with probability ``keep`` (seeded); the first state of every decision
    kind (``state.decision["kind"]`` where the state has one) and every terminal state are always
    kept, so rare decisions are covered. Game ``g`` starts from seed ``first_game_seed + g``.
    """
    rng = np.random.default_rng(seed)
    out: list[State] = []
    seen: set = set()
    g = 0
    while len(out) < count:
        s = game.new_state(seed=first_game_seed + g)
        g += 1
        while len(out) < count:
            decision = getattr(s, "decision", None)
            kind = decision["kind"] if decision is not None else None
            if rng.random() < keep or s.is_terminal() or kind not in seen:
                seen.add(kind)
                out.append(s.clone())
            if s.is_terminal():
                break
            s.apply(int(rng.choice(s.legal_actions())))
    return out


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
            raise AssertionError(f"{game.name}: game longer than max_game_length")
    h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    return h.hexdigest()
