"""Train a masked PPO agent on one game: a thin entry point to
:func:`boardgames_rl.training.train_ppo.main` (same flags as ``boardgames-rl train``: the fields
of :class:`boardgames_rl.training.args.TrainArgs`).

    python lab/experiments/train_ppo.py --game castle_nightingale --seat 0 --timesteps 300000 \\
        --out runs/ppo_nightingale_ninja
    python lab/experiments/train_ppo.py --help
"""

from boardgames_rl.training.train_ppo import main

if __name__ == "__main__":
    main()
