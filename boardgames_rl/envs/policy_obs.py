"""The policy features (moved here from ``core``: they belong to the environments and the agents
that feed a policy, not to the contract).

**The seat feature**: what a policy sees is ``state.observation(seat)`` plus, when the game's view
is seat-relative, a one-hot of the absolute seat.

Every observation in boardgames_rl is written from the observer's point of view. Castle
Nightingale's has a ``role`` field (ninja / samurai), so the seat is already there. The other games
rotate the per-player rows so that row 0 is the observer: the absolute seat (which matters through
the turn order, e.g. who moves first) is not visible. A policy trained with ``seat="random"``
(one shared policy for all seats) would then not know which seat it plays, so for those games a
one-hot of ``num_players`` entries is appended. The rule is applied the same way in training
(:mod:`boardgames_rl.training.envs`) and at play time (:mod:`boardgames_rl.agents.ppo`), whatever
the seat option, so one saved model works with any seat.

**The prior feature** (optional, :func:`prior_feature`): a policy trained *on top of* another
agent (a residual policy, :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy`) also
sees the one-hot of the move that agent (the heuristic) would make, appended last
(``num_actions`` entries). The prior agent is an ordinary agent: it reads only the player's info
set, so the feature adds nothing the player could not compute at the table. The prior a file
may name is one of :data:`SAFE_PRIORS`, built by :func:`prior_agent`.
"""

from __future__ import annotations

import zlib

import numpy as np

from boardgames_rl.core.agent import Agent, RandomAgent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.registry import game_spec

_SOLVER_PRIORS: dict[str, dict[str, float]] = {"solver": {}, "solver:moat=0.3": {"moat": 0.3}}
"""The solver priors by name, with the options each one fixes."""

SAFE_PRIORS = ("heuristic", "random", *_SOLVER_PRIORS)
"""The prior agents a model file or a pretrained entry may name: a file is data, so it may not
name an agent that reads other files (``ppo:path=...``) or choose options. ``solver`` is the
game's own agent of that name (Castle Flutterstone's race solver), for games that declare one;
``solver:moat=0.3`` is that agent with a moat landing worth 0.3 of a drawn card's table value
(a 4-player prior), one fixed name, not an option a file sets."""


def prior_agent(spec: str, game: Game, source: str = "prior") -> Agent:
    """The prior agent a model file or a pretrained entry names (one of :data:`SAFE_PRIORS`):
    ``random`` (a :class:`~boardgames_rl.core.agent.RandomAgent`), ``heuristic`` (the game's
    heuristic), ``solver`` (the game's agent of that name, with its defaults) or
    ``solver:moat=0.3`` (the same with that option), as ``make_agent`` builds them. This closed
    set, whose options are fixed in it, is the one
    place outside the agent registry where a name becomes an agent, so the agents that read a
    prior from their files do not import the registry.

    Raises:
        InvalidConfigError: ``spec`` is not one of :data:`SAFE_PRIORS` (``source`` names it), or
            the game declares no such agent (or the agent refuses the game's configuration).
    """
    if spec == "random":
        return RandomAgent()
    if spec == "heuristic":
        heuristic = game_spec(game.name).heuristic
        if heuristic is None:
            raise InvalidConfigError(
                f"{source}: game {game.name!r} declares no heuristic agent in its GameSpec"
            )
        return heuristic()
    if spec in _SOLVER_PRIORS:
        factory = game_spec(game.name).agents.get("solver")
        if factory is None:
            raise InvalidConfigError(
                f"{source}: game {game.name!r} declares no 'solver' agent (Castle Flutterstone "
                "does); use the heuristic or random as the prior"
            )
        # otherwise its defaults: solved once per machine and cached, with a bar
        return factory(game, **_SOLVER_PRIORS[spec])
    raise InvalidConfigError(
        f"{source}: a prior must be one of {', '.join(SAFE_PRIORS)}, got {spec!r:.60}"
    )


SEAT_FIELDS = ("role",)
"""Observation fields that already identify the observer's absolute seat."""


def seat_in_observation(game: Game) -> bool:
    """True when ``game.observation_spec`` already tells the observer its absolute seat."""
    return any(name in game.observation_spec for name in SEAT_FIELDS)


def policy_obs_size(game: Game, prior: bool = False) -> int:
    """Length of the vector a policy sees for ``game`` (``prior``: with the prior feature)."""
    extra = 0 if seat_in_observation(game) else game.num_players
    return game.observation_spec.size + extra + (game.num_actions if prior else 0)


def policy_obs_bounds(game: Game, prior: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of the policy's observation (the spec's bounds, plus [0, 1] for the seat
    and, with ``prior``, for the prior feature)."""
    spec = game.observation_spec
    low, high = [spec.low], [spec.high]
    extra = (0 if seat_in_observation(game) else game.num_players) + (
        game.num_actions if prior else 0
    )
    low.append(np.zeros(extra, np.float32))
    high.append(np.ones(extra, np.float32))
    return np.concatenate(low).astype(np.float32), np.concatenate(high).astype(np.float32)


def prior_feature(agent: Agent, info_set: InfoSet) -> np.ndarray:
    """The one-hot (``float32``, ``num_actions``) of the move ``agent`` makes at ``info_set``.

    The agent's randomness (tie-breaks, sampled beliefs) is drawn from a generator seeded by the
    observation's bytes, so the feature depends only on what the player sees and on what the
    agent remembers of the player's earlier decisions (it is asked at every one of them and
    ``reset()`` at each game's start): the same in the training env, in a frozen snapshot and in
    the shipped agent.
    """
    obs = np.ascontiguousarray(info_set.observation, dtype=np.float32)
    rng = np.random.default_rng(zlib.crc32(obs.tobytes()))
    onehot = np.zeros(info_set.game.num_actions, np.float32)
    onehot[int(agent.act(info_set, rng))] = 1.0
    return onehot


def policy_observation(
    observation: np.ndarray, seat: int, game: Game, prior: np.ndarray | None = None
) -> np.ndarray:
    """``observation`` (the player's own view) as the policy sees it: a ``float32`` copy, with the
    one-hot of ``seat`` appended for seat-relative games, then ``prior`` (a
    :func:`prior_feature`) when given."""
    obs = np.asarray(observation, dtype=np.float32)
    if obs.shape != (game.observation_spec.size,):
        raise ValueError(
            f"{game.name}: observation of shape {obs.shape}, expected "
            f"({game.observation_spec.size},)"
        )
    parts = [obs]
    if not seat_in_observation(game):
        onehot = np.zeros(game.num_players, np.float32)
        onehot[seat] = 1.0
        parts.append(onehot)
    if prior is not None:
        parts.append(np.asarray(prior, dtype=np.float32))
    return np.concatenate(parts) if len(parts) > 1 else obs.copy()
