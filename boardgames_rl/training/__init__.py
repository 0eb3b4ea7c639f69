"""Masked PPO training: one script, :mod:`.ppo` (``boardgames-rl train``), read top to bottom.

Modules (each with one job; import them directly, this package imports nothing eagerly). The seat
feature appended to seat-relative observations is :mod:`boardgames_rl.envs.policy_obs` (the
``ppo`` agent uses it too).

* :mod:`.ppo` -- the training script (``main(argv)``, ``train(args)``): the rollout, GAE, the
  clipped update, evaluation, checkpoints;
* :mod:`.settings` -- :class:`~.settings.Args` (every setting with its default and help), the
  per-game defaults and the command line (no torch needed);
* :mod:`.network` -- the actor-critic network, its masked distribution, the rollout weights;
* :mod:`.runs` -- the run folder: ``config.json``, ``model.zip``, ``best/``, resuming;
* :mod:`.checkpoint` -- atomic checkpoints (model, pool snapshots, config) and log cuts;
* :mod:`.stopping` -- SIGINT / SIGTERM and the wall-clock limit;
* :mod:`.report` -- the run's lines on standard output;
* :mod:`.pool` -- :class:`~.pool.OpponentPool`: random / heuristic / frozen self-play snapshots;
* :mod:`.envs` -- the learner's env (:class:`~.envs.PoolEnv`, answering the pool calls) and its
  factory, the seat parser;
* :mod:`.evaluation` -- win rates of a policy against an opponent, with Wilson intervals;
* :mod:`.plots` -- the learning curve of a run folder.

The SB3 ``MaskablePPO`` trainer of earlier versions (``train_ppo``, ``fast_ppo``, ``callbacks``,
``args``, ``defaults``, ``imitation``, ``demos``, ``init_from``, ``fork``, ``shaping``) is the
lab's recipe now (``lab/recipes/sb3/`` in a clone, run as ``python lab/recipes/train_sb3.py``):
importing one of those modules from here says so in one line.
"""

from boardgames_rl._util.moved import modules_moved_to_lab

SB3_MODULES = (
    "train_ppo",
    "fast_ppo",
    "callbacks",
    "args",
    "defaults",
    "imitation",
    "demos",
    "init_from",
    "fork",
    "shaping",
)
"""The modules of the SB3 trainer, now in ``lab/recipes/sb3/``."""

modules_moved_to_lab(
    {
        f"{__name__}.{name}": (
            f"lab/recipes/sb3/{name}.py",
            "the library's trainer is boardgames_rl.training.ppo",
        )
        for name in SB3_MODULES
    }
)
