"""Shared machinery for engines whose state is plain data with one pending decision.

Games with hidden information and many kinds of decisions (Castle Nightingale, Night of the
Ninja) keep their whole state as JSON-safe plain data named in ``FIELDS`` plus a ``decision`` dict
(``{"kind": ..., "player": ..., ...public context}``; ``None`` once the game is over). This module
gives them, once:

* :class:`PlainDataState`: exact and fast ``clone`` / ``to_dict`` / ``from_state_dict`` (a marshal
  round trip of the plain fields), ``current_player`` / ``is_terminal`` / ``truncated`` read from
  the decision and a ``truncated_flag`` field;
* :class:`RedealtInfoSet`: an information set whose ``knowledge`` is a state dict with every hidden
  part already dealt again from a fixed generator (so it carries nothing the player could not
  know), and whose ``sample`` deals the hidden parts once more.
"""

from __future__ import annotations

import marshal
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import TERMINAL, InfoSet, State
from boardgames_rl.core.seeding import clone_rng, rng_from_state, rng_to_state


def _copy(value: Any) -> Any:
    """Deep copy of plain data (dicts, lists, numbers, strings, None) via marshal."""
    return marshal.loads(marshal.dumps(value, 2))


class PlainDataState(State):
    """A :class:`State` whose fields are the plain data named in ``FIELDS``.

    Subclasses list their fields in ``FIELDS`` (``decision`` and ``truncated_flag`` among them)
    and may override :meth:`_copy_caches` to carry derived caches (e.g. a board) into clones.
    A field may be a property with a setter (Castle Flutterstone's ``truncated``).

    Fields are read and written with ``getattr`` / ``setattr``, never through ``__dict__``:
    touching an instance's ``__dict__`` makes CPython (3.11+) store its attributes in a real
    dict, and every later attribute read of the engine gets slower (about 7% of Castle
    Flutterstone's engine steps, 5-12% of play from sampled states in the other games).
    """

    FIELDS: ClassVar[tuple[str, ...]]
    decision: dict[str, Any] | None
    truncated_flag: bool

    def clone(self) -> PlainDataState:
        s = type(self).__new__(type(self))
        s.game = self.game
        s.rng = clone_rng(self.rng)
        s._mask = self._mask
        for k, v in zip(self.FIELDS, _copy([getattr(self, k) for k in self.FIELDS]), strict=True):
            setattr(s, k, v)
        self._copy_caches(s)
        return s

    def _copy_caches(self, other: PlainDataState) -> None:
        """Copy derived caches into a clone (none by default)."""

    def _to_dict(self) -> dict[str, Any]:
        d = dict(zip(self.FIELDS, _copy([getattr(self, k) for k in self.FIELDS]), strict=True))
        d["rng"] = rng_to_state(self.rng)
        return d

    @classmethod
    def from_state_dict(cls, game, d: Mapping[str, Any]) -> PlainDataState:
        """Rebuild a state from ``to_dict`` output (or its inner ``"state"`` dict)."""
        if "state" in d and "game" in d:
            if d["game"] != game.name:
                raise InvalidConfigError(f"state of game {d['game']!r} given to {game.name}")
            d = d["state"]
        s = cls(game, rng_from_state(d["rng"]))
        missing = [k for k in cls.FIELDS if k not in d]
        if missing:
            raise InvalidConfigError(f"{game.name}: state dict lacks fields {missing}")
        for k, v in zip(cls.FIELDS, _copy([d[k] for k in cls.FIELDS]), strict=True):
            setattr(s, k, v)
        return s

    @property
    def current_player(self) -> int:
        return TERMINAL if self.decision is None else self.decision["player"]

    @property
    def truncated(self) -> bool:
        return bool(self.truncated_flag)

    def is_terminal(self) -> bool:
        return self.decision is None


class RedealtInfoSet(InfoSet):
    """An information set of a :class:`PlainDataState` game.

    Subclasses implement :meth:`deal_hidden`, which deals again, in place, every part of a state
    dict that ``player`` cannot see; its result must depend only on what ``player`` knows (sort a
    pool before shuffling it). ``knowledge`` is the state dict dealt once from a fixed generator.
    """

    def __init__(self, state: PlainDataState, player: int):
        super().__init__(
            state.game,
            player,
            state.current_player,
            state.observation(player),
            state.legal_action_mask_for(player).copy(),
        )
        d = state._to_dict()
        del d["rng"]
        self.deal_hidden(d, player, np.random.default_rng(0))
        self.knowledge: dict[str, Any] = d
        self._state_class = type(state)

    @abstractmethod
    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        """Deal again, in place, everything ``player`` cannot see in the state dict ``d``."""

    def sample(self, rng: np.random.Generator) -> PlainDataState:
        d = _copy(self.knowledge)
        self.deal_hidden(d, self.player, rng)
        d["rng"] = rng_to_state(np.random.Generator(np.random.PCG64(int(rng.integers(2**63)))))
        return self._state_class.from_state_dict(self.game, d)
