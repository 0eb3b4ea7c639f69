"""The learner's vector env: N games seen from the learner's seat, opponents played inside.

The learner slots of the vector runtime (:mod:`boardgames_rl.envs.vector`) behind two facades:

* :class:`~boardgames_rl.envs.vector.sb3.BatchedVecEnv` (also importable from
  ``boardgames_rl.envs.batched_sb3``): a stable-baselines3 ``VecEnv`` with ``action_masks()``
  (sb3-contrib ``MaskablePPO`` uses it directly; needs the ``[train]`` extra);
* :class:`~boardgames_rl.envs.vector.BatchedVectorEnv`: a ``gymnasium.vector.VectorEnv`` (autoreset
  mode ``SAME_STEP``), what ``gymnasium.make_vec("boardgames_rl/<game>-v<version>")`` gives.

::

    from sb3_contrib import MaskablePPO

    from boardgames_rl import make_game
    from boardgames_rl.envs.batched_sb3 import BatchedVecEnv

    venv = BatchedVecEnv(make_game("white_castle", num_players=2), num_envs=8, seat=0,
                         opponents=None, seed=0, num_workers=2)   # None: random opponents
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64).learn(128)
    venv.close()

(``learn(128)`` is one short update, to show the wiring; real runs take millions of steps:
:mod:`boardgames_rl.training.ppo`.)

Constructor (the same keywords for both facades and
:class:`~boardgames_rl.envs.vector.learner_slots.BatchedCore`):

* ``game``: the configured game; ``num_envs``: slots N.
* ``seat``: the learner's seat, or ``"random"`` (drawn per game, as in
  :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv`).
* ``opponents``: what :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` accepts (``None``:
  random agents; an Agent; one Agent per other seat; a callable ``pool(rng)``); every slot gets
  its own deep copy (agents with memory never serve two games). Agents from spec strings:
  ``boardgames_rl.agents.make_agent(spec, game)`` (or the training layer's ``OpponentPool``).
* ``reward_shaping``: optional ``f(previous_state, new_state) -> per-seat array`` (the learner's
  entry is added to each step's reward, as in ``SingleAgentEnv``).
* ``seat_feature``: append the one-hot of the learner's seat to the observation where the game's
  view is seat-relative (``boardgames_rl.envs.policy_obs``, what training uses); default False
  (the observation is ``state.observation(seat)``).
* ``prior``: optional picklable ``factory() -> Agent`` (e.g. ``functools.partial(make_agent,
  "heuristic", game)``): each slot gets its own prior agent, and the observation ends with the
  one-hot of the move it would make for the learner
  (``boardgames_rl.envs.policy_obs.prior_feature``; what a residual policy such as
  ``boardgames_rl.agents.prior_policy.PriorMaskablePolicy`` reads). Default None.
* ``seed``: base seed; slot ``i`` is seeded ``(seed, i)`` at the first reset
  (:func:`~boardgames_rl.envs.vector.slot_seeds`), so slot ``i`` plays exactly the games of
  a ``GameAECEnv`` (or ``SingleAgentEnv``) reset with ``(seed, i)`` and then reset without a seed
  after each game, as
  in :class:`~boardgames_rl.envs.vector.VectorEnv`. The same seed gives the same trajectories
  in-process and with any worker count.
* ``num_workers``: 0 steps every slot in this process; ``k > 0`` splits the slots into ``k``
  contiguous chunks (``boardgames_rl.envs.chunks.worker_chunks``) stepped by ``k`` workers.
* ``main_steps``: whether this process is one of the ``k`` workers (default False). If False,
  ``k`` worker processes step the chunks, and this process is free from ``step_async`` to
  ``step_wait`` (for a learner that overlaps its own work with the step). If True, ``k - 1``
  processes are started and this process steps the first chunk itself in ``step_wait``, then
  watches the shared block for the others instead of sleeping: no process wakes up to finish a
  step, which suits a learner that calls ``step_wait`` right after ``step_async`` (SB3,
  gymnasium's ``step``; what training uses). ``k = 1`` with it is the in-process env. Results
  are the same either way.
* ``mp_context``: multiprocessing start method for workers (default ``"spawn"``).
* ``worker_spin``: seconds a worker that has stepped keeps watching the shared block for the next
  step (yielding its core at every look) before it sleeps on its socket; default
  :data:`~boardgames_rl.envs.vector.core.DEFAULT_SPIN` when every worker can have a core
  (``num_workers <= os.cpu_count()``), else 0 (always sleep). Spinning spares the wake-ups of a
  sleeping process; it never changes results.
* ``env_factory``: advanced: a picklable ``factory() -> SingleAgentEnv`` (or subclass) called once
  per slot instead of the keywords above (the training layer uses it for self-play pools; it must
  return a fresh env with its own opponents each call).

Per step every slot applies the learner's action and then plays the opponents (each through
:func:`~boardgames_rl.core.agent.agent_view`; a :class:`~boardgames_rl.core.agent.RandomAgent`
draws from the state's mask itself: no info set, no view, no second legality check) until the
learner is on move again or the game ends. A game that ends restarts at once (auto-reset): the
returned observation and mask are the new game's; the ended game's last observation, return
(sum of the rewards given, as SB3's ``Monitor`` reports it), length and per-seat returns are kept
for the episode infos. A worker waiting for its next step builds its slots' next games ahead
(the same games: the seed the reset would draw), and, when the opponents are memoryless
(:func:`~boardgames_rl.core.agent.is_memoryless`), plays the next game's opening moves and
encodes the learner's first observation too.

Errors: malformed or illegal actions (checked against the current masks) raise before any slot
moves. A step is all or nothing: an exception inside a slot (an opponent agent, the shaping
callback) propagates naming the slot (:class:`~boardgames_rl.envs.vector.SlotError`), and every slot
that moved is rebuilt from its game's seed and the learner's moves (the chunks of other workers are
rolled back the same way), so the env is as it was before the step and may step again; no game is
copied on a step that succeeds. A slot whose game cannot be rebuilt so (an agent whose moves depend
on more than the game and its generator) raises
:class:`~boardgames_rl.envs.vector.BrokenSlotsError`, and the env must then be ``reset()``. A worker
that dies raises a one-line ``RuntimeError`` naming it (worker, pid, slots, exit code); ``close()``
stops every worker.
"""

from __future__ import annotations

from boardgames_rl.envs.vector.core import DEFAULT_SPIN, VectorCore, slot_seeds
from boardgames_rl.envs.vector.errors import BrokenSlotsError, SlotError
from boardgames_rl.envs.vector.gym_env import BatchedVectorEnv
from boardgames_rl.envs.vector.learner_slots import BatchedCore, LearnerKind, SlotFactory
from boardgames_rl.envs.vector.wire import CONTROL as SHARED

__all__ = [
    "DEFAULT_SPIN",
    "SHARED",
    "BatchedCore",
    "BatchedVectorEnv",
    "BrokenSlotsError",
    "LearnerKind",
    "SlotError",
    "SlotFactory",
    "VectorCore",
    "slot_seeds",
]
