"""RLlib recipe: every game as an RLlib ``MultiAgentEnv``, and a PPO module with masked logits
(the ``[rllib]`` extra, RLlib's new API stack).

The config, the env and the masked module, and one move of the (untrained) module::

    from boardgames_rl.interop import rllib

    config = rllib.ppo_config("night_of_the_ninja", {"num_players": 5}, policies="shared")
    config.env_runners(num_env_runners=0).training(train_batch_size_per_learner=512)

    env = rllib.RLlibMultiAgentEnv({"game": "night_of_the_ninja", "config": {"num_players": 5}})
    obs, infos = env.reset(seed=0)
    module = config.rl_module_spec.build()["shared"]
    [(agent, agent_obs)] = obs.items()  # the seat on move: {"observations", "action_mask"}
    action = rllib.greedy_action(module, agent_obs)
    obs, rewards, terminateds, truncateds, infos = env.step({agent: action})

Training is ``algo = config.build_algo()`` then ``algo.train()`` in a loop; after it,
``algo.get_module("shared")`` is the trained module ``greedy_action`` takes.
``lab/experiments/rllib_ppo.py`` is the whole training script, every knob a flag.

How our contract maps onto RLlib's:

==========================  ==============================================================
RLlib                       boardgames_rl
==========================  ==============================================================
agent ids                   ``game.player_names``, one per seat (``"player_0"``, ...)
``reset``                   a new game; ``reset(seed=s)`` starts the seed stream ``s`` (as
                            :class:`~boardgames_rl.envs.aec.GameAECEnv`), a later reset
                            without a seed plays the next game of the stream
observations                ``{"observations": state.observation(p), "action_mask":
                            legal mask as float32}``, only for the seat on move (RLlib's
                            turn-based convention: the agents in the observation dict are
                            the ones asked to act); a seat may act several times in a row
``step``                    ``state.apply`` with the one action in the action dict (an
                            illegal action raises the game's ``IllegalActionError``)
rewards                     the final ``state.returns()``, given at the end of the game to
                            every seat that has acted (each also gets its last observation)
``terminateds/truncateds``  ``{"__all__": True}`` at the end; truncated when the engine's
                            safety cap ended the game (``state.truncated``)
==========================  ==============================================================

Masking: :class:`MaskedPPOTorchRLModule` is RLlib's default PPO module (MLP encoder, policy and
value heads) built on the ``"observations"`` part of the space; in every forward pass the logits
of illegal actions are set to the lowest float, so sampling, ``argmax`` and the PPO loss never
give an illegal action any probability. :func:`ppo_config` wires env, module and policies:
``policies="shared"`` (one policy for every seat) or ``"per-seat"`` (one policy per seat, i.e.
per role: seat 0 moves first, and in asymmetric games each seat's policy learns its own play).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from boardgames_rl.core.errors import InvalidConfigError, MissingExtraError
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.seeding import SeedLike, next_game_seed, seed_stream
from boardgames_rl.registry import list_games, make_game


def _require_extra(module: str) -> Any:
    """Import ``module`` or raise a one-line :class:`MissingExtraError` naming ``[rllib]``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"the RLlib recipe needs {module}, which is not installed: "
            "pip install 'boardgames-rl[rllib]'"
        ) from exc


_require_extra("ray.rllib")
torch = _require_extra("torch")

from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (  # noqa: E402
    DefaultPPOTorchRLModule,
)
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402

__all__ = [
    "POLICY_MODES",
    "MaskedPPOTorchRLModule",
    "RLlibMultiAgentEnv",
    "greedy_action",
    "policy_mapping",
    "ppo_config",
]

POLICY_MODES = ("shared", "per-seat")
SHARED = "shared"


def _make_game(game: str | Game, config: Mapping[str, Any] | None) -> Game:
    if isinstance(game, Game):
        if config:
            raise InvalidConfigError("give either a Game or a game name with its config, not both")
        return game
    if game not in list_games():
        raise InvalidConfigError(f"unknown game {game!r}; choose from {', '.join(list_games())}")
    return make_game(game, **dict(config or {}))


