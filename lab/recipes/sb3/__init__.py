"""The SB3 ``MaskablePPO`` trainer of earlier versions (sb3-contrib's ``MaskablePPO``, with
:class:`~lab.recipes.sb3.fast_ppo.FastMaskablePPO` over its rollout and update), kept as the lab's
recipe for what the library's trainer does not do: behaviour cloning (``--bc-games``,
``--bc-data``), reward shaping (``--shaping``), residual priors (``--prior``), starting from a
pretrained entry (``--init-from``) and forking a run (:mod:`.fork`). The library's trainer is
:mod:`boardgames_rl.training.ppo` (``boardgames-rl train``).

Run it from the root of a clone::

    python lab/recipes/train_sb3.py --game castle_nightingale --timesteps 300000 --out runs/cn
    python lab/recipes/train_sb3.py --help

Modules: :mod:`.train_ppo` (the script, ``main(argv)``), :mod:`.args` (every flag, a field of
:class:`~.args.TrainArgs`), :mod:`.defaults` (per-game values), :mod:`.envs` (the learner's
env and the SB3 vector envs), :mod:`.fast_ppo`, :mod:`.callbacks` (evaluation, logs, snapshots),
:mod:`.imitation` and :mod:`.demos` (behaviour cloning), :mod:`.shaping`, :mod:`.init_from`,
:mod:`.fork`.
"""
