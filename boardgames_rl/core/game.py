"""The game contract: :class:`Game`, :class:`State` and :class:`InfoSet`.

Every environment, agent, tournament and benchmark of boardgames_rl is written once against these
three classes. A game package supplies a ``Game`` subclass (an immutable description of the game and
its configuration, and a factory of states), a ``State`` subclass (the full, true, mutable state)
and
an ``InfoSet`` subclass (what one player knows, able to sample full states consistent with it).

Conventions shared by every game:

* one flat ``Discrete(num_actions)`` action space; multi-step choices are sequences of actions;
* ``current_player`` is the seat whose decision it is (``-1`` when the game is over);
* chance is drawn from the state's own ``numpy`` generator (``State.rng``): ``clone`` copies it,
  ``InfoSet.sample`` replaces it, so future chance is hidden like every other hidden thing;
* ``apply`` validates first and mutates second: after any exception the state is unchanged.
"""

from __future__ import annotations

import importlib
import json
import operator
import warnings
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Generic, SupportsIndex, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

from boardgames_rl.core.draws import Draws
from boardgames_rl.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidPlayerError,
    MalformedActionError,
    WrongPlayerError,
)
from boardgames_rl.core.observation import ObservationSpec

TERMINAL: Final = -1
"""Value of ``State.current_player`` once the game is over."""
_BOOL: Final = np.dtype(bool)
"""The masks' dtype as an object (``dtype=bool`` converts the type at every call)."""
_F32: Final = np.dtype(np.float32)
"""The observations' dtype."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """Immutable description of one configured game, and the factory of its states.

    Subclasses set the attributes below in ``__init__`` from keyword configuration values, and
    raise :class:`~boardgames_rl.core.errors.InvalidConfigError` on a bad value.

    Attributes:
        name: registry name, e.g. ``"castle_flutterstone"``.
        num_players: number of seats.
        player_names: one agent name per seat (``"player_0"``, ...).
        num_actions: size of the flat discrete action space.
        observation_spec: layout of ``State.observation(player)``.
        state_spec: layout of ``State.state_vector()`` (the omniscient view, for critics).
        max_game_length: declared upper bound on the number of actions in one game.
    """

    name: ClassVar[str]
    version: ClassVar[int] = 0
    shares_masks: ClassVar[bool] = False
    """True when the engine gives every state with the same legal actions the same read-only mask
    (it builds each mask once): search loops then list a mask's legal actions once
    (``core.game.legal_list``)."""
    num_players: int
    player_names: tuple[str, ...]
    num_actions: int
    observation_spec: ObservationSpec
    state_spec: ObservationSpec
    max_game_length: int

    def __init__(self, **config: Any):
        self._config: dict[str, Any] = dict(config)

    @property
    def config(self) -> dict[str, Any]:
        """The JSON-safe keyword configuration this game was made from (a copy)."""
        return json.loads(json.dumps(self._config))

    @property
    def env_id(self) -> str:
        """PettingZoo registry id, e.g. ``boardgames_rl/castle_flutterstone-v0``."""
        return f"boardgames_rl/{self.name}-v{self.version}"

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """A new game at its initial decision, with all setup chance drawn from ``seed``."""
        raise NotImplementedError(f"{type(self).__name__} must define new_state")

    @abstractmethod
    def state_from_dict(self, d: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict <boardgames_rl.core.State.to_dict>` output
        (exact round trip), unchecked: the engine's fast path for dicts this process made itself
        (clones, worker processes). A dict from a file or from anyone else goes through
        :func:`boardgames_rl.load_state <boardgames_rl.registry.load_state>`, which checks it
        first."""
        raise NotImplementedError(f"{type(self).__name__} must define state_from_dict")

    def action_name(self, action: SupportsIndex) -> str:
        """Readable name of an action id (the same in every state).

        Raises:
            MalformedActionError: ``action`` is not an int in ``range(num_actions)``.
        """
        return self._action_name(check_action_id(self, action))

    @abstractmethod
    def _action_name(self, action: int) -> str:
        """Name of an action id already checked to be in range (unique among all actions)."""
        raise NotImplementedError(f"{type(self).__name__} must define _action_name")

    def action_from_name(self, name: str) -> int:
        """Inverse of :meth:`action_name`."""
        table = self._action_names_index()
        if name not in table:
            raise KeyError(f"{self.name}: no action named {name!r}")
        return table[name]

    _names_index: dict[str, int] | None = None

    def _action_names_index(self) -> dict[str, int]:
        cache = self._names_index
        if cache is None:
            cache = {self.action_name(a): a for a in range(self.num_actions)}
            if len(cache) != self.num_actions:
                raise RuntimeError(f"{self.name}: action names are not unique")
            self._names_index = cache
        return cache

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and configuration, and made again from them (a compiled class
        keeps no ``__dict__`` for pickle to read; pickles pass only between this package's own
        worker processes)."""
        return _make_game, (type(self), dict(self._config))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.name == self.name and other.config == self.config

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.config, sort_keys=True)))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._config.items())
        return f"{type(self).__name__}({args})"


def _make_game(cls: type[Game], config: dict[str, Any]) -> Game:
    return cls(**config)


def _load_state(game: Game, d: dict[str, Any]) -> State:
    return game.state_from_dict(d)


def check_player(game: Game, player: Any) -> int:
    """``player`` as an int seat of ``game``, or :class:`InvalidPlayerError` (the one seat check
    every game's ``observation``, ``info_set`` and ``legal_action_mask_for`` share)."""
    if type(player) is int and 0 <= player < game.num_players:  # the fast, common case
        return player
    if isinstance(player, bool | np.bool_) or not isinstance(player, int | np.integer):
        raise InvalidPlayerError(
            f"{game.name}: a player must be an int seat in [0, {game.num_players}), got "
            f"{player!r} of type {type(player).__name__}"
        )
    p = int(player)
    if not 0 <= p < game.num_players:
        raise InvalidPlayerError(
            f"{game.name}: player {p} is not a seat of this {game.num_players}-player game; "
            f"seats are 0..{game.num_players - 1}"
        )
    return p


def check_action_id(game: Game, action: Any) -> int:
    """``action`` as an int in ``range(game.num_actions)``, or :class:`MalformedActionError`."""
    if type(action) is int and 0 <= action < game.num_actions:  # the fast, common case
        return action
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise MalformedActionError(
            f"{game.name}: an action must be an int in [0, {game.num_actions}), "
            f"got {action!r} of type {type(action).__name__}"
        )
    a = int(action)
    if not 0 <= a < game.num_actions:
        raise MalformedActionError(
            f"{game.name}: action {a} is out of range [0, {game.num_actions})"
        )
    return a


GameT = TypeVar("GameT", bound="Game")
"""The game class a state or an information set belongs to (``State[CastleFlutterstoneGame]``)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State(Generic[GameT]):
    """The full true state of one game. Mutable, cheap to clone, JSON round-trippable.

    Subclasses implement the ``_``-prefixed hooks; the public methods here add validation,
    mask caching and the shared conventions.
    """

    game: GameT

    def __init__(self, game: GameT, rng: np.random.Generator):
        self.game = game
        self.rng = rng
        self._mask: np.ndarray | None = None

    @property
    def rng(self) -> np.random.Generator:
        """The state's chance generator (``clone`` copies it, ``InfoSet.sample`` replaces it).

        A property, so that a game may make its generator lazily (``PlainDataState``)."""
        return self._generator

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._generator = value

    # ----------------------------------------------------------------- hooks for subclasses
    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat whose decision it is, or ``TERMINAL`` (-1) when the game is over."""
        raise NotImplementedError(f"{type(self).__name__} must define current_player")

    @abstractmethod
    def _legal_action_mask(self) -> np.ndarray:
        """Boolean mask of legal actions for ``current_player`` (all False when terminal)."""
        raise NotImplementedError(f"{type(self).__name__} must define _legal_action_mask")

    def _legal_list(self) -> list[int]:
        """The legal actions as ascending ints, each once, for search loops (:func:`legal_list`).
        An engine that lists its legal actions before it marks them in a mask may override this
        to skip the mask; the list must be the mask's (``testing.conformance`` checks it)."""
        return self.legal_action_mask().nonzero()[0].tolist()

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already checked to be legal."""
        raise NotImplementedError(f"{type(self).__name__} must define _apply")

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over (won, drawn, or cut by the engine's safety cap)."""
        raise NotImplementedError(f"{type(self).__name__} must define is_terminal")

    @abstractmethod
    def returns(self) -> np.ndarray:
        """Per-seat outcome (float64). +1 win / -1 loss / 0 draw unless the game says otherwise;
        all zeros before the end."""
        raise NotImplementedError(f"{type(self).__name__} must define returns")

    @abstractmethod
    def _observation(self, player: int) -> np.ndarray:
        """:meth:`observation` for a seat already checked to be in range."""
        raise NotImplementedError(f"{type(self).__name__} must define _observation")

    @abstractmethod
    def _info_set(self, player: int) -> InfoSet:
        """:meth:`info_set` for a seat already checked to be in range."""
        raise NotImplementedError(f"{type(self).__name__} must define _info_set")

    def _action_name(self, action: int) -> str:
        """:meth:`action_name` for an action id already checked (default: the game's name)."""
        return self.game._action_name(action)

    @abstractmethod
    def clone(self) -> State:
        """An independent deep copy (including the chance generator)."""
        raise NotImplementedError(f"{type(self).__name__} must define clone")

    @abstractmethod
    def _render(self, player: int | None = None) -> str:
        """:meth:`render` for ``None`` or a seat already checked to be in range."""
        raise NotImplementedError(f"{type(self).__name__} must define _render")

    @abstractmethod
    def _to_dict(self) -> dict[str, Any]:
        """JSON-safe dict of everything except the game config (added by :meth:`to_dict`)."""
        raise NotImplementedError(f"{type(self).__name__} must define _to_dict")

    @abstractmethod
    def state_vector(self) -> np.ndarray:
        """Omniscient ``float32`` vector (layout ``game.state_spec``) for centralised critics.

        The same meaning in every game: everything any seat knows (at least the union of every
        seat's observation, hands and hidden positions included), and never what no seat knows
        (the order of undrawn cards, future chance), so a critic cannot predict the deck."""
        raise NotImplementedError(f"{type(self).__name__} must define state_vector")

    # ----------------------------------------------------------------- shared behaviour
    def observation(self, player: SupportsIndex) -> np.ndarray:
        """What ``player`` may know now, as a flat ``float32`` vector laid out by
        ``game.observation_spec``: every public fact, nothing hidden from that player.

        Raises:
            InvalidPlayerError: ``player`` is not a seat of this game.
        """
        return self._observation(check_player(self.game, player))

    def write_observation(self, player: SupportsIndex, out: np.ndarray) -> None:
        """``out[:] = self.observation(player)``, written straight into ``out`` where the game
        can (a row of a vector env's buffer: no vector of its own, no second copy). ``out`` is
        a one-dimensional ``float32`` array of the observation's size.

        Raises:
            InvalidPlayerError: ``player`` is not a seat of this game.
            ValueError: ``out`` is not such an array.
        """
        seat = check_player(self.game, player)
        if out.dtype != _F32 or out.shape != (self.game.observation_spec.size,):
            raise ValueError(
                f"{self.game.name}: write_observation needs a float32 array of shape "
                f"({self.game.observation_spec.size},), got {out.dtype} {out.shape}"
            )
        self._write_observation(seat, out)

    def _write_observation(self, player: int, out: np.ndarray) -> None:
        """Hook: ``out[:] = self._observation(player)``; a game whose encoder can write into
        ``out`` directly overrides it."""
        out[:] = self._observation(player)

    def info_set(self, player: SupportsIndex) -> InfoSet:
        """What ``player`` knows, packaged for an agent (never the true state).

        Raises:
            InvalidPlayerError: ``player`` is not a seat of this game.
        """
        return self._info_set(check_player(self.game, player))

    @property
    def truncated(self) -> bool:
        """True when the game ended by the engine's safety cap rather than by its rules."""
        return False

    def legal_action_mask(self) -> np.ndarray:
        """Read-only boolean mask of shape ``(num_actions,)`` for the player on move."""
        if self._mask is None:
            mask = np.asarray(self._legal_action_mask(), _BOOL)
            mask.setflags(write=False)
            self._mask = mask
        return self._mask

    def legal_action_mask_for(self, player: SupportsIndex) -> np.ndarray:
        """The mask seen by ``player``: the legal actions if on move, else all False."""
        if check_player(self.game, player) == self.current_player:
            return self.legal_action_mask()
        return np.zeros(self.game.num_actions, _BOOL)

    def legal_actions(self) -> np.ndarray:
        """Ids of the legal actions (ascending)."""
        return self.legal_action_mask().nonzero()[0]  # 1-D by contract; faster than flatnonzero

    def validate_action(self, action: Any, player: SupportsIndex | None = None) -> int:
        """Check an action without applying it; return it as a Python int.

        Raises:
            MalformedActionError: not an integer in ``range(num_actions)``.
            GameOverError: the game is over.
            WrongPlayerError: ``player`` is given and is not the player on move.
            IllegalActionError: the action's mask entry is 0; the message lists the legal ones.
        """
        a = check_action_id(self.game, action)
        if self.is_terminal():
            raise GameOverError(f"{self.game.name}: the game is over; call reset/new_state")
        if player is not None and player != self.current_player:
            who = self._seat_name(operator.index(player))
            raise WrongPlayerError(
                f"{self.game.name}: {who} tried to act but it is "
                f"{self._seat_name(self.current_player)}'s decision"
            )
        if not self.legal_action_mask()[a]:
            legal = ", ".join(
                f"{i} ({self.game.action_name(int(i))})" for i in self.legal_actions()[:12]
            )
            more = " ..." if len(self.legal_actions()) > 12 else ""
            raise IllegalActionError(
                f"{self.game.name}: action {a} ({self.game.action_name(a)}) is not legal for "
                f"{self._seat_name(self.current_player)} now. Legal: {legal}{more}"
            )
        return a

    def apply(self, action: SupportsIndex, player: SupportsIndex | None = None) -> None:
        """Apply ``action`` for the player on move (optionally asserting who acts).

        Validation happens before any change, so after an exception the state is unchanged.
        """
        a = self.validate_action(action, player)
        self._mask = None
        self._apply(a)
        self._mask = None

    def action_name(self, action: SupportsIndex) -> str:
        """Readable name of an action id in this state (may say more than the game's name).

        Raises:
            MalformedActionError: ``action`` is not an int in ``range(num_actions)``.
        """
        return self._action_name(check_action_id(self.game, action))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict: game name, config and full state (rng included). Exact round trip."""
        return {"game": self.game.name, "config": self.game.config, "state": self._to_dict()}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> State:
        """Deprecated: :func:`boardgames_rl.load_state <boardgames_rl.registry.load_state>` (the
        same checks; this alias goes in the next release). Rebuilds any registered game's state from
        :meth:`to_dict` output, checked first.

        Raises:
            InvalidStateError: anything wrong with the dict (one line naming the field).
        """
        warnings.warn(
            "State.from_dict(d) is deprecated: use boardgames_rl.load_state(d) (the same checks)",
            DeprecationWarning,
            stacklevel=2,
        )
        # The contract imports nothing above it: the registry is found when the alias is used.
        return importlib.import_module("boardgames_rl.registry").load_state(d)

    def render(self, player: SupportsIndex | None = None, **options: Any) -> str:
        """Text picture of the state from ``player`` 's view (what that seat may see);
        ``None`` = the omniscient view of an observer. ``options`` are the game's own (e.g.
        Castle Nightingale's ``colour=True``).

        Raises:
            InvalidPlayerError: ``player`` is neither ``None`` nor a seat of this game.
        """
        return self._render(None if player is None else check_player(self.game, player), **options)

    def render_rgb(self, player: SupportsIndex | None = None) -> np.ndarray:
        """``uint8`` RGB image ``[H, W, 3]`` of the state from ``player`` 's view (``None``: the
        omniscient view). Needs matplotlib (the ``[viz]`` extra).

        Raises:
            InvalidPlayerError: ``player`` is neither ``None`` nor a seat of this game.
            MissingExtraError: matplotlib is not installed.
        """
        from boardgames_rl._util.extras import require

        require("matplotlib", "pictures of the board (render_rgb, render_mode='rgb_array')")
        return self._render_rgb(None if player is None else check_player(self.game, player))

    def _render_rgb(self, player: int | None = None) -> np.ndarray:
        """:meth:`render_rgb` for a checked ``player``; by default the text render drawn."""
        from boardgames_rl.core.rendering import text_to_rgb

        return text_to_rgb(self._render(player))

    def _seat_name(self, player: int) -> str:
        if player == TERMINAL:
            return "nobody (game over)"
        if 0 <= player < self.game.num_players:
            return self.game.player_names[player]
        return f"seat {player}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and :meth:`to_dict` (the generator's state included), rebuilt by
        ``game.state_from_dict`` (a compiled class keeps no ``__dict__`` for pickle to read)."""
        return _load_state, (self.game, self.to_dict())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game!r} current_player={self.current_player}>"


