"""Train a masked PPO learner on one seat of a game with sb3-contrib's ``MaskablePPO``: the
trainer of earlier versions, the lab's recipe for what the library's trainer
(:mod:`boardgames_rl.training.ppo`, ``boardgames-rl train``) does not do.

    python lab/recipes/train_sb3.py --game castle_nightingale --seat 0 --timesteps 300000 \\
        --opponents random,heuristic,self --opponent-weights 2,1,1 --out runs/ppo_nightingale

Every setting is a field of :class:`~lab.recipes.sb3.args.TrainArgs` and a flag; games
override defaults in :mod:`lab.recipes.sb3.defaults`.
The run folder gets ``model.zip``, ``config.json`` (every setting), ``progress.csv`` (SB3 training
metrics), ``eval.csv`` (win rates with 95% intervals), ``learning_curve.png``, ``best/`` (the
policy with the best mean evaluation win rate so far, with ``best.json``) and
``checkpoints/pool-<t>.pt`` (the self-play pool of the last checkpoint): each model stored once,
older checkpoints removed (:mod:`boardgames_rl.training.checkpoint`). ``--resume``
continues the folder's model with its saved settings for ``--timesteps`` more steps.

On standard output, flushed line by line (a log file or a notebook sees it as it happens, with
or without the progress bar, which is drawn on standard error only when it is a terminal): what
the run is about to do, a line per behaviour-cloning round, a line per evaluation (the step, the
win rate against each opponent with its 95% interval, the time since the start) and a summary
(where the model, the best model and the logs are, the final win rates, how to continue).

Opponents come from an :class:`~boardgames_rl.training.pool.OpponentPool`: agent specs
(``random``, ``heuristic``, ``ismcts:iterations=50,rollout=random``, ``ppo:path=...``) and
``self`` (frozen snapshots of the learner, one every ``--snapshot-every`` steps, at most
``--max-snapshots``), drawn per opponent seat and per game with ``--opponent-weights``.
Each trajectory holds only the learner's decisions (see ``SingleAgentEnv``).
``--shaping potential`` adds potential-based reward shaping (``--shaping-scale`` x
(gamma Phi(s') - Phi(s)), the game's potential from ``boardgames_rl/games/<game>/shaping.py``;
see :mod:`lab.recipes.sb3.shaping`) to the training rewards only: evaluation counts real
wins. ``--bc-games N`` (0: off; default per game) warm-starts the policy by behaviour cloning
of ``--bc-teacher``'s decisions in N games, then ``--bc-dagger-rounds`` DAgger rounds
(:mod:`lab.recipes.sb3.imitation`; per-epoch figures in ``bc.csv``, an evaluation at
step 0 in ``eval.csv``; not redone on ``--resume``); ``--bc-data DIR`` clones demonstrations
saved by ``lab/experiments/collect_demos.py`` instead (with ``--init-from``: fine-tunes the entry).
Same seed + same flags -> the same model (``--vec batched``, the default, with any
``--vec-workers``, and ``--vec dummy`` give the same trajectories).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import torch as th
from stable_baselines3.common.callbacks import CallbackList

from boardgames_rl.agents.ppo import (
    UntrustedModelError,
    check_plain_settings,
    freeze_policy,
    read_model_file,
)
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.errors import GameError, InvalidConfigError
from boardgames_rl.core.files import make_dir, remove_file, write_text
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.registry import make_game
from boardgames_rl.training.checkpoint import (
    CHECKPOINT_DIR,
    checkpoint_model,
    clear_logs,
    cut_logs,
    read_snapshots,
    save_checkpoint,
)
from boardgames_rl.training.envs import parse_seat
from boardgames_rl.training.plots import plot_learning_curve
from boardgames_rl.training.pool import OpponentPool
from lab.recipes.sb3.args import (
    TrainArgs,
    parse_args,
    read_config,
    saved_settings,
    settings_for_file,
)
from lab.recipes.sb3.callbacks import (
    CheckpointCallback,
    EvalCallback,
    SnapshotCallback,
    TqdmCallback,
    ValueWarmupCallback,
    WallClockCallback,
    duration,
    make_logger,
    read_best,
    report,
    win_rates,
)
from lab.recipes.sb3.demos import load_demos
from lab.recipes.sb3.envs import build_vec_env
from lab.recipes.sb3.fast_ppo import FastMaskablePPO
from lab.recipes.sb3.imitation import pretrain, warm_start, write_bc_csv
from lab.recipes.sb3.init_from import init_policy_from_entry, resolve_entry, write_record
from lab.recipes.sb3.shaping import make_shaping

BC_SEED_OFFSET = 104_729
"""The demonstration games' seed is ``--seed`` plus this (other games than PPO's)."""
SAVED_ONLY = ("game", "config", "net")
"""Settings a resumed run must keep."""


# ---------------------------------------------------------------------------- training
class TrainingInterrupted(SystemExit):
    """SIGINT / SIGTERM: the run stopped at a checkpoint; ``code`` is 130 / 143."""


def _fail(message: str) -> SystemExit:
    return SystemExit(f"train_ppo: error: {message}")


def policy_class(args: TrainArgs) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's policy and ``policy_kwargs``: the MLP, or with ``--prior`` the residual
    :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy` (plain JSON kwargs, so the
    safe loader rebuilds it)."""
    if not args.prior:
        return "MlpPolicy", dict(net_arch=args.net)
    from boardgames_rl.agents.prior_policy import PriorMaskablePolicy

    return PriorMaskablePolicy, dict(
        net_arch=args.net, prior=args.prior, prior_scale=args.prior_scale
    )


