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

A clone's (and a sample's) chance generator is made when the state first draws: building a numpy
generator costs more than copying all the plain fields of a state, and most clones (search
nodes, reward shaping's previous state) never draw. The draws are exactly those of a copied (or
seeded) generator.
"""

from __future__ import annotations

import marshal
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast

import numpy as np
from mypy_extensions import mypyc_attr

from boardgames_rl.core.draws import draws_for, generator
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import TERMINAL, GameT, InfoSet, State
from boardgames_rl.core.seeding import rng_from_state, rng_to_state

_THROWAWAY_SEED: Final = np.random.SeedSequence(0)
"""Seeds a bit generator whose state is overwritten at once (cheaper than OS entropy)."""

_FIXED_DEAL: Final[dict] = dict(np.random.default_rng(0).bit_generator.state)
"""The state of ``default_rng(0)``, the fixed generator an info set's knowledge is dealt from."""


def _copy(value: Any) -> Any:
    """Deep copy of plain data (dicts, lists, numbers, strings, None) via marshal."""
    return marshal.loads(marshal.dumps(value, 2))


_SHARED: Final = 0
_LIST: Final = 1
_DICT: Final = 2
_LISTS: Final = 3
_NESTED: Final = 4
_SCALARS: Final = (int, float, str, type(None))  # bool is an int


def _copy_kind(value: Any) -> int:
    """How :meth:`RedealtInfoSet.sample` copies one of its knowledge's values, decided once
    per info set: ``_SHARED`` (a number, string or None: nothing to copy), ``_LIST`` (a list of
    them: one shallow copy), ``_LISTS`` (a list of such lists), ``_DICT`` (a dict whose values
    are them or such lists: a shallow copy, and one of each list), else ``_NESTED`` (kept
    packed by ``marshal`` and unpacked: in C, cheaper in the pure build than a walk in
    Python). A search samples hundreds of states from one info set; copying each value by its
    kind costs less than a marshal round trip of them all, in both builds."""
    if isinstance(value, _SCALARS):
        return _SHARED
    if type(value) is list:
        if all(isinstance(x, _SCALARS) for x in value):
            return _LIST
        if all(type(x) is list and all(isinstance(y, _SCALARS) for y in x) for x in value):
            return _LISTS
    if type(value) is dict and all(
        isinstance(x, _SCALARS) or (type(x) is list and _copy_kind(x) == _LIST)
        for x in value.values()
    ):
        return _DICT
    return _NESTED


def _generator(source: dict | int) -> np.random.Generator:
    """The generator of a PCG64 state snapshot (``bit_generator.state``) or of an int seed."""
    if isinstance(source, int):
        return generator(source)  # = Generator(PCG64(source)), the same state
    bits = np.random.PCG64(_THROWAWAY_SEED)
    bits.state = cast(Any, source)
    return np.random.Generator(bits)


@mypyc_attr(allow_interpreted_subclasses=True)
class PlainDataState(State[GameT]):
    """A :class:`~boardgames_rl.core.State` whose fields are the plain data named in ``FIELDS``.

    Subclasses list their fields in ``FIELDS`` (``decision`` and ``truncated_flag`` among them)
    and may override ``_copy_caches`` to carry derived caches (e.g. a board) into clones.
    A field may be a property with a setter (Castle Flutterstone's ``truncated``).

    Fields are read and written with ``getattr`` / ``setattr``, never through ``__dict__``:
    touching an instance's ``__dict__`` makes CPython (3.11+) store its attributes in a real
    dict, and every later attribute read of the engine gets slower (about 7% of Castle
    Flutterstone's engine steps, 5-12% of play from sampled states in the other games).
    """

    FIELDS: ClassVar[tuple[str, ...]]
    decision: dict[str, Any] | None
    truncated_flag: bool
    _rng: np.random.Generator | None
    _rng_state: Any  # until the first draw: a PCG64 state snapshot or an int seed

    def __init__(self, game: GameT, rng: np.random.Generator | None) -> None:
        """A state of ``game`` with no fields set yet; ``rng`` None: the generator is made from
        ``_rng_state`` (set by the caller) at the first draw."""
        self.game = game
        self._rng = rng
        self._rng_state = None
        self._mask = None

    @property
    def rng(self) -> np.random.Generator:
        """The state's chance generator (made from its snapshot or seed at the first draw)."""
        rng = self._rng
        if rng is None:
            if self._rng_state is None:
                raise RuntimeError(
                    f"{self.game.name}: this state has no chance generator (an information "
                    "set's known_state() is for reading); play a state from its sample(rng)"
                )
            rng = self._rng = _generator(self._rng_state)
        return rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value

    def clone(self) -> PlainDataState[GameT]:
        s = type(self)(self.game, None)  # a snapshot of this generator, made at the first draw
        s._rng_state = self._rng_state if self._rng is None else self._rng.bit_generator.state
        s._mask = self._mask
        for k, v in zip(self.FIELDS, _copy([getattr(self, k) for k in self.FIELDS])):
            setattr(s, k, v)
        self._copy_caches(s)
        return s

    def _copy_caches(self, other: PlainDataState[GameT]) -> None:
        """Copy derived caches into a clone (none by default)."""

    def _to_dict(self) -> dict[str, Any]:
        d = dict(zip(self.FIELDS, _copy([getattr(self, k) for k in self.FIELDS])))
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
        for k, v in zip(cls.FIELDS, _copy([d[k] for k in cls.FIELDS])):
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


