"""The heuristic Castle Nightingale agent: its decisions in set-up positions, and its strength.

Positions are built with ``scenario.build`` on the side A first-game layout::

         A  B  C  D  E  F  G  H  I  J  K
     1  B. B. W. WV W. G. GV Y. P. P. P.
     2  B. P. P. W. G. G. Y. Y. R. R. PV
     3  B. BS P. P. G. Y. Y. YS R. R. G.
     4  W. W. W. ## ## ## ## ## RS G. G.
     5  RV W. RS ## ## ## ## ## G. G. G.
     6  R. R. R. ## ## ## ## ## Y. Y. YV
     7  BS B. B. ## ## ## ## ## W. WS Y.
     8  B. B. P. ## ## ## ## ## W. W. Y.
     9  B. P. P. Y. Y. WS B. P. P. P. R.
    10  GV P. G. Y. Y. W. B. B. R. PS R.
    11  G. G. G. Y. WV W. B. B. RV R. R.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.arena.match import play_game
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.games.castle_nightingale.heuristic import CastleNightingaleHeuristic
from boardgames_rl.games.castle_nightingale.scenario import Ninja, Samurai, build, play
from boardgames_rl.registry import make_game

NINJA, SAMURAI = 0, 1
GAME = make_game("castle_nightingale")
SAMURAI_HAND = ["Forced March", "Patrol", "Twin Nightingales"]
NINJA_HAND = ["False Trail", "Supply Cache", "Scout"]


def choose(state, agent: CastleNightingaleHeuristic | None = None) -> str:
    """The heuristic's choice at the pending decision, by its contextual name."""
    agent = agent or CastleNightingaleHeuristic()
    p = state.current_player
    action = agent.act(state.info_set(p), np.random.default_rng(0))
    assert state.legal_action_mask()[action]
    return state.action_name(action)


def run_until(state, kind: str, agent: CastleNightingaleHeuristic) -> None:
    """Let the heuristic play both sides until the decision ``kind`` is pending."""
    while state.decision_kind != kind:
        assert not state.is_terminal(), f"game over before a {kind!r} decision"
        state.apply(agent.act(state.info_set(state.current_player), np.random.default_rng(0)))


# ------------------------------------------------------------------------------------ the ninja
def test_ninja_takes_the_face_up_colour_to_a_vase():
    # From J3, the vase on K2 is two discs away through J2 (red, unknown) or K3 (green, face up:
    # safe). Both paths end on K2 (purple); the ninja goes the safe way.
    s = build(
        GAME,
        samurai=Samurai(
            square="B10", hand=SAMURAI_HAND, card="Forced March", tiles="white", tokens=[]
        ),
        discs=["J3"],
        face_up="green",
        ninja=Ninja(hand=NINJA_HAND, card="Supply Cache", tokens=[]),
    )
    assert s.decision_kind == "place"
    assert choose(s) == "disc -> K3"
    play(s, "disc -> K3")
    assert choose(s) == "disc -> K2"


def test_ninja_spends_soft_tabi_on_a_detection_and_kawarimi_on_a_capture():
    # Spotted on K5 last turn; green sings and every square around K5 is green but the vase.
    s = build(
        GAME,
        samurai=Samurai(square="E2", hand=SAMURAI_HAND, card="Patrol", tiles="green", tokens=[]),
        ninja=Ninja(
            square="K5",
            tokens=["Soft Tabi", "Kawarimi"],
            stack=[],
            hand=NINJA_HAND,
            card="False Trail",
        ),
    )
    play(s, "disc -> K4")
    assert s.decision_kind == "w4"
    assert choose(s) == "use Soft Tabi"
    play(s, "use Soft Tabi", "disc -> J4")  # green again: detected, no Tabi left
    play(s, "pass")
    assert s.flags["revealed"] and s.board.labels[s.ninja_sq] == "J4"
    agent = CastleNightingaleHeuristic()
    run_until(s, "w8", agent)  # the samurai walks into the figurine's zone
    assert choose(s) == "use Kawarimi"


# ------------------------------------------------------------------------------------ the samurai
def test_samurai_enters_the_revealed_ninjas_zone_when_in_reach():
    # The ninja, spotted on K5, steps on green K4 and sings. The samurai on E2 is 3 zone entries
    # from K4's zone (I-A green, I-A yellow, II-A red or purple, II-A green) with Patrol (3).
    s = build(
        GAME,
        samurai=Samurai(square="E2", hand=SAMURAI_HAND, card="Patrol", tiles="green", tokens=[]),
        ninja=Ninja(square="K5", tokens=[], stack=[], hand=NINJA_HAND, card="False Trail"),
    )
    play(s, "disc -> K4")
    b = s.board
    target = b.zone_of[b.square("K4")]
    assert b.zone_distances[s.samurai_zone][target] == 3
    agent = CastleNightingaleHeuristic()
    run_until(s, "entry", agent)
    while s.decision_kind == "entry":
        before = b.zone_distances[s.samurai_zone][target]
        s.apply(agent.act(s.info_set(SAMURAI), np.random.default_rng(0)))
        assert b.zone_distances[s.samurai_zone][target] == before - 1 or s.captured
    assert s.captured == 1


