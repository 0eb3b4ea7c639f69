"""Conformance suite: every registered game, in each of its ``GameSpec.test_configs``.

The checks themselves ship with the library (:mod:`boardgames_rl.testing.conformance`, what each
one proves is written there), so a game written outside this repository runs the same suite with
``boardgames_rl.testing.check_game``. Here every check is one test per game configuration, plus
tests that the suite itself catches broken games (a check that cannot fail proves nothing).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from conformance import case_id, game_cases

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.registry import make_game
from boardgames_rl.testing import CHECKS, ConformanceError, check_agent_no_peeking, check_game
from boardgames_rl.testing.toy_game import ToyGame, ToyState

CASES = game_cases()

# The library's defaults (``check_game``: 500 random games, 200 info-set states, 40 cloned and
# 40 round-tripped states per configuration) are for a game's author; here every registered
# configuration runs on every commit, so the checks run on fewer seeded games and states (the same
# per-step checks). The long net is ``lab/experiments/reliability.py``, which fuzzes every
# configuration for minutes.
CI_ARGUMENTS: dict[str, dict[str, int]] = {
    "random_games": {"games": 50},
    "info_sets": {"states": 60},
    "clone": {"states": 16},
    "dict_round_trip": {"states": 16},
}
# The longest games play fewer random games (each took 30-80 s at 200 games):
# 11-player Night of the Ninja (~11x the decisions of a 4-player game), 7 players, and Castle
# Nightingale's first-game layout (random play runs to the turn limit).
CI_RANDOM_GAMES: dict[str, int] = {
    "night_of_the_ninja[num_players=11]": 24,
    "night_of_the_ninja[num_players=7]": 30,
    "castle_nightingale[default]": 30,
}


def ci_arguments(name: str, config: dict, check: str) -> dict[str, int]:
    """The CI budget of one check on one configuration (see :data:`CI_ARGUMENTS`)."""
    arguments = dict(CI_ARGUMENTS.get(check, {}))
    if check == "random_games" and case_id(name, config) in CI_RANDOM_GAMES:
        arguments["games"] = CI_RANDOM_GAMES[case_id(name, config)]
    return arguments


def test_every_reduced_budget_names_a_configuration() -> None:
    """A renamed configuration must not silently fall back to the full budget (or vanish)."""
    assert set(CI_RANDOM_GAMES) <= {case_id(n, c) for n, c in CASES}
    for check, arguments in CI_ARGUMENTS.items():
        assert check in CHECKS, check
        assert set(arguments) <= set(inspect.signature(CHECKS[check]).parameters), check


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize(("name", "config"), CASES, ids=[case_id(n, c) for n, c in CASES])
def test_conformance(name: str, config: dict, check: str) -> None:
    CHECKS[check](make_game(name, **config), **ci_arguments(name, config, check))


@pytest.mark.parametrize(("name", "config"), CASES, ids=[case_id(n, c) for n, c in CASES])
def test_random_agent_does_not_peek(name: str, config: dict) -> None:
    check_agent_no_peeking("random", make_game(name, **config), states=10)


# ---------------------------------------------------------------------------- the suite fails
def _keep_class(state: ToyState, cls: type) -> ToyState:
    state.__class__ = cls
    return state


class _LeakyState(ToyState):
    """Observation shows every hand: a leak the info-set check must catch."""

    def clone(self) -> ToyState:
        return _keep_class(super().clone(), type(self))

    def observation(self, player: int) -> np.ndarray:
        obs = super().observation(player)
        obs[0] = float(sum(self.hands)) / 100.0
        return obs


class _LeakyGame(ToyGame):
    def new_state(self, seed: int | None = None) -> ToyState:
        return _keep_class(super().new_state(seed), _LeakyState)


class _MutatingErrorState(ToyState):
    """Advances the turn counter before it validates the action: 'validate, then mutate' broken."""

    def clone(self) -> ToyState:
        return _keep_class(super().clone(), type(self))

    def apply(self, action, player=None) -> None:  # type: ignore[override]
        self.decisions += 1
        super().apply(action, player=player)


class _MutatingErrorGame(ToyGame):
    def new_state(self, seed: int | None = None) -> ToyState:
        return _keep_class(super().new_state(seed), _MutatingErrorState)


def test_suite_catches_an_observation_leak() -> None:
    with pytest.raises(ConformanceError, match="observation differs"):
        check_game(_LeakyGame(num_players=2), checks=["info_sets"])


class _TextIsOnGame(ToyGame):
    """An on/off option read with ``bool(value)``: ``"no"`` turns it on (Castle Flutterstone's
    bug before issue 40)."""

    def __init__(
        self, num_players: int = 2, rounds: int = 3, cap: int | None = None, variant: bool = False
    ):
        super().__init__(num_players=num_players, rounds=rounds, cap=cap)
        self._config["variant"] = bool(variant)


class _StrictBoolGame(ToyGame):
    """An on/off option that refuses the words ``no``/``off`` (the other games before)."""

    def __init__(
        self, num_players: int = 2, rounds: int = 3, cap: int | None = None, variant: bool = False
    ):
        if not isinstance(variant, bool):
            raise InvalidConfigError(f"variant must be True or False, got {variant!r}")
        super().__init__(num_players=num_players, rounds=rounds, cap=cap)
        self._config["variant"] = variant


def test_suite_catches_on_off_options_read_as_something_else() -> None:
    with pytest.raises(ConformanceError, match="variant='false' gave config"):
        check_game(_TextIsOnGame(num_players=2), checks=["options"])
    with pytest.raises(ConformanceError, match="variant='false' should mean False but was refused"):
        check_game(_StrictBoolGame(num_players=2), checks=["options"])


def test_suite_catches_a_state_changed_by_an_error() -> None:
    with pytest.raises(ConformanceError, match="changed the state"):
        check_game(_MutatingErrorGame(num_players=2), checks=["state_errors"])


def test_suite_catches_a_peeking_agent() -> None:
    from boardgames_rl.core.agent import Agent

    class Peeker(Agent):
        name = "peeker"

        secret = 0

        def act(self, info_set, rng):
            legal = np.flatnonzero(info_set.legal_action_mask)
            return int(legal[self.secret % len(legal)])  # the true hands, via a side channel

    game = ToyGame(num_players=2)
    peeker = Peeker()
    original = ToyState.info_set

    def leaky_info_set(state, player):
        peeker.secret = sum(state.hands)
        return original(state, player)

    ToyState.info_set = leaky_info_set  # type: ignore[method-assign]
    try:
        with pytest.raises(ConformanceError, match="reads hidden information"):
            check_agent_no_peeking(peeker, game, states=30)
    finally:
        ToyState.info_set = original  # type: ignore[method-assign]


def test_check_game_runs_the_whole_suite_on_the_toy_game() -> None:
    report = check_game(ToyGame(num_players=3), skip=["single_agent_env"])
    assert set(report.seconds) == set(CHECKS) - {"single_agent_env"}
    assert "checks passed" in str(report)
    with pytest.raises(ValueError, match="unknown checks"):
        check_game(ToyGame(), checks=["no_such_check"])


def test_training_check_writes_nothing_outside(tmp_path, monkeypatch) -> None:
    """The single-agent check's short MaskablePPO run makes no folder in the system's temporary
    folder (SB3's default logger makes an ``SB3-<time>`` folder there at every ``learn``)."""
    pytest.importorskip("sb3_contrib")
    import tempfile

    temp = tmp_path / "system-temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    check_game(ToyGame(num_players=2), checks=["single_agent_env"])
    # (torch may keep its own compile cache there: that is torch's, made by any use of it)
    assert [p.name for p in temp.iterdir() if p.name.startswith("SB3")] == []
