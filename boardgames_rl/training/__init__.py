"""Masked PPO training (sb3-contrib ``MaskablePPO``) on top of :class:`~boardgames_rl.core.
single_agent.SingleAgentEnv`.

Modules (each with one job; import them directly, this package imports nothing eagerly so that
``boardgames_rl.agents.ppo`` can use :mod:`.seat` without pulling in the training stack):

* :mod:`.seat` -- the seat feature appended to observations of games whose view is seat-relative;
* :mod:`.pool` -- :class:`~.pool.OpponentPool`: random / heuristic / frozen self-play snapshots;
* :mod:`.envs` -- the learner's env wrapper and the vectorised env builder (per-env seeds);
* :mod:`.evaluation` -- win rates of a policy against an opponent, with Wilson intervals;
* :mod:`.callbacks` -- periodic evaluation, CSV logs, snapshots into the pool, progress bar;
* :mod:`.defaults` -- per-game hyperparameters;
* :mod:`.imitation` -- behaviour-cloning warm start from a teacher's games (``--bc-games``);
* :mod:`.train_ppo` -- the training script (``main(argv)``), readable top to bottom.
"""