def _load_model(
    args: TrainArgs, out: Path, saved: dict[str, Any], venv: Any, hyper: dict[str, Any]
) -> FastMaskablePPO:
    """The run's model at its checkpoint (weights and optimiser state, nothing unpickled unless
    ``--trust-model-file``), with the saved step count."""
    try:  # a regular file with a size cap, the one the checkpoint recorded
        path, blob = checkpoint_model(out, saved)
    except InvalidConfigError as e:
        raise _fail(str(e)) from e
    if args.trust_model_file:
        try:  # the person trusts the file
            model = FastMaskablePPO.load(io.BytesIO(blob), env=venv, device=args.device, **hyper)
        except Exception as e:  # noqa: BLE001 - a damaged trusted file: one line
            raise _fail(f"--resume: {path} could not be loaded ({str(e).splitlines()[0]})") from e
        return model
    policy, policy_kwargs = policy_class(args)
    model = FastMaskablePPO(
        policy,
        venv,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        device=args.device,
        verbose=args.verbose,
        **hyper,
    )
    try:
        data, weights = read_model_file(path)
        check_plain_settings(data, f"model file {str(path)!r}")
        model.policy.load_state_dict(weights["policy"])
        if "policy.optimizer" in weights:
            model.policy.optimizer.load_state_dict(weights["policy.optimizer"])
    except UntrustedModelError as e:
        raise _fail(
            f"--resume: {e}".replace(
                "add trust=1 to the agent (ppo:path=...,trust=1) or pass", "pass"
            )
        ) from e
    except (RuntimeError, ValueError, KeyError) as e:
        raise _fail(
            f"--resume: {path} does not match the run's network {args.net} "
            f"({str(e).splitlines()[0][:160]}); restore the file or start a new run"
        ) from e
    n_updates = data.get("_n_updates", 0)
    model._n_updates = n_updates if isinstance(n_updates, int) else 0
    return model


def _restore_snapshots(venv: Any, model: FastMaskablePPO, out: Path, saved: dict[str, Any]) -> int:
    checkpoint = saved.get("checkpoint")
    rel = checkpoint.get("pool") if isinstance(checkpoint, dict) else None
    if not isinstance(rel, str):
        return 0
    try:
        snapshots = read_snapshots(out / rel)
    except InvalidConfigError as e:
        raise _fail(str(e)) from e
    for name, state in snapshots:
        policy = freeze_policy(model.policy)
        policy = policy.__class__(**policy._get_constructor_parameters())
        try:
            policy.load_state_dict(state)
        except (RuntimeError, KeyError) as e:
            raise _fail(f"{out / rel}: snapshot {name!r} does not fit the network") from e
        venv.env_method("add_snapshot", name, freeze_policy(policy))
    return len(snapshots)


SEED_SPACE = 2**32
"""Seeds numpy, SB3 and the envs accept: ``[0, 2**32)``."""


def _undo_fresh_start(out: Path, created: bool) -> None:
    """A fresh run that failed before its model existed leaves nothing behind: its config.json
    goes, and so does the folder if this invocation made it and it is empty."""
    with contextlib.suppress(OSError, InvalidConfigError):
        remove_file(out / "config.json", root=out)
        for name in (CHECKPOINT_DIR, "best"):  # made empty by this invocation
            with contextlib.suppress(OSError):
                (out / name).rmdir()
        if created and not any(out.iterdir()):
            out.rmdir()


