"""What a flick is worth: the landing model's zone chances times each zone's progress.

All of it is public at the table (the landing model, every seat's skill, the pesky cards lying
face up), so the text view's best-flick hints (:mod:`.render`) and the heuristic (:mod:`.ai`)
read the same numbers from here.

:class:`FlickValues` keeps one landing table per (grid, skill, pesky effects) -- the chance of
every zone for every (yaw, elevation, force) of the game's grid, from
:func:`~boardgames_rl.games.castle_flutterstone.landing.landing_grid` -- and values a zone by the
real progress it allows from a field (bridges and other figures counted), a win counting
``win_bonus`` extra fields and a moat landing ``card_value`` when a ghost card can be drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.landing import (
    Effects,
    SkillProfile,
    Zone,
    landing_grid,
)
from boardgames_rl.games.castle_flutterstone.movement import advance, occupied_by_others

ZONE_POINTS = np.array([0, 1, 0, 2, 3])
"""Fields a landing lets the figure move (up to), by :class:`Zone`: miss, courtyard, moat,
castle, window."""


def pesky_effects(held_pesky: Sequence[bool], band: int) -> Effects:
    """The effects acting on a flick of a player holding ``held_pesky`` (Eyes closed, Change
    hands, Pesky ghost) with the ghost figure in window ``band`` (0 = none)."""
    return Effects(
        eyes_closed=bool(held_pesky[0]), change_hands=bool(held_pesky[1]), blocked_band=band
    )


class FlickValues:
    """Expected progress of every flick of a game's grid (tables cached per skill and effects)."""

    def __init__(self, card_value: float, win_bonus: float):
        self.card_value = card_value
        self.win_bonus = win_bonus
        self._tables: dict[tuple[Any, ...], np.ndarray] = {}

    def table(
        self, game: CastleFlutterstoneGame, skill: SkillProfile, effects: Effects
    ) -> np.ndarray:
        """``(num_flicks, 5)`` zone probabilities of every flick, in action order."""
        key = (
            tuple(game.yaws),
            tuple(game.aims),
            tuple(game.forces),
            game.geometry,
            skill,
            effects,
        )
        table = self._tables.get(key)
        if table is None:
            table = landing_grid(
                game.yaws, game.aims, game.forces, skill, effects, game.geometry
            ).reshape(-1, 5)
            self._tables[key] = table
        return table

    def zone_values(
        self, game: CastleFlutterstoneGame, positions: Sequence[int], seat: int, can_draw: bool
    ) -> np.ndarray:
        """Worth of each landing zone for ``seat`` 's figure where it stands (``positions``:
        every seat's field)."""
        here = positions[seat]
        occupied = occupied_by_others(positions, seat, game.goal)
        values = np.zeros(5)
        for zone in (Zone.COURTYARD, Zone.CASTLE, Zone.WINDOW):
            best = max(
                advance(here, n, occupied, game.bridges, game.goal)
                for n in range(ZONE_POINTS[zone] + 1)
            )
            values[zone] = best - here + (self.win_bonus if best >= game.goal else 0.0)
        values[Zone.MOAT] = self.card_value if can_draw else 0.0
        return values

    def values(
        self,
        game: CastleFlutterstoneGame,
        seat: int,
        positions: Sequence[int],
        held_pesky: Sequence[bool],
        band: int,
        can_draw: bool,
    ) -> np.ndarray:
        """Expected worth of every flick for ``seat`` (its figure among ``positions``, holding
        the pesky cards ``held_pesky``) with the ghost figure in window ``band``; ``can_draw``:
        a moat landing would let it draw a ghost card."""
        table = self.table(game, game.skills[seat], pesky_effects(held_pesky, band))
        return table @ self.zone_values(game, positions, seat, can_draw)
