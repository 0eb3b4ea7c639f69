"""Castle Flutterstone rules engine: the full true state and its transitions.

Turn structure (rulebook "How to play" and data sheet 3, 6.3):

1. start of turn: helpful cards drawn in earlier turns become usable; if the player holds the
   *Pesky ghost* card, its giver places the ghost figure in a window band (phase ``place_ghost``);
2. ``play_cards``: play any number of usable helpful cards, one decision each, then start flicking;
3. ``flick``: one (aim, force) action per bat; the landing zone is drawn from the landing model;
4. after the shot: ``move`` (up to N fields), or ``draw`` on a moat landing (optional), then
   ``discard`` (a fourth helpful card) or ``give`` (a pesky card to another player);
5. more bats for a double go, else the turn ends: the pesky cards that acted are discarded.

The first figure to reach the last step wins at once (also in the middle of a double go).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

import numpy as np

from boardgames_rl.core.game import TERMINAL
from boardgames_rl.core.plain_state import PlainDataState
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.data import (
    DISCARD,
    DRAW,
    FLICK,
    GIVE,
    MOVE,
    OVER,
    PHASE_NAMES,
    PLACE_GHOST,
    PLAY_CARDS,
    Card,
)
from boardgames_rl.games.castle_flutterstone.flight import (
    CASTLE,
    COURTYARD,
    MOAT,
    WINDOW,
    Shooter,
    draw,
)
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import (
    CastleFlutterstoneInfoSet,
    FlutterstoneInfoSet,
)
from boardgames_rl.games.castle_flutterstone.landing import (
    Effects,
    Zone,
    sample_flick,
    shot_constants,
)
from boardgames_rl.games.castle_flutterstone.legal import can_play_a_card, can_receive, legal_mask
from boardgames_rl.games.castle_flutterstone.movement import advance, ghost_jump, occupied_by_others
from boardgames_rl.games.castle_flutterstone.naming import contextual_name
from boardgames_rl.games.castle_flutterstone.observation import encode
from boardgames_rl.games.castle_flutterstone.observation import state_vector as _state_vector

__all__ = [
    "DISCARD",
    "DRAW",
    "FLICK",
    "GIVE",
    "MOVE",
    "OVER",
    "PLACE_GHOST",
    "PLAY_CARDS",
    "CastleFlutterstoneInfoSet",
    "CastleFlutterstoneState",
    "FlutterstoneInfoSet",
    "FlutterstoneState",
]


landing_draw: Callable[..., Zone] = sample_flick
"""The draw of a flick's landing zone, ``landing.sample_flick`` (the module's variable, so a test
can force the zones a scenario needs: ``tests/castle_flutterstone/test_rules.py``). While it is
``sample_flick``, the engine makes the same draws itself (``flight.draw``) with the shot's
constants kept per seat and effects, without checking the grid's aims again at every flick."""

_ZONE_POINTS: Final[dict[int, int]] = {COURTYARD: 1, CASTLE: 2, WINDOW: 3}
_EFFECTS: Final = {
    (eyes, hands, band): Effects(eyes_closed=eyes, change_hands=hands, blocked_band=band)
    for eyes in (False, True)
    for hands in (False, True)
    for band in range(data.WINDOW_BANDS + 1)
}


# The card kinds as plain ints, what the engine indexes and compares with (``Card`` names them
# everywhere else): in the compiled build a ``Card`` member costs a class attribute lookup at
# every use, and ``Card(k)`` a call into ``enum``.
_SECOND_GO: Final = int(Card.SECOND_GO)
_MOVE_FORWARD: Final = int(Card.MOVE_FORWARD)
_EYES_CLOSED: Final = int(Card.EYES_CLOSED)
_PESKY_GHOST: Final = int(Card.PESKY_GHOST)
_HELPFUL_KINDS: Final = tuple(int(kind) for kind in data.HELPFUL)


