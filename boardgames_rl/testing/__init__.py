"""Tools to test a game, shipped with the library: the conformance suite, random play, a toy game.

A game written outside this repository gets the same checks as the four built-in ones::

    from boardgames_rl.testing import check_agent_no_peeking, check_game
    from boardgames_rl.testing.toy_game import ToyGame, register_toy_game

    register_toy_game()  # yours: register_game(GameSpec(...)), see boardgames_rl.registry


    def test_my_game_conforms():
        check_game(ToyGame(num_players=3))


    def test_my_agent_does_not_peek():
        check_agent_no_peeking("ismcts:iterations=20", ToyGame())


    if __name__ == "__main__":  # pytest runs the two tests; so does running the file
        test_my_game_conforms()
        test_my_agent_does_not_peek()

(:class:`~boardgames_rl.testing.toy_game.ToyGame` stands for your game here.)

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
