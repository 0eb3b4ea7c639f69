"""Words for people: the contextual name of every action and the words of each decision.

``game.action_name(a)`` is the short, fixed name of an action id (``flick aim 15 force 1.00 yaw
-15``; code and records use it). ``state.action_name(a)`` -- what the CLI lists and
``scenario.play`` reads -- is the same name, and for a flick followed by what its three numbers
mean (:func:`flick_words`):

.. code-block:: text

    flick aim 15 force 1.00 yaw -15: at window 1 (left), low arc, full force

* **yaw** is the lateral aim in degrees, negative to the left: the game's default yaws point at
  window 1 (-15, left, wide and low), window 2 (0, centre) and window 3 (+15, right, narrow and
  high) and at the wall's two edges (-25, +25); a yaw beyond the wall's edge flies past it;
* **aim** is the elevation of the launch, in degrees above the table: a low arc flies flat at
  the wall, a high arc lobs the bat over it towards the battlements;
* **force** is the strength of the flick from 0 (the softest, the bat drops in the courtyard or
  the moat) to 1 (the hardest).

When the ghost figure sits in the window a flick aims at, the name says so ("ghost in it").
:data:`DECISION_WORDS` says in words what each decision asks of whom (the text view's last
line), :data:`ZONE_WORDS` what each landing zone gives.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from boardgames_rl.games.castle_flutterstone.landing import LandingGeometry

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

DECISION_WORDS: dict[str, str] = {
    "place_ghost": "places the ghost figure in a window",
    "play_cards": "may play helpful ghosts",
    "flick": "flicks a bat",
    "move": "chooses how far to move",
    "draw": "may draw a ghost card",
    "discard": "must discard a helpful ghost (four held)",
    "give": "gives a pesky ghost away",
}
"""What the player on move is asked, by decision kind (``data.PHASES``)."""

ZONE_WORDS: dict[str, str] = {
    "miss": "no hit: the figure stays",
    "courtyard": "courtyard: 1 field",
    "moat": "moat: draw a ghost card",
    "castle": "castle or step: up to 2 fields",
    "window": "window: up to 3 fields",
}
"""What each landing zone gives (``landing.ZONE_NAMES`` order)."""

FORCE_WORDS = ((0.15, "softest"), (0.35, "soft"), (0.65, "medium"), (0.85, "hard"), (1.0, "full"))
"""Force words by upper bound (force is in [0, 1])."""


def window_yaws(geometry: LandingGeometry) -> list[tuple[float, float]]:
    """``(left, right)`` lateral aims in degrees that hit each window's opening (windows 1-3)."""
    x = geometry.wall_x
    return [
        (math.degrees(math.atan(lo / x)), math.degrees(math.atan(hi / x)))
        for lo, hi in geometry.window_lateral
    ]


def yaw_words(geometry: LandingGeometry, yaw: float) -> str:
    """Where a lateral aim points: a window, the wall, its edge, or past it."""
    side = "left" if yaw < 0 else "right"
    if geometry.yaw_max == 0:  # landing model v1: the windows are one column in the middle
        return "at the windows"
    for k, (lo, hi) in enumerate(window_yaws(geometry), start=1):
        if lo < yaw < hi:
            return f"at window {k} ({'centre' if yaw == 0 else side})"
    edge = math.degrees(math.atan(geometry.wall_half_width / geometry.wall_x))
    if abs(yaw) > edge:
        return f"past the wall ({side})"
    if abs(yaw) > edge - 6:
        return f"at the wall's {side} edge"
    return f"at the wall ({'centre' if yaw == 0 else side})"


def arc_words(geometry: LandingGeometry, aim: float) -> str:
    """How high the bat is launched: low, middle or high arc over the model's elevation range."""
    span = geometry.aim_max - geometry.aim_min
    third = (aim - geometry.aim_min) / span if span else 0.5
    return ("low" if third < 1 / 3 else ("middle" if third < 2 / 3 else "high")) + " arc"


def force_words(force: float) -> str:
    """The force in words: softest, soft, medium, hard or full."""
    return next(word for bound, word in FORCE_WORDS if force <= bound + 1e-9) + " force"


def flick_words(game: CastleFlutterstoneGame, action: int) -> str:
    """What flick ``action`` 's yaw, elevation and force mean, in words."""
    yaw, aim, force = game._flicks[action]
    return f"{yaw_words(game.geometry, yaw)}, {arc_words(game.geometry, aim)}, {force_words(force)}"


def flick_target(game: CastleFlutterstoneGame, action: int) -> int:
    """The window (1-3) a flick's yaw points at, or 0 (none, or landing model v1)."""
    if game.geometry.yaw_max == 0:
        return 0
    yaw = game._flicks[action][0]
    for k, (lo, hi) in enumerate(window_yaws(game.geometry), start=1):
        if lo < yaw < hi:
            return k
    return 0


def _flick_names(game: CastleFlutterstoneGame) -> list[str]:
    names = game.__dict__.get("_flick_names")
    if names is None:
        names = [
            f"{game._action_name(a)}: {flick_words(game, a)}" for a in range(game.layout.num_flicks)
        ]
        game.__dict__["_flick_names"] = names
    return names


def contextual_name(state: CastleFlutterstoneState, action: int) -> str:
    """``state.action_name(action)``: the fixed name, for a flick followed by its words (and a
    note when the ghost figure sits in the window it aims at)."""
    game = state.game
    if action >= game.layout.num_flicks:
        return game._action_name(action)
    name = _flick_names(game)[action]
    if state.blocked_band and flick_target(game, action) == state.blocked_band:
        return name + " (ghost in it)"
    return name
