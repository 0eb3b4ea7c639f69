"""Castle Flutterstone action layout and the generic name of every action id.

One flat ``Discrete`` space holds every kind of decision; each phase makes only its own block
legal, so an id means the same thing in every context and its name never depends on the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from boardgames_rl.games.castle_flutterstone import data

PER_TURN_MAX_DECISIONS: Final = 1 + 3 + 1 + 4 * 3
"""Place the ghost, play up to 3 cards, start flicking, then up to 4 shots each followed by at
most a move/draw decision and a discard/give decision."""


class ActionLayout:
    """Where each kind of decision lives in the flat action space.

    ``[0, Y*A*F)`` flicks (``(yaw index * A + aim index) * F + force index``; with one yaw, as in
    landing model v1, this is ``aim index * F + force index``), then move 0..3, play a helpful
    card (3), start flicking, draw, decline, discard a helpful kind (3), give a pesky card to the
    player +1/+2/+3 seats clockwise, place the ghost figure in window 1..3.
    """

    def __init__(self, num_aims: int, num_forces: int, num_yaws: int = 1):
        self.num_yaws = num_yaws
        self.num_aims = num_aims
        self.num_forces = num_forces
        self.num_flicks = num_yaws * num_aims * num_forces
        self.move = self.num_flicks  # + k, k = 0..3
        self.play = self.move + data.MAX_MOVE_POINTS + 1  # + helpful kind
        self.end_play = self.play + len(data.HELPFUL)
        self.draw = self.end_play + 1
        self.decline = self.draw + 1
        self.discard = self.decline + 1  # + helpful kind
        self.give = self.discard + len(data.HELPFUL)  # + (offset - 1), offset 1..3
        self.place = self.give + 3  # + (band - 1)
        self.num_actions = self.place + data.WINDOW_BANDS

    def __reduce__(self) -> tuple[type[ActionLayout], tuple[int, int, int]]:
        """Pickled as its three sizes (a compiled class has no ``__dict__`` to pickle)."""
        return ActionLayout, (self.num_aims, self.num_forces, self.num_yaws)

    def flick(self, aim_index: int, force_index: int, yaw_index: int = 0) -> int:
        return (yaw_index * self.num_aims + aim_index) * self.num_forces + force_index


def generic_name(
    action: int,
    layout: ActionLayout,
    flicks: Sequence[tuple[float, float, float]],
    landing_model: str,
) -> str:
    """Name of action id ``action``; ``flicks[a]`` is the (yaw, elevation, force) of flick ``a``.

    Landing model v1 has no lateral aim, so its flick names omit the yaw, and its ghost figure
    blocks a window *band*.
    """
    lay = layout
    a = action
    if a < lay.num_flicks:
        yaw, aim, force = flicks[a]
        if landing_model == "v1":
            return f"flick aim {aim:g} force {force:.2f}"
        return f"flick aim {aim:g} force {force:.2f} yaw {yaw:+g}"
    if a < lay.play:
        k = a - lay.move
        return f"move {k} field" + ("" if k == 1 else "s")
    if a < lay.end_play:
        return f"play {data.CARD_NAMES[data.HELPFUL[a - lay.play]]}"
    if a == lay.end_play:
        return "start flicking"
    if a == lay.draw:
        return "draw ghost card"
    if a == lay.decline:
        return "decline ghost card"
    if a < lay.give:
        return f"discard {data.CARD_NAMES[data.HELPFUL[a - lay.discard]]}"
    if a < lay.place:
        return f"give pesky card to player +{a - lay.give + 1}"
    if landing_model == "v1":
        return f"place ghost in window band {a - lay.place + 1}"
    return f"place ghost in window {a - lay.place + 1}"


def generic_names(
    layout: ActionLayout, flicks: Sequence[tuple[float, float, float]], landing_model: str
) -> list[str]:
    """The name of every action id, in id order."""
    return [generic_name(a, layout, flicks, landing_model) for a in range(layout.num_actions)]
