"""Train a masked PPO agent on one game: a thin entry point to
:func:`boardgames_rl.training.ppo.main` (same flags as ``boardgames-rl train``: the fields of
:class:`boardgames_rl.training.ppo.Args`). The SB3 trainer of earlier versions, with behaviour
cloning, reward shaping and residual priors, is ``lab/recipes/train_sb3.py``.

    python lab/experiments/train_ppo.py --game castle_nightingale --seat 0 --timesteps 300000 \\
        --out runs/ppo_nightingale_ninja
    python lab/experiments/train_ppo.py --help
"""

from boardgames_rl.training.ppo import main

if __name__ == "__main__":
    main()
