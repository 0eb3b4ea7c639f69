"""ISMCTS's rollout hooks (issue 14.4: "no info set per rollout move where the rollout agent does
not need one").

* An agent with ``act_on_state`` (Night of the Ninja's heuristic) is asked through it: a search
  with heuristic rollouts builds no info set in its rollouts and ends with the same action and
  root visits as the same search asking the agent on ``state.info_set(p)``; neither does the
  tuned preset (``rollout=fast``).
* ``rollout=fast`` is the game heuristic's ``determinized_rollout()``, a :class:`StateRollout`
  given the determinization; a game without one is a one-line spec error; a state rollout's
  illegal action fails loudly.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.ismcts import ISMCTSAgent, StateRollout
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import IllegalActionError, InvalidConfigError
from boardgames_rl.games.night_of_the_ninja.ai.rollout import DeterminizedRollout
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState
from boardgames_rl.registry import make_game


def decision_states(game, count: int) -> list:
    """``count`` states with 2+ legal actions from seeded random play."""
    found, seed = [], 0
    while len(found) < count:
        rng, state = np.random.default_rng(seed), game.new_state(seed)
        for _ in range(5 + 11 * (seed % 4)):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
        seed += 1
    return found


class ThroughInfoSet(Agent):
    """The same agent without ``act_on_state``: ISMCTS gives it ``state.info_set(p)``."""

    def __init__(self, inner: Agent):
        self.inner = inner

    def act(self, info_set, rng):
        return self.inner.act(info_set, rng)


@pytest.mark.pure_only
@pytest.mark.parametrize("num_players", [5, 11])
def test_heuristic_rollouts_build_no_info_set_and_search_the_same(num_players, monkeypatch):
    game = make_game("night_of_the_ninja", num_players=num_players)
    spec = "ismcts:preset=tuned,rollout=heuristic,iterations=40"
    built = [0]
    original = NightOfTheNinjaState._info_set

    def counting(self, player):
        built[0] += 1
        return original(self, player)

    monkeypatch.setattr(NightOfTheNinjaState, "_info_set", counting)
    for i, state in enumerate(decision_states(game, 3)):
        info = state.info_set(state.current_player)
        fast = make_agent(spec, game)
        built[0] = 0
        a_fast = fast.act(info, np.random.default_rng(i))
        assert built[0] == 0  # neither the rollouts nor the determinizations build one
        slow = make_agent(spec, game)
        slow.rollout = ThroughInfoSet(slow.rollout)
        a_slow = slow.act(info, np.random.default_rng(i))
        assert built[0] > 0  # the other path builds one per rollout decision
        assert (a_fast, fast.last_visits) == (a_slow, slow.last_visits)
        built[0] = 0
        make_agent("ismcts:preset=tuned,iterations=40", game).act(info, np.random.default_rng(i))
        assert built[0] == 0  # the tuned preset's rollout=fast reads the determinization


def test_the_tuned_preset_of_night_of_the_ninja_uses_the_determinized_rollout():
    """TUNED_SETTINGS: "the preset uses rollout=fast" (the same strength at less cost)."""
    for n in (5, 11):
        agent = make_agent("ismcts:preset=tuned", make_game("night_of_the_ninja", num_players=n))
        assert isinstance(agent.rollout, DeterminizedRollout)
        assert (agent.epsilon, agent.rollout_depth, agent.iterations) == (0.1, 10, 400)


def test_rollout_fast_is_the_heuristics_determinized_policy():
    game = make_game("night_of_the_ninja", num_players=5)
    agent = make_agent("ismcts:preset=tuned,rollout=fast,iterations=30", game)
    assert isinstance(agent.rollout, DeterminizedRollout)
    assert isinstance(agent.rollout, StateRollout)
    state = decision_states(game, 1)[0]
    info = state.info_set(state.current_player)
    actions = {agent.act(info, np.random.default_rng(7)) for _ in range(2)}
    assert len(actions) == 1 and info.legal_action_mask[actions.pop()]


def test_rollout_fast_without_a_determinized_policy_is_a_one_line_error():
    game = make_game("white_castle")
    with pytest.raises(InvalidConfigError, match="rollout=fast needs") as e:
        make_agent("ismcts:rollout=fast", game)
    assert "\n" not in str(e.value)


class FirstLegal:
    """A state rollout: the lowest legal action (or, when ``broken``, an illegal one)."""

    def __init__(self, broken: bool = False):
        self.broken = broken
        self.states: list = []

    def rollout_action(self, state, rng):
        self.states.append(state)
        legal = np.flatnonzero(state.legal_action_mask())
        if self.broken:
            return int(np.flatnonzero(~state.legal_action_mask())[0])
        return int(legal[0])


def test_a_state_rollout_is_given_determinizations_and_its_illegal_action_fails():
    game = make_game("night_of_the_ninja", num_players=5)
    state = decision_states(game, 1)[0]
    info = state.info_set(state.current_player)
    policy = FirstLegal()
    ISMCTSAgent(iterations=20, rollout=policy, rollout_depth=5).act(info, np.random.default_rng(0))
    assert policy.states and all(s is not state for s in policy.states)
    with pytest.raises(IllegalActionError):
        ISMCTSAgent(iterations=5, rollout=FirstLegal(broken=True), rollout_depth=5).act(
            info, np.random.default_rng(0)
        )
    with pytest.raises(ValueError, match="StateRollout"):
        ISMCTSAgent(rollout=object())  # type: ignore[arg-type]
