"""The heuristic in ISMCTS rollouts (issue 14.4): its moves read from a state, and the
determinized rollout policy (``ai/rollout.py``).

* ``act_on_state`` is the heuristic's own move without an info set: the module says "the
  heuristic's rules read only what the player to move knows ... so ``act_on_state`` chooses
  exactly the move ``act`` would"; checked at every decision of seeded games at 4, 5 and 11
  players (same action, same draws from the generator).
* ``evaluate`` ("each player's Honor points ... minus the best other player's, as a fraction of
  the target score, clipped") is checked against that sentence computed directly.
* ``DeterminizedRollout`` takes the determinization's facts as known: its sentences (one House
  hypothesis, the Ninja cards where they are, a single scenario; it never plays a look on
  purpose; it kills only true enemies) are checked on positions made with ``scenario.build``.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.games.night_of_the_ninja import cards
from boardgames_rl.games.night_of_the_ninja.ai import NightOfTheNinjaHeuristic, evaluate
from boardgames_rl.games.night_of_the_ninja.ai.rollout import (
    RULES,
    DeterminizedRollout,
    DeterminizedView,
)
from boardgames_rl.games.night_of_the_ninja.ai.tables import HOUSE
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.scenario import build, commit, play

G5 = NightOfTheNinja(num_players=5)
HOUSES5 = ["L1", "L2", "C1", "C2", "R"]  # seat 0 is Lotus 1, seat 1 its ally Lotus 2


def fill(hands: dict[int, list[str]], n: int = 5) -> list[list[str]]:
    """Hands for the seats given, Spies / Mystics (harmless) for the others."""
    named = {c for h in hands.values() for c in h}
    spare = [c for c in cards.CARD_NAMES[:12] if c not in named]
    return [list(hands[p]) if p in hands else [spare.pop(), spare.pop()] for p in range(n)]


def trail(num_players: int, seed: int) -> list:
    """The states of one seeded game (heuristic moves, 30% random ones), the last one terminal."""
    game = NightOfTheNinja(num_players=num_players)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    agent = NightOfTheNinjaHeuristic()
    out = [state.clone()]
    while not state.is_terminal():
        if rng.random() < 0.3:
            action = int(rng.choice(state.legal_actions()))
        else:
            action = agent.act(state.info_set(state.current_player), rng)
        state.apply(action)
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("num_players", "seeds"), [(4, 3), (5, 4), (11, 2)])
def test_act_on_state_is_the_move_act_chooses_on_the_info_set(num_players, seeds):
    """ "act_on_state chooses exactly the move act would": same action, same generator draws."""
    agent = NightOfTheNinjaHeuristic()
    checked = 0
    for seed in range(seeds):
        for i, state in enumerate(trail(num_players, seed)[:-1]):
            r1, r2 = np.random.default_rng([seed, i]), np.random.default_rng([seed, i])
            before = state.to_dict()
            a1 = agent.act(state.info_set(state.current_player), r1)
            a2 = agent.act_on_state(state, r2)
            assert a1 == a2, (num_players, seed, i, state.decision)
            assert r1.bit_generator.state == r2.bit_generator.state
            assert state.to_dict() == before  # the state is only read
            checked += 1
    assert checked > 100 * seeds
    assert agent.fallbacks == 0


def test_evaluate_is_points_minus_the_best_other_as_a_fraction_of_the_target():
    """ "each player's Honor points ... minus the best other player's, as a fraction of the
    target score, clipped to [-1, 1]" (ties for the lead: the leaders score 0)."""
    for num_players, seed in ((4, 0), (5, 1), (11, 2)):
        for state in trail(num_players, seed):
            got = evaluate(state)
            if state.is_terminal():
                assert np.array_equal(got, state.returns())
                continue
            points = [state.score(p) for p in range(num_players)]
            want = [
                (points[p] - max(points[:p] + points[p + 1 :])) / state.game.target_score
                for p in range(num_players)
            ]
            assert got.dtype == np.float64
            assert np.array_equal(got, np.clip(want, -1.0, 1.0))
    s = build(G5, houses=HOUSES5, hands=fill({}), tokens=[[4, 3], [4, 3], [2], [], []])
    assert G5.target_score == 10
    assert evaluate(s).tolist() == [0.0, 0.0, -5 / 10, -7 / 10, -7 / 10]


def test_the_determinized_view_takes_the_state_facts_as_known():
    """ "one House hypothesis (the sampled House cards, so every player is 'seen'), the Ninja
    cards where they are, the Honor tokens' sampled values, and a single scenario (those House
    cards, the living players as they are now, the Mastermind's holder)"."""
    for state in trail(5, 3)[:-1:7]:
        for me in range(5):
            v = DeterminizedView(state, me, 0.5)
            for t in range(5):
                assert v.possible(t) == {state.house[t]}
                assert v.uncertainty(t) == 0.0
                mine, theirs = HOUSE[state.house[me]], HOUSE[state.house[t]]
                neutral = 2 in (mine, theirs)  # the Ronin's "House"
                assert v.known_ally(t) == (not neutral and mine == theirs)
                assert v.known_enemy(t) == (not neutral and mine != theirs)
                held = state.tokens[t]
                want = sum(state.token_value[x] for x in held) / len(held) if held else 0.0
                assert v.token_mean(t) == want
            for c in range(cards.NUM_CARDS):
                holder = [
                    q
                    for q in range(5)
                    if state.alive[q]
                    and (
                        c in state.hand[q]
                        or state.kept[q] == c
                        or any(e[0] == c and e[1] == q for e in state.committed)
                    )
                ]
                assert v.holders(c) == [1.0 if q in holder else 0.0 for q in range(5)]
            mm = [q for q in range(5) if v.holders(cards.MASTERMIND)[q]]
            assert v.scenarios(np.random.default_rng(0)) == [
                (list(state.house), list(state.alive), mm[0] if mm else -1)
            ]


