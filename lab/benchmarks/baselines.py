"""The comparison baselines of ``lab/benchmarks/throughput.py``: PettingZoo classic and OpenSpiel.

Everything here needs the ``[bench]`` extra (PettingZoo's classic games import ``pygame`` and
``texas_holdem`` imports ``rlcard``; OpenSpiel is ``open_spiel``). A missing package stops the
benchmark with one line naming the extra (:class:`MissingBench`); nothing is stubbed.

Every loop picks actions with :func:`random_legal_action` (one ``Generator.random()`` draw per
decision) and is timed by the caller in CPU time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

INSTALL = "pip install -e '.[bench]' (from a clone of the repository)"


class MissingBench(SystemExit):
    """A ``[bench]`` package is missing: exits with one line naming the extra."""

    def __init__(self, package: str, what: str):
        super().__init__(f"benchmark: {what} needs {package}, which is not installed: {INSTALL}")


def require(module: str, package: str, what: str) -> ModuleType:
    """``import module`` or :class:`MissingBench`."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        missing = (e.name or package).split(".")[0]
        raise MissingBench(missing if missing != module.split(".")[0] else package, what) from e


# --------------------------------------------------------------------------- action selection
def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of one mask: the ``floor(u * n_legal)``-th legal action."""
    legal = np.flatnonzero(mask)
    k = int(rng.random() * legal.size)
    return int(legal[min(k, legal.size - 1)])


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """:func:`random_legal_action` applied to every row of ``masks`` ``[N, A]`` at once."""
    counts = masks.sum(axis=1)
    k = (rng.random(masks.shape[0]) * counts).astype(np.int64)
    np.minimum(k, counts - 1, out=k)
    return (np.cumsum(masks, axis=1) <= k[:, None]).sum(axis=1).astype(np.int64)


class RandomActions:
    """Random legal actions from the masks, cheaply (the driver's CPU is part of every figure, in
    process and with workers, and runs in the main process while no worker steps): each call
    takes the argmax of the mask times one of ``tables`` precomputed positive random key arrays,
    so every legal action can be drawn (about 0.06 ms per call at N = 64 where a cumulative-sum
    draw took 0.2 ms)."""

    def __init__(self, num_envs: int, num_actions: int, rng: np.random.Generator, tables: int = 8):
        self.keys = 1.0 - rng.random((tables, num_envs, num_actions), dtype=np.float32)
        self.scratch = np.empty((num_envs, num_actions), np.float32)
        self.calls = 0

    def __call__(self, masks: np.ndarray) -> np.ndarray:
        self.calls += 1
        np.multiply(masks, self.keys[self.calls % len(self.keys)], out=self.scratch)
        return self.scratch.argmax(axis=1)


# --------------------------------------------------------------------------- loops
Stepper = Callable[[int], int]
"""``stepper(n) -> steps done`` (>= n): run ``n`` decisions, starting new games as needed."""


def aec_stepper(env: Any, seed: int, rng: np.random.Generator) -> Stepper:
    """The PettingZoo loop a user writes (``agent_iter`` / ``last`` / ``step``), a new game
    (``reset()``) whenever one ends; counts ``step`` calls with a real action."""
    env.reset(seed=seed)
    live = [env.agent_iter()]

    def run(n: int) -> int:
        done = 0
        while done < n:
            for _agent in live[0]:
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(random_legal_action(obs["action_mask"], rng))
                done += 1
                if done >= n:
                    return done
            env.reset()
            live[0] = env.agent_iter()
        return done

    return run


def pettingzoo_classic(name: str, wrapped: bool) -> Callable[[], Any]:
    """A factory of PettingZoo's ``classic/<name>`` env: ``pettingzoo.make`` (wrapped, what users
    get) or the module's ``raw_env``."""
    import pettingzoo

    what = f"PettingZoo's classic/{name}"
    if wrapped:
        require(
            pettingzoo.spec("aec", f"classic/{name}").entry_point.partition(":")[0], "pygame", what
        )
        return lambda: pettingzoo.make("aec", f"classic/{name}")
    entry = pettingzoo.spec("aec", f"classic/{name}").entry_point
    module = require(entry.partition(":")[0], "pygame", what)
    return module.raw_env


def openspiel_stepper(game_name: str, rng: np.random.Generator, observe: bool = False) -> Stepper:
    """An OpenSpiel game stepped through its Python API: ``legal_actions()``, the shared random
    pick over a mask, ``apply_action`` (with ``observe``, also the ``observation_tensor`` of the
    player on move, as an AEC step gives); chance nodes (none in connect_four and tic_tac_toe)
    are resolved by their outcome probabilities without counting as steps."""
    pyspiel = require("pyspiel", "open_spiel", f"OpenSpiel's {game_name}")
    if game_name.startswith("python_"):
        require("open_spiel.python.games", "open_spiel", f"OpenSpiel's {game_name}")
    game = pyspiel.load_game(game_name)
    size = game.num_distinct_actions()
    holder = [game.new_initial_state()]

    def run(n: int) -> int:
        state = holder[0]
        done = 0
        while done < n:
            if state.is_terminal():
                state = game.new_initial_state()
                continue
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            if observe:
                np.asarray(state.observation_tensor(state.current_player()), dtype=np.float32)
            mask = np.zeros(size, dtype=bool)
            mask[state.legal_actions()] = True
            state.apply_action(random_legal_action(mask, rng))
            done += 1
        holder[0] = state
        return done

    return run
