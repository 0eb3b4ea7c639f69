"""League rollouts: whole games played by networks and agents, a pure function of their task.

A :class:`RolloutTask` names a few games (their seeds, the learner's seat, who sits at every
other seat) and the networks they need (weights as plain state dicts); :meth:`TaskPlayer.play` plays
them side by side and returns a :class:`Trajectories` of the learner's decisions. Nothing else
goes in, so a task gives the same trajectories in this process, in a worker process or on a Ray
node (every process plays with one torch thread), and a task lost with its node is simply played
again. Where it runs:

* :class:`LocalRollouts` -- this process (``workers=0``) or a spawn pool of ``workers``
  processes;
* :class:`RayRollouts` -- Ray actors, one CPU each, on a local Ray of ``workers`` CPUs or on a
  cluster (``address``); an actor that dies with its node is restarted by Ray and its tasks are
  played again, on any node (Ray's actor restarts and task retries, then this module's own
  resubmission).

Both take the tasks of one iteration and return their results in task order.

A seat held by a network (the learner, a frozen snapshot) is played from the policy observation
(``boardgames_rl.envs.policy_obs.policy_observation``: the seat's own observation and the
seat feature), drawing from the masked policy with that seat's generator; the decisions of every
game waiting on one network are computed in one batch. A seat held by an agent spec is played by
that agent, built once per worker and game slot, reset at every game, shown only
:func:`~boardgames_rl.core.agent.agent_view`.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import torch as th

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.agent import Agent, agent_view
from boardgames_rl.core.game import Game, State
from boardgames_rl.envs.policy_obs import (
    policy_obs_size,
    policy_observation,
    prior_agent,
    prior_feature,
)
from boardgames_rl.training.network import ActorCritic, RolloutWeights, masked_distribution

MAX_CACHED_NETWORKS = 32
"""Networks a worker keeps built (the learner's weights change every iteration; snapshots stay)."""
NETWORK = "net:"
"""Prefix of a lineup entry played by a network of the task (``net:<name>``)."""


@dataclass(frozen=True)
class RolloutTask:
    """A few games for one learner, everything they depend on included.

    ``lineups[g][s]`` is who plays seat ``s`` of game ``g``: ``net:<name>`` for a network of
    ``networks`` (the learner is ``net:<learner>`` at ``seats[g]``), else an agent spec."""

    learner: str
    seeds: tuple[int, ...]
    seats: tuple[int, ...]
    lineups: tuple[tuple[str, ...], ...]
    networks: Mapping[str, Any] = field(default_factory=dict)  # name -> state dict (or a Ray ref)
    hidden: tuple[int, ...] = (128, 128)
    prior: str = ""  # the networks' prior agent (residual networks), or none

    def __post_init__(self) -> None:
        if not len(self.seeds) == len(self.seats) == len(self.lineups):
            raise ValueError("a task needs one seed, seat and lineup per game")
        for seat, lineup in zip(self.seats, self.lineups, strict=True):
            if lineup[seat] != NETWORK + self.learner:
                raise ValueError(f"seat {seat} of {lineup} is not the learner {self.learner!r}")


@dataclass
class Trajectories:
    """The learner's decisions in a task's games, game after game (each game's rows together,
    in the order played), and each game's outcome."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "obs", "legal", "actions", "logprobs", "values", "lengths", "returns", "win_shares"
    )  # fmt: skip
    """The arrays, in order (what :meth:`concatenate` joins)."""

    obs: np.ndarray  # float32 [N, obs_size]
    legal: np.ndarray  # bool [N, num_actions]
    actions: np.ndarray  # int64 [N]
    logprobs: np.ndarray  # float32 [N]
    values: np.ndarray  # float32 [N]
    lengths: np.ndarray  # int64 [games]: the learner's decisions in each game
    returns: np.ndarray  # float64 [games]: the learner's return
    win_shares: np.ndarray  # float64 [games]: 1/k when the learner is one of k winners, else 0

    @staticmethod
    def concatenate(parts: Sequence[Trajectories]) -> Trajectories:
        """The tasks' trajectories one after the other (games stay whole, in task order)."""
        return Trajectories(
            *(np.concatenate([getattr(p, f) for p in parts]) for f in Trajectories.FIELDS)
        )


# ---------------------------------------------------------------------------- playing a task
class TaskPlayer:
    """Plays tasks for one game: keeps the agents (per game slot and seat) and the networks it
    has built, so the next task reuses them."""

    def __init__(self, game: Game):
        self.game = game
        self.num_actions = game.num_actions
        self._agents: dict[tuple[str, int, int], Agent] = {}
        self._priors: dict[tuple[str, int, int], Agent] = {}
        self._networks: dict[str, RolloutWeights] = {}

    def network(
        self, name: str, state: Mapping[str, Any], hidden: Sequence[int], prior: str = ""
    ) -> RolloutWeights:
        key = f"{name}@{prior}@{_digest(state)}"
        if key not in self._networks:
            size = policy_obs_size(self.game, prior=bool(prior))
            net = ActorCritic(size, self.num_actions, list(hidden), prior or None)
            net.load_state_dict({k: th.as_tensor(v) for k, v in state.items()}, strict=True)
            while len(self._networks) >= MAX_CACHED_NETWORKS:  # the oldest goes first
                del self._networks[next(iter(self._networks))]
            self._networks[key] = RolloutWeights(net)
        return self._networks[key]

    def agent(self, spec: str, slot: int, seat: int) -> Agent:
        key = (spec, slot, seat)
        if key not in self._agents:
            self._agents[key] = make_agent(spec, self.game)
        return self._agents[key]

    def prior(self, spec: str, slot: int, seat: int) -> Agent:
        """The prior agent of a network's seat (asked at each of its decisions, reset at each
        game's start, as the playing agents do)."""
        key = (spec, slot, seat)
        if key not in self._priors:
            self._priors[key] = prior_agent(spec, self.game)
        return self._priors[key]

    def play(self, task: RolloutTask, networks: Mapping[str, Mapping[str, Any]]) -> Trajectories:
        """Play every game of ``task`` (``networks``: its networks' state dicts)."""
        with one_thread():
            nets = {
                name: self.network(name, state, task.hidden, task.prior)
                for name, state in networks.items()
            }
            return self._play(task, nets)

    def _play(self, task: RolloutTask, nets: Mapping[str, RolloutWeights]) -> Trajectories:
        game, n = self.game, len(task.seeds)
        states: list[State] = []
        rngs: list[list[np.random.Generator]] = []
        seats_agents: list[dict[int, Agent]] = []
        for g, (seed, lineup) in enumerate(zip(task.seeds, task.lineups, strict=True)):
            seq = np.random.SeedSequence(seed).spawn(game.num_players + 1)
            states.append(game.new_state(int(seq[0].generate_state(1, np.uint64)[0] >> 1)))
            rngs.append([np.random.default_rng(s) for s in seq[1:]])
            agents = {}
            for seat, who in enumerate(lineup):
                if not who.startswith(NETWORK):
                    agents[seat] = self.agent(who, g, seat)
                    agents[seat].reset()
                elif task.prior:
                    self.prior(task.prior, g, seat).reset()
            seats_agents.append(agents)
        rows: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]] = [[] for _ in range(n)]
        while True:
            waiting: dict[str, list[int]] = {}
            for g, state in enumerate(states):
                while not state.is_terminal():  # agents move until a network is on move
                    p = state.current_player
                    agent = seats_agents[g].get(p)
                    if agent is None:
                        waiting.setdefault(task.lineups[g][p][len(NETWORK) :], []).append(g)
                        break
                    state.apply(int(agent.act(agent_view(agent, state, p), rngs[g][p])))
            if not waiting:
                break
            for name, games in waiting.items():
                self._decide(name, nets[name], games, states, rngs, task, rows)
        return self._trajectories(task, states, rows)

    def _decide(
        self,
        name: str,
        net: RolloutWeights,
        games: list[int],
        states: list[State],
        rngs: list[list[np.random.Generator]],
        task: RolloutTask,
        rows: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]],
    ) -> None:
        """One decision in each of ``games`` by the network ``name``, in one batch."""
        game = self.game
        seats = [states[g].current_player for g in games]
        obs = np.stack(
            [
                policy_observation(
                    states[g].observation(p),
                    p,
                    game,
                    prior_feature(self.prior(task.prior, g, p), states[g].info_set(p))
                    if task.prior
                    else None,
                )
                for g, p in zip(games, seats, strict=True)
            ]
        )
        legal = np.stack([states[g].legal_action_mask() for g in games])
        with th.no_grad():
            logits, values = net(th.from_numpy(obs))
            logp, probs = masked_distribution(logits, th.from_numpy(legal.astype(np.float32)))
        probs_np, logp_np, values_np = probs.numpy(), logp.numpy(), values.numpy()
        for i, (g, p) in enumerate(zip(games, seats, strict=True)):
            draw = rngs[g][p].exponential(size=self.num_actions)
            action = int(np.argmax(np.where(legal[i], probs_np[i] / draw, -1.0)))
            if name == task.learner and p == task.seats[g]:
                rows[g].append(
                    (obs[i], legal[i], action, float(logp_np[i, action]), float(values_np[i]))
                )
            states[g].apply(action)

    def _trajectories(
        self,
        task: RolloutTask,
        states: list[State],
        rows: list[list[tuple[np.ndarray, np.ndarray, int, float, float]]],
    ) -> Trajectories:
        flat = [r for game_rows in rows for r in game_rows]
        returns, shares = [], []
        for g, state in enumerate(states):
            r = state.returns()
            seat = task.seats[g]
            returns.append(float(r[seat]))
            best = [s for s in range(len(r)) if r[s] == r.max()] if not state.truncated else []
            shares.append(1.0 / len(best) if seat in best else 0.0)
        empty_obs = np.zeros((0, policy_obs_size(self.game, bool(task.prior))), np.float32)
        return Trajectories(
            obs=np.stack([r[0] for r in flat]) if flat else empty_obs,
            legal=np.stack([r[1] for r in flat]) if flat else np.zeros((0, self.num_actions), bool),
            actions=np.array([r[2] for r in flat], np.int64),
            logprobs=np.array([r[3] for r in flat], np.float32),
            values=np.array([r[4] for r in flat], np.float32),
            lengths=np.array([len(game_rows) for game_rows in rows], np.int64),
            returns=np.array(returns, np.float64),
            win_shares=np.array(shares, np.float64),
        )


