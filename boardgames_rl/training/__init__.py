"""Masked PPO training (sb3-contrib ``MaskablePPO``) on top of :class:`~boardgames_rl.envs.
single_agent.SingleAgentEnv`.

Modules (each with one job; import them directly, this package imports nothing eagerly). The seat
feature appended to seat-relative observations is :mod:`boardgames_rl.envs.policy_obs` (the
``ppo`` agent uses it too).

* :mod:`.args` -- :class:`~.args.TrainArgs`, every training knob with its type, default and help;
* :mod:`.checkpoint` -- atomic checkpoints (model, optimiser, pool snapshots, config) and resume;
* :mod:`.pool` -- :class:`~.pool.OpponentPool`: random / heuristic / frozen self-play snapshots;
* :mod:`.envs` -- the learner's env wrapper and the vectorised env builder (per-env seeds);
* :mod:`.evaluation` -- win rates of a policy against an opponent, with Wilson intervals;
* :mod:`.callbacks` -- periodic evaluation, CSV logs, snapshots into the pool, progress bar;
* :mod:`.defaults` -- per-game hyperparameters;
* :mod:`.imitation` -- behaviour-cloning warm start from a teacher's games (``--bc-games``);
* :mod:`.demos` -- a teacher's games saved in chunks, cloned with ``--bc-data``;
* :mod:`.train_ppo` -- the training script (``main(argv)``), readable top to bottom.
"""
