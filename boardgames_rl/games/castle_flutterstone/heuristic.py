"""A heuristic Castle Flutterstone agent: best expected progress from the landing model.

* flick: the (yaw, elevation, force) on the game's grid with the highest expected value, where a
  zone's value is the real progress it allows from this field (bridges and figures counted), a win
  counting ``win_bonus`` extra fields and a moat landing ``card_value`` when a card can be drawn;
  the probabilities come from :func:`~.landing.landing_grid` for this player's skill, the game's
  landing model and the pesky effects acting on the turn;
* move: the farthest field; cards: play every helpful ghost that gains something now (a second
  go is worth one more expected shot), always draw, discard the least useful helpful ghost;
* pesky cards go to the leader; the ghost figure goes into the window that hurts the victim
  most (lowest best expected value with that window blocked).

It reads only its :class:`~.state.FlutterstoneInfoSet` (all of which is public at the table).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.games.castle_flutterstone.data import Card
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone
from boardgames_rl.games.castle_flutterstone.landing import (
    Effects,
    SkillProfile,
    Zone,
    landing_grid,
)
from boardgames_rl.games.castle_flutterstone.movement import advance, figure_ahead, ghost_jump
from boardgames_rl.games.castle_flutterstone.state import (
    DISCARD,
    DRAW,
    FLICK,
    GIVE,
    MOVE,
    PLACE_GHOST,
    PLAY_CARDS,
    FlutterstoneInfoSet,
)

_POINTS = np.array([0, 1, 0, 2, 3])  # by Zone: miss, courtyard, moat, castle, window


class FlutterstoneHeuristic(Agent):
    """Greedy expected-progress player (see module docstring). Deterministic given its inputs."""

    name = "heuristic"

    def __init__(self, card_value: float = 0.8, win_bonus: float = 10.0):
        self.card_value = card_value
        self.win_bonus = win_bonus
        self._tables: dict[tuple[Any, ...], np.ndarray] = {}

    # --------------------------------------------------------------------------- model lookups
    def _table(self, game: CastleFlutterstone, skill: SkillProfile, effects: Effects) -> np.ndarray:
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

    def _zone_values(
        self, game: CastleFlutterstone, k: dict, seat: int, can_draw: bool
    ) -> np.ndarray:
        pos = k["positions"][seat]
        occupied = {q for s, q in enumerate(k["positions"]) if s != seat and 0 < q < game.goal}
        values = np.zeros(5)
        for zone in (Zone.COURTYARD, Zone.CASTLE, Zone.WINDOW):
            best = max(
                advance(pos, n, occupied, game.bridges, game.goal) for n in range(_POINTS[zone] + 1)
            )
            values[zone] = best - pos + (self.win_bonus if best >= game.goal else 0.0)
        values[Zone.MOAT] = self.card_value if can_draw else 0.0
        return values

    def _effects(self, k: dict, seat: int, band: int) -> Effects:
        held = k["pesky"][seat]
        return Effects(eyes_closed=bool(held[0]), change_hands=bool(held[1]), blocked_band=band)

    def _flick_values(self, game: CastleFlutterstone, k: dict, seat: int, band: int) -> np.ndarray:
        can_draw = bool(k["draw_pile"]) or any(k["discard"])
        table = self._table(game, game.skills[seat], self._effects(k, seat, band))
        return table @ self._zone_values(game, k, seat, can_draw)

    # --------------------------------------------------------------------------- decisions
    def act(self, info_set: FlutterstoneInfoSet, rng: np.random.Generator) -> int:
        game: CastleFlutterstone = info_set.game
        lay = game.layout
        k = info_set.knowledge
        legal = info_set.legal_action_mask
        me = info_set.player
        phase = k["phase"]
        if phase == FLICK:
            values = self._flick_values(game, k, me, k["blocked_band"])
            return int(np.argmax(np.where(legal[: lay.num_flicks], values, -np.inf)))
        if phase == MOVE:
            pos = k["positions"][me]
            occupied = {q for s, q in enumerate(k["positions"]) if s != me and 0 < q < game.goal}
            dest = [
                advance(pos, n, occupied, game.bridges, game.goal) if legal[lay.move + n] else -1
                for n in range(k["move_points"] + 1)
            ]
            return lay.move + int(np.argmax(dest))
        if phase == PLAY_CARDS:
            return self._play_card(game, k, me, legal)
        if phase == DRAW:
            return lay.draw
        if phase == DISCARD:
            for kind in (Card.MOVE_FORWARD, Card.GHOST_JUMP, Card.SECOND_GO):
                if legal[lay.discard + kind]:
                    return lay.discard + kind
        if phase == GIVE:
            offsets = [o for o in range(1, game.num_players) if legal[lay.give + o - 1]]
            lead = max(offsets, key=lambda o: k["positions"][(me + o) % game.num_players])
            return lay.give + lead - 1
        if phase == PLACE_GHOST:
            victim = k["turn_player"]
            worst = [self._flick_values(game, k, victim, band).max() for band in (1, 2, 3)]
            return lay.place + int(np.argmin(worst))
        return int(np.flatnonzero(legal)[0])

    def _play_card(self, game: CastleFlutterstone, k: dict, me: int, legal: np.ndarray) -> int:
        lay = game.layout
        pos = k["positions"][me]
        occupied = {q for s, q in enumerate(k["positions"]) if s != me and 0 < q < game.goal}
        gains: dict[int, float] = {}
        if legal[lay.play + Card.SECOND_GO]:
            gains[Card.SECOND_GO] = float(self._flick_values(game, k, me, k["blocked_band"]).max())
        if legal[lay.play + Card.MOVE_FORWARD]:
            dest = advance(pos, 1, occupied, game.bridges, game.goal)
            gains[Card.MOVE_FORWARD] = dest - pos + (self.win_bonus if dest >= game.goal else 0.0)
        if legal[lay.play + Card.GHOST_JUMP] and figure_ahead(pos, occupied, game.goal) is not None:
            gains[Card.GHOST_JUMP] = ghost_jump(pos, occupied, game.bridges, game.goal) - pos
        # a second go is best played last: the moves before it improve its shot
        order = sorted(gains, key=lambda c: (c == Card.SECOND_GO, -gains[c]))
        for card in order:
            if gains[card] > 0:
                return lay.play + card
        return lay.end_play


def evaluate(state) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, each figure's lead over the best other figure, in
    fields, as a fraction of half the path (``2 * lead / goal``, clipped).
    """
    if state.is_terminal():
        return state.returns()
    pos = np.asarray(state.positions, dtype=np.float64)
    out = np.empty(len(pos))
    for p in range(len(pos)):
        out[p] = pos[p] - np.max(np.delete(pos, p))
    return np.clip(2.0 * out / state.game.goal, -1.0, 1.0)
