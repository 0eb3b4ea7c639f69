"""Shaping potential for Castle Nightingale (training signal only, see
:mod:`boardgames_rl.training.shaping`).

The ninja wins by banking 5 relics, the samurai by capturing 3 ninjas; against random play
most games reach the turn limit, so the terminal reward is rare. The potential counts each
side's progress towards its win: relics banked (plus half a relic for each relic carried this
turn, which a capture would confiscate) out of 5 for the ninja, captures out of 3 for the
samurai. It reads the true vase contents (hidden from the players): a training signal only,
never part of the observation or the policy.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_nightingale import cards as C
from boardgames_rl.games.castle_nightingale.state import NINJA, SAMURAI, STOLEN

CARRIED_WEIGHT = 0.5
"""A relic taken this turn counts this much of a banked one (it is lost on a capture)."""


def potential(state) -> np.ndarray:
    """``[ninja progress, samurai progress]``: relics banked (+ carried, half) / 5, captures / 3."""
    carried = sum(
        1 for t, w in enumerate(state.vase_where) if w == STOLEN and state.vase_content[t]
    )
    out = np.zeros(2)
    out[NINJA] = (state.banked_relics() + CARRIED_WEIGHT * carried) / C.RELICS_TO_WIN
    out[SAMURAI] = state.captured / C.NINJAS
    return out
