"""OpenSpiel bridge: every registered game as a pyspiel Python game (the ``[openspiel]`` extra).

::

    import pyspiel
    from boardgames_rl.interop import openspiel

    openspiel.register_games()                      # every game, as "boardgames_rl_<game>"
    game = pyspiel.load_game("boardgames_rl_night_of_the_ninja", {"players": 5})
    state = game.new_initial_state()
    state.legal_actions(); state.observation_tensor(); state.information_state_string()

Then OpenSpiel's own algorithms run on our games, e.g. its information-set MCTS (here against
three random bots in one round of 4-player Night of the Ninja)::

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    from boardgames_rl.interop import openspiel

    openspiel.register_games()
    game = pyspiel.load_game(
        "boardgames_rl_night_of_the_ninja", {"players": 4, "config": '{"mode": "round"}'}
    )
    bot = ismcts.ISMCTSBot(game, openspiel.ValueEvaluator(rollout_steps=1000), 2.0, 30,
                           random_state=np.random.RandomState(0),
                           allow_inconsistent_action_sets=True)
    bot.set_resampler(openspiel.seeded_resampler(7))
    bots = [bot] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, 4)]
    print(pyspiel.evaluate_bots(game.new_initial_state(), bots, 0))  # the returns per seat

How our contract maps onto OpenSpiel's:

============================  ==============================================================
OpenSpiel                     boardgames_rl
============================  ==============================================================
game type                     sequential, imperfect information, **sampled** chance (the
                              state's own generator draws chance inside ``apply``, as in
                              OpenSpiel's ``president``: there are no chance nodes), general
                              sum, terminal rewards, ``players`` from the game's range
game parameters               ``players`` (seats), ``seed`` (the first game's seed; each
                              ``new_initial_state`` uses the next one) and ``config`` (the
                              rest of the game's configuration as a JSON object string)
``legal_actions``             ``np.flatnonzero(state.legal_action_mask())``
``apply_action``              ``state.apply`` (an illegal action raises ``IllegalActionError``)
``returns``                   ``state.returns()``
``observation_tensor``        ``state.observation(player)``, laid out by the game's
                              ``ObservationSpec`` (the tensor dict has one entry per field)
``information_state_*``       the observation (which already holds every public fact a seat
                              can remember) together with the seat's own past actions, so two
                              histories with the same string are the same information set
``resample_from_infostate``   ``state.info_set(player).sample(rng)``, the generator seeded from
                              OpenSpiel's probability sampler; the player's own history is
                              carried over, so their strings are equal in the sample
============================  ==============================================================

In a resampled state only the resampling player's ``information_state_string`` is guaranteed
(another seat's own past actions are not part of what the resampling player knows); algorithms
that key opponents' nodes in a sampled world (ISMCTS) should use observation strings
(``use_observation_string=True``), which are exact for every seat.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import numpy as np

from boardgames_rl._util.extras import require
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, State
from boardgames_rl.registry import game_spec, list_games, make_game

pyspiel = require("pyspiel", "the OpenSpiel bridge")

PREFIX = "boardgames_rl_"
"""What OpenSpiel's short name of every game starts with (:func:`openspiel_name`)."""
MAX_PLAYERS_PROBED = 16

__all__ = [
    "PREFIX",
    "OpenSpielState",
    "ValueEvaluator",
    "game_type",
    "openspiel_name",
    "register_game",
    "register_games",
    "seeded_resampler",
]


def openspiel_name(name: str) -> str:
    """The pyspiel short name of game ``name``, e.g. ``boardgames_rl_white_castle``."""
    return PREFIX + game_spec(name).name


@functools.cache
def _player_range(name: str) -> tuple[int, int, int]:
    """(min, max, default) seats of game ``name``, from the configs it accepts."""
    default = make_game(name).num_players
    counts = []
    for n in range(1, MAX_PLAYERS_PROBED + 1):
        if n == default:
            counts.append(n)
            continue
        try:
            make_game(name, num_players=n)
        except (InvalidConfigError, TypeError):
            continue
        counts.append(n)
    return min(counts), max(counts), default


def _make(name: str, players: int, config: dict[str, Any]) -> Game:
    """Our game for a pyspiel parameter set (``num_players`` only where the game has a choice)."""
    low, high, _ = _player_range(name)
    if low == high:
        if players != low:
            raise InvalidConfigError(f"{name} is a {low}-player game; set players={low}")
        return make_game(name, **config)
    return make_game(name, num_players=players, **config)


