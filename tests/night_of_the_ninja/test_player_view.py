"""The typed view of an information set and the House-swap beliefs written once (issue 41.6).

* ``info_set.view()`` is a read-only :class:`PlayerView` of what the seat knows; the same view is
  read from a state's own fields for the player to move (the heuristic's search rollouts), and
  it does not change when another seat's hidden cards are dealt differently.
* The swap hypotheses come from one function, ``infoset.house_hypotheses``: the heuristic's
  beliefs are exactly its output, and the info set's re-deal draws the swap with its weights.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.compiled import build_info
from boardgames_rl.games.night_of_the_ninja import infoset
from boardgames_rl.games.night_of_the_ninja.ai.view import View
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.heuristic import NightOfTheNinjaHeuristic
from boardgames_rl.games.night_of_the_ninja.infoset import PlayerView, player_view
from boardgames_rl.games.night_of_the_ninja.scenario import build, commit, house, play

G5 = NightOfTheNinja(num_players=5)
HOUSES5 = ["L1", "C1", "L2", "C2", "R"]
HANDS5 = [
    ["Spy 1", "Mystic 1"],
    ["Shapeshifter", "Spy 2"],
    ["Blind Assassin 1", "Spy 3"],
    ["Shinobi 1", "Spy 4"],
    ["Mystic 2", "Spy 5"],
]


def heuristic_states(seed: int, num_players: int = 5):
    """Every state of one seeded heuristic game (before each decision)."""
    game = NightOfTheNinja(num_players=num_players)
    state = game.new_state(seed)
    agents = [NightOfTheNinjaHeuristic() for _ in range(num_players)]
    rngs = [np.random.default_rng([seed, p]) for p in range(num_players)]
    while not state.is_terminal():
        yield state.clone()
        p = state.current_player
        state.apply(agents[p].act(state.info_set(p), rngs[p]))


def swapped_position():
    """player_1's Shapeshifter named player_1 and player_2 and swapped, after player_0's Spy saw
    player_2."""
    s = build(G5, houses=HOUSES5, hands=HANDS5)
    commit(s, {0: ["Spy 1"]})
    play(s, "Spy 1 looks at player_2")
    commit(s)  # Mystic phase: nobody plays
    commit(s, {1: ["Shapeshifter"]})
    play(s, "name player_1", "name player_2", "swap")
    return s


def test_the_view_is_frozen_and_typed():
    s = build(G5, houses=HOUSES5, hands=HANDS5)
    view = s.info_set(0).view()
    assert isinstance(view, PlayerView)
    assert view.decision.kind == "commit" and view.decision.player == 0
    assert list(view.hand) == s.hand[0]
    assert view.dealt_house == house("L1")
    if build_info()["build"] == "compiled":  # read-only (mypy refuses a write in both builds)
        with pytest.raises(AttributeError):
            view.player = 1  # type: ignore[misc]


def test_the_view_of_the_knowledge_is_the_view_of_the_state_for_the_player_to_move():
    for seed in (0, 1):
        for state in list(heuristic_states(seed))[::5]:
            me = state.current_player
            from_knowledge = state.info_set(me).view()
            from_state = player_view(state, me)
            assert from_knowledge == from_state


def test_the_view_does_not_see_other_seats_hidden_cards():
    s = build(G5, houses=HOUSES5, hands=HANDS5)
    other = build(G5, houses=["L1", "C2", "R", "C1", "L2"], hands=HANDS5)
    assert s.info_set(0).view() == other.info_set(0).view()
    assert s.info_set(1).view() != other.info_set(1).view()


def test_the_heuristic_believes_the_one_set_of_swap_hypotheses():
    s = swapped_position()
    for seat in (0, 1, 3):
        facts = s.info_set(seat).view()
        hyps = View(facts, 8, 0.5).hypotheses()
        assert hyps == facts.house_hypotheses()
    watcher = s.info_set(0).view().house_hypotheses()
    assert [h.swap for h in watcher] == [0, 1]  # player_0 does not know whether it swapped
    owner = s.info_set(1).view().house_hypotheses()
    assert [h.swap for h in owner] == [1]


@pytest.mark.pure_only
def test_the_redeal_draws_the_swap_with_the_same_weights(monkeypatch):
    s = swapped_position()
    seen: list[list[int]] = []
    real = infoset.house_hypotheses

    def spy(*args, **kwargs):
        out = real(*args, **kwargs)
        seen.append([h.weight for h in out])
        return out

    monkeypatch.setattr(infoset, "house_hypotheses", spy)
    info = s.info_set(0)
    swaps = [info.sample(np.random.default_rng(i)).ss[3] for i in range(200)]
    assert seen and all(w == seen[0] for w in seen)
    weights = seen[0]
    share = weights[1] / sum(weights)
    assert abs(np.mean(swaps) - share) < 0.12
