"""Information-set Monte Carlo tree search, generic over every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), 2012): one tree over action sequences from the searching player's information
set. Each iteration

1. draws a fresh *determinization*: a full state sampled from the info set (``InfoSet.sample``),
   so the search never sees the true state;
2. descends the tree choosing, among the children whose action is legal in this determinization,
   the one maximising UCB1 with *availability counts* (a child's exploration term uses the number
   of times it was available, not the parent's visits);
3. expands one untried legal action, then plays a rollout (random, or any agent such as the
   game's heuristic, optionally epsilon-greedy) to the end or to ``rollout_depth`` actions;
4. scores the playout: the returns at the end, or at a cut-off the game's ``evaluate(state)``
   (per-seat values in [-1, 1], see :func:`load_evaluate`; 0 for everyone without one);
5. backs up the per-player values: each node keeps the mean value of the player who chose it
   (n-player games work unchanged).

Optionally a ``prior`` agent (the game's heuristic) is asked at every decision (forced ones too,
so agents with memory stay in step), on the real info set: its action is expanded first at the
root and counts ``prior_visits`` extra visits when the final action is chosen, so the search keeps
the prior's move unless it finds a clearly better one. This matters where the root has many
similar actions (Flutterstone's 77 flicks).

Perfect-information games simply sample their hidden chance (deck order, the chance generator).
``evaluate`` only ever sees sampled states. Budget by ``iterations`` or by ``seconds``; given its
seed the agent is deterministic when the budget is in iterations.

The tree and one iteration (steps 2-5) are :mod:`boardgames_rl.agents.search_tree`, and the
playout :mod:`boardgames_rl.agents.playout`: both compile with the engines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from boardgames_rl.agents.playout import Evaluate, agent_policy, play_out
from boardgames_rl.agents.search_tree import Node, iterate
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet, State
from boardgames_rl.registry import game_spec, list_games


@runtime_checkable
class StateRollout(Protocol):
    """A rollout policy that reads the determinization itself (``rollout=fast``): the search's
    own sampled state, drawn from the searching player's info set, so reading it leaks nothing
    of the true state. ``rollout_action(state, rng)`` returns a legal action of ``state``."""

    def rollout_action(self, state: State, rng: np.random.Generator) -> int: ...


def load_evaluate(game: Game) -> Evaluate | None:
    """The game's state evaluation, as its :class:`~boardgames_rl.core.spec.GameSpec` declares
    it (``None`` if it has none, or if the game is not registered)."""
    if game.name not in list_games():
        return None
    return game_spec(game.name).evaluate


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS (see the module docstring).

    Args:
        iterations: determinizations per decision (ignored when ``seconds`` is set).
        seconds: time budget per decision instead of iterations.
        c: UCB1 exploration constant (values lie in [-1, 1]).
        rollout: ``"random"``, an Agent used to finish playouts, or a :class:`StateRollout`
            (a policy reading the determinization, e.g. the game heuristic's
            ``determinized_rollout()``).
        rollout_depth: stop a playout after this many actions and score it with ``evaluate``
            (``None``: play to the end).
        evaluate: how a cut-off state is scored: ``True`` (default) the game's own ``evaluate``
            (:func:`load_evaluate`; 0 for everyone if it has none), ``False``/``None`` 0 for
            everyone, or a callable ``evaluate(state) -> per-seat values``.
        epsilon: with an agent rollout, the chance of a uniformly random legal action instead.
        prior: an Agent whose action on the real info set is tried first and favoured.
        prior_visits: extra visits credited to the prior's action at the final choice.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 400,
        seconds: float | None = None,
        c: float = 1.4,
        rollout: str | Agent | StateRollout = "random",
        rollout_depth: int | None = None,
        evaluate: Evaluate | bool | None = True,
        epsilon: float = 0.0,
        prior: Agent | None = None,
        prior_visits: int = 0,
    ):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"ismcts: iterations must be an int >= 1, got {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"ismcts: seconds must be > 0 (or None for iterations), got {seconds}")
        if not c >= 0:
            raise ValueError(f"ismcts: c must be >= 0, got {c}")
        bad_depth = isinstance(rollout_depth, bool) or not isinstance(rollout_depth, int)
        if rollout_depth is not None and (bad_depth or rollout_depth < 0):
            raise ValueError(f"ismcts: rollout_depth must be an int >= 0, got {rollout_depth!r}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"ismcts: epsilon must lie in [0, 1], got {epsilon}")
        if not (rollout == "random" or isinstance(rollout, (Agent, StateRollout))):
            raise ValueError(
                f"ismcts: rollout must be 'random', an Agent or a StateRollout, got {rollout!r}"
            )
        if prior_visits < 0:
            raise ValueError(f"ismcts: prior_visits must be >= 0, got {prior_visits}")
        self.iterations = int(iterations)
        self.seconds = seconds
        self.c = float(c)
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self._game_evaluate: tuple[Game, Evaluate | None] | None = None  # cache for True
        self.epsilon = float(epsilon)
        self.prior = prior
        self.prior_visits = int(prior_visits)
        self.last_iterations = 0  # iterations run by the last searched decision
        self.last_visits: dict[int, int] = {}  # root visits per action of the last search

    def files_digest(self) -> str | None:
        """Its prior's and its rollout agent's (``pretrained+search``: the shipped policy's)."""
        parts = [
            f"{role} {digest}"
            for role, helper in (("prior", self.prior), ("rollout", self.rollout))
            if isinstance(helper, Agent) and (digest := helper.files_digest()) is not None
        ]
        return "; ".join(parts) if parts else None

    def reset(self) -> None:
        for helper in (self.rollout, self.prior):
            if isinstance(helper, Agent):
                helper.reset()

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = info_set.legal_actions()
        if len(legal) == 0:
            raise ValueError(f"{info_set.game.name}: no legal action for player {info_set.player}")
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        favoured = -1
        if self.prior is not None:  # asked at every decision: agents with memory stay in step
            favoured = int(self.prior.act(info_set, rng))
        if len(legal) == 1:
            return int(legal[0])
        root = Node()
        playout = self._playout
        done = 0
        while True:
            if deadline is None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline and done > 0:
                break
            first = favoured if done == 0 else -1
            iterate(root, info_set.sample(rng), rng, first, self.c, playout)
            done += 1
        self.last_iterations = done
        children = root.children  # by action, ascending
        self.last_visits = {a: n.visits for a, n in children.items()}

        def score(a: int) -> tuple[int, int]:
            bonus = self.prior_visits if a == favoured else 0
            return (children[a].visits + bonus, -a)

        best = max((a for a in children if info_set.legal_action_mask[a]), key=score)
        return int(best)

    # ------------------------------------------------------------------------------ playouts
    def _evaluator(self, game: Game) -> Evaluate | None:
        if self.evaluate is True:
            cached = self._game_evaluate
            if cached is None or (cached[0] is not game and cached[0] != game):
                self._game_evaluate = cached = (game, load_evaluate(game))
            return cached[1]
        if self.evaluate is False or self.evaluate is None:
            return None
        return self.evaluate

    def _rollout_policy(self) -> Callable[[State, np.random.Generator], int] | None:
        """``policy(state, rng) -> action`` for the rollout (``None``: uniform random)."""
        rollout = self.rollout
        if isinstance(rollout, str):
            return None
        if not isinstance(rollout, Agent):
            return rollout.rollout_action
        return agent_policy(rollout)

    def _playout(self, state: State, rng: np.random.Generator) -> np.ndarray:
        """Play on from ``state`` (a determinization, owned by this search) with the rollout
        policy (:func:`~boardgames_rl.agents.playout.play_out`). A random rollout never builds
        an info set. A :class:`StateRollout` reads the state. An agent is asked through
        :func:`~boardgames_rl.agents.playout.agent_policy`: its ``act_on_state`` if it has one
        (Night of the Ninja's heuristic, no info set), else a mask-only view or its info set."""
        depth = self.rollout_depth
        evaluate = self._evaluator(state.game) if depth is not None else None
        return play_out(state, self._rollout_policy(), rng, depth, evaluate, self.epsilon)


TUNED_SETTINGS: dict[str, str] = {
    "castle_flutterstone": "rollout_depth=20,prior=heuristic,prior_visits=40",
    "castle_nightingale": "rollout_depth=10,prior=heuristic,prior_visits=40",
    "night_of_the_ninja": "rollout=fast,epsilon=0.1,rollout_depth=10,prior=heuristic",
    "white_castle": "rollout_depth=20,prior=heuristic",
}
"""Per-game settings chosen by short probes (see ``lab/experiments/strength_ladder.py``): random
rollouts cut off after ``rollout_depth`` actions and scored by the game's ``evaluate`` (on Night of
the Ninja, heuristic rollouts with 10% random actions: random opponents are a poor model of a
hidden-role table); the game's heuristic as a root prior. ``ismcts:preset=tuned`` uses them.

Night of the Ninja's rollouts are ``rollout=fast`` (issue 14.4): the heuristic's rules reading
the determinization, the search's own sampled state (drawn from the searching player's info set,
so nothing of the true state leaks), with one scenario of its facts instead of 32 drawn from the
player's beliefs and no info set per rollout decision (``ai/rollout.py``). The earlier heuristic
rollouts (``rollout=heuristic``, now without an info set per move: the same search, see
``tests/agents/test_ismcts_regression.py``) played no measurably stronger in seeded games
against four heuristics and cost about twice as much per move in play, so the preset uses
``rollout=fast``. The per-move costs and the strength comparison, with their dates and commits:
``docs/results/behind_the_code.md`` ("The tuned ISMCTS preset")."""


def tuned_spec(game: str, iterations: int = 400) -> str:
    """The explicit spec string of the tuned settings, e.g. for a results table."""
    return f"ismcts:iterations={iterations},{TUNED_SETTINGS[game]}"


def with_preset(game: Game, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` of an ``ismcts`` spec with ``preset=tuned`` replaced by :data:`TUNED_SETTINGS`
    of the game (explicit keys win); the agent registry applies it before it builds the nested
    ``rollout`` and ``prior`` agents."""
    from boardgames_rl.core.options import parse_option_string

    kwargs = dict(kwargs)
    preset = kwargs.pop("preset", None)
    if preset is None:
        return kwargs
    if preset != "tuned":
        raise InvalidConfigError(f"ismcts: preset must be 'tuned', got {preset!r}")
    if game.name not in TUNED_SETTINGS:
        raise InvalidConfigError(f"ismcts: no tuned preset for {game.name}")
    return {**parse_option_string(TUNED_SETTINGS[game.name], "ismcts preset"), **kwargs}


def fast_rollout(heuristic: Agent, game: Game) -> StateRollout:
    """``rollout=fast``: the game heuristic's ``determinized_rollout()`` (its rules reading the
    determinization; Night of the Ninja's heuristic has one)."""
    determinized = getattr(heuristic, "determinized_rollout", None)
    if determinized is None:
        raise InvalidConfigError(
            f"ismcts: rollout=fast needs a heuristic with determinized_rollout(); "
            f"{game.name}'s has none (night_of_the_ninja's has one)"
        )
    rollout: StateRollout = determinized()
    return rollout


def build_ismcts(
    game: Game,
    rollout: str | Agent | StateRollout = "random",
    prior: Agent | None = None,
    **kwargs: Any,
) -> ISMCTSAgent:
    """An :class:`ISMCTSAgent` from agent-spec keywords (``make_agent("ismcts:...")``), after the
    agent registry applied the preset (:func:`with_preset`) and built the nested agents.

    ``rollout``: ``"random"`` or an :class:`Agent` or a :class:`StateRollout`; ``prior``: an
    :class:`Agent` or None (each its own instance, so that agents with memory are not shared);
    ``iterations``, ``seconds``, ``c``, ``rollout_depth``, ``epsilon``, ``prior_visits`` as in
    the class; ``evaluate``: ``true`` (default: the game's ``evaluate`` if it has one) or
    ``false`` (cut-offs score 0).
    """
    if isinstance(rollout, str) and rollout != "random" or isinstance(prior, str):
        raise InvalidConfigError(
            "ismcts: rollout and prior are agents here; build them from their specs with "
            "boardgames_rl.make_agent (make_agent('ismcts:rollout=heuristic', game) does it)"
        )
    use_eval = kwargs.pop("evaluate", True)
    if not isinstance(use_eval, bool):
        raise InvalidConfigError(f"ismcts: evaluate must be true or false, got {use_eval!r}")
    if prior is not None and "prior_visits" not in kwargs:
        kwargs["prior_visits"] = 20
    known = {"iterations", "seconds", "c", "rollout_depth", "epsilon", "prior_visits"}
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise InvalidConfigError(
            f"ismcts: unknown option(s) {', '.join(unknown)}; known: "
            f"{', '.join(sorted(known | {'rollout', 'prior', 'evaluate', 'preset'}))}"
        )
    try:
        return ISMCTSAgent(rollout=rollout, evaluate=use_eval, prior=prior, **kwargs)
    except (ValueError, TypeError) as e:
        raise InvalidConfigError(str(e)) from e