@mypyc_attr(allow_interpreted_subclasses=True)
class RedealtInfoSet(InfoSet[GameT]):
    """An information set of a :class:`PlainDataState` game.

    Subclasses implement :meth:`deal_hidden`, which deals again, in place, every part of a state
    dict that ``player`` cannot see; its result must depend only on what ``player`` knows (sort a
    pool before shuffling it). ``knowledge`` is the state dict dealt once from a fixed generator:
    read it, do not change it (:meth:`sample` and :meth:`known_state` copy it as it was made:
    from a copy of its own, each value copied by its kind, so that a search's hundreds of
    samples copy only what a state may change).
    """

    def __init__(self, state: PlainDataState, player: int):
        super().__init__(
            state.game,
            player,
            state.current_player,
            state.observation(player),
            state.legal_action_mask_for(player).copy(),
        )
        fields = state.FIELDS
        d = dict(zip(fields, _copy([getattr(state, k) for k in fields])))
        self.deal_hidden(d, player, _generator(_FIXED_DEAL))
        self.knowledge: dict[str, Any] = d
        # a copy of its own, and its mutable values by how a sample copies them (_copy_kind)
        self._template: dict[str, Any] = _copy(d)
        by_kind: list[list[tuple[str, Any]]] = [[] for _ in range(_NESTED + 1)]
        for k, v in self._template.items():
            by_kind[_copy_kind(v)].append((k, v))
        self._lists: list[tuple[str, list]] = by_kind[_LIST]
        self._dicts: list[tuple[str, dict, list[str]]] = [
            (k, v, [key for key, x in v.items() if type(x) is list]) for k, v in by_kind[_DICT]
        ]
        self._rows: list[tuple[str, list[list]]] = by_kind[_LISTS]
        self._nested: list[tuple[str, bytes]] = [
            (k, marshal.dumps(v, 2)) for k, v in by_kind[_NESTED]
        ]
        self._state_class = type(state)

    @abstractmethod
    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        """Deal again, in place, everything ``player`` cannot see in the state dict ``d``."""
        raise NotImplementedError(f"{type(self).__name__} must define deal_hidden")

    def sample(self, rng: np.random.Generator) -> PlainDataState:
        """The knowledge copied once, its hidden parts dealt from ``rng``, and a generator seeded
        from ``rng`` (made at the state's first draw); the fields take the copy as it is."""
        d = self._unpacked()
        self.deal_hidden(d, self.player, rng)
        s = self._state_of(d)
        s._rng_state = draws_for(rng).below_wide(2**63)  # = int(rng.integers(2**63))
        return s

    def known_state(self) -> PlainDataState:
        """The knowledge as a state of the game (a copy; the hidden parts as the fixed generator
        dealt them): what the player knows, with an engine's typed fields, for reading only. It
        has no chance generator, so it cannot be played."""
        return self._state_of(self._unpacked())

    def _unpacked(self) -> dict[str, Any]:
        """A new copy of the knowledge dict: its numbers and strings shared, each mutable value
        copied as its kind says (:func:`_copy_kind`), so nothing mutable is shared with the
        info set or another copy."""
        d = self._template.copy()
        for k, flat in self._lists:
            d[k] = flat[:]
        for k, table, list_keys in self._dicts:
            d[k] = copied = table.copy()
            for key in list_keys:
                copied[key] = copied[key][:]
        for k, rows in self._rows:
            d[k] = [row[:] for row in rows]
        for k, packed in self._nested:
            d[k] = marshal.loads(packed)
        return d

    def _state_of(self, d: dict[str, Any]) -> PlainDataState:
        """A state of this game whose fields are the values of ``d`` as they are (no generator
        yet: a sample seeds one)."""
        cls = self._state_class
        s = cls(self.game, None)
        for k in cls.FIELDS:
            setattr(s, k, d[k])
        return s