def apply_legal(state: State, action: int) -> None:
    """``state.apply(action)`` for an ``action`` the caller took from the state's own legal mask,
    without validating it again (search rollouts, opponents drawn inside an env).

    :meth:`State.apply`'s template (drop the cached mask, ``_apply``, drop it again) when the
    game keeps the core's ``apply``; a game that overrides ``apply`` (e.g. to reuse work of its
    validation) gets its own ``apply``.
    """
    if type(state).apply is State.apply:
        state._mask = None
        state._apply(action)
        state._mask = None
    else:
        state.apply(action)


def play_random_turns(state: State, random_seats: list[bool], draws: Draws) -> int:
    """Play ``state`` on while the player on move is one of ``random_seats`` (a flag per seat),
    each move a uniformly random legal action drawn as ``RandomAgent`` draws it
    (``legal[rng.integers(len(legal))]``: the same action, the same stream, through
    ``draws``); return the player on move then, ``TERMINAL`` once the game is over. The moves of
    random opponents inside an env, in one compiled loop."""
    while not state.is_terminal():
        p = state.current_player
        if not random_seats[p]:
            return p
        legal = legal_list(state)
        if not legal:
            raise ValueError(f"{state.game.name}: no legal action for player {p}")
        apply_legal(state, legal[draws.below(len(legal))])
    return TERMINAL


