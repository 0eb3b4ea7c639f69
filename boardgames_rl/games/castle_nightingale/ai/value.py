"""The one value function of a Castle Nightingale state, and the two hooks derived from it.

:func:`progress` counts each side's progress towards its win: the ninja banks 5 relics, the
samurai captures 3 ninjas. The ninja's is the relics banked plus half of each relic carried this
turn (a capture would confiscate it), out of ``RELICS_TO_WIN``; the samurai's is the captures out
of ``NINJAS``. It reads the true vase contents (hidden from the players).

* :func:`potential` (reward shaping in the lab's SB3 recipe) is the progress
  itself, per seat (raw, in [0, 1]; the trainer makes it relative to the other seat);
* :func:`evaluate` (ISMCTS cut-offs, on sampled states) is the returns at the end, else the same
  progress made zero-sum -- the ninja's minus the samurai's, clipped to [-1, 1] -- which is
  exactly the relative potential the trainer shapes with.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import State, state_as
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.data import NINJA, SAMURAI, STOLEN
from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState

CARRIED_WEIGHT = 0.5
"""A relic taken this turn counts this much of a banked one (it is lost on a capture)."""


def progress(state: CastleNightingaleState) -> tuple[float, float]:
    """``(ninja, samurai)``: relics banked (+ carried, weighted) / 5, captures / 3."""
    carried = sum(
        1 for t, w in enumerate(state.vase_where) if w == STOLEN and state.vase_content[t]
    )
    ninja = (state.banked_relics() + CARRIED_WEIGHT * carried) / C.RELICS_TO_WIN
    return ninja, state.captured / C.NINJAS


def potential(state: State) -> np.ndarray:
    """``[ninja progress, samurai progress]`` (see :func:`progress`); a training signal only,
    never part of the observation or the policy."""
    ninja, samurai = progress(
        state_as(state, CastleNightingaleState, "castle_nightingale potential")
    )
    out = np.zeros(2)
    out[NINJA] = ninja
    out[SAMURAI] = samurai
    return out


def evaluate(state: State) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS): the returns
    at the end; before it, the ninja's progress minus the samurai's (zero-sum)."""
    s = state_as(state, CastleNightingaleState, "castle_nightingale evaluate")
    if s.is_terminal():
        return s.returns()
    ninja, samurai = progress(s)
    out = np.zeros(2)
    out[NINJA] = min(max(ninja - samurai, -1.0), 1.0)  # plain floats: no numpy call on one number
    out[SAMURAI] = -out[NINJA]
    return out
