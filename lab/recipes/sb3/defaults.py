"""Per-game PPO hyperparameters: values over the defaults of the fields of
:class:`~lab.recipes.sb3.args.TrainArgs` (every one is a flag of ``train_ppo``).

Rewards are terminal (+1 win / -1 loss), so ``gamma`` is close to 1: a game lasts 20-300 of the
learner's decisions and the outcome must reach the first of them. Nets are two hidden layers,
wider for the long observations (Nightingale's 2441-wide board, White Castle's 1500, Night of the
Ninja's 1400). ``n_steps`` x ``n_envs`` covers several whole games per update.

``shaping`` (``none`` | ``potential``) with ``shaping_scale``: potential-based reward shaping
(:mod:`lab.recipes.sb3.shaping`), a training signal only. Castle Nightingale's games
against random play mostly reach the turn limit (a draw, return 0), so the terminal reward is
rare; short probes chose its defaults: random opponents, ``n_steps`` 512, potential shaping x1.
Castle Flutterstone and White Castle learn unshaped and keep ``shaping = none``.

Castle Nightingale therefore starts from a **behaviour-cloning warm start**
(:mod:`lab.recipes.sb3.imitation`, ``bc_*``): the policy is first fitted to the heuristic's
decisions in 300 games (20 epochs, lr 1e-3), then 2 DAgger rounds (100 games played by the cloned
policy and labelled by the heuristic, 8 epochs each), then PPO fine-tunes gently (lr 5e-5, clip
0.1, ent_coef 0, 4 epochs) so as to keep what cloning gave. Cloning alone drifts (the ninja loops
into turn-limit draws); DAgger fixes that. The warm start runs outside ``--max-minutes``;
``config.json`` records it as ``bc_wall_time``. Such runs are PPO warm-started from the
heuristic, not learned from scratch. Other games keep ``bc_games = 0`` (they learn without it;
not measured with it).

The probes behind these choices, with their win rates, intervals, dates and commits:
``docs/results/behind_the_code.md`` ("PPO defaults per game").
"""

from __future__ import annotations

from typing import Any

PER_GAME: dict[str, dict[str, Any]] = {
    "castle_flutterstone": {"config": {"num_players": 2}},
    "castle_nightingale": {
        "config": {},
        "net": [256, 256],
        "n_steps": 512,
        "batch_size": 512,
        "opponents": ["random"],
        "opponent_weights": [1.0],
        "shaping": "potential",
        "shaping_scale": 1.0,
        # behaviour-cloning warm start from the heuristic + DAgger, then gentle PPO fine-tuning
        "bc_games": 300,
        "bc_epochs": 20,
        "bc_lr": 1e-3,
        "bc_dagger_rounds": 2,
        "bc_dagger_games": 100,
        "bc_dagger_epochs": 8,
        "lr": 5e-5,
        "clip_range": 0.1,
        "ent_coef": 0.0,
        "n_epochs": 4,
    },
    "white_castle": {"config": {"num_players": 2}, "net": [256, 256]},
    "night_of_the_ninja": {"config": {"num_players": 5}, "net": [256, 256]},
}
"""Each game's values over the :class:`~lab.recipes.sb3.args.TrainArgs` field defaults
(only fields named in :data:`~lab.recipes.sb3.args.HYPER`, plus ``config``: the default
game configuration); :func:`~lab.recipes.sb3.args.defaults_for` merges them."""