def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of game ``name``."""
    low, high, default = _player_range(name)
    return pyspiel.GameType(
        short_name=openspiel_name(name),
        long_name=f"boardgames_rl {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default, "seed": 0, "config": "{}"},
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class _OpenSpielGame:
    """Mixin body of the pyspiel game class built per registered game (see ``register_game``)."""

    _bg_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        _, _, default = _player_range(self._bg_name)
        players = int(params.get("players", default))
        try:
            config = json.loads(params.get("config", "{}") or "{}")
        except json.JSONDecodeError as err:
            raise InvalidConfigError(
                f"OpenSpiel parameter 'config' must be a JSON object string: {err}"
            ) from None
        if not isinstance(config, dict):
            raise InvalidConfigError("OpenSpiel parameter 'config' must be a JSON object string")
        self.bg_game = _make(self._bg_name, players, config)
        self._next_seed = int(params.get("seed", 0))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bg_game.num_actions,
            max_chance_outcomes=0,
            num_players=self.bg_game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.bg_game.max_game_length,
        )
        pyspiel.Game.__init__(
            self,
            game_type(self._bg_name),
            info,
            {"players": players, "seed": self._next_seed, "config": json.dumps(config)},
        )

    def new_initial_state(self) -> Any:
        """A new game; successive calls on this game object use seeds ``seed``, ``seed + 1``, ...

        ``pyspiel.load_game`` may hand out one cached object for equal parameters, so the n-th
        call depends on earlier users of that object: for a reproducible series call
        :meth:`initial_state` with an explicit seed."""
        seed, self._next_seed = self._next_seed, self._next_seed + 1
        return self.initial_state(seed)

    def initial_state(self, seed: int) -> Any:
        """The pyspiel state of our game dealt from ``seed`` (what ``new_state(seed)`` deals)."""
        return OpenSpielState(self, self.bg_game.new_state(int(seed)), origin=f"seed {seed}")

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return OpenSpielObserver(self.bg_game, perfect_recall)


class OpenSpielState(pyspiel.State):  # type: ignore[misc,name-defined,unused-ignore]
    """A pyspiel state around one of our states (``self.bg_state``)."""

    def __init__(
        self,
        game: Any,
        bg_state: State,
        own_actions: list[list[int]] | None = None,
        origin: str = "",
    ) -> None:
        super().__init__(game)
        n = bg_state.game.num_players
        # pyspiel clones a Python state by deep-copying its attributes: one box whose
        # __deepcopy__ is State.clone keeps that as cheap as our own clone.
        self._box = _Box(bg_state, own_actions or [[] for _ in range(n)], [], origin)

    @property
    def bg_state(self) -> State:
        """Our state behind this pyspiel state."""
        return self._box.state

    @property
    def own_actions(self) -> list[list[int]]:
        """Each seat's own past actions (what makes information-state strings perfect recall)."""
        return self._box.own

    def current_player(self) -> int:
        if self.bg_state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.bg_state.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.bg_state.current_player:
            return []
        return np.flatnonzero(self.bg_state.legal_action_mask()).tolist()

    def _apply_action(self, action: int) -> None:
        player = self.bg_state.current_player
        self.bg_state.apply(int(action))
        self._box.own[player].append(int(action))
        self._box.history.append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The contextual name (``State.action_name``) of a legal action of the player on move;
        the game's generic name of any other action id."""
        bg = self.bg_state
        if not 0 <= action < bg.game.num_actions:
            return f"action {action}"
        if player == bg.current_player and bg.legal_action_mask()[action]:
            return bg.action_name(int(action))
        return bg.game.action_name(int(action))

    def is_terminal(self) -> bool:
        return bool(self.bg_state.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.bg_state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with everything ``player_id`` knows (``InfoSet.sample``)."""
        seed = int(probability_sampler() * 2**32) % 2**32
        sample = self.bg_state.info_set(int(player_id)).sample(np.random.default_rng(seed))
        own: list[list[int]] = [[] for _ in self.own_actions]
        own[player_id] = list(self.own_actions[player_id])
        return OpenSpielState(self.get_game(), sample, own, origin=f"sampled {seed}")

    def __str__(self) -> str:
        """The seed (or the resampling that made this state) and every action since: the chance
        generator is part of the state, so this identifies the state. ``bg_state.render()``
        draws it."""
        actions = ",".join(map(str, self._box.history))
        return f"{self._box.origin}; actions {actions}"


class _Box:
    """Our state and the histories of one pyspiel state, deep-copied by ``State.clone``."""

    __slots__ = ("state", "own", "history", "origin")

    def __init__(self, state: State, own: list[list[int]], history: list[int], origin: str):
        self.state, self.own, self.history, self.origin = state, own, history, origin

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(
            self.state.clone(), [list(a) for a in self.own], list(self.history), self.origin
        )


class OpenSpielObserver:
    """pyspiel's PyObserver interface over ``State.observation`` (one tensor entry per field)."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.spec = game.observation_spec
        self.tensor = np.zeros(self.spec.size, np.float32)
        self.dict: dict[str, np.ndarray] = {
            f.name: self.tensor[self.spec.slices[f.name]].reshape(f.shape or ())
            for f in self.spec.fields
        }

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.tensor[:] = state.bg_state.observation(player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        obs = state.bg_state.observation(player)
        text = f"p{player} " + hashlib.blake2b(obs.tobytes(), digest_size=16).hexdigest()
        if self.perfect_recall:
            text += " own " + ",".join(map(str, state.own_actions[player]))
        return text


class ValueEvaluator:
    """An OpenSpiel MCTS/ISMCTS evaluator (``evaluate`` and ``prior``) from the game's declared
    ``evaluate`` hook: up to ``rollout_steps`` uniformly random moves on a copy of the (sampled)
    state, then the hook's per-seat values in [-1, 1] (the returns if the game ended).

    OpenSpiel's ``RandomRolloutEvaluator`` plays every rollout to the end through pyspiel's
    Python-game bindings; on games of hundreds of moves this evaluator is the affordable one.
    Games without an ``evaluate`` hook score an unfinished rollout as 0 for every seat.
    """

    def __init__(self, rollout_steps: int = 0, seed: int = 0) -> None:
        if rollout_steps < 0:
            raise InvalidConfigError(f"rollout_steps must be >= 0, got {rollout_steps}")
        self.rollout_steps = rollout_steps
        self.rng = np.random.default_rng(seed)

    def evaluate(self, state: OpenSpielState) -> np.ndarray:
        bg = state.bg_state
        if self.rollout_steps and not bg.is_terminal():
            bg = bg.clone()
            for _ in range(self.rollout_steps):
                if bg.is_terminal():
                    break
                bg.apply(int(self.rng.choice(np.flatnonzero(bg.legal_action_mask()))))
        if bg.is_terminal():
            return np.asarray(bg.returns(), dtype=np.float64)
        hook = game_spec(bg.game.name).evaluate
        if hook is None:
            return np.zeros(bg.game.num_players)
        return np.asarray(hook(bg), dtype=np.float64)

    def prior(self, state: OpenSpielState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def seeded_resampler(seed: int) -> Any:
    """A resampling callback for OpenSpiel's Python ``ISMCTSBot.set_resampler``, drawing from one
    seeded ``UniformProbabilitySampler``.

    Without it the bot makes a new ``pyspiel.UniformProbabilitySampler(0, 1)`` for every sample,
    and those are seeded afresh by pyspiel, so a search is not reproducible::

        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts

        from boardgames_rl.interop import openspiel

        openspiel.register_games()
        game = pyspiel.load_game("boardgames_rl_white_castle", {"players": 2})
        bot = ismcts.ISMCTSBot(game, openspiel.ValueEvaluator(rollout_steps=10), 2.0, 20,
                               random_state=np.random.RandomState(0),
                               allow_inconsistent_action_sets=True)
        bot.set_resampler(openspiel.seeded_resampler(7))
        print(bot.step(game.new_initial_state()))  # the same action on every run
    """
    sampler = pyspiel.UniformProbabilitySampler(int(seed), 0.0, 1.0)

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        return state.resample_from_infostate(player, sampler)

    return resample


@functools.cache
def register_game(name: str) -> str:
    """Register game ``name`` with pyspiel (idempotent); returns its pyspiel short name."""
    spec = game_spec(name)
    cls = type(
        f"OpenSpiel_{spec.name}",
        (_OpenSpielGame, pyspiel.Game),
        {"_bg_name": spec.name, "__doc__": f"pyspiel game of {spec.name}."},
    )
    short = openspiel_name(spec.name)
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type(spec.name), cls)
    return short


def register_games() -> list[str]:
    """Register every registered game with pyspiel; returns their pyspiel short names."""
    return [register_game(name) for name in list_games()]
