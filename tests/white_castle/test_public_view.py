"""The typed public view of a White Castle information set (``infoset.PublicView``): built once
with the information set, it holds every seat's public holdings as typed attributes, and the
heuristic's value function reads the same ``SeatView`` of the states it searches."""

from __future__ import annotations

import dataclasses

import pytest

from boardgames_rl.games.white_castle import WhiteCastleGame, scoring
from boardgames_rl.games.white_castle.ai.value import HEURISTIC, value
from boardgames_rl.games.white_castle.infoset import PublicView, SeatView, game_left

from .helpers import table


def test_view_holds_each_seats_public_holdings() -> None:
    game = WhiteCastleGame(num_players=3)
    s = table(
        game,
        players={1: {"food": 4, "coin": 6, "seal": 2, "pot": 7, "lantern": ["R1", "R2"]}},
        turn=1,
    )
    info = s.info_set(0)
    view = info.view
    assert isinstance(view, PublicView) and view.player == 0 and view.me.seat == 0
    assert (view.round, view.phase, view.decision) == (s.round, "play", "die")
    other = view.seats[1]
    assert isinstance(other, SeatView)
    assert (other.food, other.coin, other.seal, other.pot, other.lantern_cards) == (4, 6, 2, 7, 2)
    assert other.members == (5, 5, 5) and other.courtiers == (0, 0, 0, 0)
    assert [seat.points for seat in view.seats] == scoring.totals(s)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.round = 2  # type: ignore[misc]


def test_game_left_runs_from_one_to_zero() -> None:
    assert game_left(1, 0, 2) == 1.0
    assert game_left(2, 3, 3) == pytest.approx(5 / 9)
    assert game_left(3, 6, 2) == 0.0


def test_value_reads_the_seat_view() -> None:
    """Holdings the view shows move the value by their weights (scaled by the game left)."""
    game = WhiteCastleGame()
    poor = table(game, turn=0)
    rich = table(game, players={0: {"iron": 2, "seal": 1}}, turn=0)
    gain = value(rich, 0, HEURISTIC) - value(poor, 0, HEURISTIC)
    future = game_left(1, 0, 2)
    assert gain == pytest.approx(future * (2 * HEURISTIC.resource + HEURISTIC.seal))
