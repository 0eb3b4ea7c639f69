"""Checks of a state dict before it becomes a state (what :func:`boardgames_rl.load_state` runs).

A state dict read from a file is untrusted input. :func:`checked_state` accepts it only if

1. **its shape is the game's**: ``{"game": str, "config": dict, "state": dict}``, a game of the
   registry (:mod:`boardgames_rl.registry` passes its specs), a valid configuration;
2. **it fits the schema of real states of that configuration** (:class:`StateSchema`, learnt once
   per configuration from the states of a few seeded random games, played to the end): the same
   top-level fields; at every well-sampled path where all those states agree on a type, that type
   (an int is a float, not a bool); one entry per player in the per-player lists (top-level lists,
   and rows of them, that always hold ``num_players`` entries); every number finite and within a
   generous bound of those seen, every list within a generous length (so no absurd count can
   exhaust memory); no list or object data at a path real states never use;
3. **the game's own consistency checks** pass (the ``state_checks`` of its
   :class:`~boardgames_rl.core.spec.GameSpec`, written with :mod:`boardgames_rl.core.dict_checks`,
   and ``Game.state_dict_problems`` if the class has it: id ranges, per-player lengths, conserved
   decks, counters within their limits so no game runs past its length cap);
4. **the state it gives behaves like a state**: ``current_player`` is a seat or ``TERMINAL`` as
   ``is_terminal`` says; a live state has a legal action; every player's observation has the spec's
   shape, finite values within its bounds; ``returns`` are finite; every info set builds; the state
   round-trips through ``to_dict`` to the same dict;
5. **it plays**: up to :data:`LOOKAHEAD_ACTIONS` of its legal actions, each applied to a clone,
   give valid states, and :data:`ROLLOUTS` seeded random games from it reach the end within
   ``max_game_length`` actions with a valid player and a legal action at every step, in-bounds
   observations every :data:`OBSERVE_EVERY` steps and finite returns at the end. (Damage that
   only some far-off line of play would reach can still slip through these;
   the lab's ``reliability.py`` experiment measures how often it does.)

Anything else raises :class:`~boardgames_rl.core.errors.InvalidStateError` (one class, one line
naming the field). ``Game.state_from_dict`` (the engines' fast path, used internally on dicts they
made) does not run these checks.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from boardgames_rl.core.dict_checks import kind as _kind
from boardgames_rl.core.errors import GameError, InvalidStateError
from boardgames_rl.core.game import TERMINAL, Game, State
from boardgames_rl.core.spec import GameSpec

SAMPLE_GAMES = 10
"""Random games whose states make a configuration's schema."""
SAMPLE_EVERY = 2
"""One state in this many is sampled along each game (and always the last)."""
INT_BOUND = 10_000
"""Integers may exceed the largest seen in the sample by this much, times 10."""
LOOKAHEAD_ACTIONS = 32
"""Legal actions (at most) applied to clones of a loaded state, each checked."""
ROLLOUTS = 2
"""Seeded random games played to the end from a loaded state, every step checked."""
OBSERVE_EVERY = 16
"""In those games, every player's observation is checked every this many steps."""
_SKIP = ("rng",)
"""Top-level fields not checked against the schema (the generator's state: checked by loading)."""


_EXACT = {int: "int", float: "float", str: "str"}


def _scalar_kind(v: list | tuple) -> str | None:
    """``"int"``, ``"float"`` or ``"str"`` when every item of a non-empty ``v`` is exactly that
    type (a bool is not an int here, as in :func:`_kind`), else None."""
    if not v:
        return None
    kind = _EXACT.get(type(v[0]))
    if kind is None:
        return None
    first = type(v[0])
    return kind if all(type(x) is first for x in v) else None


class _Path:
    __slots__ = ("kinds", "lengths", "lo", "hi", "count")

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.lengths: set[int] = set()
        self.lo, self.hi = math.inf, -math.inf
        self.count = 0


