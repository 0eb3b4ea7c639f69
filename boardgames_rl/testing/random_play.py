"""Seeded random play: the states and trajectories the conformance checks and tests are built on."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
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


def full_trajectory_hash(
    game: Game, seed: int, state: State | None = None, sort_keys: bool = False
) -> str:
    """SHA-256 of one seeded random game, fuller than :func:`trajectory_hash`: at every step the
    state dict, every seat's observation, the legal mask and the contextual names of the legal
    actions, then the action; the returns at the end. ``state`` starts from a hand-made position
    instead of ``game.new_state(seed)`` (the random moves are still drawn from ``seed``)."""
    h = hashlib.sha256()
    state = game.new_state(seed) if state is None else state
    rng = np.random.default_rng(seed)
    while True:
        h.update(json.dumps(state.to_dict(), sort_keys=sort_keys).encode())
        for p in range(game.num_players):
            h.update(np.ascontiguousarray(state.observation(p), dtype=np.float32).tobytes())
        if state.is_terminal():
            break
        mask = state.legal_action_mask()
        h.update(mask.tobytes())
        h.update("|".join(state.action_name(int(a)) for a in np.flatnonzero(mask)).encode())
        a = random_action(state, rng)
        h.update(str(a).encode())
        state.apply(a)
    h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    return h.hexdigest()


def value_hashes(
    game: Game,
    evaluate: Callable[[State], Any],
    potential: Callable[[State], Any],
    n: int,
    seed: int = 5,
) -> dict[str, str]:
    """SHA-256 of the float64 bytes of ``evaluate`` and of ``potential`` over ``n`` random-play
    states: a change of either value function by one bit changes its hash."""
    ev, pot = hashlib.sha256(), hashlib.sha256()
    for state in random_states(game, n, seed=seed):
        ev.update(np.asarray(evaluate(state), dtype=np.float64).tobytes())
        pot.update(np.asarray(potential(state), dtype=np.float64).tobytes())
    return {"evaluate": ev.hexdigest(), "potential": pot.hexdigest()}