def resume_seed(seed: int, done_steps: int, n_envs: int) -> int:
    """The base env seed for a run resumed after ``done_steps`` (fresh games, same every time).

    ``seed + 7919 * done_steps`` wrapped into the seed space so that every env ``seed + i`` stays a
    valid numpy seed (before the wrap, resuming a run past 542,000 steps failed in numpy).
    """
    span = SEED_SPACE - max(1, n_envs)
    return (seed + 7_919 * done_steps) % span


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train (or resume) one run; returns the saved settings with the final evaluation.

    Raises:
        SystemExit: a bad flag (code 2) or a runtime error (a one-line message, code 1);
            :class:`TrainingInterrupted` (code 130 / 143) after SIGINT / SIGTERM, once the
            checkpoint is saved.
    """
    args = parse_args(argv)
    try:
        return _train(args)
    except InvalidConfigError as e:  # a file of the run folder that is not what it should be
        raise _fail(str(e)) from e


def _train(args: TrainArgs) -> dict[str, Any]:
    th.set_num_threads(args.threads)

    # 1. the game, the learner's seat and its opponents
    try:
        try:
            game = make_game(args.game, **args.config)
        except (TypeError, ValueError) as e:
            raise InvalidConfigError(f"-c {args.config}: {e}") from e
        seat = parse_seat(args.seat, game)
        pool = OpponentPool.from_specs(
            game, args.opponents, args.opponent_weights, args.max_snapshots
        )
        shaping = make_shaping(args.shaping, game, args.gamma, args.shaping_scale)
        do_bc = (args.bc_games > 0 or bool(args.bc_data)) and not args.resume
        if do_bc and not args.bc_data:
            make_agent(args.bc_teacher, game)  # fail now on a bad teacher spec
        demos = (
            load_demos(args.bc_data, game, args.prior, policy_obs_size(game, bool(args.prior)))
            if args.bc_data and not args.resume
            else None
        )
        for spec in args.eval_opponents:
            make_agent(spec, game)
        if args.prior:
            make_agent(args.prior, game)  # fail now on a bad prior spec
        entry = resolve_entry(args.init_from) if args.init_from and not args.resume else None
    except (GameError, TypeError, ValueError) as e:
        raise _fail(f"{e} (see --help)") from e
    out = Path(args.out)
    created = not out.exists()
    try:
        make_dir(out, root=out)  # the person's folder; nothing below it is written through a link
        for name in (CHECKPOINT_DIR, "best"):
            make_dir(out / name, root=out)
    except OSError as e:
        raise _fail(f"--out {out}: cannot create the run folder ({e.strerror})") from e
    model_path = out / "model.zip"
    saved = read_config(out) if args.resume else {}
    if args.resume and not (model_path.is_file() or isinstance(saved.get("checkpoint"), dict)):
        raise _fail(f"--resume: no model.zip in {out}")
    if not args.resume and os.path.lexists(model_path):
        raise _fail(f"{out} already holds a model: use --resume or another --out")

    # 2. the step count: a fresh run, an interrupted run (to its target), or more steps
    done_steps = int(saved.get("num_timesteps", 0)) if args.resume else 0
    if args.interrupted:
        target = int(saved.get("target_timesteps", done_steps + args.timesteps))
    else:
        target = done_steps + args.timesteps
    if args.resume:
        saved_checkpoint = saved.get("checkpoint")
        logs = saved_checkpoint.get("logs", {}) if isinstance(saved_checkpoint, dict) else {}
        cut_logs(out, logs)
    else:
        clear_logs(out)  # a fresh run starts fresh logs
    settings = saved_settings(args)
    previous_wall = float(saved.get("wall_time", 0)) if args.resume else 0.0
    bc_wall = float(saved.get("bc_wall_time", 0)) if args.resume else 0.0
    settings.update(target_timesteps=target, complete=False)
    if not args.resume:
        write_text(out / "config.json", json.dumps({**settings, "num_timesteps": 0}), out)

    # 3. vectorised envs, seeded per env (a resumed run continues with fresh games)
    env_seed = resume_seed(args.seed, done_steps, args.n_envs)
    venv = build_vec_env(
        game,
        seat,
        pool,
        args.n_envs,
        env_seed,
        args.vec,
        reward_shaping=shaping,
        num_workers=args.vec_workers,
        main_steps=args.vec_main_steps,
        prior=args.prior or None,
    )

    # 4. the model: new, or the folder's checkpoint (nothing unpickled)
    hyper: dict[str, Any] = dict(
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.lr,
        ent_coef=args.ent_coef,
        vf_coef=args.vf_coef,
        clip_range=args.clip_range,
        gamma=args.gamma,
        gae_lambda=args.gae_lambda,
        max_grad_norm=args.max_grad_norm,
    )
    try:
        if args.resume:
            model = _load_model(args, out, saved, venv, hyper)
            model.num_timesteps = done_steps
            model.set_random_seed(env_seed)
            _restore_snapshots(venv, model, out, saved)
        else:
            policy, policy_kwargs = policy_class(args)
            model = FastMaskablePPO(
                policy,
                venv,
                policy_kwargs=policy_kwargs,
                seed=args.seed,
                device=args.device,
                verbose=args.verbose,
                **hyper,
            )
            if entry is not None:
                init_policy_from_entry(model.policy, entry, game, args.prior)
                write_record(out, entry)
    except InvalidConfigError as e:
        venv.close()
        if not args.resume:
            _undo_fresh_start(out, created)
        raise _fail(str(e)) from e
    except BaseException:
        venv.close()
        raise
    model.set_logger(make_logger(out))

    run_start = time.perf_counter()
    report(start_line(args, game, seat, out, done_steps, target, do_bc))

    # 4b. optional behaviour-cloning warm start from the teacher's games (never on resume)
    if demos is not None:
        bc_start = time.perf_counter()
        data, sources = demos
        history = [
            {"round": 0, "games": data.games, "teacher_or_actor_win_rate": data.win_rate, **h}
            for h in pretrain(
                model,
                data,
                args.bc_epochs,
                args.bc_lr,
                args.bc_batch_size,
                args.seed + BC_SEED_OFFSET,
                args.bc_value_coef,
                args.progress,
            )
        ]
        bc_wall = time.perf_counter() - bc_start
        write_bc_csv(out / "bc.csv", history, bc_wall, out)
        write_text(out / "BC_DATA.json", json.dumps(sources, indent=1), out)
        report(
            f"[bc] cloning of {args.bc_data} done: {history[-1]['samples']} decisions, "
            f"accuracy {history[-1]['accuracy']:.3f}, {duration(bc_wall)}"
        )
    elif do_bc:
        bc_start = time.perf_counter()
        history = warm_start(
            model,
            game,
            seat,
            args.bc_teacher,
            pool,
            args.bc_games,
            args.bc_epochs,
            args.bc_lr,
            args.bc_batch_size,
            args.bc_value_coef,
            args.bc_dagger_rounds,
            args.bc_dagger_games,
            args.bc_dagger_epochs,
            args.seed + BC_SEED_OFFSET,
            args.progress,
            prior=args.prior or None,
        )
        bc_wall = time.perf_counter() - bc_start
        write_bc_csv(out / "bc.csv", history, bc_wall, out)  # a line per round was printed

    # 5. callbacks: self-play snapshots, periodic evaluation, progress bar, checkpoints
    eval_seats = list(range(game.num_players)) if seat == "random" else [seat]
    evaluator = EvalCallback(
        game,
        args.eval_opponents,
        args.eval_games,
        eval_seats,
        args.eval_every,
        out / "eval.csv",
        seed=args.seed,
        verbose=args.verbose,
        deterministic=args.eval_deterministic,
        best_dir=out / "best",
        root=out,
        started=run_start,
    )
    if do_bc or entry is not None:
        evaluator.init_callback(model)
        evaluator.run_eval()  # step 0: what the warm start (or the entry) gives, best/ to beat
    start = time.perf_counter()

    def checkpoint(complete: bool = False) -> dict[str, Any]:
        snapshots = venv.env_method("snapshot_states", indices=[0])[0]
        return save_checkpoint(
            out,
            model,
            snapshots,
            {
                **settings,
                "complete": complete,
                "bc_wall_time": round(bc_wall, 2),
                "wall_time": round(previous_wall + time.perf_counter() - start, 2),
            },
        )

    signals: list[int] = []
    rollout = args.n_steps * args.n_envs
    every = -(-args.checkpoint_every // rollout) * rollout if args.checkpoint_every > 0 else 0
    checkpointer = CheckpointCallback(every, checkpoint, lambda: bool(signals), evaluator)
    evaluator.stop = lambda: bool(signals)  # a signal does not wait for a long evaluation
    callbacks: list[Any] = [evaluator]
    if pool.self_weight > 0:
        callbacks.insert(0, SnapshotCallback(args.snapshot_every))
    if args.value_warmup > 0:
        callbacks.insert(0, ValueWarmupCallback(args.value_warmup))
    if args.max_minutes > 0:
        callbacks.append(WallClockCallback(60 * args.max_minutes))
    if args.progress:
        callbacks.append(TqdmCallback(target, done_steps))
    callbacks.append(checkpointer)  # last: a checkpoint holds the evaluation rows of its step

    # 6. train (a signal stops at the next step), then save everything
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for sig in handlers:
            signal.signal(sig, lambda signum, _frame: signals.append(signum))
        model.learn(
            max(target - done_steps, 1),
            callback=CallbackList(callbacks),
            reset_num_timesteps=not args.resume,
        )
    except BaseException:
        _close(venv)
        raise
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    if checkpointer.stopped:
        # the unfinished rollout was never learned from: the checkpoint is the last update
        model.num_timesteps = checkpointer.rollout_start
        checkpoint(complete=False)
        _close(venv)
        name = signal.Signals(signals[0]).name
        print(
            f"train_ppo: {name}: stopped at step {model.num_timesteps}, checkpoint saved in "
            f"{out}; rerun the same command (or --resume --out {out}) to continue",
            file=sys.stderr,
        )
        raise TrainingInterrupted(128 + signals[0])
    final = checkpoint(complete=True)  # reads the snapshots from the envs: before closing them
    _close(venv)
    settings = {k: v for k, v in final.items() if k != "checkpoint"}
    settings["final_eval"] = [r for r in evaluator.history if r["timesteps"] == model.num_timesteps]
    write_text(
        out / "config.json", json.dumps(settings_for_file({**final, **settings}), indent=1), out
    )
    plot_learning_curve(out, out / "learning_curve.png", f"{game.name} {args.config} seat {seat}")
    for line in summary_lines(out, settings, time.perf_counter() - run_start):
        report(line)
    return settings


def start_line(
    args: TrainArgs, game: Any, seat: Any, out: Path, done: int, target: int, bc: bool
) -> str:
    """What the run is about to do, in one line (printed first, so a log says what it holds)."""
    what = f"resuming at step {done:,} to {target:,}" if args.resume else f"{target:,} steps"
    where = f"{game.name} {game.num_players}p seat {seat}"
    if args.eval_games > 0 and args.eval_opponents:
        every = f"every {args.eval_every:,} steps" if args.eval_every > 0 else "at the end"
        evals = f"evaluation {every} vs {', '.join(args.eval_opponents)}"
    else:
        evals = "no evaluation"
    teacher = args.bc_data or f"{args.bc_teacher} in {args.bc_games} games"
    warm = f"; behaviour cloning of {teacher} first" if bc else ""
    return f"train: {where}, {what} into {out} ({evals}){warm}"


def summary_lines(out: Path, settings: dict[str, Any], seconds: float) -> list[str]:
    """The end of a run: where the model, the best model and the logs are, and the final win
    rates (with their 95% intervals)."""
    steps = int(settings.get("num_timesteps", 0))
    best = read_best(out / "best")
    if best["score"] >= 0:
        kept = (
            f"{out / 'best' / 'model.zip'} (step {best['timesteps']:,}, mean win rate "
            f"{best['score']:.3f})"
        )
    else:
        kept = "none (no evaluation ran)"
    logs = [n for n in ("eval.csv", "progress.csv", "bc.csv", "learning_curve.png")]
    logs = [str(out / n) for n in logs if (out / n).is_file()]
    return [
        f"train: done, {steps:,} steps in {duration(seconds)}; the run folder is {out}",
        f"  model:       {out / 'model.zip'} (the last policy; play it as "
        f"ppo:path={out / 'model.zip'})",
        f"  best model:  {kept}",
        f"  logs:        {', '.join(logs)}; settings: {out / 'config.json'}",
        f"  final win rates: {win_rates(settings.get('final_eval') or [])}",
        f"  continue:    python lab/recipes/train_sb3.py --resume --out {out} --timesteps N "
        "(N more steps)",
    ]


def _close(venv: Any) -> None:
    with contextlib.suppress(OSError, EOFError):  # a worker already gone (e.g. Ctrl-C)
        venv.close()


if __name__ == "__main__":
    main()