def _digest(state: Mapping[str, Any]) -> str:
    """A short fingerprint of a state dict's values (the learner's weights change every
    iteration under the same name)."""
    import hashlib

    h = hashlib.blake2b(digest_size=12)
    for k in sorted(state):
        h.update(k.encode())
        h.update(np.ascontiguousarray(th.as_tensor(state[k]).numpy()).tobytes())
    return h.hexdigest()


@contextmanager
def one_thread() -> Iterator[None]:
    """Torch on one thread while a task is played (the same sums in every process)."""
    before = th.get_num_threads()
    th.set_num_threads(1)
    try:
        yield
    finally:
        th.set_num_threads(before)


def plain_state(net: th.nn.Module) -> dict[str, np.ndarray]:
    """A network's weights as numpy arrays (what a task carries: no autograd, cheap to send)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in net.state_dict().items()}


# ---------------------------------------------------------------------------- local
_WORKER: dict[str, TaskPlayer] = {}
"""In a worker process: the task player of the game being trained."""


def _worker_init(game: Game) -> None:
    th.set_num_threads(1)
    _WORKER["player"] = TaskPlayer(game)


def _worker_play(task: RolloutTask) -> Trajectories:
    return _WORKER["player"].play(task, task.networks)


class LocalRollouts:
    """Tasks played in this process (``workers=0``) or in a spawn pool of ``workers``."""

    name = "local"

    def __init__(self, game: Game, workers: int = 0):
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
            raise ValueError(f"workers must be an int >= 0, got {workers!r}")
        self.game, self.workers = game, workers
        self._player = TaskPlayer(game) if workers == 0 else None
        self._pool: cf.ProcessPoolExecutor | None = None
        if workers:
            self._pool = cf.ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
                initargs=(game,),
            )

    def run(self, tasks: Sequence[RolloutTask]) -> list[Trajectories]:
        """Each task's trajectories, in task order."""
        if self._pool is None:
            assert self._player is not None
            return [self._player.play(t, t.networks) for t in tasks]
        return list(self._pool.map(_worker_play, tasks))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


