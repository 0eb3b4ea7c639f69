"""Tools to test a game, shipped with the library: the conformance suite, random play, a toy game.

A game written outside this repository gets the same checks as the four built-in ones::

    from boardgames_rl.testing import check_game, check_agent_no_peeking

    def test_my_game_conforms():
        check_game(MyGame(num_players=3))

    def test_my_agent_does_not_peek():
        check_agent_no_peeking("heuristic", MyGame())

See :mod:`boardgames_rl.testing.conformance` for what each check proves, and
:mod:`boardgames_rl.testing.toy_game` for a small complete game written against the contract (a
template for a new game).
"""

from boardgames_rl.testing.conformance import (
    CHECKS,
    ConformanceError,
    ConformanceReport,
    check_agent_no_peeking,
    check_game,
    env_snapshot,
)
from boardgames_rl.testing.random_play import (
    normalised,
    play_out,
    random_action,
    random_play_states,
    random_states,
    trajectory_hash,
)

__all__ = [
    "CHECKS",
    "ConformanceError",
    "ConformanceReport",
    "check_agent_no_peeking",
    "check_game",
    "env_snapshot",
    "normalised",
    "play_out",
    "random_action",
    "random_play_states",
    "random_states",
    "trajectory_hash",
]
