"""The learner's vector env as a ``gymnasium.vector.VectorEnv``, registered for ``make_vec``.

::

    import gymnasium
    import numpy as np

    import boardgames_rl.envs  # registers boardgames_rl/<game>-v<version>

    venv = gymnasium.make_vec("boardgames_rl/castle_flutterstone-v0", num_envs=8,
                              num_players=2, seat=0, seed=0, num_workers=2)
    rng = np.random.default_rng(0)
    obs, infos = venv.reset()
    for _ in range(10):
        actions = [rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]]
        obs, rewards, terminated, truncated, infos = venv.step(np.array(actions))
    venv.close()

:class:`BatchedVectorEnv` takes :class:`~boardgames_rl.envs.vector.learner_slots.BatchedCore`'s
keywords (see :mod:`boardgames_rl.envs.batched`).
:func:`~boardgames_rl.envs.vector.gym_env.register_gymnasium_envs` registers every game under the
PettingZoo id (``boardgames_rl/<game>-v<version>``): ``gymnasium.make`` gives its
:class:`~boardgames_rl.envs.single_agent.SingleAgentEnv`, ``gymnasium.make_vec`` this env (its
vector entry point); keywords the game's config takes go to the game, the others to the env.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from boardgames_rl.core.game import Game
from boardgames_rl.core.seeding import SeedLike
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.envs.vector.core import slot_seeds
from boardgames_rl.envs.vector.learner_slots import BatchedCore


class BatchedVectorEnv(gym.vector.VectorEnv):
    """:class:`~boardgames_rl.envs.vector.learner_slots.BatchedCore` as a
    ``gymnasium.vector.VectorEnv`` (same constructor keywords).

    * ``single_observation_space`` ``Box(float32)``, ``single_action_space`` ``Discrete(A)``;
      ``observation_space`` / ``action_space`` are their batched forms (``MultiDiscrete`` for
      actions).
    * ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``: on the step that ends a
      game the returned observation is already the next game's, and ``infos`` holds
      ``"final_obs"`` (object array, the ended game's last observation where ``"_final_obs"``)
      and ``"final_info"`` (``"episode": {"r", "l"}``, ``"returns"`` per seat, with
      ``"_final_info"``).
    * ``reset(seed=s)`` seeds slot ``i`` with ``(s, i)`` (a list gives one seed per slot);
      infos hold ``"seat"`` and ``"game_seed"`` arrays. Every ``step`` info holds ``"seat"``.
    * :meth:`action_masks` gives the ``[N, A]`` legal-action masks of the current decisions;
      every ``reset`` and ``step`` info holds them too, as ``"action_mask"``.

    Wrappers written for gymnasium's default ``NEXT_STEP`` mode (e.g.
    ``gymnasium.wrappers.vector.RecordEpisodeStatistics``, which skips the step after a done)
    miscount here; the episode statistics are in ``infos["final_info"]["episode"]``.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: Game, num_envs: int, **kwargs: Any):
        self.core = BatchedCore(game, num_envs, **kwargs)
        self.num_envs = self.core.num_envs
        self.single_observation_space = self.core.single_observation_space
        self.single_action_space = self.core.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._first_seed = kwargs.get("seed")
        self._has_reset = False
        self._started = time.perf_counter()

    def reset(
        self, *, seed: int | Sequence[SeedLike] | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None and not self._has_reset:
            seed = self._first_seed
        if seed is None:
            seeds: list[SeedLike] = [None] * self.num_envs
        elif isinstance(seed, int | np.integer):
            seeds = slot_seeds(int(seed), self.num_envs)
        else:
            seeds = list(seed)
        self.core.reset(seeds)
        self._has_reset = True
        b = self.core.buffers
        return b["observation"].copy(), {
            "seat": b["seat"].copy(),
            "game_seed": b["game_seed"].copy(),
            "action_mask": b["action_mask"].copy(),
        }

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per slot; ``(observations, rewards, terminated, truncated, infos)``, a slot
        whose game ended already on its next game (autoreset mode ``SAME_STEP``)."""
        self.core.start(actions)
        self.core.wait()
        b = self.core.buffers
        term, trunc = b["terminated"].copy(), b["truncated"].copy()
        infos: dict[str, Any] = {"seat": b["seat"].copy(), "action_mask": b["action_mask"].copy()}
        done = term | trunc
        if done.any():
            ended = np.flatnonzero(done)
            n = self.num_envs
            final_obs = np.full(n, None, dtype=object)
            for i, row in zip(ended, b["final_observation"][ended], strict=True):
                final_obs[i] = row  # rows of one copy
            r, length = np.zeros(n, np.float64), np.zeros(n, np.int64)
            returns = np.zeros_like(b["final_returns"])
            r[ended] = b["episode_return"][ended]
            length[ended] = b["episode_length"][ended]
            returns[ended] = b["final_returns"][ended]
            final_info = {
                "episode": {"r": r, "l": length, "_r": done.copy(), "_l": done.copy()},
                "returns": returns,
                "_episode": done.copy(),
                "_returns": done.copy(),
            }
            infos.update(
                final_obs=final_obs, _final_obs=done, final_info=final_info, _final_info=done
            )
        return b["observation"].copy(), b["reward"].copy(), term, trunc, infos

    def action_masks(self) -> np.ndarray:
        """``[N, A] bool``: the legal actions of each slot's current decision."""
        return self.core.buffers["action_mask"].copy()

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``name`` of every slot's env: called with the arguments if callable, else read."""
        values = self.core.get_attr(name)
        if values and callable(values[0]):
            return tuple(self.core.call(name, *args, **kwargs))
        return tuple(values)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return tuple(self.core.get_attr(name))

    def set_attr(self, name: str, values: Any) -> None:
        if not isinstance(values, list | tuple):
            values = [values] * self.num_envs
        for i, v in enumerate(values):
            self.core.set_attr(name, v, indices=[i])

    def close_extras(self, **kwargs: Any) -> None:
        core = getattr(self, "core", None)  # None when the constructor raised
        if core is not None:
            core.close()

    def __repr__(self) -> str:
        return (
            f"BatchedVectorEnv({self.core.game.name}, num_envs={self.num_envs}, "
            f"workers={self.core.num_workers}{', main steps' if self.core.main_steps else ''})"
        )


_ENV_KEYWORDS = frozenset(inspect.signature(BatchedCore.__init__).parameters) - {"self", "game"}


def _split(name: str, kwargs: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
    """Game ``name`` configured by the keywords that are not the env's, and the env's."""
    from boardgames_rl.registry import make_game

    env = {k: v for k, v in kwargs.items() if k in _ENV_KEYWORDS or k == "render_mode"}
    config = {k: v for k, v in kwargs.items() if k not in env and k != "max_episode_steps"}
    return make_game(name, **config), env


def make_single_env(game: str, **kwargs: Any) -> SingleAgentEnv:
    """``gymnasium.make`` entry point: game ``game``'s :class:`SingleAgentEnv` (the keywords the
    env takes go to it, the others configure the game)."""
    from boardgames_rl.registry import make_game

    params = set(inspect.signature(SingleAgentEnv.__init__).parameters) - {"self", "game"}
    env = {k: v for k, v in kwargs.items() if k in params}
    config = {k: v for k, v in kwargs.items() if k not in params}
    return SingleAgentEnv(make_game(game, **config), **env)


def make_vector_env(game: str, num_envs: int = 1, **kwargs: Any) -> BatchedVectorEnv:
    """``gymnasium.make_vec`` entry point: game ``game``'s :class:`BatchedVectorEnv`."""
    configured, env = _split(game, kwargs)
    env.pop("render_mode", None)
    return BatchedVectorEnv(configured, num_envs, **env)


def register_gymnasium_envs(ids: dict[str, str]) -> list[str]:
    """Register each ``ids[game]`` with gymnasium (skipping ids already there): ``make`` gives
    the single-agent env, ``make_vec`` :class:`BatchedVectorEnv`. Returns the ids registered."""
    added = []
    for name, env_id in ids.items():
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=f"{__name__}:make_single_env",
            vector_entry_point=f"{__name__}:make_vector_env",
            kwargs={"game": name},
        )
        added.append(env_id)
    return added