_LEGAL_LISTS: Final[dict[int, tuple[np.ndarray, list[int]]]] = {}
"""The legal actions of recent masks, by the mask's identity; each entry holds its mask, so that
the identity is not reused while it is listed."""

_LEGAL_LISTS_MAX: Final = 512


StateT = TypeVar("StateT", bound=State)
"""A game's own state class (:func:`state_as`)."""


def state_as(state: State, cls: type[StateT], what: str) -> StateT:
    """``state`` as the game's own state class ``cls``, refused in one line if it is another
    object: a game's hooks (value functions, rules help) read their own game's fields only.
    ``what`` names the caller (``"castle_nightingale evaluate"``)."""
    if not isinstance(state, cls):
        raise TypeError(f"{what}: give a {cls.__name__}, not a {type(state).__name__}")
    return state


def legal_list(state: State) -> list[int]:
    """The legal actions of ``state`` as ascending ints, for search loops. The list may be shared:
    never change it.

    Masks are read-only (:meth:`State.legal_action_mask`), and the engines that give every state
    with the same legal actions the same mask (:attr:`Game.shares_masks`: Castle Flutterstone,
    The White Castle) have their few masks listed once, not at every step of every playout; for
    the others this is the state's ``_legal_list()`` (``state.legal_actions().tolist()``, or the
    engine's own list without a mask: Night of the Ninja)."""
    if not state.game.shares_masks:
        return state._legal_list()
    mask = state.legal_action_mask()
    key = id(mask)
    hit = _LEGAL_LISTS.get(key)
    if hit is not None and hit[0] is mask:
        return hit[1]
    legal: list[int] = mask.nonzero()[0].tolist()
    if len(_LEGAL_LISTS) >= _LEGAL_LISTS_MAX:
        _LEGAL_LISTS.clear()
    _LEGAL_LISTS[key] = (mask, legal)
    return legal


@mypyc_attr(allow_interpreted_subclasses=True)
class InfoSet(Generic[GameT]):
    """What one player knows at one moment: the only thing agents are given.

    Attributes:
        game: the game description (public).
        player: the seat this information belongs to.
        current_player: whose decision it is (public).
        observation: ``state.observation(player)``.
        legal_action_mask: legal actions if ``player`` is on move, else all False.
    """

    game: GameT

    def __init__(
        self,
        game: GameT,
        player: int,
        current_player: int,
        observation: np.ndarray,
        legal_action_mask: np.ndarray,
    ):
        self.game = game
        self.player = player
        self.current_player = current_player
        self.observation = observation
        self.legal_action_mask = legal_action_mask

    def legal_actions(self) -> np.ndarray:
        return self.legal_action_mask.nonzero()[0]  # 1-D by contract; faster than flatnonzero

    def fields(self) -> dict[str, np.ndarray]:
        """The observation split into its named fields."""
        return self.game.observation_spec.unflatten(self.observation)

    @abstractmethod
    def sample(self, rng: np.random.Generator) -> State:
        """A full state consistent with everything this player has seen, hidden parts (and the
        state's chance generator) drawn from ``rng``."""
        raise NotImplementedError(f"{type(self).__name__} must define sample")
