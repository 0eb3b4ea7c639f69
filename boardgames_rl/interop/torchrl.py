"""TorchRL recipe: every game through TorchRL's own ``PettingZooWrapper``, with a masked policy
(the ``[torchrl]`` extra).

TorchRL's wrapper takes our PettingZoo AEC env as it is; this module only picks its options and
builds the policy and value networks::

    from boardgames_rl.interop import torchrl as bg_torchrl

    env = bg_torchrl.make_env("white_castle", seed=0)    # a torchrl EnvBase
    actor, critic = bg_torchrl.make_actor_critic(env, hidden=(128,))
    rollout = env.rollout(100, actor, break_when_any_done=False)
    rollout["players", "action"]                          # every action in the mask

``lab/experiments/torchrl_ppo.py`` is a whole PPO training loop on top of it.

The layout of a TensorDict (``n`` seats, ``A`` actions, ``GROUP = "players"``):

=============================================  ===================================================
key                                            meaning
=============================================  ===================================================
``("players", "observation", "observation")``  ``state.observation(p)`` of every seat ``[n, obs]``
``("players", "action_mask")``                 legal actions of the seat on move ``[n, A]`` (the
                                               wrapper sets all-true rows for the other seats)
``("players", "mask")``                        ``[n]``: True for the seat on move (AEC: one seat)
``("players", "action")``                      ``[n]`` action ids; only the seat on move's is played
``("next", "players", "reward")``              ``[n, 1]``, the game's returns on the last step
``("next", "players", "done")``                ``[n, 1]``, every seat at the end of the game
=============================================  ===================================================

The actor is a ``ProbabilisticActor`` whose distribution is TorchRL's ``MaskedCategorical`` over
the ``action_mask``, so a sampled or greedy action is always legal; the critic is a
``ValueOperator`` writing ``("players", "state_value")``. All seats share both networks (the
seat's observation says which seat it is). ``reset`` seeds follow
:class:`~boardgames_rl.envs.aec.GameAECEnv`: ``seed`` starts a seed stream, every later reset
plays its next game.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Mapping
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError, MissingExtraError
from boardgames_rl.envs.aec import GameAECEnv
from boardgames_rl.registry import list_games, make_game


def _require_extra(module: str) -> Any:
    """Import ``module`` or raise a one-line :class:`MissingExtraError` naming ``[torchrl]``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"the TorchRL recipe needs {module}, which is not installed: "
            "pip install 'boardgames-rl[torchrl]'"
        ) from exc


torch = _require_extra("torch")
_require_extra("torchrl")

from tensordict.nn import TensorDictModule  # noqa: E402
from torch import nn  # noqa: E402
from torchrl.envs import EnvBase  # noqa: E402
from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor, ValueOperator  # noqa: E402

__all__ = [
    "ACTING",
    "ACTION",
    "GROUP",
    "LOGITS",
    "LOG_PROB",
    "MASK",
    "OBS",
    "VALUE",
    "make_actor_critic",
    "make_env",
]

GROUP = "players"
OBS = (GROUP, "observation", "observation")
MASK = (GROUP, "action_mask")
ACTING = (GROUP, "mask")
ACTION = (GROUP, "action")
LOG_PROB = (GROUP, "action_log_prob")
LOGITS = (GROUP, "logits")
VALUE = (GROUP, "state_value")


def make_env(
    game: str, config: Mapping[str, Any] | None = None, *, seed: int | None = None
) -> EnvBase:
    """``game`` (a registry name and its keyword configuration) as a TorchRL env: TorchRL's
    ``PettingZooWrapper`` over :class:`~boardgames_rl.envs.aec.GameAECEnv`, every seat in the
    group ``"players"``, masks on."""
    if game not in list_games():
        raise InvalidConfigError(f"unknown game {game!r}; choose from {', '.join(list_games())}")
    g = make_game(game, **dict(config or {}))
    with warnings.catch_warnings():
        # TorchRL warns on any PettingZoo but 1.24.3; tests/interop/test_torchrl.py checks ours.
        warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested using version")
        return PettingZooWrapper(
            GameAECEnv(g),
            use_mask=True,
            categorical_actions=True,
            group_map={GROUP: list(g.player_names)},
            seed=seed,
        )


def make_actor_critic(
    env: EnvBase, hidden: tuple[int, ...] = (256, 256)
) -> tuple[ProbabilisticActor, ValueOperator]:
    """A masked categorical actor and a value critic for ``env`` (from :func:`make_env`), one
    MLP each, shared by every seat."""
    obs_size = env.observation_spec[OBS].shape[-1]
    num_actions = env.full_action_spec[ACTION].space.n
    logits = TensorDictModule(
        MLP(
            in_features=obs_size,
            out_features=num_actions,
            num_cells=list(hidden),
            activation_class=nn.Tanh,
        ),
        in_keys=[OBS],
        out_keys=[LOGITS],
    )
    actor = ProbabilisticActor(
        logits,
        in_keys={"logits": LOGITS, "mask": MASK},
        out_keys=[ACTION],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=LOG_PROB,
        spec=env.full_action_spec[ACTION],
    )
    critic = ValueOperator(
        MLP(in_features=obs_size, out_features=1, num_cells=list(hidden), activation_class=nn.Tanh),
        in_keys=[OBS],
        out_keys=[VALUE],
    )
    return actor, critic
