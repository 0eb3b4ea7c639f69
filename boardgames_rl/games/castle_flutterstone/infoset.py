"""Castle Flutterstone information sets: the whole table but the order of the draw pile.

Ghost cards lie face up, so every seat knows the same facts; the order of the face-down pile
(and the future chance of the flicks) is the only thing hidden.

:class:`CastleFlutterstoneView` is the typed public view an agent reads (``info_set.view``,
built once per information set): every fact of the table as named, immutable attributes, the
pile by kind.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames_rl.core.draws import draws_for, generator
from boardgames_rl.core.game import InfoSet
from boardgames_rl.core.plain_state import RedealtInfoSet
from boardgames_rl.games.castle_flutterstone.data import Phase

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame  # noqa: F401
    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState


@dataclass(frozen=True)
class CastleFlutterstoneView:
    """What everyone at the table sees (all of it public), for ``player`` 's decision.

    Per-seat rows are in absolute seat order. Helpful cards and the piles are counted by kind
    (``data.Card`` order: Second go, Moving forward, Ghost jump, then the pesky kinds).
    """

    player: int
    """The seat this view is for."""
    phase: Phase
    """The pending decision kind (``Phase.OVER`` once over)."""
    turn_player: int
    positions: tuple[int, ...]
    """Field of each seat's figure."""
    finished: tuple[int, ...]
    """Seats in the order they reached the last step."""
    helpful_ready: tuple[tuple[int, ...], ...]
    """Per seat, usable helpful cards by kind."""
    helpful_new: tuple[tuple[int, ...], ...]
    """Per seat, helpful cards drawn in its last turn by kind (usable from its next turn)."""
    pesky: tuple[tuple[bool, ...], ...]
    """Per seat, the pesky cards in front of it (Eyes closed, Change hands, Pesky ghost)."""
    ghost_giver: tuple[int, ...]
    """Per seat, who gave it the Pesky ghost card (-1 if none)."""
    draw_pile: tuple[int, ...]
    """Cards left in the draw pile by kind (its order is hidden)."""
    discard: tuple[int, ...]
    """The discard pile by kind."""
    shots_left: int
    move_points: int
    """The N of a pending "up to N fields" move."""
    pending_pesky: int
    """The pesky kind waiting to be given (-1 if none)."""
    blocked_band: int
    """The window the ghost figure blocks (0 = none)."""

    @property
    def can_draw(self) -> bool:
        """A moat landing would let the player draw a ghost card: the pile or the discards
        hold one."""
        return any(self.draw_pile) or any(self.discard)

    def next_card_pool(self) -> tuple[int, ...]:
        """The cards the next ghost card drawn comes from, by kind (the one belief of this
        table: only the pile's order is hidden): the pile's contents, or, with the pile empty,
        the discards that would be shuffled into a new one."""
        return self.draw_pile if any(self.draw_pile) else self.discard

    def hand(self, seat: int) -> list[int]:
        """Seat ``seat`` 's helpful cards by kind, usable now or drawn last turn."""
        return [r + n for r, n in zip(self.helpful_ready[seat], self.helpful_new[seat])]


def table_view(knowledge: dict[str, Any], player: int) -> CastleFlutterstoneView:
    """The view of a state dict (an info set's ``knowledge``) for ``player``."""
    return CastleFlutterstoneView(
        player=player,
        phase=Phase(knowledge["phase"]),
        turn_player=knowledge["turn_player"],
        positions=tuple(knowledge["positions"]),
        finished=tuple(knowledge["finished"]),
        helpful_ready=tuple(tuple(row) for row in knowledge["helpful_ready"]),
        helpful_new=tuple(tuple(row) for row in knowledge["helpful_new"]),
        pesky=tuple(tuple(bool(x) for x in row) for row in knowledge["pesky"]),
        ghost_giver=tuple(knowledge["ghost_giver"]),
        draw_pile=tuple(knowledge["draw_pile"].count(kind) for kind in range(6)),
        discard=tuple(knowledge["discard"]),
        shots_left=knowledge["shots_left"],
        move_points=knowledge["move_points"],
        pending_pesky=knowledge["pending_pesky"],
        blocked_band=knowledge["blocked_band"],
    )


@lru_cache(maxsize=64)
def _fixed_order(n: int) -> tuple[int, ...]:
    """The permutation of ``range(n)`` that ``np.random.default_rng(0).shuffle`` makes (the
    fixed order of the knowledge's pile, as :class:`RedealtInfoSet` deals it)."""
    order = list(range(n))
    np.random.default_rng(0).shuffle(order)
    return tuple(order)


class CastleFlutterstoneInfoSet(RedealtInfoSet["CastleFlutterstoneGame"]):
    """What one player knows.

    ``knowledge`` is the state dict with the draw pile already reshuffled from a fixed generator
    (its contents are known, its order is not) and no chance generator; ``sample`` deals the
    known pile contents in a random order and gives the state a fresh generator.
    """

    def __init__(self, state: CastleFlutterstoneState, player: int):
        """As :class:`RedealtInfoSet` (the same ``knowledge``), without building the fixed
        generator each time: its shuffle of a pile of ``n`` cards is one permutation of
        ``range(n)``, made once (:func:`_fixed_order`)."""
        InfoSet.__init__(
            self,
            state.game,
            player,
            state.current_player,
            state.observation(player),
            state.legal_action_mask_for(player).copy(),
        )
        fields = type(state).FIELDS
        d = dict(
            zip(
                fields,
                marshal.loads(marshal.dumps([getattr(state, k) for k in fields], 2)),
            )
        )
        pile = sorted(d["draw_pile"])
        d["draw_pile"] = [pile[i] for i in _fixed_order(len(pile))]
        self.knowledge: dict[str, Any] = d
        self._state_class: type[CastleFlutterstoneState] = type(state)

    _view: CastleFlutterstoneView | None = None

    @property
    def view(self) -> CastleFlutterstoneView:
        """The typed public view agents read (built at the first read, once per info set)."""
        view = self._view
        if view is None:
            view = self._view = table_view(self.knowledge, self.player)
        return view

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        pile = sorted(d["draw_pile"])
        draws_for(rng).shuffle(pile)
        d["draw_pile"] = pile  # a new list: the knowledge's lists are never written

    def sample(self, rng: np.random.Generator) -> CastleFlutterstoneState:
        """As :meth:`RedealtInfoSet.sample <boardgames_rl.core.plain_state.RedealtInfoSet.sample>`
        (the same draws from ``rng``, so the same samples), built directly: no first deep copy of
        the knowledge (``deal_hidden`` replaces the pile instead of writing into it), and the new
        generator is seeded in place instead of going through a state dict and a second
        generator, and the fields are copied by hand (``CastleFlutterstoneState.dealt``)."""
        d = dict(self.knowledge)
        self.deal_hidden(d, self.player, rng)
        fresh = generator(draws_for(rng).below_wide(2**63))
        return self._state_class.dealt(self.game, d, fresh)


FlutterstoneInfoSet = CastleFlutterstoneInfoSet
"""Deprecated name of :class:`CastleFlutterstoneInfoSet` (kept so that old imports still work)."""


def flutterstone_info_set(info_set: InfoSet) -> CastleFlutterstoneInfoSet:
    """``info_set`` as a Castle Flutterstone information set (what this game's agents read),
    refused in one line if it is another game's."""
    if not isinstance(info_set, CastleFlutterstoneInfoSet):
        raise TypeError(
            "castle_flutterstone: this agent plays Castle Flutterstone only; got an information "
            f"set of {info_set.game.name}"
        )
    return info_set