class StateSchema:
    """Types, list lengths and integer ranges at every path of real states of one game config."""

    def __init__(self, game: Game, games: int = SAMPLE_GAMES, every: int = SAMPLE_EVERY):
        self.game = game
        self.paths: dict[tuple, _Path] = {}
        self.fields: set[str] | None = None
        rng = np.random.default_rng(0)
        for seed in range(games):
            state = game.new_state(10_007 + seed)
            step = 0
            while True:
                if step % every == 0 or state.is_terminal():
                    self._learn(state.to_dict()["state"])
                if state.is_terminal() or step > 4 * game.max_game_length:
                    break
                state.apply(int(rng.choice(state.legal_actions())))
                step += 1

    def _learn(self, d: dict[str, Any]) -> None:
        keys = set(d)
        self.fields = keys if self.fields is None else self.fields & keys
        self._missing_ok = getattr(self, "_missing_ok", set()) | (keys ^ (self.fields or keys))
        for k, v in d.items():
            if k not in _SKIP:
                self._walk((k,), v)

    def _walk(self, path: tuple, v: Any) -> None:
        p = self.paths.get(path)
        if p is None:
            p = self.paths[path] = _Path()
        p.count += 1
        kind = _kind(v)
        p.kinds.add(kind)
        if kind == "list":
            p.lengths.add(len(v))
            child = (*path, "[]")
            scalar = _scalar_kind(v)
            if scalar is None:
                for x in v:
                    self._walk(child, x)
                return
            # a list of one scalar type (most lists of a state): one update, as the walk would
            q = self.paths.get(child)
            if q is None:
                q = self.paths[child] = _Path()
            q.count += len(v)
            q.kinds.add(scalar)
            if scalar != "str":
                q.lo, q.hi = min(q.lo, min(v)), max(q.hi, max(v))
        elif kind == "dict":
            for k, x in v.items():
                self._walk((*path, k), x)
        elif kind in ("int", "float"):
            p.lo, p.hi = min(p.lo, v), max(p.hi, v)

    # ------------------------------------------------------------------ checking
    def check(self, d: Mapping[str, Any]) -> None:
        """Raise :class:`InvalidStateError` where ``d`` (the inner state dict) breaks the schema."""
        name = self.game.name
        fields = self.fields or set()
        missing = sorted(fields - set(d))
        if missing:
            raise InvalidStateError(f"{name} state dict lacks the fields {missing}")
        known = fields | getattr(self, "_missing_ok", set()) | set(_SKIP)
        unknown = sorted(set(d) - known)
        if unknown:
            raise InvalidStateError(f"{name} state dict has unknown fields {unknown}")
        for k, v in d.items():
            if k not in _SKIP:
                self._check((k,), v, 0)

    def _check(self, path: tuple, v: Any, depth: int) -> None:
        where = ".".join(str(x) for x in path)
        if depth > 12:
            raise InvalidStateError(f"{self.game.name} state dict: {where} is nested too deeply")
        p = self.paths.get(path)
        kind = _kind(v)
        if kind not in ("null", "bool", "int", "float", "str", "list", "dict"):
            raise InvalidStateError(f"{self.game.name} state dict: {where} is a {kind}")
        if p is None:
            if kind in ("list", "dict") and v:
                raise InvalidStateError(
                    f"{self.game.name} state dict: {where} holds data where real states have none"
                )
            return
        trusted = p.count >= (30 if len(path) <= 2 else 200)
        if trusted and (len(p.kinds) == 1 or p.kinds == {"int", "float"}):
            want = next(iter(p.kinds)) if len(p.kinds) == 1 else "float"
            ok = kind == want or (want == "float" and kind == "int")
            if not ok:
                raise InvalidStateError(
                    f"{self.game.name} state dict: {where} must be {_ARTICLE[want]}, got {v!r:.40}"
                )
        if kind == "list":
            per_player = p.lengths == {self.game.num_players} and p.count >= 30
            if per_player and len(path) <= 2 and len(v) not in p.lengths:
                raise InvalidStateError(
                    f"{self.game.name} state dict: {where} must have {next(iter(p.lengths))} "
                    f"entries, got {len(v)}"
                )
            bound = max(p.lengths) * 10 + INT_BOUND if p.lengths else INT_BOUND
            if len(v) > bound:
                raise InvalidStateError(f"{self.game.name} state dict: {where} is too long")
            for x in v:
                self._check((*path, "[]"), x, depth + 1)
        elif kind == "dict":
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InvalidStateError(
                        f"{self.game.name} state dict: {where} has a non-text key"
                    )
                self._check((*path, k), x, depth + 1)
        elif kind in ("int", "float"):
            if not math.isfinite(v):
                raise InvalidStateError(f"{self.game.name} state dict: {where} is not finite")
            if p.lo != math.inf:
                span = max(abs(p.lo), abs(p.hi), 1) * 10 + INT_BOUND
                if abs(v) > span:
                    raise InvalidStateError(
                        f"{self.game.name} state dict: {where} = {v!r} is out of range"
                    )


