"""OpponentPool: who plays the learner's opponents, drawn afresh for every game.

Entries are named. Fixed entries (``"random"``, ``"heuristic"``, any agent spec) have a sampling
weight each; frozen snapshots of the learner (self-play) share the ``self_weight`` uniformly and
are capped (the oldest is dropped). The pool is the ``opponents`` callable of
:class:`~boardgames_rl.envs.single_agent.SingleAgentEnv`: ``pool(rng)`` gives one agent (two-player
games) or one agent per other seat, each seat drawn independently with ``rng`` (so a seeded env
draws the same opponents every run). Each opponent slot owns its own instance of a fixed entry,
so agents with memory (heuristics keep plans) never serve two seats of one game.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from boardgames_rl.agents.ppo import PolicyAgent, freeze_policy
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.agent import Agent, is_memoryless
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game

SELF = "self"
"""Name of the self-play category in specs and weights."""


class OpponentPool:
    """Named opponents with sampling weights, plus capped self-play snapshots.

    Args:
        factories: ``name -> factory() -> Agent`` for the fixed entries.
        weights: ``name -> weight`` (>= 0) for each fixed entry (missing names weigh 1).
        self_weight: total weight of the snapshots (shared uniformly among them).
        max_snapshots: cap on the snapshots kept (oldest dropped first).
        num_opponents: opponent seats per game (``num_players - 1``).
    """

    def __init__(
        self,
        factories: Mapping[str, Callable[[], Agent]],
        weights: Mapping[str, float] | None = None,
        self_weight: float = 0.0,
        max_snapshots: int = 5,
        num_opponents: int = 1,
    ):
        weights = dict(weights or {})
        unknown = set(weights) - set(factories)
        if unknown:
            raise InvalidConfigError(f"weights given for unknown pool entries {sorted(unknown)}")
        if SELF in factories:
            raise InvalidConfigError(f"{SELF!r} is reserved for snapshots; use self_weight")
        if max_snapshots < 1:
            raise InvalidConfigError(f"max_snapshots must be >= 1, got {max_snapshots}")
        if num_opponents < 1:
            raise InvalidConfigError(f"num_opponents must be >= 1, got {num_opponents}")
        self.weights = {name: float(weights.get(name, 1.0)) for name in factories}
        self.self_weight = float(self_weight)
        if any(w < 0 for w in self.weights.values()) or self.self_weight < 0:
            raise InvalidConfigError(
                f"pool weights must be >= 0, got {weights} and self {self_weight}"
            )
        if sum(self.weights.values()) + self.self_weight <= 0:
            raise InvalidConfigError("the pool needs at least one entry with a positive weight")
        self.max_snapshots = int(max_snapshots)
        self.num_opponents = int(num_opponents)
        self._instances = {
            name: [factory() for _ in range(self.num_opponents)]
            for name, factory in factories.items()
        }
        self._snapshots: OrderedDict[str, Agent] = OrderedDict()
        self._seen_snapshots: set[str] = set()

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_specs(
        cls,
        game: Game,
        specs: Sequence[str],
        weights: Sequence[float] | None = None,
        max_snapshots: int = 5,
    ) -> OpponentPool:
        """A pool from agent specs (``"random"``, ``"heuristic"``, ``"ismcts:iterations=50"``,
        ...) and ``"self"`` for snapshots, with one weight per spec (default 1 each)."""
        specs = [s.strip() for s in specs]
        if not specs or any(not s for s in specs):
            raise InvalidConfigError(f"opponent specs must be non-empty names, got {specs}")
        if len(set(specs)) != len(specs):
            raise InvalidConfigError(f"opponent specs must be distinct, got {specs}")
        weights = [1.0] * len(specs) if weights is None else [float(w) for w in weights]
        if len(weights) != len(specs):
            raise InvalidConfigError(
                f"give one weight per opponent: {len(specs)} opponents {specs}, "
                f"{len(weights)} weights {weights}"
            )
        fixed = {s: w for s, w in zip(specs, weights, strict=True) if s != SELF}
        for spec in fixed:
            make_agent(spec, game)  # fail now, with the registry's message, on a bad spec
        factories = {spec: _factory(spec, game) for spec in fixed}
        self_weight = dict(zip(specs, weights, strict=True)).get(SELF, 0.0)
        return cls(factories, fixed, self_weight, max_snapshots, game.num_players - 1)

    # ------------------------------------------------------------------ snapshots
    def add_snapshot(self, name: str, policy: Any, deterministic: bool = False) -> bool:
        """Add a frozen copy of ``policy`` as entry ``name`` (dropping the oldest beyond the cap).

        Adding a name already seen does nothing and returns False (so several envs sharing one
        pool may all be told about the same snapshot).
        """
        if name in self._seen_snapshots:
            return False
        if name == SELF or name in self.weights:
            raise InvalidConfigError(f"snapshot name {name!r} clashes with a pool entry")
        self._seen_snapshots.add(name)
        self._snapshots[name] = PolicyAgent(freeze_policy(policy), deterministic, name=name)
        while len(self._snapshots) > self.max_snapshots:
            self._snapshots.popitem(last=False)
        return True

    @property
    def snapshot_names(self) -> list[str]:
        """Snapshots currently in the pool, oldest first."""
        return list(self._snapshots)

    def snapshot(self, name: str) -> Agent:
        """The frozen snapshot agent called ``name``."""
        return self._snapshots[name]

    # ------------------------------------------------------------------ sampling
    def probabilities(self) -> dict[str, float]:
        """Probability of each entry (fixed and snapshots) for one opponent seat."""
        table = dict(self.weights)
        if self._snapshots:
            for name in self._snapshots:
                table[name] = self.self_weight / len(self._snapshots)
        total = sum(table.values())
        if total <= 0:
            raise RuntimeError(
                "the pool has no opponent to draw: only self-play has weight and no snapshot has "
                "been added yet (add one with add_snapshot)"
            )
        return {name: w / total for name, w in table.items()}

    def sample_names(self, rng: np.random.Generator) -> list[str]:
        """One entry name per opponent seat."""
        probs = self.probabilities()
        names = list(probs)
        p = np.array([probs[n] for n in names])
        return [names[i] for i in rng.choice(len(names), size=self.num_opponents, p=p)]

    def sample(self, rng: np.random.Generator) -> list[Agent]:
        """One agent per opponent seat."""
        return [
            self._snapshots[name] if name in self._snapshots else self._instances[name][slot]
            for slot, name in enumerate(self.sample_names(rng))
        ]

    @property
    def memoryless(self) -> bool:
        """True when a draw depends on ``rng`` alone and gives memoryless agents: no self-play
        weight (snapshots come and go) and every fixed entry memoryless
        (:func:`~boardgames_rl.core.agent.is_memoryless`). An env may then draw a game's
        opponents and play their opening moves before its reset
        (:meth:`~boardgames_rl.envs.single_agent.SingleAgentEnv.prepare_next_game`)."""
        return self.self_weight == 0 and all(
            is_memoryless(agent) for agents in self._instances.values() for agent in agents
        )

    def __call__(self, rng: np.random.Generator) -> Agent | list[Agent]:
        """SingleAgentEnv's ``opponents`` callable: one agent (two players) or a list."""
        agents = self.sample(rng)
        return agents[0] if self.num_opponents == 1 else agents

    def __repr__(self) -> str:
        try:
            probs = ", ".join(f"{k}={v:.2f}" for k, v in self.probabilities().items())
        except RuntimeError:
            probs = f"self={self.self_weight} (no snapshot yet)"
        return f"<OpponentPool {probs}>"


def _factory(spec: str, game: Game) -> Callable[[], Agent]:
    def build() -> Agent:
        return make_agent(spec, game)

    return build
