"""``play_series``: seeded games with seats rotated, in this process or in worker processes."""

from __future__ import annotations

import pytest

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena import play_series
from boardgames_rl.registry import make_game


def _games(result):
    return [(r.seed, r.seats, r.actions, r.returns) for r in result.records]


def test_seats_rotate_and_game_i_has_its_own_seed():
    game = make_game("castle_nightingale")
    result = play_series(game, ["heuristic", "random"], 4, seed=3, progress=False)
    assert [r.seed for r in result.records] == [3 * 1_000_003 + i for i in range(4)]
    assert [r.seats for r in result.records] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert result.wins(0) + result.wins(1) == 4


def test_first_seats_keep_the_first_agent_in_its_seats():
    """An agent that plays one role only (a per-role pretrained entry) sits in its seat in every
    game; game i keeps its seed; every seat listed is the rotation itself; bad seats refused."""
    game = make_game("castle_nightingale")
    fixed = play_series(game, ["heuristic", "random"], 3, seed=3, progress=False, first_seats=[1])
    assert [r.seats for r in fixed.records] == [[1, 0]] * 3
    assert [r.seed for r in fixed.records] == [3 * 1_000_003 + i for i in range(3)]
    rotated = play_series(game, ["heuristic", "random"], 3, seed=3, progress=False)
    every = play_series(
        game, ["heuristic", "random"], 3, seed=3, progress=False, first_seats=[0, 1]
    )
    assert _games(every) == _games(rotated)
    four = make_game("night_of_the_ninja", num_players=4)
    agents = ["heuristic", "random", "random", "random"]
    table = play_series(four, agents, 2, seed=1, progress=False, first_seats=[2])
    assert [r.seats for r in table.records] == [[2, 3, 0, 1]] * 2
    with pytest.raises(ValueError, match="first_seats"):
        play_series(game, ["heuristic"], 1, progress=False, first_seats=[2])


def test_workers_play_the_same_games_as_one_process():
    """Game i is played from its own seed by agents rebuilt from their specs in the worker, so
    two real spawned workers give the records of one process, in game order."""
    game = make_game("night_of_the_ninja", num_players=4)
    agents = ["heuristic", "random", "random", "heuristic"]
    one = play_series(game, agents, 5, seed=11, progress=False)
    two = play_series(game, agents, 5, seed=11, progress=False, workers=2)
    assert [r.to_dict() for r in two.records] == [r.to_dict() for r in one.records]
    assert two.table() == one.table()


def test_agent_objects_play_the_same_games_as_their_specs():
    game = make_game("castle_nightingale")
    by_spec = play_series(game, ["heuristic", "random"], 3, seed=5, progress=False)
    by_object = play_series(game, [make_agent("heuristic", game), "random"], 3, seed=5,
                            progress=False)  # fmt: skip
    assert _games(by_object) == _games(by_spec)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_worker_counts_are_refused(workers):
    game = make_game("castle_nightingale")
    with pytest.raises(ValueError, match="workers must be an int >= 1"):
        play_series(game, ["heuristic", "random"], 1, progress=False, workers=workers)


def test_agent_objects_cannot_go_to_workers():
    game = make_game("castle_nightingale")
    with pytest.raises(ValueError, match="needs every agent as a spec string"):
        play_series(game, [make_agent("random", game), "random"], 2, progress=False, workers=2)