_ARTICLE = {
    "null": "null",
    "bool": "true or false",
    "int": "an integer",
    "float": "a number",
    "str": "text",
    "list": "a list",
    "dict": "an object",
}

_SCHEMAS: dict[Game, StateSchema] = {}


def schema_for(game: Game) -> StateSchema:
    """The (cached) schema of ``game`` 's configuration."""
    if game not in _SCHEMAS:
        _SCHEMAS[game] = StateSchema(game)
    return _SCHEMAS[game]


def consistency_problem(spec: GameSpec, game: Game, inner: Mapping[str, Any]) -> str | None:
    """The first broken consistency rule of ``inner`` for ``game`` (its spec's ``state_checks``,
    then ``Game.state_dict_problems``), or None."""
    d = dict(inner)
    check = spec.state_checks
    problem = check(game, d) if check is not None else None
    if problem is None:
        hook = getattr(game, "state_dict_problems", None)
        problem = hook(d) if callable(hook) else None
    return problem


def _behaves(state: State, d: Mapping[str, Any]) -> None:
    game = state.game
    p = state.current_player
    terminal = state.is_terminal()
    if terminal != (p == TERMINAL) or not (terminal or 0 <= p < game.num_players):
        raise InvalidStateError(
            f"{game.name} state dict: current player {p} does not match is_terminal={terminal}"
        )
    if not terminal:
        mask = np.asarray(state.legal_action_mask())
        if mask.shape != (game.num_actions,) or not mask.any():
            raise InvalidStateError(
                f"{game.name} state dict: the player on move has no legal action"
            )
    spec = game.observation_spec
    for q in range(game.num_players):
        obs = np.asarray(state.observation(q), dtype=np.float64)
        if obs.shape != (spec.size,) or not np.isfinite(obs).all():
            raise InvalidStateError(
                f"{game.name} state dict: player {q}'s observation is malformed"
            )
        if (obs < spec.low - 1e-6).any() or (obs > spec.high + 1e-6).any():
            raise InvalidStateError(
                f"{game.name} state dict: player {q}'s observation is out of its bounds"
            )
        state.info_set(q)
    returns = np.asarray(state.returns(), dtype=np.float64)
    if returns.shape != (game.num_players,) or not np.isfinite(returns).all():
        raise InvalidStateError(f"{game.name} state dict: its returns are malformed")
    if _normalised(state.clone().to_dict()) != _normalised(dict(d)):
        raise InvalidStateError(f"{game.name} state dict: it does not round-trip through the state")
    if terminal:
        return
    legal = state.legal_actions()
    rng = np.random.default_rng(0x5EED)
    for a in rng.permutation(legal)[:LOOKAHEAD_ACTIONS]:
        after = state.clone()
        after.apply(int(a))
        _step_ok(after, f"after action {int(a)}")
    for k in range(ROLLOUTS):
        play = state.clone()
        rng = np.random.default_rng([k, 0x5EED])
        for n in range(game.max_game_length + 1):
            if play.is_terminal():
                break
            play.apply(int(rng.choice(play.legal_actions())))
            _step_ok(play, f"{n + 1} random actions later", n % OBSERVE_EVERY == 0)
        else:
            raise InvalidStateError(
                f"{game.name} state dict: random play from it runs past the game's "
                f"max_game_length ({game.max_game_length} actions)"
            )