def test_samurai_closes_an_adjacent_open_passage():
    # On I3 (II-A red) with one entry: the open passage I4 next door is worth closing; the
    # ninja's discs are far away in the south-west.
    s = build(
        GAME,
        samurai=Samurai(
            square="I3", tokens=[], hand=SAMURAI_HAND, card="Twin Nightingales", tiles="white"
        ),
        discs=["B9", "B10"],
        ninja=Ninja(hand=NINJA_HAND, card="Supply Cache"),
    )
    agent = CastleNightingaleHeuristic()
    run_until(s, "entry", agent)
    assert choose(s, agent) == "samurai enters zone II-A passage-2"


def test_samurai_closes_the_last_open_passage_for_a_lockdown_capture():
    closed = ["B3", "H3", "C5", "A7", "J7", "F9", "J10"]  # only I4 is open
    s = build(
        GAME,
        samurai=Samurai(
            square="I3", tokens=[], hand=SAMURAI_HAND, card="Twin Nightingales", tiles="white"
        ),
        discs=["B9", "B10"],
        closed=closed,
        ninja=Ninja(
            tokens=[], stack=["Shuko"], hand=NINJA_HAND, card="Supply Cache"
        ),  # no Lockpick to reopen a passage,
    )
    agent = CastleNightingaleHeuristic()
    run_until(s, "entry", agent)
    assert choose(s, agent) == "samurai enters zone II-A passage-2"
    play(s, "samurai enters zone II-A passage-2")
    assert s.captured == 1


def test_samurai_trap_door_choice_does_not_read_his_hand():
    # Setup 4 comes before setup 5 ("They draw 3 cards ... They draw 1 equipment token"): the
    # trap doors are chosen without a hand. The heuristic's choice is the same over seeds whose
    # later hands differ, and a hand slipped into its knowledge does not change it.
    agent = CastleNightingaleHeuristic()
    chosen = set()
    for seed in range(6):
        s = GAME.new_state(seed)
        assert s.decision_kind == "setup_close" and s.s_hand == []
        info = s.info_set(SAMURAI)
        first = agent.act(info, np.random.default_rng(0))
        info.knowledge["s_hand"] = [7, 8, 9]  # Twin Nightingales, Muster the Guard, Watchtower
        info.knowledge["s_equip"] = [0]
        assert agent.act(info, np.random.default_rng(0)) == first
        chosen.add(s.action_name(first))
    assert len(chosen) == 1


# ------------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize(
    ("config", "matchup"),
    [
        ({}, "hh"),
        ({}, "hr"),
        ({}, "rh"),
        ({"side": "B", "max_turns": 30}, "hh"),
        ({"side": "B", "max_turns": 30}, "rh"),
        ({"random_layout": True}, "hr"),
        ({"keep_last_disc": True}, "hh"),
        ({"never_force_token": True, "lockdown_needs_trace": True}, "hh"),
        (
            {
                "side": "B",
                "max_turns": 30,
                "merge_zones_across_seams": True,
                "lockdown_reopen": "one_per_board",
            },
            "hh",
        ),
    ],
)
def test_never_needs_its_random_fallback(config, matchup):
    """Over a few seeded games in both roles, every choice the policies make is legal (the
    agent's random fallback is never used) and the games finish."""
    game = make_game("castle_nightingale", **config)
    for seed in range(4):
        agents = [CastleNightingaleHeuristic() if m == "h" else RandomAgent() for m in matchup]
        record = play_game(game, agents, seed)
        assert record.length > 0
        assert all(getattr(a, "fallbacks", 0) == 0 for a in agents)


def _win_rate(role: int, games: int = 80) -> tuple[float, float, float]:
    wins = 0
    for seed in range(games):
        agents = [RandomAgent(), RandomAgent()]
        agents[role] = CastleNightingaleHeuristic()
        record = play_game(GAME, agents, seed)
        wins += record.returns[role] > 0  # a draw (turn limit) is not a win
    low, high = wilson_interval(wins, games)
    return wins / games, low, high


@pytest.mark.parametrize("role", [NINJA, SAMURAI], ids=["ninja", "samurai"])
def test_heuristic_beats_random_with_a_lower_bound_of_80_percent(role):
    """Acceptance figure: 80 seeded games per role against a uniform random opponent; the
    lower end of the 95% Wilson interval of the heuristic's win rate is at least 0.80 (80 wins
    of 80 give 0.954; 70 of 80 would fail. The published 500-game figure:
    ``lab/experiments/heuristic_vs_random.py --game castle_nightingale``)."""
    rate, low, high = _win_rate(role)
    assert low >= 0.80, f"win rate {rate:.3f} (95% CI {low:.3f}-{high:.3f})"
