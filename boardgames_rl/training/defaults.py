"""Per-game PPO hyperparameters (every one is a flag of ``train_ppo``; these are the defaults).

Rewards are terminal (+1 win / -1 loss), so ``gamma`` is close to 1: a game lasts 20-300 of the
learner's decisions and the outcome must reach the first of them. Nets are two hidden layers,
wider for the long observations (Nightingale's 2441-wide board, White Castle's 1500, Night of the
Ninja's 1400). ``n_steps`` x ``n_envs`` covers several whole games per update.
"""

from __future__ import annotations

from typing import Any

COMMON: dict[str, Any] = {
    "net": [128, 128],
    "n_steps": 512,
    "batch_size": 256,
    "n_epochs": 5,
    "lr": 3e-4,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "clip_range": 0.2,
    "gamma": 0.999,
    "gae_lambda": 0.95,
    "max_grad_norm": 0.5,
    "n_envs": 4,
    "opponents": "random,heuristic,self",
    "opponent_weights": "2,1,1",
    "snapshot_every": 50_000,
    "max_snapshots": 5,
    "eval_every": 50_000,
    "eval_games": 50,
    "eval_opponents": "random,heuristic",
}

PER_GAME: dict[str, dict[str, Any]] = {
    "castle_flutterstone": {"config": {"num_players": 2}},
    "castle_nightingale": {
        "config": {},
        "net": [256, 256],
        "n_steps": 1024,
        "batch_size": 512,
        "lr": 2.5e-4,
    },
    "white_castle": {"config": {"num_players": 2}, "net": [256, 256]},
    "night_of_the_ninja": {"config": {"num_players": 5}, "net": [256, 256]},
}


def defaults_for(game: str) -> dict[str, Any]:
    """The default hyperparameters of ``game`` (common values overridden per game); the
    ``config`` entry is the default game configuration."""
    d = dict(COMMON)
    d["config"] = {}
    d.update(PER_GAME.get(game.replace("-", "_"), {}))
    return d