class CastleFlutterstoneState(PlainDataState[CastleFlutterstoneGame]):
    """Full state of a Castle Flutterstone game.

    Public attributes (read them, don't write them; use ``apply``):
        positions: field of each figure (0 = start, ``game.goal`` = last step).
        finished: seats in the order they reached the last step.
        helpful_ready / helpful_new: per seat, counts of usable / just-drawn helpful cards by kind.
        pesky: per seat, the pesky kinds lying in front of that player (bool per kind).
        ghost_giver: per seat, who gave them the Pesky ghost card (-1 if none).
        draw_pile: card kinds, top of the pile last. discard: counts by kind.
        turn_player, phase, shots_left, move_points, pending_pesky, blocked_band, last_outcome.
        truncated: the game ended by the turn cap without a figure on the last step.

    Every field is plain data (ints, bools, lists), named in ``FIELDS``: ``to_dict`` and
    ``from_state_dict`` come from :class:`~boardgames_rl.core.plain_state.PlainDataState`; ``clone``
    copies the fields by hand (measured faster than the base's marshal round trip for these few
    short lists).
    """

    positions: list[int]
    finished: list[int]
    helpful_ready: list[list[int]]
    helpful_new: list[list[int]]
    pesky: list[list[bool]]
    ghost_giver: list[int]
    draw_pile: list[int]
    discard: list[int]
    turn_player: int
    turn_count: int
    phase: int
    shots_left: int
    move_points: int
    pending_pesky: int
    blocked_band: int
    last_outcome: int
    winner: int
    _truncated: bool

    # ------------------------------------------------------------------------- construction
    @classmethod
    def initial(cls, game: CastleFlutterstoneGame, seed: int | None) -> CastleFlutterstoneState:
        """A new game: every figure on its start field, the ghost cards shuffled into the pile,
        the first player's turn started (hand-made positions: ``scenario.build``)."""
        s = cls(game, make_rng(seed))
        p = game.num_players
        s.positions = [0] * p
        s.finished = []
        s.helpful_ready = [[0] * 3 for _ in range(p)]
        s.helpful_new = [[0] * 3 for _ in range(p)]
        s.pesky = [[False] * 3 for _ in range(p)]
        s.ghost_giver = [-1] * p
        pile = [int(card) for card, n in game.deck_counts.items() for _ in range(n)]
        s.rng.shuffle(pile)
        s.draw_pile = pile
        s.discard = [0] * 6
        s.turn_player = game.first_player
        s.turn_count = 0
        s.phase = FLICK
        s.shots_left = 0
        s.move_points = 0
        s.pending_pesky = -1
        s.blocked_band = 0
        s.last_outcome = -1
        s.winner = -1
        s.truncated = False
        s._start_turn(game.first_player)
        return s

    @classmethod
    def setup(
        cls, game: CastleFlutterstoneGame, positions: list[int], **kwargs: Any
    ) -> CastleFlutterstoneState:
        """Deprecated: ``scenario.build`` (cards by name). ``scenario.setup`` (same
        arguments: cards as counts)."""
        from boardgames_rl.games.castle_flutterstone.scenario import setup

        return setup(game, positions, **kwargs)

    FIELDS: ClassVar[tuple[str, ...]] = (
        "positions",
        "finished",
        "helpful_ready",
        "helpful_new",
        "pesky",
        "ghost_giver",
        "draw_pile",
        "discard",
        "turn_player",
        "turn_count",
        "phase",
        "shots_left",
        "move_points",
        "pending_pesky",
        "blocked_band",
        "last_outcome",
        "winner",
        "truncated",
    )

    def clone(self) -> CastleFlutterstoneState:
        s = CastleFlutterstoneState(self.game, None)  # its generator: made at the first draw
        s._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state
        s._mask = self._mask
        s.positions = self.positions[:]
        s.finished = self.finished[:]
        s.helpful_ready = [r[:] for r in self.helpful_ready]
        s.helpful_new = [r[:] for r in self.helpful_new]
        s.pesky = [r[:] for r in self.pesky]
        s.ghost_giver = self.ghost_giver[:]
        s.draw_pile = self.draw_pile[:]
        s.discard = self.discard[:]
        s.turn_player = self.turn_player
        s.turn_count = self.turn_count
        s.phase = self.phase
        s.shots_left = self.shots_left
        s.move_points = self.move_points
        s.pending_pesky = self.pending_pesky
        s.blocked_band = self.blocked_band
        s.last_outcome = self.last_outcome
        s.winner = self.winner
        s._truncated = self._truncated
        return s

    @classmethod
    def dealt(
        cls, game: CastleFlutterstoneGame, d: dict[str, Any], rng: np.random.Generator
    ) -> CastleFlutterstoneState:
        """A state with a copy of every field of the state dict ``d`` (an info set's knowledge,
        its pile dealt) and the generator ``rng``: ``InfoSet.sample``'s state, its fields
        copied by hand as :meth:`clone` copies them."""
        s = cls(game, rng)
        s.positions = list(d["positions"])
        s.finished = list(d["finished"])
        s.helpful_ready = [list(r) for r in d["helpful_ready"]]
        s.helpful_new = [list(r) for r in d["helpful_new"]]
        s.pesky = [list(r) for r in d["pesky"]]
        s.ghost_giver = list(d["ghost_giver"])
        s.draw_pile = list(d["draw_pile"])
        s.discard = list(d["discard"])
        s.turn_player = d["turn_player"]
        s.turn_count = d["turn_count"]
        s.phase = d["phase"]
        s.shots_left = d["shots_left"]
        s.move_points = d["move_points"]
        s.pending_pesky = d["pending_pesky"]
        s.blocked_band = d["blocked_band"]
        s.last_outcome = d["last_outcome"]
        s.winner = d["winner"]
        s.truncated = d["truncated"]
        return s

    # ------------------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == PLACE_GHOST:
            return self.ghost_giver[self.turn_player]
        return self.turn_player

    @property
    def truncated(self) -> bool:
        return self._truncated

    @truncated.setter
    def truncated(self, value: bool) -> None:
        self._truncated = bool(value)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        out = np.zeros(n, dtype=np.float64)
        if self.phase != OVER or self.truncated:
            return out
        if self.game.play_on:
            return 1.0 - 2.0 * self.places() / (n - 1)
        out[:] = -1.0
        out[self.winner] = 1.0
        return out

    def places(self) -> np.ndarray:
        """Place of every seat, 0 = first: the figures on the last step in the order they got
        there, then the others by how far they got (farther is better; figures on the same
        field share the mean of their places, e.g. several still on the start field)."""
        goal = self.game.goal
        out = np.zeros(self.game.num_players, dtype=np.float64)
        home = [seat for seat in self.finished if self.positions[seat] >= goal]
        for rank, seat in enumerate(home):
            out[seat] = rank
        rest = sorted(
            (seat for seat in range(self.game.num_players) if seat not in home),
            key=lambda seat: -self.positions[seat],
        )
        rank = len(home)
        while rest:
            tied = [seat for seat in rest if self.positions[seat] == self.positions[rest[0]]]
            for seat in tied:
                out[seat] = rank + (len(tied) - 1) / 2.0
                rest.remove(seat)
            rank += len(tied)
        return out

    def _legal_action_mask(self) -> np.ndarray:
        return legal_mask(self)

    def _apply(self, action: int) -> None:
        lay = self.game.layout
        ph = self.phase
        if ph == FLICK:
            self._flick(action)
        elif ph == MOVE:
            self._move(action - lay.move)
        elif ph == PLAY_CARDS:
            if action == lay.end_play:
                self.phase = FLICK
            else:
                self._play_card(action - lay.play)
        elif ph == DRAW:
            if action == lay.draw:
                self._draw_card()
            else:
                self._after_shot()
        elif ph == DISCARD:
            self._discard_helpful(action - lay.discard)
        elif ph == GIVE:
            target = (self.turn_player + action - lay.give + 1) % self.game.num_players
            self._give_pesky(target)
        elif ph == PLACE_GHOST:
            self.blocked_band = action - lay.place + 1
            self._enter_play_cards()

    # ------------------------------------------------------------------------- helpers
    def _occupied(self, mover: int) -> set[int]:
        """Path fields holding other figures (start field 0 and the goal never block)."""
        return occupied_by_others(self.positions, mover, self.game.goal)

    def effects(self) -> Effects:
        """Landing-model effects acting on the player whose turn it is."""
        held = self.pesky[self.turn_player]
        return _EFFECTS[bool(held[0]), bool(held[1]), self.blocked_band]

    def _shooter(self) -> Shooter:
        """The constants of a shot by the player whose turn it is, under its effects (made once
        per game, seat and effects)."""
        g = self.game
        p = self.turn_player
        held = self.pesky[p]
        key = (p * 4 + 2 * int(held[0]) + int(held[1])) * (
            data.WINDOW_BANDS + 1
        ) + self.blocked_band
        shooters = g._shooters
        sh = shooters.get(key)
        if sh is None:
            sh = shooters[key] = shot_constants(g.skills[p], self.effects(), g.geometry)
        return sh

    # ------------------------------------------------------------------------- turn flow
    def _start_turn(self, seat: int) -> None:
        g = self.game
        if self.turn_count >= g.max_turns:
            # the safety cap: a draw (truncated) unless a figure has already reached the last
            # step (play-on): then that player has won and the others take their places
            self.truncated = not self.finished
            self.phase = OVER
            return
        self.turn_count += 1
        self.turn_player = seat
        ready, new = self.helpful_ready[seat], self.helpful_new[seat]
        for k in range(3):  # cards drawn in an earlier turn may be used from this turn on
            ready[k] += new[k]
            new[k] = 0
        self.shots_left = 1
        self.blocked_band = 0
        self.move_points = 0
        if self.pesky[seat][_PESKY_GHOST - _EYES_CLOSED]:
            self.phase = PLACE_GHOST
        else:
            self._enter_play_cards()

    def _enter_play_cards(self) -> None:
        p = self.turn_player
        if can_play_a_card(self, p):
            self.phase = PLAY_CARDS
        else:
            self.phase = FLICK

    def _play_card(self, kind: int) -> None:
        p = self.turn_player
        g = self.game
        self.helpful_ready[p][kind] -= 1
        self.discard[kind] += 1
        if kind == _SECOND_GO:
            self.shots_left += 1
        elif kind == _MOVE_FORWARD:
            self._move_to(advance(self.positions[p], 1, self._occupied(p), g.bridges, g.goal))
            if self.phase == OVER or p in self.finished:
                return
        else:
            self._move_to(ghost_jump(self.positions[p], self._occupied(p), g.bridges, g.goal))
        if not can_play_a_card(self, p):
            self.phase = FLICK

    def _flick(self, action: int) -> None:
        g = self.game
        p = self.turn_player
        yaw, aim, force = g._flicks[action]
        if landing_draw is sample_flick:
            zone = draw(self._shooter(), aim, force, yaw, self.rng)
        else:
            zone = int(
                landing_draw(aim, force, g.skills[p], self.effects(), self.rng, g.geometry, yaw)
            )
        self.last_outcome = zone
        points = _ZONE_POINTS.get(zone, 0)
        if points:
            occupied = self._occupied(p)
            here = self.positions[p]
            if all(
                advance(here, k, occupied, g.bridges, g.goal) == here for k in range(1, points + 1)
            ):
                self._after_shot()  # no choice changes anything: the figure stays
            elif points == 1 and not g.courtyard_optional:
                self._move(1)
            else:
                self.move_points = points
                self.phase = MOVE
        elif zone == MOAT and (self.draw_pile or any(self.discard)):
            self.phase = DRAW
        else:
            self._after_shot()

    def _move(self, fields: int) -> None:
        g = self.game
        p = self.turn_player
        self.move_points = 0
        self._move_to(advance(self.positions[p], fields, self._occupied(p), g.bridges, g.goal))
        if self.phase != OVER and p not in self.finished:
            self._after_shot()

    def _move_to(self, field: int) -> None:
        p = self.turn_player
        self.positions[p] = field
        if field >= self.game.goal:
            self._finish(p)

    def _finish(self, seat: int) -> None:
        """``seat`` reached the last step: the first one wins at once; play-on continues."""
        g = self.game
        self.finished.append(seat)
        if self.winner < 0:
            self.winner = seat
        for k in range(3):  # a finished player's remaining cards go to the discard pile
            self.discard[k] += self.helpful_ready[seat][k] + self.helpful_new[seat][k]
            self.helpful_ready[seat][k] = self.helpful_new[seat][k] = 0
            if self.pesky[seat][k]:
                self.pesky[seat][k] = False
                self.discard[_EYES_CLOSED + k] += 1
        self.ghost_giver[seat] = -1
        racing = [s for s in range(g.num_players) if s not in self.finished]
        if not g.play_on:
            self.phase = OVER
            return
        if len(racing) == 1:  # play-on: the last figure racing takes the last place
            self.finished.extend(racing)
            self.phase = OVER
            return
        self._next_turn()

    def _draw_card(self) -> None:
        if not self.draw_pile:  # empty pile: shuffle the discards into a new one
            pile = [kind for kind in range(6) for _ in range(self.discard[kind])]
            self.rng.shuffle(pile)
            self.draw_pile = pile
            self.discard = [0] * 6
        card = self.draw_pile.pop()
        p = self.turn_player
        if card in _HELPFUL_KINDS:
            self.helpful_new[p][card] += 1
            if sum(self.helpful_ready[p]) + sum(self.helpful_new[p]) > data.MAX_HELPFUL_HELD:
                self.phase = DISCARD
                return
            self._after_shot()
            return
        targets = [s for s in range(self.game.num_players) if can_receive(self, s, card)]
        if not targets:
            self.discard[card] += 1
            self._after_shot()
        elif len(targets) == 1:
            self.pending_pesky = card
            self._give_pesky(targets[0])
        else:
            self.pending_pesky = card
            self.phase = GIVE

    def _discard_helpful(self, kind: int) -> None:
        p = self.turn_player
        if self.helpful_new[p][kind] > 0:  # the newest copy goes first: the older one is usable
            self.helpful_new[p][kind] -= 1
        else:
            self.helpful_ready[p][kind] -= 1
        self.discard[kind] += 1
        self._after_shot()

    def _give_pesky(self, target: int) -> None:
        kind = self.pending_pesky
        self.pesky[target][kind - _EYES_CLOSED] = True
        if kind == _PESKY_GHOST:
            self.ghost_giver[target] = self.turn_player
        self.pending_pesky = -1
        self._after_shot()

    def _after_shot(self) -> None:
        self.shots_left -= 1
        if self.shots_left > 0:
            self.phase = FLICK
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        p = self.turn_player
        for k in range(3):  # the pesky cards acted during this turn: discard them
            if self.pesky[p][k]:
                self.pesky[p][k] = False
                self.discard[_EYES_CLOSED + k] += 1
        self.ghost_giver[p] = -1
        self.blocked_band = 0
        self._next_turn()

    def _next_turn(self) -> None:
        n = self.game.num_players
        seat = self.turn_player
        for _ in range(n):
            seat = (seat + 1) % n
            if seat not in self.finished:
                self._start_turn(seat)
                return
        self.phase = OVER  # unreachable: the game ends when one figure is left racing

    # ------------------------------------------------------------------------- views
    def _action_name(self, action: int) -> str:
        return contextual_name(self, action)

    def _observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def state_vector(self) -> np.ndarray:
        return _state_vector(self)

    def _info_set(self, player: int) -> CastleFlutterstoneInfoSet:
        return CastleFlutterstoneInfoSet(self, player)

    # ------------------------------------------------------------------------- rendering
    def _render(self, player: int | None = None) -> str:
        from boardgames_rl.games.castle_flutterstone.render import render_text

        return render_text(self, player)

    def _render_rgb(self, player: int | None = None) -> np.ndarray:
        from boardgames_rl.games.castle_flutterstone.render import render_rgb

        return render_rgb(self, player)

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def decision_kind(self) -> str:
        """The pending decision's kind (``phase_name``; named in ``scenario.play`` 's errors)."""
        return PHASE_NAMES[self.phase]


FlutterstoneState = CastleFlutterstoneState
"""Deprecated name of :class:`CastleFlutterstoneState` (kept so that old imports still work)."""
