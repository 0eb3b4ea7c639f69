"""Night of the Ninja: 4-11 players, two secret Houses, a Ninja-card draft and a deadly Night.

See the module docstrings of ``state.py`` (decision kinds), ``observation.py`` (information
model) and ``infoset.py`` (sampling) for every rule, interpretation and information choice.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.registry import GameEntry, register_game
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja


def honor_shaping(previous_state, state) -> np.ndarray:
    """Optional per-step reward for ``GameAECEnv(reward_shaping=...)`` / ``VectorEnv``: the Honor
    points each player gained (or lost) between two states, divided by 10.

    It reads the true token values, so it is a training signal only (a seat's reward may hint at
    values it has not seen). Across a round boundary it counts the tokens awarded at House Reveal
    (the previous state is always in the same game).
    """
    n = state.game.num_players
    out = np.zeros(n, dtype=np.float64)
    for p in range(n):
        out[p] = (state.score(p) - previous_state.score(p)) / 10.0
    return out


register_game(
    GameEntry(
        name=NightOfTheNinja.name,
        factory=NightOfTheNinja,
        test_configs=(
            {"num_players": 4},
            {"num_players": 5},
            {"num_players": 7},
            {"num_players": 11},
            {"num_players": 6, "mode": "round"},
        ),
        summary="4-11 players, hidden Houses: draft Ninja cards, spy, trick and kill by night",
    )
)

__all__ = ["NightOfTheNinja", "honor_shaping"]
