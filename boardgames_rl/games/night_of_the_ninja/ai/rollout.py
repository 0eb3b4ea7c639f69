"""The heuristic in search rollouts: its decisions read straight from a (sampled) state.

ISMCTS plays its rollouts on a *determinization*: a full state the search drew from the searching
player's information set (its own guess of the hidden facts, never the true state). Two ways to
let the heuristic move there without building an information set at every rollout move:

* ``infoset.player_view(state, me)`` -- read from the state itself. The heuristic's rules read
  only what the player to move knows (its
  :class:`~boardgames_rl.games.night_of_the_ninja.infoset.PlayerView`: its own cards and looks,
  the public record), and that view of the state is the view of that player's ``info_set()``,
  so :meth:`~.agent.NightOfTheNinjaHeuristic.act_on_state` chooses exactly the move ``act``
  would (``tests/night_of_the_ninja/test_rollout_policy.py``, ``test_player_view.py``), without
  the info set's knowledge re-deal and observation.
* :class:`DeterminizedView` -- the beliefs replaced by the determinization's facts: one House
  hypothesis (the sampled House cards, so every player is "seen"), the Ninja cards where they
  are, the Honor tokens' sampled values, and a single scenario (those House cards, the living
  players as they are now, the Mastermind's holder) instead of ``samples`` drawn ones.
  :class:`DeterminizedRollout` answers every decision with the heuristic's own rules
  (``DECISION_RULES``) over that view: the ``rollout=fast`` policy of ISMCTS. It reads hidden
  facts of the state it is given, so it is for determinizations only, never for play.

The one-scenario view knows every House card, so its looks have nothing to learn: it never plays
a Spy, Mystic or Troublemaker on purpose (their effects are information only), and it kills only
true enemies (or, as the Ronin, to deny tokens). Kill gains are exact for the present House
cards and survivors (no later deaths are drawn).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from boardgames_rl.core.game import legal_list
from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.ai.tricksters import TricksterRules
from boardgames_rl.games.night_of_the_ninja.ai.view import Scenario, View
from boardgames_rl.games.night_of_the_ninja.infoset import HouseHypothesis, player_view
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState


class DeterminizedView(View):
    """:class:`~.view.View` of player ``me`` that takes the facts of ``state`` as known: one House
    hypothesis, exact Ninja card holders and token values, one scenario (no sampling).

    The hypothesis, the card holders and the scenario are derived from ``state`` when a rule
    first asks for them (most rollout decisions need none), so ``state`` must not change while
    the view is in use (a rollout move builds one and drops it before applying the action)."""

    def __init__(self, state: NightOfTheNinjaState, me: int, rival_weight: float):
        super().__init__(player_view(state, me), 1, rival_weight)
        self._state = state
        self._house = list(state.house)
        self._values = state.token_value
        self._held: list[int] | None = None

    def hypotheses(self) -> list[HouseHypothesis]:
        if self._hyps is None:
            n = self.n
            self._hyps = [HouseHypothesis(0, list(range(n)), self._house, [0] * n, [], 1)]
        return self._hyps

    def scenarios(self, rng: np.random.Generator) -> list[Scenario]:
        if self._scen is None:  # callers change it and change it back
            mm = self._holding()[data.MASTERMIND]
            self._scen = [(self._house, list(self.alive), mm)]
        return self._scen

    def _holding(self) -> list[int]:
        """Per Ninja card, the living player holding it (hand, kept card or commitment) or -1."""
        if self._held is None:
            state = self._state
            held = [-1] * data.NUM_CARDS
            alive = self.alive
            for q in range(self.n):
                if alive[q]:
                    for c in state.hand[q]:
                        held[c] = q
                    if state.kept[q] >= 0:
                        held[state.kept[q]] = q
            for c, owner, _src in state.committed:
                if alive[owner]:
                    held[c] = owner
            self._held = held
        return self._held

    def possible(self, t: int) -> set[int]:
        return {self._house[t]}

    def holders(self, card: int) -> list[float]:
        probs = [0.0] * self.n
        q = self._holding()[card]
        if q >= 0:
            probs[q] = 1.0
        return probs

    def token_mean(self, q: int) -> float:
        values = self._values
        held = self.facts.tokens[q]
        return sum(values[t] for t in held) / len(held) if held else 0.0


class CompiledRules(TricksterRules):
    """The heuristic's rules on an object of their own (they keep no settings: a view carries
    them). In the compiled build this is a native object, so a rule's calls to the other rules
    are direct calls; run on the heuristic agent, an interpreted subclass of the rules, each such
    call looks the method up in Python first (it could be overridden there)."""


RULES: Final = CompiledRules()
"""The shipped heuristic's rules for rollouts (:meth:`~.agent.NightOfTheNinjaHeuristic.
determinized_rollout`)."""


class DeterminizedRollout:
    """ISMCTS's ``rollout=fast`` policy: ``rollout_action(state, rng)`` answers the pending
    decision of ``state`` (a determinization) with the heuristic's rules over a
    :class:`DeterminizedView`. ``heuristic`` supplies the rules table, ``rival_weight`` and the
    ``decide`` step; ``rules`` is the object the rules run on (default: the heuristic itself;
    :data:`RULES` for a heuristic whose rule methods are the shipped ones)."""

    def __init__(self, heuristic: Any, rules: TricksterRules | None = None) -> None:
        self.heuristic = heuristic
        self.rules = rules

    def rollout_action(self, state: NightOfTheNinjaState, rng: np.random.Generator) -> int:
        legal = legal_list(state)
        if len(legal) == 1:
            return legal[0]
        h = self.heuristic
        view = DeterminizedView(state, state.current_player, h.rival_weight)
        return int(h.decide(view, legal, rng, self.rules))
