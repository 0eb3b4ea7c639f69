"""Castle Flutterstone information sets: the whole table but the order of the draw pile.

Ghost cards lie face up, so every seat knows the same facts; the order of the face-down pile
(and the future chance of the flicks) is the only thing hidden.
"""

from __future__ import annotations

import marshal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgames_rl.core.game import InfoSet
from boardgames_rl.core.plain_state import RedealtInfoSet

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone
    from boardgames_rl.games.castle_flutterstone.state import FlutterstoneState


@lru_cache(maxsize=64)
def _fixed_order(n: int) -> tuple[int, ...]:
    """The permutation of ``range(n)`` that ``np.random.default_rng(0).shuffle`` makes (the
    fixed order of the knowledge's pile, as :class:`RedealtInfoSet` deals it)."""
    order = list(range(n))
    np.random.default_rng(0).shuffle(order)
    return tuple(order)


class FlutterstoneInfoSet(RedealtInfoSet):
    """What one player knows.

    ``knowledge`` is the state dict with the draw pile already reshuffled from a fixed generator
    (its contents are known, its order is not) and no chance generator; ``sample`` deals the
    known pile contents in a random order and gives the state a fresh generator.
    """

    game: CastleFlutterstone

    def __init__(self, state: FlutterstoneState, player: int):
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
                strict=True,
            )
        )
        pile = sorted(d["draw_pile"])
        d["draw_pile"] = [pile[i] for i in _fixed_order(len(pile))]
        self.knowledge: dict[str, Any] = d
        self._state_class: type[FlutterstoneState] = type(state)

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        pile = sorted(d["draw_pile"])
        rng.shuffle(pile)
        d["draw_pile"] = pile  # a new list: the knowledge's lists are never written

    def sample(self, rng: np.random.Generator) -> FlutterstoneState:
        """As :meth:`RedealtInfoSet.sample` (the same draws from ``rng``, so the same samples),
        built directly: no first deep copy of the knowledge (``deal_hidden`` replaces the pile
        instead of writing into it), and the new generator is seeded in place instead of going
        through a state dict and a second generator."""
        d = dict(self.knowledge)
        self.deal_hidden(d, self.player, rng)
        fresh = np.random.Generator(np.random.PCG64(int(rng.integers(2**63))))
        cls = self._state_class
        s = cls(self.game, fresh)
        for k, v in zip(
            cls.FIELDS, marshal.loads(marshal.dumps([d[k] for k in cls.FIELDS], 2)), strict=True
        ):
            setattr(s, k, v)
        return s


def flutterstone_info_set(info_set: InfoSet) -> FlutterstoneInfoSet:
    """``info_set`` as a Castle Flutterstone information set (what this game's agents read),
    refused in one line if it is another game's."""
    if not isinstance(info_set, FlutterstoneInfoSet):
        raise TypeError(
            "castle_flutterstone: this agent plays Castle Flutterstone only; got an information "
            f"set of {info_set.game.name}"
        )
    return info_set
