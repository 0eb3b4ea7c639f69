"""SingleAgentEnv: one seat of a game as a ``gymnasium.Env``, the other seats played by agents.

For single-agent RL libraries (stable-baselines3, sb3-contrib's ``MaskablePPO``)::

    from sb3_contrib import MaskablePPO

    from boardgames_rl import make_game
    from boardgames_rl.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(make_game("castle_flutterstone", num_players=3), seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64).learn(64)  # one update

* ``observation_space`` is ``Box(spec.low, spec.high, float32)`` (the learner's
  ``state.observation(seat)``), ``action_space`` is ``Discrete(num_actions)`` and
  :meth:`SingleAgentEnv.action_masks` gives the legal actions (what ``MaskablePPO`` reads).
* Each trajectory holds only the learner's own decisions: after the learner acts, the opponents
  act (each sees only ``state.info_set(p)``, or only its mask when the agent declares
  ``needs_info_set = False``, see :func:`~boardgames_rl.core.agent.agent_view`) until the learner
  is on move again or the game ends. A :class:`~boardgames_rl.core.agent.RandomAgent` (that class
  itself) is played inline: the same draw from the state's mask, no view built, and the action,
  taken from the mask, is not checked a second time.
* The reward is the learner's final return, given on the last step (plus optional shaping).
* Opponents: ``None`` (a :class:`~boardgames_rl.agents.RandomAgent` on every other seat), one
  :class:`~boardgames_rl.agents.Agent` for every other seat, a sequence with one agent per other
  seat (in seat order), or a callable ``pool(rng) -> agent(s)`` sampled at each reset (self-play
  pools). An agent spec string (``"heuristic"``, ``"ismcts:iterations=50"``) stands for the agent
  :func:`~boardgames_rl.agents.make_agent` builds from it, alone or in the sequence:
  ``opponents="heuristic"``, ``opponents=["heuristic", "random"]``.
* Seeding: ``reset(seed)`` starts a seed stream exactly like
  :class:`~boardgames_rl.envs.aec.GameAECEnv`; game ``k`` is the same game as the AEC env's game
  ``k`` for the same seed. The opponents' randomness (and a random seat) comes from a generator
  derived from each game's seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from boardgames_rl.core.agent import Agent, RandomAgent, agent_view, is_memoryless
from boardgames_rl.core.arguments import check_seat_option
from boardgames_rl.core.draws import Draws
from boardgames_rl.core.errors import GameOverError, IllegalActionError
from boardgames_rl.core.game import TERMINAL, Game, State, apply_legal, play_random_turns
from boardgames_rl.core.seeding import SeedLike, clone_rng, next_game_seed, seed_stream
from boardgames_rl.envs.aec import RewardShaping

OpponentsSpec = (
    Agent
    | str
    | Sequence[Agent | str]
    | Callable[[np.random.Generator], Agent | Sequence[Agent]]
    | None
)
"""Who plays the seats other than the learner's: ``None`` (random agents), one agent or spec string
for every other seat, one per other seat in seat order, or ``pool(rng) -> agent(s)`` drawn at each
reset (see the module docstring)."""

_OPPONENT_STREAM = 0x0BB0_5EED
"""Extra entropy word separating the opponents' generator from the game's own seed."""


@dataclass(slots=True)
class _NextGame:
    """The next game of an env's seed stream, built ahead of the reset that starts it
    (:meth:`SingleAgentEnv.prepare_next_game`).

    ``state`` is None when building it raised (the reset builds it again, where the error is
    reported). ``opening`` is set once the opponents' moves before the learner's first decision
    have been played on ``state`` too: the opponents' generator as they left it, the learner's
    seat, the opponents by seat, and the learner's first observation (None if the game ended
    before the learner's first decision)."""

    seed: int
    state: State | None
    opening: tuple[np.random.Generator, int, dict[int, Agent], np.ndarray | None] | None = None