class RLlibMultiAgentEnv(MultiAgentEnv):
    """One game as an RLlib ``MultiAgentEnv`` (turn-based: only the seat on move is observed).

    Args:
        env_config: RLlib's env config, a dict with ``"game"`` (a registry name or a
            :class:`~boardgames_rl.core.game.Game`), optional ``"config"`` (the game's keyword
            configuration, e.g. ``{"num_players": 3}``) and optional ``"seed"`` (the seed stream
            of the first ``reset`` without a seed; RLlib's env runners pass their own seeds).
    """

    def __init__(self, env_config: Mapping[str, Any] | None = None):
        super().__init__()
        env_config = dict(env_config or {})
        unknown = set(env_config) - {"game", "config", "seed"}
        if unknown:
            raise InvalidConfigError(f"unknown env_config keys {sorted(unknown)}")
        if "game" not in env_config:
            raise InvalidConfigError('env_config needs "game" (a game name or a Game)')
        self.game = _make_game(env_config["game"], env_config.get("config"))
        self.possible_agents = list(self.game.player_names)
        self.agents = list(self.possible_agents)
        n = self.game.num_actions
        spec = self.game.observation_spec
        space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(spec.low, spec.high, dtype=np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces: dict[str, gym.Space] = {
            a: gym.spaces.Discrete(n) for a in self.possible_agents
        }
        self._first_seed: SeedLike = env_config.get("seed")
        self._stream: np.random.Generator | None = None
        self._state: State | None = None
        self._acted: set[int] = set()

    @property
    def game_state(self) -> State:
        """The true state of the current game (for tests and evaluation, not for agents)."""
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _obs(self, player: int) -> dict[str, np.ndarray]:
        state = self.game_state
        if player == state.current_player and not state.is_terminal():
            mask = state.legal_action_mask().astype(np.float32)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.float32)
        return {
            "observations": np.asarray(state.observation(player), dtype=np.float32),
            "action_mask": mask,
        }

    def reset(
        self, *, seed: SeedLike = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: the observation of the seat on move."""
        if seed is not None:
            self._stream = seed_stream(seed)
        elif self._stream is None:
            self._stream = seed_stream(self._first_seed)
        self._state = self.game.new_state(next_game_seed(self._stream))
        self._acted = set()
        if self._state.is_terminal():
            raise RuntimeError(f"{self.game.name}: the game is over at setup; nothing to play")
        player = self._state.current_player
        return {self.possible_agents[player]: self._obs(player)}, {}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the action of the seat on move; at the end every seat that acted gets its
        final observation and its return."""
        state = self.game_state
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        player = state.current_player
        agent = self.possible_agents[player]
        if set(action_dict) != {agent}:
            raise InvalidConfigError(
                f"expected one action for {agent!r}, got {sorted(action_dict)}"
            )
        state.apply(int(action_dict[agent]), player=player)
        self._acted.add(player)
        if state.is_terminal():
            returns = state.returns()
            seats = sorted(self._acted)
            obs = {self.possible_agents[p]: self._obs(p) for p in seats}
            rewards = {self.possible_agents[p]: float(returns[p]) for p in seats}
            truncated = bool(state.truncated)
            return obs, rewards, {"__all__": not truncated}, {"__all__": truncated}, {}
        nxt = state.current_player
        return (
            {self.possible_agents[nxt]: self._obs(nxt)},
            {agent: 0.0},
            {"__all__": False},
            {"__all__": False},
            {},
        )


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module with masked logits.

    Its observation space is ``Dict(observations=Box, action_mask=Box)``; the networks see the
    ``"observations"`` part and the logits of actions whose mask entry is 0 become the lowest
    float in every forward pass (exploration, inference and training).
    """

    def __init__(self, *args: Any, observation_space: gym.spaces.Dict | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space) != {
            "observations",
            "action_mask",
        }:
            raise InvalidConfigError(
                "MaskedPPOTorchRLModule needs a Dict(observations=..., action_mask=...) space"
            )
        self._space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs["observations"]
        return obs["action_mask"], inner

    @staticmethod
    def _mask(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        low = torch.finfo(logits.dtype).min
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0.5, logits, low)
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], Mapping):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def policy_mapping(policies: str) -> Any:
    """RLlib's ``policy_mapping_fn``: every seat to ``"shared"``, or each seat to its own name."""
    if policies not in POLICY_MODES:
        raise InvalidConfigError(f"policies must be one of {POLICY_MODES}, got {policies!r}")
    if policies == SHARED:
        return lambda agent_id, episode, **kwargs: SHARED
    return lambda agent_id, episode, **kwargs: agent_id


def ppo_config(
    game: str,
    config: Mapping[str, Any] | None = None,
    *,
    policies: str = SHARED,
    hidden: tuple[int, ...] = (256, 256),
    seed: int | None = None,
) -> PPOConfig:
    """A ``PPOConfig`` for ``game`` (env, masked module per policy, policy mapping); set the
    resources and training knobs on it as usual before ``build_algo()``."""
    env_config = {"game": game, "config": dict(config or {}), "seed": seed}
    probe = RLlibMultiAgentEnv(env_config)
    mapping = policy_mapping(policies)
    ids = [SHARED] if policies == SHARED else list(probe.possible_agents)
    first = probe.possible_agents[0]
    module = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=probe.observation_spaces[first],
        action_space=probe.action_spaces[first],
        model_config={"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": []},
    )
    return (
        PPOConfig()
        .environment(RLlibMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .multi_agent(policies=set(ids), policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={i: module for i in ids}))
        .debugging(seed=seed)
    )


def greedy_action(module: Any, obs: Mapping[str, np.ndarray], *, sample: bool = False) -> int:
    """The action of a trained module for one observation dict: the most likely legal action
    (or one sampled from the masked distribution with ``sample=True``)."""
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(obs["observations"], dtype=torch.float32)[None],
            "action_mask": torch.as_tensor(obs["action_mask"], dtype=torch.float32)[None],
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    if sample:
        return int(torch.distributions.Categorical(logits=logits).sample())
    return int(torch.argmax(logits))
