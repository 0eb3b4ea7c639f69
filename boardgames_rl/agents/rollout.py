"""Monte Carlo rollout improvement of a base agent (Tesauro & Galperin, "On-line policy
improvement using Monte-Carlo search", NIPS 1996), for imperfect information.

At each decision with two or more legal actions the agent

1. draws ``worlds`` determinizations from its own information set (``InfoSet.sample``: never the
   true state);
2. in each world, tries every legal action on a clone of that world and plays on to the end
   (or ``depth`` actions, then the game's ``evaluate``) with the base agent moving for *every*
   player, on the same chance draws for every action of a world (common random numbers: the
   clones share the world's generator state, and each playout's agent generator is seeded per
   world);
3. plays the action with the highest mean value for its player; the base agent's own action wins
   ties and keeps its place unless another beats it by more than ``margin``.

With the base agent as every player's model this is one step of policy iteration over the base
policy: against opponents who play the base agent it improves on the base agent as far as the
sampled worlds are a fair picture of the hidden facts (they are drawn uniformly from what the
player knows, not weighted by how likely the opponents' moves made them) and the worlds are
enough to tell the actions apart. It is a search agent (``rollout:base=heuristic``) and a
teacher to distil (``lab/recipes/train_strong.py --teacher rollout:...``).

In 5-player Night of the Ninja against four heuristics, ``rollout:worlds=4`` over the heuristic
wins less often than a heuristic seat (the seeded games, with the interval, the date and the
commit: ``docs/results/behind_the_code.md``, "The rollout agent"): the worlds are drawn uniformly
from what the player has seen, while the heuristic's own beliefs weigh the Houses by what the
play so far suggests, so four uniform worlds judge its moves on a worse picture than it has, and
the argmax over four noisy means departs from it on noise. It is not the game's strong agent; the
residual policy is (``lab/recipes/train_strong.py``).

The base agent moves in playouts as in ISMCTS (:mod:`boardgames_rl.agents.playout`): through its
``act_on_state(state, rng)`` when it has one (Night of the Ninja's heuristic), else through its
view of the sampled world.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames_rl.agents.playout import Evaluate, agent_policy, play_out
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet, apply_legal


class RolloutAgent(Agent):
    """One-step rollout improvement of ``base`` (see the module docstring).

    Args:
        base: the agent every player is modelled by in the playouts (and whose move wins ties).
        worlds: determinizations per decision.
        depth: stop a playout after this many actions and score it with ``evaluate``
            (``None``: play to the end and score the returns).
        evaluate: ``evaluate(state) -> per-seat values`` for cut-offs (needed with ``depth``).
        margin: how much higher another action's mean value must be than the base action's.
    """

    name = "rollout"

    def __init__(
        self,
        base: Agent,
        worlds: int = 8,
        depth: int | None = None,
        evaluate: Evaluate | None = None,
        margin: float = 0.0,
    ):
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"rollout: worlds must be an int >= 1, got {worlds!r}")
        bad_depth = isinstance(depth, bool) or not isinstance(depth, int)
        if depth is not None and (bad_depth or depth < 0):
            raise ValueError(f"rollout: depth must be an int >= 0, got {depth!r}")
        if depth is not None and evaluate is None:
            raise ValueError("rollout: a depth needs an evaluate function (the game's evaluate)")
        if not margin >= 0:
            raise ValueError(f"rollout: margin must be >= 0, got {margin}")
        self.base = base
        self.worlds = worlds
        self.depth = depth
        self.evaluate = evaluate
        self.margin = float(margin)
        self.last_values: dict[int, float] = {}  # mean value per action of the last decision

    def reset(self) -> None:
        self.base.reset()

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        favoured = int(self.base.act(info_set, rng))  # asked every time: memory stays in step
        legal = np.flatnonzero(info_set.legal_action_mask).tolist()
        if len(legal) == 1:
            return int(legal[0])
        me = info_set.player
        totals = dict.fromkeys(legal, 0.0)
        policy = agent_policy(self.base)
        for _ in range(self.worlds):
            world = info_set.sample(rng)
            seed = int(rng.integers(2**63))
            for action in legal:
                state = world.clone()
                apply_legal(state, action)
                values = play_out(
                    state, policy, np.random.default_rng(seed), self.depth, self.evaluate
                )
                totals[action] += values[me]
        means = {a: v / self.worlds for a, v in totals.items()}
        self.last_values = means
        best = max(legal, key=lambda a: (means[a], a == favoured))
        if best != favoured and means[best] <= means[favoured] + self.margin:
            return favoured
        return int(best)


def build_rollout(game: Game, base: Agent, **kwargs: Any) -> RolloutAgent:
    """A :class:`RolloutAgent` from agent-spec keywords (``make_agent("rollout:...")``): ``base``
    (the agent the registry built from the spec's ``base``, default ``heuristic``), ``worlds``,
    ``depth`` (cut-offs scored by the game's ``evaluate``), ``margin``."""
    from boardgames_rl.agents.ismcts import load_evaluate

    known = {"worlds", "depth", "margin"}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise InvalidConfigError(
            f"rollout: unknown option(s) {', '.join(unknown)}; known: base, "
            f"{', '.join(sorted(known))}"
        )
    evaluate = load_evaluate(game) if kwargs.get("depth") is not None else None
    try:
        return RolloutAgent(base, evaluate=evaluate, **kwargs)
    except (ValueError, TypeError) as e:
        raise InvalidConfigError(str(e)) from e
