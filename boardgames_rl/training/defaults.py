"""Per-game PPO hyperparameters: values over the defaults of the fields of
:class:`~boardgames_rl.training.args.TrainArgs` (every one is a flag of ``train_ppo``).

Rewards are terminal (+1 win / -1 loss), so ``gamma`` is close to 1: a game lasts 20-300 of the
learner's decisions and the outcome must reach the first of them. Nets are two hidden layers,
wider for the long observations (Nightingale's 2441-wide board, White Castle's 1500, Night of the
Ninja's 1400). ``n_steps`` x ``n_envs`` covers several whole games per update.

``shaping`` (``none`` | ``potential``) with ``shaping_scale``: potential-based reward shaping
(:mod:`boardgames_rl.training.shaping`), a training signal only. Castle Nightingale: against
random play ~90% of games reach the 60-turn limit (a draw, return 0) after ~300 ninja / ~370
samurai decisions, so the terminal reward is rare. One-core probes of 4 minutes (60 games vs
random, deterministic policy, 95% Wilson intervals), random opponents only:

* ninja, n_steps 1024 / 5 epochs / lr 2.5e-4: 17% [9, 28] unshaped, 13% [7, 24] shaped;
* ninja, n_steps 512 / 10 epochs / lr 5e-4: 27% [17, 39] unshaped, 27% [17, 39] shaped;
  with gamma 0.99 and shaping_scale 3: 7% [3, 16];
* samurai, n_steps 1024 / 5 epochs: 7% [3, 16] unshaped, 10% [5, 20] shaped; n_steps 512 /
  10 epochs / gamma 0.99 / shaping_scale 3: 12% [6, 22].

Hence its defaults (the best point estimates; every difference is within the intervals, and
every figure is far below the 85% aim): random opponents, n_steps 512, potential shaping x1
(from scratch it used 10 epochs and lr 5e-4). Castle Flutterstone 2p reached 100% [94, 100] vs
random in 3 minutes unshaped; White Castle ~95%: both keep ``shaping = none``.

Castle Nightingale therefore starts from a **behaviour-cloning warm start**
(:mod:`boardgames_rl.training.imitation`, ``bc_*``): the policy is first fitted to the heuristic's
decisions in 300 games (20 epochs, lr 1e-3; 99% / 98% training accuracy as ninja / samurai), then
2 DAgger rounds (100 games played by the cloned policy and labelled by the heuristic, 8 epochs
each), then PPO fine-tunes gently (lr 5e-5, clip 0.1, ent_coef 0, 4 epochs) so as to keep what
cloning gave. Probes (one core shared with other jobs, 50 games, deterministic policy, 95%
Wilson intervals), win rate vs random / vs heuristic:

=======================================  ========================  ========================
% wins vs random / vs heuristic          ninja (seat 0)            samurai (seat 1)
=======================================  ========================  ========================
BC 200 games, 10 epochs (step 0)         74 [60, 84] / 2 [0, 10]   94 [84, 98] / 2 [0, 10]
+ PPO lr 1e-4, clip 0.1, 20k steps       66 [52, 78] / 2 [0, 10]   98 [90, 100] / 0 [0, 7]
BC 300 games, 20 epochs (step 0)         76 [63, 86] / 6 [2, 16]   100 [93, 100] / 0 [0, 7]
+ PPO lr 5e-5, clip 0.1, 2 min           80 [67, 89] / 10 [4, 21]  96 [87, 99] / 2 [0, 10]
BC 300 + 1 DAgger round (step 0)         88 [76, 94] / --          --
BC 300 + 2 DAgger rounds (step 0)        94 [84, 98] / 20 [11, 33] 100 [93, 100] / 2 [0, 10]
+ PPO lr 5e-5, clip 0.1, 2 min (default) 98 [90, 100] / 6 [2, 16]  100 [93, 100] / 0 [0, 7]
=======================================  ========================  ========================

Cloning alone drifts (99% training accuracy, 76% wins: the ninja loops into 60-turn draws);
DAgger fixes that. The warm start costs ~4 minutes (BC) to ~11-13 minutes (BC + DAgger) on a
loaded core, outside ``--max-minutes``; ``config.json`` records it as ``bc_wall_time``.
Such runs are PPO warm-started from the heuristic, not learned from scratch. Other games keep
``bc_games = 0`` (they learn without it; not measured with it).
"""

from __future__ import annotations

from typing import Any

from boardgames_rl.training.args import HYPER, common_defaults

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
"""Each game's values over the :class:`~boardgames_rl.training.args.TrainArgs` field defaults
(only fields named in :data:`~boardgames_rl.training.args.HYPER`, plus ``config``: the default
game configuration)."""


def defaults_for(game: str) -> dict[str, Any]:
    """The default hyperparameters of ``game`` (the :data:`~boardgames_rl.training.args.HYPER`
    fields' defaults overridden per game); the ``config`` entry is the default game
    configuration."""
    common = common_defaults()
    d: dict[str, Any] = {k: common[k] for k in HYPER}
    d["config"] = {}
    d.update(PER_GAME.get(game.replace("-", "_"), {}))
    return d
