"""The heuristic agent: rebuilds its player's beliefs at every decision and answers it with the
rule its decision kind names in ``DECISION_RULES``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import InfoSet, legal_list
from boardgames_rl.games.night_of_the_ninja.ai.draft import DraftRules
from boardgames_rl.games.night_of_the_ninja.ai.night import NightRules
from boardgames_rl.games.night_of_the_ninja.ai.rollout import RULES, DeterminizedRollout
from boardgames_rl.games.night_of_the_ninja.ai.tricksters import TricksterRules
from boardgames_rl.games.night_of_the_ninja.ai.view import View
from boardgames_rl.games.night_of_the_ninja.infoset import ninja_info_set, player_view
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState


class NightOfTheNinjaHeuristic(TricksterRules, Agent):
    """Rule-based Night of the Ninja player over its information set (see :mod:`.ai`).

    Args:
        samples: scenarios drawn for the kill and swap evaluations.
        rival_weight: how much the other players' tokens count against its own.
    """

    name = "heuristic"

    def __init__(self, samples: int = 32, rival_weight: float = 0.5):
        self.samples = samples
        self.rival_weight = rival_weight
        self.fallbacks = 0

    def __getstate__(self) -> dict[str, Any]:
        """Its settings, for pickle and ``copy``: the compiled build's rule classes would give
        only their own (no) native fields, dropping ``samples`` and ``rival_weight``."""
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = [int(a) for a in np.flatnonzero(info_set.legal_action_mask)]
        if len(legal) == 1:
            return legal[0]
        view = View(ninja_info_set(info_set).view(), self.samples, self.rival_weight)
        return self.decide(view, legal, rng)

    def act_on_state(self, state: NightOfTheNinjaState, rng: np.random.Generator) -> int:
        """The move ``act(state.info_set(state.current_player), rng)`` would choose, read from
        the state's own fields instead of a built info set (the rules read only what the player
        to move knows, see :mod:`.rollout`): for search rollouts on a determinization."""
        legal = legal_list(state)
        if len(legal) == 1:
            return legal[0]
        view = View(player_view(state, state.current_player), self.samples, self.rival_weight)
        return self.decide(view, legal, rng)

    def determinized_rollout(self) -> DeterminizedRollout:
        """This heuristic's rules over the facts of a determinization (ISMCTS ``rollout=fast``,
        :class:`~.rollout.DeterminizedRollout`). The shipped heuristic's rules run on
        :data:`~.rollout.RULES` (compiled, the same rules); a subclass's run on itself, since it
        may change a rule method."""
        shipped = type(self) is NightOfTheNinjaHeuristic
        return DeterminizedRollout(self, RULES if shipped else None)

    def decide(
        self,
        view: View,
        legal: list[int],
        rng: np.random.Generator,
        rules: TricksterRules | None = None,
    ) -> int:
        """Answer the decision of ``view.facts`` with its rule, run on ``rules`` (default: this
        heuristic; a random legal action, counted in ``fallbacks``, if the rule returns an
        illegal one)."""
        on = self if rules is None else rules
        action = self.DECISION_RULES[view.facts.decision.kind](on, view, legal, rng)
        if action not in legal:
            self.fallbacks += 1
            action = legal[int(rng.integers(len(legal)))]
        return int(action)

    DECISION_RULES: ClassVar[dict[str, Callable[..., int]]] = {
        "draft_pick1": DraftRules._draft_pick1,
        "draft_pick2": DraftRules._draft_pick2,
        "commit": NightRules._commit,
        "target": NightRules._target,
        "ss_first": TricksterRules._ss_first,
        "ss_second": TricksterRules._ss_second,
        "ss_swap": TricksterRules._ss_swap,
        "gd_take": TricksterRules._gd_take,
        "gd_use": TricksterRules._gd_use,
        "kept_trickster": TricksterRules._kept_trickster,
        "tm_reveal": TricksterRules._tm_reveal,
        "sm_look": TricksterRules._sm_look,
        "sm_swap": TricksterRules._sm_swap,
        "thief_target": TricksterRules._thief_target,
        "shinobi_kill": NightRules._shinobi_kill,
        "react": NightRules._react,
    }
    """Decision kind -> the rule answering it, ``rule(self, view, legal, rng) -> action`` (a
    subclass changes a rule by giving its own table: ``{**DECISION_RULES, kind: rule}``)."""
