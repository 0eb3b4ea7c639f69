"""Shaping potential for The White Castle (a training signal only; kept at this path for users
who import it from here): each seat's points now / ``POINTS_SCALE``, from the one value function
in :mod:`boardgames_rl.games.white_castle.ai.value` that ``evaluate`` also uses."""

from boardgames_rl.games.white_castle.ai.value import POINTS_SCALE, potential

__all__ = ["POINTS_SCALE", "potential"]
