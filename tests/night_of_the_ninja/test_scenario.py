"""The scenario builder (issue 41.6): ``build(game=None, *, seed=0, **fields)`` starts from the
seed's legal state, overwrites only the fields named in ``FIELDS``, refuses an unknown field in
one line naming the known ones, and runs the game's state checks on the result."""

from __future__ import annotations

import pytest

from boardgames_rl.games.night_of_the_ninja import scenario
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.testing import scenario as shared

HOUSES5 = ["L1", "C1", "L2", "C2", "R"]


def test_play_and_legal_names_are_the_shared_helpers():
    assert scenario.play is shared.play
    assert scenario.legal_names is shared.legal_names


def test_default_game_and_seed():
    s = scenario.build()
    assert s.game.num_players == 5
    assert s.decision_kind == "commit"
    again = scenario.build(NightOfTheNinja(), seed=0)
    assert again.to_dict() == s.to_dict()


def test_only_the_named_fields_change():
    game = NightOfTheNinja()
    plain = scenario.build(game, seed=3)
    s = scenario.build(game, seed=3, houses=HOUSES5)
    assert s.dealt_house == [scenario.house(h) for h in HOUSES5]
    assert s.hand == plain.hand
    assert s.token_value == plain.token_value


def test_an_unknown_field_is_refused_in_one_line_listing_the_fields():
    with pytest.raises(ValueError) as err:
        scenario.build(houses=HOUSES5, hand=[])
    text = str(err.value)
    assert "\n" not in text
    assert "no field hand" in text
    for name in scenario.FIELDS:
        assert name in text


def test_the_state_checks_run(monkeypatch):
    monkeypatch.setattr(
        scenario.state_checks, "problems", lambda game, d: "round = 99 is past the limit"
    )
    with pytest.raises(ValueError, match="round = 99 is past the limit"):
        scenario.build()