# ---------------------------------------------------------------------------- Ray
class _RayWorker:
    """A Ray actor playing tasks (one CPU): its task player lives as long as the actor."""

    def __init__(self, game: Game):
        th.set_num_threads(1)
        self.player = TaskPlayer(game)

    def play(self, task: RolloutTask, *states: Any) -> Trajectories:
        # the networks' states arrive as top-level arguments, so Ray resolves their refs
        networks = dict(zip(list(task.networks), states, strict=True))
        return self.player.play(task, networks)

    def node(self) -> str:
        import ray

        return str(ray.get_runtime_context().get_node_id())


class RayRollouts:
    """Tasks played by Ray actors (one CPU each): ``workers`` of them on a local Ray of
    ``workers`` CPUs (``address=None``, unless Ray is already initialised: then that session,
    kept), or on the cluster at ``address`` (as many actors as it has CPUs, unless ``workers``).

    An actor lost with its node takes only the task it was playing: that task goes to another
    actor (the same task, the same trajectories). At the start of each :meth:`run` the actors
    are topped up to their number where the cluster has CPUs free (a node that joins is used).
    A task lost ``max_resubmits`` times, or every actor gone, stops the run in one line.
    """

    name = "ray"

    def __init__(
        self,
        game: Game,
        workers: int = 0,
        address: str | None = None,
        max_resubmits: int = 3,
        actor_timeout: float = 120.0,
    ):
        from boardgames_rl._util.extras import require
        from boardgames_rl.arena.backends import RayBackend

        ray = require("ray", "league rollouts on Ray (--backend ray)")
        self.game = game
        self.max_resubmits = max_resubmits
        self.actor_timeout = actor_timeout
        self._started = RayBackend(address)._connect(ray, max(1, workers))
        self.size = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0)(_RayWorker)
        self._game_ref = ray.put(game)
        self.actors: list[Any] = []
        self.lost_actors = 0
        self.resubmitted = 0
        self._refs: dict[int, Any] = {}  # id of a state dict -> its ref in the object store
        self._top_up(wait=True)

    def _top_up(self, wait: bool) -> None:
        """Start actors up to :attr:`size` where CPUs are free (``wait``: at least one, ready)."""
        import ray

        free = int(ray.available_resources().get("CPU", 0))
        new = [self._actor_class.remote(self._game_ref)
               for _ in range(min(self.size - len(self.actors), max(free, 0)))]  # fmt: skip
        if wait and not self.actors and not new:
            new = [self._actor_class.remote(self._game_ref)]  # scheduled when a CPU frees
        if new:
            try:  # ready (placed and built), or lost with its node before that
                ray.get([a.node.remote() for a in new], timeout=self.actor_timeout)
            except ray.exceptions.GetTimeoutError:
                if not self.actors:
                    for a in new:
                        ray.kill(a)
                    raise RuntimeError(
                        f"no Ray actor could start in {self.actor_timeout:.0f} s: the cluster has "
                        "no CPU free for the rollouts"
                    ) from None
            self.actors += new

    def _state_ref(self, state: Any) -> Any:
        """The object-store ref of a network's state, put once while it is in use (snapshots
        stay from one iteration to the next; the learner's weights are new each time)."""
        import ray

        key = id(state)
        if key not in self._refs:
            self._refs[key] = (ray.put(state), state)  # the state kept alive with its id
        return self._refs[key][0]

    def _keep_refs_of(self, tasks: Sequence[RolloutTask]) -> None:
        """Drop the refs of states no task of this iteration carries."""
        used = {id(state) for task in tasks for state in task.networks.values()}
        self._refs = {k: v for k, v in self._refs.items() if k in used}

    def run(self, tasks: Sequence[RolloutTask]) -> list[Trajectories]:
        """Each task's trajectories, in task order."""
        import ray

        if len(self.actors) < self.size:
            self._top_up(wait=not self.actors)
        self._keep_refs_of(tasks)
        results: list[Trajectories | None] = [None] * len(tasks)
        attempts = [0] * len(tasks)
        queue = list(range(len(tasks)))
        idle = list(self.actors)
        pending: dict[Any, tuple[int, Any]] = {}  # ref -> (task, actor)
        while queue or pending:
            while queue and idle:
                i, actor = queue.pop(0), idle.pop(0)
                task = tasks[i]
                states = [self._state_ref(task.networks[name]) for name in task.networks]
                pending[actor.play.remote(_without_networks(task), *states)] = (i, actor)
            if not pending:
                self._top_up(wait=True)  # every actor gone: wait for one on a free CPU
                idle = list(self.actors)
                continue
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i, actor = pending.pop(ref)
                try:
                    results[i] = ray.get(ref)
                    idle.append(actor)
                except ray.exceptions.RayError as e:
                    attempts[i] += 1
                    if attempts[i] > self.max_resubmits:
                        raise RuntimeError(
                            f"Ray lost rollout task {i} {attempts[i]} times "
                            f"({type(e).__name__}); rerun the same command to resume from the "
                            "last checkpoint"
                        ) from e
                    self.resubmitted += 1
                    queue.insert(0, i)
                    if actor in self.actors and not _alive(actor):
                        self.actors.remove(actor)  # lost with its node
                        self.lost_actors += 1
                    elif actor in self.actors:
                        idle.append(actor)
        return [r for r in results if r is not None]

    def close(self) -> None:
        import ray

        for a in self.actors:
            ray.kill(a)
        self.actors = []
        self._refs.clear()
        if self._started:
            ray.shutdown()


def _alive(actor: Any) -> bool:
    import ray

    try:
        ray.get(actor.node.remote(), timeout=30)
        return True
    except (ray.exceptions.RayError, ray.exceptions.GetTimeoutError):
        return False


def _without_networks(task: RolloutTask) -> RolloutTask:
    """The task with its networks' names kept and their states dropped (sent beside it)."""
    return RolloutTask(
        task.learner,
        task.seeds,
        task.seats,
        task.lineups,
        dict.fromkeys(task.networks, None),
        task.hidden,
        task.prior,
    )