class LegalActionSpace(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a *legal* action of the env.

    ``env.action_space.sample()`` is what generic tools (``check_env``, quick scripts) call; with
    this space it respects the current action mask, so those tools exercise real play instead of
    illegal actions. An explicit ``mask`` or ``probability`` behaves as in ``Discrete``. The link
    to the env is dropped when the space is pickled or copied (e.g. saved with an SB3 model).
    """

    def __init__(self, n: int, mask_fn: Callable[[], np.ndarray | None], seed: int | None = None):
        super().__init__(n, seed=seed)
        self._mask_fn: Callable[[], np.ndarray | None] | None = mask_fn

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None):
        if mask is None and probability is None and self._mask_fn is not None:
            legal = self._mask_fn()
            if legal is not None and legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_mask_fn"] = None
        return state

    def __deepcopy__(self, memo: dict) -> spaces.Discrete:
        return spaces.Discrete(int(self.n), start=int(self.start))


class SingleAgentEnv(gym.Env[np.ndarray, int]):
    """The game seen from one seat; see the module docstring.

    Args:
        game: the configured game.
        seat: the learner's seat, or ``"random"`` for a seat drawn at every reset.
        opponents: who plays the other seats (see the module docstring).
        reward_shaping: optional ``f(previous_state, new_state) -> per-seat array``; the learner's
            entry, taken between its decision and its next decision (opponents' moves included),
            is added to each step's reward.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (omniscient view).
        illegal_action: what a well-formed but illegal action does. ``"lose"`` (default, like
            PettingZoo's ``TerminateIllegalWrapper``): the episode ends with reward
            ``illegal_reward`` and ``info["illegal_action"] = True``, so every element of
            ``action_space`` is a valid ``step`` argument, as gymnasium's API (and its
            ``check_env``) requires. ``"raise"``: the game's ``IllegalActionError`` propagates
            and nothing changes (for masked learners, where an illegal action is a bug; the
            training envs use it). Malformed actions always raise. ``action_space.sample()``
            draws legal actions (see :class:`LegalActionSpace`).
        illegal_reward: the learner's reward for an illegal action under ``"lose"``.
        max_reset_attempts: a game that ends before the learner ever acts is discarded and a new
            one started, at most this many times per reset (then ``RuntimeError``).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: Game,
        seat: int | Literal["random"] = 0,
        opponents: OpponentsSpec = None,
        reward_shaping: RewardShaping | None = None,
        render_mode: str | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
        illegal_reward: float = -1.0,
        max_reset_attempts: int = 100,
    ):
        super().__init__()
        seat = check_seat_option(seat, game.num_players)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.game = game
        self.seat_option = seat
        self.opponents = _agents_from_specs(opponents, game)
        self.reward_shaping = reward_shaping
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_reset_attempts = int(max_reset_attempts)
        spec = game.observation_spec
        self.observation_space = spaces.Box(spec.low, spec.high, dtype=np.float32)
        # Any: gymnasium releases type Env.action_space differently (Space[ActType] vs Space[Any])
        self.action_space = cast(Any, LegalActionSpace(game.num_actions, self._current_mask))

        self._seed_stream: np.random.Generator | None = None
        self._next_game: _NextGame | None = None  # see prepare_next_game
        self._ready_observation: np.ndarray | None = None  # the first one, encoded ahead
        self._first_observation_ahead = True  # prepare_next_game encodes it (if it opens ahead)
        self._state: State | None = None
        self._seat: int = 0 if seat == "random" else int(seat)
        self._seat_agents: dict[int, Agent] = {}
        self._opp_rng: np.random.Generator = np.random.default_rng(0)
        self._opp_draws: Draws | None = None  # the draws of the random opponents' generator
        self._kept_random_seats: tuple[dict[int, Agent], int, list[bool]] | None = None
        self._done = True
        self._episode_steps = 0

    # ------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: SeedLike = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game and let the opponents act until the learner is on move.

        ``seed`` is an int or a sequence of ints (``(s, i)``: slot ``i`` of a vector env seeded
        ``s``), as :class:`~boardgames_rl.envs.aec.GameAECEnv` takes. ``info`` holds ``"seat"``
        (the learner's seat this episode) and ``"game_seed"``.
        """
        super().reset(seed=_gym_seed(seed))
        info = self._start(seed)
        return self._observation(), info

    def _start(self, seed: int | Any | None) -> dict[str, Any]:
        """:meth:`reset` without the observation (what the batched env calls): returns ``info``."""
        if seed is not None or self._seed_stream is None:
            self._seed_stream = seed_stream(seed)
            self._next_game = None  # drawn from the stream just replaced
        for _ in range(self.max_reset_attempts):
            ahead, self._next_game = self._next_game, None
            if ahead is not None and ahead.opening is not None and ahead.state is not None:
                game_seed, self._state = ahead.seed, ahead.state  # built and opened ahead
                self._opp_rng, self._seat, self._seat_agents, first = ahead.opening
                for agent in _unique(self._seat_agents.values()):
                    agent.reset()  # memoryless: nothing to clear, called as the rule says
                self._ready_observation = first
            else:
                game_seed = ahead.seed if ahead is not None else next_game_seed(self._seed_stream)
                state = ahead.state if ahead is not None else None
                self._opp_rng, self._seat, self._seat_agents = self._draw_opponents(game_seed)
                for agent in _unique(self._seat_agents.values()):
                    agent.reset()
                self._ready_observation = None
                self._state = state if state is not None else self.game.new_state(game_seed)
                self._play_opponents()
            if not self._state.is_terminal():
                break
        else:
            raise RuntimeError(
                f"{self.game.name}: {self.max_reset_attempts} games in a row ended before seat "
                f"{self._seat} had a decision"
            )
        self._done = False
        self._episode_steps = 0
        return {"seat": self._seat, "game_seed": game_seed}

    def replay_game(
        self,
        game_seed: int,
        stream: np.random.Generator,
        actions: Sequence[int],
        before_decision: Callable[[], Any] | None = None,
    ) -> None:
        """Put this env back in game ``game_seed`` after the learner's ``actions`` (what the
        vector runtime does to undo a step): the game is started again from its seed (the
        opponents' generator and seat come from it, the agents are reset) and played again, the
        opponents answering as they did; ``stream`` is the seed stream as it stood once that
        game's seed was drawn (copied, not taken). ``before_decision`` is called before each of
        the learner's decisions that ``actions`` answer. The reward shaping is not called."""
        self._seed_stream = clone_rng(stream)
        self._next_game = _NextGame(game_seed, None)
        shaping, self.reward_shaping = self.reward_shaping, None
        try:
            self._start(None)
            for action in actions:
                if before_decision is not None:
                    before_decision()
                self._advance(action, True)
        finally:
            self.reward_shaping = shaping

    def _draw_opponents(self, game_seed: int) -> tuple[np.random.Generator, int, dict[int, Agent]]:
        """Game ``game_seed``'s opponents' generator, the learner's seat and the opponents."""
        rng = np.random.default_rng([game_seed, _OPPONENT_STREAM])
        seat = (
            int(rng.integers(self.game.num_players))
            if self.seat_option == "random"
            else int(self.seat_option)
        )
        return rng, seat, self._assign_opponents(rng, seat)

    def prepare_next_game(self) -> bool:
        """Do one part of the next game's start ahead of the reset that needs it (the batched
        env's processes call it while they wait for the others, taking the work off the step that
        ends a game): first build its initial state; then, when the opponents are memoryless
        (:func:`~boardgames_rl.core.agent.is_memoryless`: their moves depend on nothing but the
        game, so they can be played early) and not drawn by a callable unless it declares
        ``memoryless`` too (a pool that may change before the reset does not), play their moves
        before the learner's first decision and encode the learner's first observation. Its
        seed is the next one of this env's own seed stream, which nothing else draws, so the
        game, the moves and the observation are those the reset would have made anyway; a reset
        with a seed discards it. Returns False (doing nothing) when nothing is left to do or the
        env has never been reset."""
        if self._seed_stream is None:
            return False
        ahead = self._next_game
        if ahead is None:
            game_seed = next_game_seed(self._seed_stream)
            try:
                state: State | None = self.game.new_state(game_seed)
            except Exception:  # the reset builds it again and raises where it is reported
                state = None
            self._next_game = _NextGame(game_seed, state)
            return True
        if ahead.state is None or ahead.opening is not None or not self._opens_ahead():
            return False
        try:
            rng, seat, agents = self._draw_opponents(ahead.seed)
            state = ahead.state
            self._play_opponents_on(state, seat, agents, rng)
            first = None
            if not state.is_terminal():  # else the reset discards it and starts the next game
                if self._first_observation_ahead:
                    first = np.array(state.observation(seat), dtype=np.float32)
                state.legal_action_mask()
        except Exception:  # the reset plays it again and raises where it is reported
            ahead.state = None
            return True
        ahead.opening = (rng, seat, agents, first)
        return True

    def _opens_ahead(self) -> bool:
        """Whether the opponents' opening moves may be played before the reset (see
        :meth:`prepare_next_game`)."""
        spec: Any = self.opponents
        if spec is None:
            return True  # RandomAgent on every other seat
        if isinstance(spec, Agent):
            return is_memoryless(spec)
        if callable(spec):  # a pool: only one that declares it (its draws depend on rng alone)
            return getattr(spec, "memoryless", False) is True
        return all(isinstance(a, Agent) and is_memoryless(a) for a in spec)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then the opponents' until the learner is on move again."""
        reward, terminated, truncated, info = self._advance(action)
        return self._observation(), reward, terminated, truncated, info

    def _advance(
        self, action: int, checked: bool = False
    ) -> tuple[float, bool, bool, dict[str, Any]]:
        """:meth:`step` without the observation (what the batched env calls). ``checked``: the
        caller took ``action`` from this state's own legal mask (the batched env checks every
        slot's action against its mask buffer before any slot moves), so it is not checked again."""
        if self._state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before step()")
        if self._done:
            raise GameOverError(f"{self.game.name}: the episode is over; call reset()")
        self._ready_observation = None
        state = self._state
        previous = state.clone() if self.reward_shaping is not None else None
        try:
            if checked:
                apply_legal(state, action)
            else:
                state.apply(action, player=self._seat)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            returns = np.zeros(self.game.num_players)
            returns[self._seat] = self.illegal_reward
            lost = {"illegal_action": True, "returns": returns}
            return self.illegal_reward, True, False, lost
        self._episode_steps += 1
        self._play_opponents()
        reward = 0.0
        if previous is not None and self.reward_shaping is not None:
            reward += float(np.asarray(self.reward_shaping(previous, state))[self._seat])
        info: dict[str, Any] = {}
        terminated = truncated = False
        if state.is_terminal():
            returns = np.asarray(state.returns(), dtype=np.float64).copy()
            reward += float(returns[self._seat])
            truncated = bool(state.truncated)
            terminated = not truncated
            self._done = True
            info = {"returns": returns, "episode_steps": self._episode_steps}
        return reward, terminated, truncated, info

    def _current_mask(self) -> np.ndarray | None:
        if self._state is None or self._done:
            return None
        return self._state.legal_action_mask_for(self._seat)

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the episode is over)."""
        if self._state is None or self._done:
            return np.zeros(self.game.num_actions, dtype=bool)
        return np.array(self._state.legal_action_mask_for(self._seat), dtype=bool)

    def render(self) -> Any:
        """Omniscient view of the game according to ``render_mode``: text (``"ansi"``), an
        ``uint8 [H, W, 3]`` image (``"rgb_array"``) or ``None`` (``"human"`` prints it)."""
        if self.render_mode is None:
            gym.logger.warn(
                "You are calling render method without specifying any render mode. "
                "Set render_mode at initialization ('ansi', 'human' or 'rgb_array')."
            )
            return None
        if self._state is None:
            raise RuntimeError(f"{self.game.name}: call reset() before render()")
        if self.render_mode == "rgb_array":
            return self._state.render_rgb(None)
        text = self._state.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ helpers
    @property
    def seat(self) -> int:
        """The learner's seat in the current episode."""
        return self._seat

    @property
    def game_state(self) -> State:
        """The true game state (tests, debugging); policies must use only the observation."""
        if self._state is None:
            raise RuntimeError(f"{self.game.name}: call reset() first")
        return self._state

    def _observation(self) -> np.ndarray:
        return np.array(self.learner_observation(), dtype=np.float32, copy=True)

    def learner_observation(self) -> np.ndarray:
        """``state.observation(seat)`` of the learner now; right after a reset whose opening was
        played ahead (:meth:`prepare_next_game`), the one encoded then (the same vector; owned
        by the caller, not to be changed)."""
        ready = self._ready_observation
        if ready is not None:
            self._ready_observation = None
            return ready
        assert self._state is not None
        return self._state.observation(self._seat)

    def _play_opponents(self) -> None:
        assert self._state is not None
        self._play_opponents_on(self._state, self._seat, self._seat_agents, self._opp_rng)

    def _play_opponents_on(
        self, state: State, seat: int, agents: dict[int, Agent], rng: np.random.Generator
    ) -> None:
        """Let ``agents`` play ``state`` until ``seat`` is on move or the game is over.

        :class:`~boardgames_rl.core.agent.RandomAgent` seats move in
        :func:`~boardgames_rl.core.game.play_random_turns` (its draw, ``legal[rng.integers(len(
        legal))]``: the same action and the same stream, from the state's own legal actions: no
        view is built, no mask where the engine lists its actions without one, no second legality
        check); the other agents act on their view."""
        random_seats = self._random_seats(seat, agents)
        draws = self._opp_draws
        if draws is None or draws.rng is not rng:
            draws = self._opp_draws = Draws(rng)
        while True:
            p = play_random_turns(state, random_seats, draws)
            if p in (TERMINAL, seat):
                return
            agent = agents[p]
            state.apply(agent.act(agent_view(agent, state, p), rng), player=p)

    def _random_seats(self, seat: int, agents: dict[int, Agent]) -> list[bool]:
        """Per seat: an opponent that is a ``RandomAgent`` (kept while ``agents`` and ``seat``
        are the same: an episode's)."""
        kept = self._kept_random_seats
        if kept is not None and kept[0] is agents and kept[1] == seat:
            return kept[2]
        flags = [
            p != seat and type(agents.get(p)) is RandomAgent for p in range(self.game.num_players)
        ]
        self._kept_random_seats = (agents, seat, flags)
        return flags

    def _assign_opponents(self, rng: np.random.Generator, seat: int) -> dict[int, Agent]:
        others = [p for p in range(self.game.num_players) if p != seat]
        spec: Any = self.opponents
        if spec is None:
            spec = RandomAgent()
            self.opponents = spec  # keep one instance across episodes
        elif callable(spec) and not isinstance(spec, Agent):
            spec = spec(rng)
        if isinstance(spec, Agent):
            return dict.fromkeys(others, spec)
        agents = list(spec)
        if len(agents) != len(others) or not all(isinstance(a, Agent) for a in agents):
            raise ValueError(
                f"{self.game.name}: opponents must be one Agent or {len(others)} Agents (one per "
                f"other seat), got {agents!r}"
            )
        return dict(zip(others, agents, strict=True))


def _agents_from_specs(opponents: Any, game: Game) -> Any:
    """``opponents`` with every agent spec string built into its agent, once (the rest as given).

    The agent registry sits beside the envs, so it is imported here, when a string is given: the
    one call the envs make into the agents layer (see ``tests/test_layers.py``).
    """
    if isinstance(opponents, str):
        from boardgames_rl.agents.registry import make_agent

        return make_agent(opponents, game)
    if isinstance(opponents, Sequence) and any(isinstance(a, str) for a in opponents):
        from boardgames_rl.agents.registry import make_agent

        return [make_agent(a, game) if isinstance(a, str) else a for a in opponents]
    return opponents


def _unique(agents: Any) -> list[Agent]:
    seen: dict[int, Agent] = {}
    for a in agents:
        seen.setdefault(id(a), a)
    return list(seen.values())


def _gym_seed(seed: SeedLike) -> int | None:
    """The int that seeds gymnasium's ``np_random`` for ``seed`` (a sequence becomes one int)."""
    if seed is None or isinstance(seed, int):
        return seed
    if isinstance(seed, np.integer):
        return int(seed)
    return int(np.random.SeedSequence([int(s) for s in seed]).generate_state(1, np.uint64)[0] >> 1)