def rollout(state, seed: int = 0) -> str:
    action = DeterminizedRollout(NightOfTheNinjaHeuristic()).rollout_action(
        state, np.random.default_rng(seed)
    )
    assert state.legal_action_mask()[action]
    return state.action_name(action)


def test_determinized_rollout_never_plays_a_look_on_purpose():
    """ "it never plays a Spy, Mystic or Troublemaker on purpose (their effects are information
    only)": every House card is known in the determinization."""
    s = build(G5, houses=HOUSES5, hands=fill({0: ["Spy 1", "Blind Assassin 1"]}))
    assert s.current_player == 0 and s.decision_kind == "commit"
    assert [rollout(s, seed) for seed in range(4)] == ["done"] * 4
    # the heuristic itself, unsure of everyone, plays it
    action = NightOfTheNinjaHeuristic().act(s.info_set(0), np.random.default_rng(0))
    assert s.action_name(action) == "play Spy 1"


def test_determinized_rollout_kills_a_true_enemy_and_not_a_mirror_monk():
    """ "it kills only true enemies": the Blind Assassin of Lotus 1 attacks a Crane player, and
    not the one holding the Mirror Monk ("the Ninja cards where they are"), without any look."""
    for monk, victim in ((None, 2), (2, 3)):
        hands = {0: ["Blind Assassin 1", "Spy 1"]}
        if monk is not None:
            hands[monk] = ["Mirror Monk", "Spy 2"]
        s = build(G5, houses=HOUSES5, hands=fill(hands), phase="blind assassin")
        assert rollout(s) == "play Blind Assassin 1"
        play(s, "play Blind Assassin 1")
        commit(s)
        assert s.decision_kind == "target" and s.current_player == 0
        assert [rollout(s, seed) for seed in range(4)] == [
            f"Blind Assassin 1 attacks player_{victim}"
        ] * 4


def test_determinized_rollout_shinobi_spares_an_ally_and_kills_an_enemy():
    """ "after the look it kills only on a gain: it spares allies" (the Shinobi rule), with the
    determinization's House cards."""
    for target, answer in ((1, "spare"), (2, "kill"), (3, "kill")):
        s = build(G5, houses=HOUSES5, hands=fill({0: ["Shinobi 1", "Spy 1"]}), phase="shinobi")
        commit(s, {0: ["Shinobi 1"]})
        play(s, f"Shinobi 1 looks at player_{target}")
        assert [rollout(s, seed) for seed in range(4)] == [answer] * 4, target


@pytest.mark.parametrize(("num_players", "seeds"), [(4, 2), (5, 3), (11, 1)])
def test_the_rules_on_their_compiled_object_choose_what_the_heuristic_chooses(num_players, seeds):
    """The shipped heuristic's rollouts run its rules on ``rollout.RULES`` (compiled: no Python
    method lookup between one rule and another): the same move and the same draws as its rules
    run on the heuristic itself, at every state of seeded games. A subclass's rollouts run on the
    subclass, which may change a rule method."""
    heuristic = NightOfTheNinjaHeuristic()
    shipped, own = heuristic.determinized_rollout(), DeterminizedRollout(heuristic)
    assert shipped.rules is RULES and own.rules is None
    checked = 0
    for seed in range(seeds):
        for i, state in enumerate(trail(num_players, seed)[:-1]):
            r1, r2 = np.random.default_rng([seed, i]), np.random.default_rng([seed, i])
            assert shipped.rollout_action(state, r1) == own.rollout_action(state, r2), (seed, i)
            assert r1.bit_generator.state == r2.bit_generator.state
            checked += 1
    assert checked > 50 * seeds and heuristic.fallbacks == 0

    class Mine(NightOfTheNinjaHeuristic):
        pass

    assert Mine().determinized_rollout().rules is None


@pytest.mark.parametrize("num_players", [4, 5, 11])
def test_determinized_rollout_plays_whole_games_legally_and_reproducibly(num_players):
    """Engines never crash on a legal action sequence; same seed -> same game."""
    game = NightOfTheNinja(num_players=num_players)
    policy = DeterminizedRollout(NightOfTheNinjaHeuristic())

    def play_out(seed: int) -> list[int]:
        state, rng, moves = game.new_state(seed), np.random.default_rng(seed), []
        while not state.is_terminal():
            action = policy.rollout_action(state, rng)
            assert state.legal_action_mask()[action]
            state.apply(action)
            moves.append(action)
        return moves

    for seed in range(3):
        assert play_out(seed) == play_out(seed)
    assert policy.heuristic.fallbacks == 0
