"""The learner's environment in training: :class:`PoolEnv` (a :class:`~boardgames_rl.envs.
single_agent.SingleAgentEnv` that answers the opponent pool's calls) and :class:`PoolEnvFactory`
(what the vector runtime builds its slots with, in-process or in workers), and
:func:`parse_seat`.

Every env gets its own copy of the opponent pool (agents with memory never serve two games at
once); snapshots reach every copy through ``envs.call("add_snapshot", name, policy)``.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from boardgames_rl._util.moved import names_moved_to_lab
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.envs.aec import RewardShaping
from boardgames_rl.envs.single_agent import OpponentsSpec, SingleAgentEnv
from boardgames_rl.training.pool import OpponentPool


class PoolEnv(SingleAgentEnv):
    """A :class:`SingleAgentEnv` that answers the pool calls (``add_snapshot``,
    ``snapshot_states``, ``pool``): the batched env's slots in training."""

    def add_snapshot(self, name: str, policy: Any) -> bool:
        """Add a frozen policy to this env's pool (no-op without a pool)."""
        pool = self.opponents
        return pool.add_snapshot(name, policy) if isinstance(pool, OpponentPool) else False

    def snapshot_states(self) -> list[tuple[str, dict[str, Any]]]:
        """``(name, state_dict)`` of each self-play snapshot in this env's pool, oldest first."""
        return snapshot_states_of(self.pool)

    @property
    def pool(self) -> OpponentPool | None:
        return self.opponents if isinstance(self.opponents, OpponentPool) else None


class PoolEnvFactory:
    """Picklable ``factory() -> PoolEnv`` with a fresh deep copy of ``pool`` per call (what the
    batched env's slots, in-process or in workers, are built with)."""

    def __init__(
        self,
        game: Game,
        seat: int | Literal["random"],
        pool: OpponentsSpec,
        reward_shaping: RewardShaping | None = None,
    ):
        self.game, self.seat, self.pool, self.reward_shaping = game, seat, pool, reward_shaping

    def __call__(self) -> PoolEnv:
        return PoolEnv(
            self.game,
            seat=self.seat,
            opponents=copy.deepcopy(self.pool),
            reward_shaping=self.reward_shaping,
            illegal_action="raise",  # a masked learner never plays one: a bug must show
        )


def snapshot_states_of(pool: OpponentPool | None) -> list[tuple[str, dict[str, Any]]]:
    """``(name, state_dict)`` of each self-play snapshot in ``pool``, oldest first (none without
    a pool)."""
    if pool is None:
        return []
    return [(n, pool.snapshot(n).policy.state_dict()) for n in pool.snapshot_names]  # type: ignore[attr-defined]


def parse_seat(seat: int | str, game: Game) -> int | Literal["random"]:
    """``"random"`` or a seat index (as int or digit string); clear error otherwise."""
    if seat == "random":
        return "random"
    try:
        s = int(seat)
    except (TypeError, ValueError):
        s = -1
    if not 0 <= s < game.num_players or isinstance(seat, bool):
        raise InvalidConfigError(
            f"seat must be 'random' or a seat in [0, {game.num_players}) for {game.name} "
            f"({', '.join(game.player_names)}), got {seat!r}"
        )
    return s


__getattr__ = names_moved_to_lab(
    __name__,
    {
        name: ("lab/recipes/sb3/envs.py", "the library's trainer is boardgames_rl.training.ppo")
        for name in ("LearnerEnv", "make_learner_env", "build_vec_env", "make_batched_env")
    },
)
