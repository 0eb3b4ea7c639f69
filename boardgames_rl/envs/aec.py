"""GameAECEnv: any :class:`~boardgames_rl.core.game.Game` as a PettingZoo ``AECEnv``.

Written once against the game contract; every game gets the same environment::

    import numpy as np

    from boardgames_rl import make_game
    from boardgames_rl.envs.aec import GameAECEnv

    rng = np.random.default_rng(0)
    env = GameAECEnv(make_game("castle_flutterstone", num_players=3), render_mode="ansi")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        done = terminated or truncated
        legal = np.flatnonzero(obs["action_mask"])  # a policy reads obs["observation"] too
        env.step(None if done else int(rng.choice(legal)))
    print(env.render())

Conventions:

* agents are named by ``game.player_names``; ``agent_selection`` is always the player on move, so
  the same agent may act several times in a row and a seat may take a decision inside another
  seat's turn (a response, a challenge, ...);
* ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``; the mask is
  all zeros for agents not on move;
* rewards are the final returns of the game, given on the step that ends it (plus an optional
  per-step ``reward_shaping(previous_state, new_state) -> per-seat array``);
* an illegal or malformed action raises the game's :class:`~boardgames_rl.core.errors.GameError`
  (``IllegalActionError`` / ``MalformedActionError``) and leaves the environment unchanged;
* ``reset(seed)`` starts a *seed stream*; every later ``reset()`` without a seed starts the next
  game of that stream (see :mod:`boardgames_rl.core.seeding`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from boardgames_rl.core.game import Game, InfoSet, State
from boardgames_rl.core.seeding import SeedLike, next_game_seed, seed_stream

RewardShaping = Callable[[State, State], np.ndarray]
"""``shaping(previous_state, new_state) -> float array [num_players]`` added to step rewards."""

ObsDict = dict[str, np.ndarray]

_INT8 = np.dtype(np.int8)
_FLOAT32 = np.dtype(np.float32)
"""The observation's dtypes as objects (``dtype=np.int8`` converts the type at every call)."""


