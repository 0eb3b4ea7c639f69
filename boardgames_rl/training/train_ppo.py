"""Train a masked PPO learner on one seat of a game (CleanRL-style: read it top to bottom).

    python experiments/train_ppo.py --game castle_nightingale --seat 0 --timesteps 300000 \\
        --opponents random,heuristic,self --opponent-weights 2,1,1 --out runs/ppo_nightingale

Every hyperparameter is a flag; defaults come per game from :mod:`boardgames_rl.training.defaults`.
The run folder gets ``model.zip``, ``config.json`` (every setting), ``progress.csv`` (SB3 training
metrics), ``eval.csv`` (win rates with 95% intervals) and ``learning_curve.png``. ``--resume``
continues the folder's model with its saved settings for ``--timesteps`` more steps.

Opponents come from an :class:`~boardgames_rl.training.pool.OpponentPool`: agent specs
(``random``, ``heuristic``, ``ismcts:iterations=50,rollout=random``, ``ppo:path=...``) and
``self`` (frozen snapshots of the learner, one every ``--snapshot-every`` steps, at most
``--max-snapshots``), drawn per opponent seat and per game with ``--opponent-weights``.
Each trajectory holds only the learner's decisions (see ``SingleAgentEnv``).
``--shaping potential`` adds potential-based reward shaping (``--shaping-scale`` x
(gamma Phi(s') - Phi(s)), the game's potential from ``boardgames_rl/games/<game>/shaping.py``;
see :mod:`boardgames_rl.training.shaping`) to the training rewards only: evaluation counts real
wins. ``--bc-games N`` (0: off; default per game) warm-starts the policy by behaviour cloning
of ``--bc-teacher``'s decisions in N games, then ``--bc-dagger-rounds`` DAgger rounds
(:mod:`boardgames_rl.training.imitation`; per-epoch figures in ``bc.csv``, an evaluation at
step 0 in ``eval.csv``; not redone on ``--resume``).
Same seed + same flags -> the same model (one process; ``--vec dummy``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import CallbackList

from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.registry import list_games, make_game
from boardgames_rl.training.callbacks import (
    EvalCallback,
    SnapshotCallback,
    TqdmCallback,
    WallClockCallback,
    make_logger,
)
from boardgames_rl.training.defaults import defaults_for
from boardgames_rl.training.envs import build_vec_env, parse_seat
from boardgames_rl.training.imitation import warm_start, write_bc_csv
from boardgames_rl.training.plots import plot_learning_curve
from boardgames_rl.training.pool import OpponentPool
from boardgames_rl.training.shaping import SHAPING_KINDS, make_shaping

HYPER_FLAGS: dict[str, type] = {
    "n_steps": int, "batch_size": int, "n_epochs": int, "lr": float, "ent_coef": float,
    "vf_coef": float, "clip_range": float, "gamma": float, "gae_lambda": float,
    "max_grad_norm": float, "n_envs": int, "snapshot_every": int, "max_snapshots": int,
    "eval_every": int, "eval_games": int, "shaping_scale": float,
    "bc_games": int, "bc_epochs": int, "bc_lr": float, "bc_batch_size": int,
    "bc_value_coef": float, "bc_dagger_rounds": int, "bc_dagger_games": int,
    "bc_dagger_epochs": int,
}
"""Numeric hyperparameters, each a ``--flag-name`` (defaults per game)."""
LIST_FLAGS = ("net", "opponents", "opponent_weights", "eval_opponents")
"""Comma-separated hyperparameters."""
BC_SEED_OFFSET = 104_729
"""The demonstration games' seed is ``--seed`` plus this (other games than PPO's)."""
SAVED_ONLY = ("game", "config", "net")
"""Settings a resumed run must keep."""


# ---------------------------------------------------------------------------- arguments
def _parser(defaults: dict[str, Any]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="train_ppo", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--game", help=f"one of {', '.join(list_games())}")
    p.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE",
                   help="game option (JSON value or string), repeatable; default per game")
    p.add_argument("--seat", default="random", help="learner seat: an int, or 'random'")
    p.add_argument("--timesteps", type=int, default=300_000, help="learner steps to train")
    p.add_argument("--max-minutes", type=float, default=0.0,
                   help="stop after this wall time (0: no limit), whichever comes first")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="run folder (default runs/ppo_<game>_s<seed>)")
    p.add_argument("--resume", action="store_true", help="continue the model in --out")
    p.add_argument("--vec", choices=["dummy", "subproc"], default="dummy")
    p.add_argument("--device", default="cpu")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--eval-deterministic", action=argparse.BooleanOptionalAction, default=True,
                   help="evaluate the most probable action (else draw from the policy)")
    p.add_argument("--verbose", type=int, default=0)
    p.add_argument("--shaping", choices=SHAPING_KINDS, default=defaults["shaping"],
                   help="training reward shaping (potential-based; evaluation ignores it)")
    for name, cast in HYPER_FLAGS.items():
        p.add_argument("--" + name.replace("_", "-"), type=cast, default=defaults[name])
    p.add_argument("--bc-teacher", default=defaults["bc_teacher"],
                   help="agent spec of the behaviour-cloning teacher (used when --bc-games > 0)")
    for name in LIST_FLAGS:
        value = defaults[name]
        text = ",".join(str(v) for v in value) if isinstance(value, list) else str(value)
        p.add_argument("--" + name.replace("_", "-"), default=text, help="comma-separated")
    return p


def _split_specs(text: str) -> list[str]:
    """``"random,ismcts:iterations=50,rollout=random,self"`` -> 3 specs (a piece with ``=`` but
    no ``:`` continues the previous spec's options)."""
    out: list[str] = []
    for piece in (s.strip() for s in text.split(",")):
        if out and "=" in piece and ":" not in piece:
            out[-1] += "," + piece
        elif piece:
            out.append(piece)
    return out


def _parse_config(items: list[str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise InvalidConfigError(f"-c expects key=value, got {item!r}")
        try:
            config[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            config[key.strip()] = value
    return config


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Flags -> settings: per-game defaults (or the saved ones on ``--resume``) under the flags."""
    argv = list(sys.argv[1:] if argv is None else argv)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game")
    pre.add_argument("--out")
    pre.add_argument("--resume", action="store_true")
    pre.add_argument("--seed", type=int, default=0)
    known, _ = pre.parse_known_args(argv)
    saved: dict[str, Any] = {}
    if known.resume:
        if known.out is None or not (Path(known.out) / "config.json").is_file():
            _parser(defaults_for("")).error(
                f"--resume needs --out <run folder> holding config.json and model.zip "
                f"(got --out {known.out!r})"
            )
        saved = json.loads((Path(known.out) / "config.json").read_text())
    game_name = saved.get("game", known.game)
    defaults = defaults_for(game_name or "")
    defaults.update({k: v for k, v in saved.items() if k in defaults})
    parser = _parser(defaults)
    if saved:
        parser.set_defaults(**{k: v for k, v in saved.items() if k in
                               ("seat", "seed", "vec", "device", "threads",
                                "eval_deterministic")})
    args = parser.parse_args(argv)
    try:
        _finish_args(args, defaults, saved)
    except (InvalidConfigError, ValueError) as e:
        parser.error(str(e))
    return args


def _finish_args(args: argparse.Namespace, defaults: dict[str, Any], saved: dict) -> None:
    if saved:
        if args.game not in (None, saved["game"]):
            raise InvalidConfigError(f"--resume: the run is {saved['game']}, not {args.game}")
        if args.config:
            raise InvalidConfigError("--resume keeps the run's game options: drop -c")
        args.game, args.config = saved["game"], saved["config"]
    elif args.game is None:
        raise InvalidConfigError(f"--game is required: one of {', '.join(list_games())}")
    else:
        args.config = {**defaults["config"], **_parse_config(args.config)}
    args.game = args.game.replace("-", "_")
    if args.game not in list_games():
        raise InvalidConfigError(f"unknown game {args.game!r}: one of {', '.join(list_games())}")
    args.net = [int(x) for x in str(args.net).split(",") if x.strip()]
    if saved and args.net != saved["net"]:
        raise InvalidConfigError(f"--resume keeps the network {saved['net']}: drop --net")
    args.opponents = _split_specs(args.opponents)
    args.eval_opponents = _split_specs(args.eval_opponents)
    args.opponent_weights = [float(w) for w in str(args.opponent_weights).split(",") if w.strip()]
    if args.timesteps < 1:
        raise InvalidConfigError(f"--timesteps must be >= 1, got {args.timesteps}")
    for name in ("n_steps", "batch_size", "n_epochs", "n_envs"):
        if getattr(args, name) < 1:
            raise InvalidConfigError(f"--{name.replace('_', '-')} must be >= 1")
    if not 0 < args.gamma <= 1 or not 0 <= args.gae_lambda <= 1:
        raise InvalidConfigError("--gamma must be in (0, 1] and --gae-lambda in [0, 1]")
    if not args.shaping_scale >= 0 or args.shaping_scale == float("inf"):
        raise InvalidConfigError(f"--shaping-scale must be >= 0, got {args.shaping_scale}")
    if args.bc_games < 0:
        raise InvalidConfigError(f"--bc-games must be >= 0 (0: no warm start), got {args.bc_games}")
    if args.bc_games > 0 and (
        min(args.bc_epochs, args.bc_batch_size, args.bc_dagger_games, args.bc_dagger_epochs) < 1
        or args.bc_dagger_rounds < 0 or not args.bc_lr > 0 or not args.bc_value_coef >= 0
    ):
        raise InvalidConfigError(
            "with --bc-games > 0: --bc-epochs, --bc-batch-size, --bc-dagger-games and "
            "--bc-dagger-epochs must be >= 1, --bc-dagger-rounds >= 0, --bc-lr > 0 and "
            "--bc-value-coef >= 0"
        )
    if args.out is None:
        args.out = f"runs/ppo_{args.game}_s{args.seed}"


# ---------------------------------------------------------------------------- training
def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train (or resume) one run; returns the saved settings with the final evaluation."""
    args = parse_args(argv)
    th.set_num_threads(args.threads)

    # 1. the game, the learner's seat and its opponents
    try:
        game = make_game(args.game, **args.config)
        seat = parse_seat(args.seat, game)
        pool = OpponentPool.from_specs(
            game, args.opponents, args.opponent_weights, args.max_snapshots
        )
        shaping = make_shaping(args.shaping, game, args.gamma, args.shaping_scale)
        do_bc = args.bc_games > 0 and not args.resume
        if do_bc:
            make_agent(args.bc_teacher, game)  # fail now on a bad teacher spec
    except InvalidConfigError as e:
        raise SystemExit(f"train_ppo: error: {e}") from e
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model_path = out / "model.zip"
    if args.resume and not model_path.is_file():
        raise SystemExit(f"train_ppo: error: --resume: no model.zip in {out}")
    if not args.resume and model_path.is_file():
        raise SystemExit(
            f"train_ppo: error: {out} already holds a model: use --resume or another --out"
        )

    # 2. vectorised envs, seeded per env (a resumed run continues with fresh games)
    done_steps = 0
    if args.resume:
        done_steps = int(json.loads((out / "config.json").read_text()).get("num_timesteps", 0))
    env_seed = args.seed + 7_919 * done_steps
    venv = build_vec_env(
        game, seat, pool, args.n_envs, env_seed, args.vec, reward_shaping=shaping
    )

    # 3. the model: new, or the folder's last one
    hyper = dict(
        n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
        learning_rate=args.lr, ent_coef=args.ent_coef, vf_coef=args.vf_coef,
        clip_range=args.clip_range, gamma=args.gamma, gae_lambda=args.gae_lambda,
        max_grad_norm=args.max_grad_norm,
    )
    if args.resume:
        model = MaskablePPO.load(str(model_path), env=venv, device=args.device, **hyper)
        model.set_random_seed(env_seed)
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, policy_kwargs=dict(net_arch=args.net), seed=args.seed,
            device=args.device, verbose=args.verbose, **hyper,
        )
    model.set_logger(make_logger(out))

    # 3b. optional behaviour-cloning warm start from the teacher's games (never on resume)
    bc_wall = 0.0
    if do_bc:
        bc_start = time.perf_counter()
        history = warm_start(
            model, game, seat, args.bc_teacher, pool, args.bc_games, args.bc_epochs, args.bc_lr,
            args.bc_batch_size, args.bc_value_coef, args.bc_dagger_rounds, args.bc_dagger_games,
            args.bc_dagger_epochs, args.seed + BC_SEED_OFFSET, args.progress,
        )
        bc_wall = time.perf_counter() - bc_start
        write_bc_csv(out / "bc.csv", history, bc_wall)
        if args.verbose:
            print(f"[bc] {history[-1]['samples']} decisions, accuracy "
                  f"{history[-1]['accuracy']:.3f}, {bc_wall:.0f} s")

    # 4. callbacks: self-play snapshots, periodic evaluation, progress bar
    eval_seats = list(range(game.num_players)) if seat == "random" else [seat]
    evaluator = EvalCallback(
        game, args.eval_opponents, args.eval_games, eval_seats, args.eval_every,
        out / "eval.csv", seed=args.seed, verbose=args.verbose,
        deterministic=args.eval_deterministic,
    )
    if do_bc:
        evaluator.init_callback(model)
        evaluator.run_eval()  # step 0: what the warm start gave
    callbacks = [evaluator]
    if pool.self_weight > 0:
        callbacks.insert(0, SnapshotCallback(args.snapshot_every))
    if args.max_minutes > 0:
        callbacks.append(WallClockCallback(60 * args.max_minutes))
    if args.progress:
        callbacks.append(TqdmCallback(done_steps + args.timesteps, done_steps))

    # 5. train, then save everything
    start = time.perf_counter()
    model.learn(
        args.timesteps, callback=CallbackList(callbacks), reset_num_timesteps=not args.resume
    )
    wall = time.perf_counter() - start
    model.save(str(model_path))
    venv.close()
    settings = {
        k: v for k, v in vars(args).items() if k not in ("resume", "progress", "max_minutes")
    }
    previous_wall = 0.0
    if args.resume:
        previous = json.loads((out / "config.json").read_text())
        previous_wall = float(previous.get("wall_time", 0))
        bc_wall = float(previous.get("bc_wall_time", 0))
    settings.update(
        bc_wall_time=round(bc_wall, 2),
        num_timesteps=int(model.num_timesteps), wall_time=round(previous_wall + wall, 2),
        final_eval=[r for r in evaluator.history if r["timesteps"] == model.num_timesteps],
    )
    (out / "config.json").write_text(json.dumps(settings, indent=1))
    plot_learning_curve(out, out / "learning_curve.png", f"{game.name} {args.config} seat {seat}")
    return settings


if __name__ == "__main__":
    main()
