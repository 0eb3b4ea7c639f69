"""The renamed classes (issue 12): ``NinjaState`` -> ``NightOfTheNinjaState``, ``NinjaInfoSet`` ->
``NightOfTheNinjaInfoSet``, ``NinjaHeuristic`` -> ``NightOfTheNinjaHeuristic``. The old names stay
importable from the package for one release, as the same classes, with a DeprecationWarning."""

from __future__ import annotations

import pytest

import boardgames_rl.games.night_of_the_ninja as package
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.heuristic import NightOfTheNinjaHeuristic
from boardgames_rl.games.night_of_the_ninja.infoset import NightOfTheNinjaInfoSet
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

NEW = {
    "NinjaState": NightOfTheNinjaState,
    "NinjaInfoSet": NightOfTheNinjaInfoSet,
    "NinjaHeuristic": NightOfTheNinjaHeuristic,
}


@pytest.mark.parametrize("old", sorted(NEW))
def test_old_name_is_a_deprecated_alias_of_the_new_class(old):
    """``from boardgames_rl.games.night_of_the_ninja import <old name>`` gives the renamed class
    and warns that the name goes in the next release."""
    with pytest.warns(DeprecationWarning, match=f"{old} is renamed {NEW[old].__name__}"):
        got = getattr(package, old)
    assert got is NEW[old]


def test_unknown_package_attribute_still_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        package.Nope  # noqa: B018


def test_the_game_builds_the_renamed_classes():
    """States, info sets and the registry's heuristic are the renamed classes."""
    game = NightOfTheNinja(num_players=4)
    state = game.new_state(0)
    assert type(state) is NightOfTheNinjaState
    assert type(state.info_set(0)) is NightOfTheNinjaInfoSet
    assert type(make_agent("heuristic", game)) is NightOfTheNinjaHeuristic