class GameAECEnv(AECEnv[str, ObsDict, int]):
    """PettingZoo AEC environment for any game implementing the contract.

    Args:
        game: the configured game.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the omniscient text view),
            ``"human"`` (prints it) or ``"rgb_array"`` (returns a ``uint8 [H, W, 3]`` image).
        reward_shaping: optional ``f(previous_state, new_state) -> per-seat array`` added to the
            rewards of every step (the previous state is a clone, made only when shaping is on).
    """

    def __init__(
        self,
        game: Game,
        render_mode: str | None = None,
        reward_shaping: RewardShaping | None = None,
    ):
        super().__init__()
        self.metadata = {
            "render_modes": ["ansi", "human", "rgb_array"],
            "name": f"{game.name}_v{game.version}",
            "is_parallelizable": False,
            "render_fps": 2,
        }
        modes = cast(list[str], self.metadata["render_modes"])
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {modes} or None, got {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.reward_shaping = reward_shaping
        self.possible_agents: list[str] = list(game.player_names)
        self._agent_index: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}

        spec = game.observation_spec
        n = game.num_actions
        # One space object per agent, built once (api_test requires identity across calls).
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(spec.low, spec.high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(n) for a in self.possible_agents
        }
        self.state_space = spaces.Box(game.state_spec.low, game.state_spec.high, dtype=np.float32)

        self._seed_stream: np.random.Generator | None = None
        self._state: State | None = None
        self._rewards_zero = True  # every entry of self.rewards is 0.0 (the usual case)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box(float32), action_mask=Box(int8))``; the same object every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)``; the same object every call."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ core API
    def reset(self, seed: SeedLike = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.

        With a ``seed`` (an int or a sequence of ints) a new seed stream starts; without one the
        next game of the current stream is played (a fresh OS-entropy stream if never seeded).
        ``options`` is accepted for API compatibility and ignored.
        """
        if seed is not None or self._seed_stream is None:
            self._seed_stream = seed_stream(seed)
        self._state = self.game.new_state(next_game_seed(self._seed_stream))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._rewards_zero = True
        self._skip_agent_selection = None
        if self._state.is_terminal():  # degenerate game over at setup: report it at once
            self._mark_game_over()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self._state.current_player]

    def observe(self, agent: str) -> ObsDict:
        """``{"observation": state.observation(p), "action_mask": int8 mask (zeros off move)}``."""
        state = self._state
        if state is None:
            state = self._require_state()
        p = self._agent_index[agent]
        if p == state.current_player:
            mask = state.legal_action_mask().astype(_INT8)
        else:
            mask = np.zeros(self.game.num_actions, _INT8)
        return {  # p is a seat (from _agent_index): the hook without the core's seat check
            "observation": np.asarray(state._observation(p), _FLOAT32),
            "action_mask": mask,
        }

    def step(self, action: int | None) -> None:
        """Apply ``action`` for ``agent_selection``.

        Terminated/truncated agents must step with ``None`` (PettingZoo dead step). Otherwise the
        action goes to ``State.apply``; its errors propagate and nothing in the env has changed.
        """
        agent = self.agent_selection
        if self.terminations.get(agent, False) or self.truncations.get(agent, False):
            self._was_dead_step(action)
            return
        state = self._require_state()
        shaping = self.reward_shaping
        previous = state.clone() if shaping is not None else None
        player = self._agent_index[agent]
        state.apply(action, player)  # type: ignore[arg-type]  # validated: None raises

        # ---- the action succeeded: only now touch the environment's bookkeeping
        self._cumulative_rewards[agent] = 0.0
        if shaping is None and self._rewards_zero and not state.is_terminal():
            # the common step: every reward is 0 and stays 0, nothing to accumulate
            self.agent_selection = self.possible_agents[state.current_player]
            return
        rewards = np.zeros(self.game.num_players, dtype=np.float64)
        if shaping is not None and previous is not None:
            rewards += np.asarray(shaping(previous, state), dtype=np.float64)
        if state.is_terminal():
            rewards += np.asarray(state.returns(), dtype=np.float64)
            self._mark_game_over()
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        for a in self.agents:
            self.rewards[a] = float(rewards[self._agent_index[a]])
        self._rewards_zero = not rewards.any()
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """The omniscient ``state_vector()`` (for centralised critics); space ``state_space``."""
        return np.asarray(self._require_state().state_vector(), dtype=np.float32)

    def render(self) -> str | np.ndarray | None:
        """Render the omniscient view according to ``render_mode``."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode. "
                "Set render_mode at initialization ('ansi', 'human' or 'rgb_array')."
            )
            return None
        state = self._require_state()
        if self.render_mode == "rgb_array":
            return state.render_rgb(None)
        text = state.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (rendering is stateless)."""

    # ------------------------------------------------------------------ helpers
    @property
    def game_state(self) -> State:
        """The true, full game state (for tests and debugging).

        Agents must not look at it: give them :meth:`info_set` instead, which holds only what
        their seat may know.
        """
        return self._require_state()

    def info_set(self, agent: str) -> InfoSet:
        """What ``agent`` knows now (``state.info_set(p)``): the input for contract agents."""
        return self._require_state().info_set(self._agent_index[agent])

    def legal_action_names(self, agent: str) -> list[str]:
        """Readable names of ``agent`` 's legal actions in the context of the pending decision
        (e.g. ``"disc -> C4"``; empty when not on move)."""
        state = self._require_state()
        mask = state.legal_action_mask_for(self._agent_index[agent])
        return [state.action_name(int(a)) for a in np.flatnonzero(mask)]

    def _mark_game_over(self) -> None:
        truncated = bool(self._require_state().truncated)
        for a in self.agents:
            self.terminations[a] = not truncated
            self.truncations[a] = truncated

    def _require_state(self) -> State:
        if self._state is None:
            raise RuntimeError(
                f"{self.metadata['name']}: call reset() before using the environment"
            )
        return self._state

    def _clear_rewards(self) -> None:
        super()._clear_rewards()
        self._rewards_zero = True

    def __repr__(self) -> str:
        return f"<GameAECEnv {self.game!r}>"


def _forward(name: str) -> property:
    """A property of the wrapper reading ``env.<name>``, refused before ``reset`` like
    :class:`OrderEnforcingWrapper` refuses it."""

    def get(self: GameOrderEnforcingWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"``env.{name}`` (only after ``reset``).")


class GameOrderEnforcingWrapper(OrderEnforcingWrapper[str, ObsDict, int]):
    """PettingZoo's :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` (what ``env()`` /
    ``pettingzoo.make`` return), with the same checks and errors, minus its per-step forwarding
    cost.

    The parent class reaches every attribute of the inner env (``agent_selection``,
    ``terminations``, ...) through ``__getattr__``, about eight times per step of the usual
    ``agent_iter`` / ``last`` / ``step`` loop; here those attributes are properties with the same
    before-``reset`` check, and ``observe`` / ``step`` call the inner env directly.
    """

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    def observe(self, agent: str) -> ObsDict | None:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """:meth:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper.agent_iter` whose iterator reads
        the inner env directly."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict]:
        """:meth:`~pettingzoo.AECEnv.last` reading the inner env directly (the same values and the
        same before-``reset`` error as reading ``agent_selection`` through the wrapper)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        env = self.env
        agent = env.agent_selection
        return (
            env.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper itself prints


class _OrderEnforcingIterable(AECOrderEnforcingIterable[str, ObsDict, int]):
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator[str, ObsDict, int]):
    """PettingZoo's iterator (the same stops and the same assertion) reading the inner env's
    ``agents`` and ``agent_selection`` without the wrapper's properties."""

    def __next__(self) -> str:
        env = cast(GameOrderEnforcingWrapper, self.env)
        inner = env.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent = inner.agent_selection
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return agent
