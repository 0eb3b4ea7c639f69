"""``CastleNightingaleState.placements()`` keeps the placements of the state as it is (the engine,
the action mask and the answer ask them in turn of one unchanged state) and gives them again only
while everything they were computed from is equal by value: after any change of an input, by the
rules or by an edit, the answer is the one a fresh state computes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import CastleNightingale
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.paths import legal_placements
from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState


def _placing_states(config: dict[str, Any], games: int) -> list[CastleNightingaleState]:
    """Clones of every state of seeded random games where the ninja places a disc."""
    game = CastleNightingale(**config)
    out = []
    for g in range(games):
        rng = np.random.default_rng(g)
        s = game.new_state(g)
        while not s.is_terminal():
            if s.decision["kind"] in ("place", "jump_land") and s.flags["discs_left"] > 0:
                out.append(s.clone())
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return out


def _fresh(s: CastleNightingaleState):
    """The placements computed from ``s`` 's fields alone (no kept answer)."""
    return legal_placements(
        s.board, s.placement_context(), s.flags["discs_left"], s.game.never_force_token
    )


def _edits(s: CastleNightingaleState) -> dict[str, Callable[[CastleNightingaleState], None]]:
    """One edit of each input of the next placement."""
    free = [q for q in range(len(s.board.xy)) if q not in s.turn_discs and q != s.start_sq]

    def flip(key: str) -> Callable[[CastleNightingaleState], None]:
        return lambda t: t.flags.__setitem__(key, not t.flags[key])

    return {
        "turn_discs": lambda t: t.turn_discs.append(free[0]),
        "start_sq": lambda t: setattr(t, "start_sq", free[1]),
        "samurai_sq": lambda t: setattr(t, "samurai_sq", free[2]),
        "closed": lambda t: t.closed.__setitem__(0, not t.closed[0]),
        "n_equip": lambda t: t.n_equip.append(C.SHUKO) if not t.n_equip else t.n_equip.pop(),
        "jump_paid": flip("jump_paid"),
        "jump_used": flip("jump_used"),
        "shuko": flip("shuko"),
        "free_jump": flip("free_jump"),
        "discs_left": lambda t: t.flags.__setitem__("discs_left", t.flags["discs_left"] - 1),
    }


@pytest.mark.parametrize("config", [{}, {"side": "B"}, {"never_force_token": True}])
def test_an_unchanged_state_gets_its_placements_again(config: dict[str, Any]) -> None:
    states = _placing_states(config, 4)
    assert len(states) > 20
    for s in states:
        first = s.placements()
        assert first == _fresh(s)
        assert s.placements() is first  # kept: not computed again
        assert s.clone().placements() == first  # a clone computes its own


@pytest.mark.parametrize("config", [{}, {"side": "B"}, {"never_force_token": True}])
def test_any_changed_input_is_computed_again(config: dict[str, Any]) -> None:
    states = _placing_states(config, 3)[::3]
    changed = {name: 0 for name in _edits(states[0])}
    for s in states:
        for name, edit in _edits(s).items():
            t = s.clone()
            kept = t.placements()
            edit(t)
            assert t.placements() == _fresh(t), name
            changed[name] += t.placements() != kept
    # every input matters somewhere in these games, so a kept answer would have been wrong
    assert all(changed.values()), changed