def _step_ok(state: State, when: str, observe: bool = True) -> None:
    game = state.game
    p, terminal = state.current_player, state.is_terminal()
    if terminal != (p == TERMINAL) or not (terminal or 0 <= p < game.num_players):
        raise InvalidStateError(f"{game.name} state dict: {when}, current player {p} is invalid")
    if terminal:
        returns = np.asarray(state.returns(), dtype=np.float64)
        if returns.shape != (game.num_players,) or not np.isfinite(returns).all():
            raise InvalidStateError(f"{game.name} state dict: {when}, the returns are malformed")
        return
    if not np.asarray(state.legal_action_mask()).any():
        raise InvalidStateError(f"{game.name} state dict: {when}, no legal action")
    if not observe:
        return
    spec = game.observation_spec
    for q in range(game.num_players):
        obs = np.asarray(state.observation(q), dtype=np.float64)
        if (
            obs.shape != (spec.size,)
            or (obs < spec.low - 1e-6).any()
            or (obs > spec.high + 1e-6).any()
        ):
            raise InvalidStateError(
                f"{game.name} state dict: {when}, player {q}'s observation is out of bounds"
            )


def _normalised(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {str(k): _normalised(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_normalised(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


CHECK_SECONDS = 20.0
"""Wall-time cap of the behaviour checks (a damaged state can loop inside the engine)."""


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float, name: str) -> Iterator[None]:
    """Raise InvalidStateError if the block runs longer than ``seconds`` (main thread, POSIX; a
    no-op elsewhere)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Timeout:
        raise InvalidStateError(
            f"{name} state dict: playing from it did not finish within {seconds:g} s (the engine "
            "loops on it)"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def checked_state(d: Any, games: Mapping[str, GameSpec]) -> State:
    """The state of the dict ``d`` (``State.to_dict`` output) of one of ``games`` (the registry's
    specs by name), checked as the module docstring says. Raises :class:`InvalidStateError` (one
    line) for anything else."""
    if not isinstance(d, Mapping):
        raise InvalidStateError(f"a state dict must be an object, got {type(d).__name__}")
    if set(d) != {"game", "config", "state"}:
        raise InvalidStateError(
            f"a state dict has exactly the keys game, config, state; got {sorted(map(str, d))}"
        )
    name, config, inner = d["game"], d["config"], d["state"]
    if (
        not isinstance(name, str)
        or not isinstance(config, Mapping)
        or not isinstance(inner, Mapping)
    ):
        raise InvalidStateError("a state dict's game must be text, its config and state objects")
    spec = games.get(name)
    if spec is None:
        raise InvalidStateError(
            f"unknown game {name!r} in the state dict; registered: {', '.join(sorted(games))}"
        )
    try:
        game = spec.game(**config)
    except (GameError, TypeError, ValueError) as e:
        raise InvalidStateError(f"state dict of {name!r} with config {dict(config)}: {e}") from e
    if _normalised(game.config) != _normalised(dict(config)):
        raise InvalidStateError(f"{name} state dict: config {dict(config)} is not the game's own")
    schema_for(game).check(inner)
    try:
        problem = consistency_problem(spec, game, inner)
    except (Exception, RecursionError) as e:  # noqa: BLE001 - a check tripped on bad data
        problem = f"a field is malformed ({type(e).__name__}: {str(e)[:80]})"
    if problem:
        raise InvalidStateError(f"{name} state dict: {problem}")
    try:
        with time_limit(CHECK_SECONDS, name):
            state = game.state_from_dict(d)
            _behaves(state, d)
    except InvalidStateError:
        raise
    except (Exception, RecursionError) as e:  # noqa: BLE001 - any failure of untrusted data
        first = str(e).splitlines()[0][:160] if str(e) else ""
        raise InvalidStateError(
            f"{name} state dict is not a valid state ({type(e).__name__}: {first})"
        ) from e
    return state
