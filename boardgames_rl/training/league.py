"""League self-play: masked PPO against a population of past selves, fixed agents and exploiters.

.. code-block:: bash

    boardgames-rl league --game white_castle -c num_players=3 --timesteps 2000 \\
        --games-per-iteration 8 --eval-games 4 --out runs/league_wc3
    boardgames-rl league --game castle_nightingale --backend ray --num-workers 2 \\
        --timesteps 2000 --games-per-iteration 8 --eval-games 4 --out runs/league_cn

(2,000 steps: a few iterations, to try the commands; a league that learns takes
``--timesteps 1000000`` and more.)

Every knob is a documented field of :class:`~boardgames_rl.training.league_settings.LeagueArgs`
(its flag: the name with hyphens). The loop over iterations:

1. **draw**: ``games_per_iteration`` games, each from its own seed, the learner in a seat drawn
   at random (from ``seats`` when given) and every other seat filled from the population
   (:class:`~boardgames_rl.training.population.Population`): the learner's current weights
   with probability ``latest_weight``, else a member drawn by prioritised fictitious self-play
   -- the fixed ``members`` (``random``, ``heuristic``, any agent spec, a search agent) and the
   frozen snapshots, weighted ``(1 - score) ** pfsp_power`` so the ones the learner loses to
   come up more (with ``max_snapshots = 0`` and ``latest_weight = 0``, only the fixed members:
   the learner is a best response to them, as :mod:`~boardgames_rl.training.exploitability`
   trains one on a prior);
2. **rollouts**: the games, cut into tasks of ``games_per_task``, are played whole by
   :mod:`~boardgames_rl.training.rollouts` -- in this process, in ``num_workers`` local
   processes, or on Ray actors (``--backend ray``; a local Ray, or ``--address`` for a cluster;
   a node lost mid-iteration costs the tasks it was playing, which are played again). A task is
   a pure function of its seeds and weights: the same seed gives the same league with any
   backend and any number of workers;
3. **update**: GAE over each game (the learner's return at its end), then PPO's clipped update
   (the same :func:`~boardgames_rl.training.ppo.update` as ``boardgames-rl train``);
4. **league**: each game's result is scored against every member at its table; a snapshot of
   the learner is frozen into the population when it beats the pool (``freeze_score``) or
   after ``freeze_every`` steps; each of the ``exploiters`` (learners that play only against
   the main learner's current weights) is frozen into the population once it beats the main
   learner (``exploiter_freeze_score``) or after ``exploiter_every`` steps, then starts again
   from fresh weights;
5. **evaluation** every ``eval_every`` steps (the greedy policy against each of
   ``eval_opponents``, every seat -- of ``seats`` -- in turn; the best kept in ``best/``) and
   **checkpoint** every ``checkpoint_every`` steps, at the end, and on SIGINT / SIGTERM (exit
   130 / 143; rerun the same command, or ``--resume --out DIR``, to continue).

The draws, the games and the minibatches of the iteration at step ``t`` come from
``(seed, t)``: a league resumed from its checkpoint plays on exactly as the uninterrupted one
(with exploiters, their optimiser moments start afresh on resume).

The run folder is a training run's (:mod:`boardgames_rl.training.runs`: ``config.json`` with
``"trainer": "league"``, ``model.zip`` -- the main learner, played as ``ppo:path=...`` --,
``best/``, ``progress.csv``, ``eval.csv``, ``learning_curve.png``), plus ``league.csv`` (at
every checkpoint, each member's draw probability, score and games) and the snapshots' weights
in the checkpoint's pool file.
"""

from __future__ import annotations

import contextlib
import csv
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from boardgames_rl._util.progress import progress_bar
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.core.errors import GameError, InvalidConfigError
from boardgames_rl.core.files import open_append
from boardgames_rl.core.game import Game
from boardgames_rl.core.seeding import next_game_seed, seed_stream
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.registry import make_game
from boardgames_rl.training.evaluation import EvaluationStopped
from boardgames_rl.training.from_entry import check_fit, copy_actor, resolve_entry
from boardgames_rl.training.league_settings import (
    TRAINER,
    LeagueArgs,
    parse_league_args,
    saved_league_args,
)
from boardgames_rl.training.network import ActorCritic, adam
from boardgames_rl.training.plots import plot_learning_curve
from boardgames_rl.training.population import LATEST, Population, PopulationSettings
from boardgames_rl.training.ppo import (
    CSV_FIELDS,
    Rollout,
    append_csv,
    evaluate_and_keep,
    load_checkpoint,
    summary_lines,
    update,
)
from boardgames_rl.training.report import report
from boardgames_rl.training.rollouts import (
    NETWORK,
    LocalRollouts,
    RayRollouts,
    RolloutTask,
    Trajectories,
    plain_state,
)
from boardgames_rl.training.runs import (
    FORMAT,
    open_run,
    read_config,
    save,
    undo_fresh_start,
    unlock_run,
)
from boardgames_rl.training.runs import write_config as write_run_config
from boardgames_rl.training.stopping import StopRequests, children_ignore_sigint

LEAGUE_FIELDS = ["timesteps", "member", "kind", "probability", "score", "games"]
"""Columns of ``league.csv``."""
MAIN = "main"
LIVE = "live:"
"""Prefix of an exploiter's current weights among the checkpoint's snapshots."""


@dataclass
class Learner:
    """A network being trained: the main learner or an exploiter."""

    name: str
    net: ActorCritic
    optimizer: th.optim.Optimizer
    steps: int = 0  # steps trained (an exploiter: since its last start)
    restarts: int = 0
    scores: deque[float] = field(default_factory=deque)  # an exploiter's, against the main


def train_league(args: LeagueArgs) -> dict[str, Any]:
    """Train (or resume) the league ``args`` describe; returns its ``config.json``. The run
    folder is locked while it trains (a second training into it is refused in one line).

    Raises:
        InvalidConfigError: a setting or a file of the run folder that is not what it should be.
        SystemExit: 130 / 143 after SIGINT / SIGTERM, once the checkpoint is saved.
    """
    try:
        return _train_league(args)
    finally:
        unlock_run(Path(args.out))


def _train_league(args: LeagueArgs) -> dict[str, Any]:
    """:func:`train_league`'s body (the folder's lock released by it)."""
    # 1. the game, the members, the run folder
    try:
        game = make_game(args.game, **args.config)
    except TypeError as e:  # an option the game does not have
        raise InvalidConfigError(f"-c {args.config}: {e}") from e
    if game.num_players < 2:
        raise InvalidConfigError(f"{game.name}: a league needs at least 2 players")
    if any(s >= game.num_players for s in args.seats):
        raise InvalidConfigError(
            f"--seats {args.seats}: {game.name} {game.config} has seats 0 to {game.num_players - 1}"
        )
    for spec in [*args.members, *args.eval_opponents]:
        make_agent(spec, game)  # a bad spec fails now, with the registry's message
    entry = None
    if args.init_from and not args.resume:  # refused before the run folder is made
        entry = resolve_entry(args.init_from)
        check_fit(entry, game, args.net, "tanh", args.prior, same_config=False)
    out = Path(args.out)
    run, created = open_run(out, args.resume, trainer=TRAINER)
    saved = read_config(out) if run.resumed else {}
    done = run.done_steps
    interrupted = run.resumed and not run.settings.get("complete", True)
    target = int(run.settings["target_timesteps"]) if interrupted else done + args.timesteps
    settings = {
        "trainer": TRAINER,
        "settings": saved_league_args(args),
        "target_timesteps": target,
        "complete": False,
    }
    if entry is not None and not run.resumed:
        settings["initialised_from"] = {
            "entry": entry.name,
            "weights_sha256": entry.meta["sha256"],
            "config": entry.config,
        }
    elif isinstance(saved.get("initialised_from"), dict):  # kept as it was (data: never read)
        settings["initialised_from"] = saved["initialised_from"]
    if not run.resumed:
        write_run_config(out, {"format": FORMAT, **settings, "num_timesteps": 0})

    # 2. the learners and the population (resumed: the checkpoint's)
    th.set_num_threads(args.threads)
    population = Population(args.members, population_settings(args), game.num_players)
    main = new_learner(MAIN, game, args, (args.seed, 0, 0))
    exploiters = [new_learner(f"exploiter{k}", game, args, (args.seed, 1 + k, 0))
                  for k in range(args.exploiters)]  # fmt: skip
    snapshots: dict[str, dict[str, np.ndarray]] = {}
    try:
        if run.resumed:
            assert run.weights is not None
            load_checkpoint(main.net, main.optimizer, run.weights, out)
            for g in main.optimizer.param_groups:
                g["lr"] = args.learning_rate
            snapshots = restore_league(saved, run.snapshots, population, exploiters, out)
        elif entry is not None:
            copy_actor(main.net, entry)
            report(f"league: the main learner's actor starts from entry {entry.name} "
                   f"({entry.game} {entry.config}); its critic starts new")  # fmt: skip
        rollouts = make_rollouts(args, game)
    except BaseException:
        if not run.resumed:
            undo_fresh_start(out, created)
        raise
    report(start_line(args, game, out, done, target, run.resumed, rollouts))

    # 3. the loop: draw, rollouts, update, league, evaluation and checkpoint
    eval_seats = list(args.seats) or "random"  # the learner's seats, each in turn
    step, started, last_eval, last_checkpoint = done, time.perf_counter(), done, done

    logged = [done]  # the last step league.csv has rows for

    def checkpoint(complete: bool) -> dict[str, Any]:
        wall = run.wall_time + time.perf_counter() - started
        extra = {
            "complete": complete,
            "wall_time": round(wall, 2),
            "league": population.to_dict(),
            "exploiters": [
                {
                    "name": x.name,
                    "steps": x.steps,
                    "restarts": x.restarts,
                    "scores": [round(s, 6) for s in x.scores],
                }
                for x in exploiters
            ],  # fmt: skip
        }
        kept = [(name, as_tensors(state)) for name, state in snapshots.items()]
        kept += [(LIVE + x.name, x.net.state_dict()) for x in exploiters]
        if step > logged[0]:  # a checkpoint again at the same step (a signal) adds no rows
            write_league_csv(out, step, population)
            logged[0] = step
        return save(out, step, main.net, main.optimizer, kept, {**settings, **extra})

    bar = progress_bar(total=target, initial=done, desc="league", unit="step")
    with StopRequests(60 * args.max_minutes) as stop:
        try:
            while step < target and not stop.requested:
                # 4. draw and play the iteration's games (the main learner's and the exploiters')
                main_state = plain_state(main.net)
                tasks, lineups = main_tasks(args, game, step, population, main_state, snapshots)
                for k, x in enumerate(exploiters):
                    tasks += exploiter_tasks(args, game, step, k, x, main_state)
                results = rollouts.run(tasks)
                if stop.signal is not None:
                    break  # the iteration is dropped: the checkpoint is `step`
                count = len(range(0, args.games_per_iteration, args.games_per_task))
                mine = Trajectories.concatenate(results[:count])
                for names, share in zip(lineups, mine.win_shares, strict=True):
                    population.record(names, float(share))

                # 5. the updates: the main learner, then each exploiter
                stats = learn(main, mine, args, step)
                step += len(mine.actions)
                bar.update(len(mine.actions))
                offset = count
                for x in exploiters:
                    theirs = Trajectories.concatenate(results[offset : offset + count])
                    offset += count
                    learn(x, theirs, args, step)
                    x.steps += len(theirs.actions)
                    for share in theirs.win_shares:
                        x.scores.append(population.score_of(float(share)))
                        while len(x.scores) > args.window:
                            x.scores.popleft()
                elapsed = time.perf_counter() - started
                rate = int((step - done) / max(elapsed, 1e-9))
                means: list[Any] = [float(mine.returns.mean()), float(mine.lengths.mean())]
                append_csv(out, "progress.csv", CSV_FIELDS, [step, rate, round(elapsed, 2),
                                                             *means, *stats])  # fmt: skip

                # 6. the league: snapshots of the main learner, exploiters frozen and restarted
                why = population.should_freeze(step)
                if why is not None:
                    freeze(f"{MAIN}-{step}", main_state, step, why, population, snapshots)
                for k, x in enumerate(exploiters):
                    why = exploiter_due(x, args)
                    if why is not None:
                        name = f"{x.name}-{step}"
                        freeze(name, plain_state(x.net), step, why, population, snapshots)
                        restart(x, game, args, (args.seed, 1 + k, x.restarts + 1))

                # 7. evaluation and checkpoint, between iterations
                if args.eval_every > 0 and step - last_eval >= args.eval_every and step < target:
                    last_eval = step
                    evaluate_and_keep(args, game, eval_seats, main.net, out, step, started, stop)
                due = args.checkpoint_every > 0 and step - last_checkpoint >= args.checkpoint_every
                if due and step < target:
                    checkpoint(complete=False)
                    last_checkpoint = step
        except EvaluationStopped:
            pass  # a signal during an evaluation: the checkpoint below is the last iteration's
        except BaseException:
            bar.close()
            rollouts.close()
            raise
        bar.close()
        rollouts.close()
        final: list[dict[str, Any]] = []
        if stop.signal is None and step >= target:
            with contextlib.suppress(EvaluationStopped):  # saved incomplete: the rerun evaluates
                final = evaluate_and_keep(
                    args, game, eval_seats, main.net, out, step, started, stop
                )
        config = checkpoint(complete=step >= target and stop.signal is None)
    if stop.signal is not None:
        print(
            f"league: {stop.name}: stopped at step {step}, checkpoint saved in {out}; rerun the "
            f"same command (or boardgames-rl league --resume --out {out}) to continue",
            file=sys.stderr,
        )
        raise SystemExit(stop.exit_code)
    config["final_eval"] = final
    write_run_config(out, config)
    options = ", ".join(f"{k}={v}" for k, v in game.config.items())
    plot_learning_curve(out, out / "learning_curve.png", f"{game.name} ({options}), league")
    for line in summary_lines(
        out, config, time.perf_counter() - started, step >= target, command="league"
    ):
        report(line)
    return config


# ---------------------------------------------------------------------------- the loop's parts
def population_settings(args: LeagueArgs) -> PopulationSettings:
    return PopulationSettings(
        power=args.pfsp_power,
        latest_weight=args.latest_weight,
        window=args.window,
        freeze_score=args.freeze_score,
        min_games=args.min_games,
        freeze_every=args.freeze_every,
        freeze_min_steps=args.freeze_min_steps,
        max_snapshots=args.max_snapshots,
    )


def new_learner(name: str, game: Game, args: LeagueArgs, seed: tuple[int, ...]) -> Learner:
    """A learner with fresh weights drawn from ``seed``."""
    learner = Learner(name, *fresh_network(game, args, seed))
    return learner


def fresh_network(
    game: Game, args: LeagueArgs, seed: tuple[int, ...]
) -> tuple[ActorCritic, th.optim.Optimizer]:
    th.manual_seed(int(seed_stream(seed).integers(0, 2**31)))
    size = policy_obs_size(game, prior=bool(args.prior))
    net = ActorCritic(size, game.num_actions, args.net, args.prior or None, args.prior_scale)
    return net, adam(net, args.learning_rate)


def restart(x: Learner, game: Game, args: LeagueArgs, seed: tuple[int, ...]) -> None:
    """An exploiter starts again from fresh weights (its frozen copy stays in the league)."""
    x.net, x.optimizer = fresh_network(game, args, seed)
    x.steps, x.restarts = 0, x.restarts + 1
    x.scores.clear()


def exploiter_due(x: Learner, args: LeagueArgs) -> str | None:
    """Why exploiter ``x`` is frozen now, or None."""
    if len(x.scores) >= max(1, args.min_games):
        score = float(np.mean(x.scores))
        if score >= args.exploiter_freeze_score:
            return f"beats the main learner ({score:.2f})"
    return "step cap" if x.steps >= args.exploiter_every else None


def freeze(
    name: str,
    state: dict[str, np.ndarray],
    step: int,
    why: str,
    population: Population,
    snapshots: dict[str, dict[str, np.ndarray]],
) -> None:
    """Add the frozen weights ``state`` to the population as ``name``."""
    snapshots[name] = state
    for gone in population.add_snapshot(name, step):
        snapshots.pop(gone, None)
    report(f"[league] step {step:,}: froze {name} ({why}); {len(snapshots)} snapshots")


def main_tasks(
    args: LeagueArgs,
    game: Game,
    step: int,
    population: Population,
    main_state: dict[str, np.ndarray],
    snapshots: dict[str, dict[str, np.ndarray]],
) -> tuple[list[RolloutTask], list[list[str]]]:
    """The main learner's games of the iteration at ``step`` (all drawn from ``(seed, step)``)
    and the member names at each game's other seats."""
    rng = seed_stream((args.seed, 0, step))
    n = game.num_players
    seeds, seats, lineups, names = [], [], [], []
    for _ in range(args.games_per_iteration):
        seeds.append(next_game_seed(rng))
        seat = (
            args.seats[int(rng.integers(len(args.seats)))] if args.seats else int(rng.integers(n))
        )
        drawn = population.draw(rng, n - 1)
        lineup = [member_seat(x, population) for x in drawn]
        lineup.insert(seat, NETWORK + MAIN)
        seats.append(seat)
        lineups.append(tuple(lineup))
        names.append([x for x in drawn if x != LATEST])
    networks = {MAIN: main_state, **snapshots}
    return chunk(args, MAIN, seeds, seats, lineups, networks), names


def member_seat(name: str, population: Population) -> str:
    """Who plays a seat drawn as member ``name``: a network, or the fixed member's spec."""
    if name == LATEST:
        return NETWORK + MAIN
    member = population.members[name]
    return member.spec if member.kind == "fixed" else NETWORK + name


def exploiter_tasks(
    args: LeagueArgs, game: Game, step: int, k: int, x: Learner, main_state: dict[str, Any]
) -> list[RolloutTask]:
    """Exploiter ``k``'s games of the iteration: the main learner at every other seat."""
    rng = seed_stream((args.seed, 1 + k, step))
    n = game.num_players
    seeds, seats, lineups = [], [], []
    for _ in range(args.games_per_iteration):
        seeds.append(next_game_seed(rng))
        seat = int(rng.integers(n))
        lineup = [NETWORK + MAIN] * (n - 1)
        lineup.insert(seat, NETWORK + x.name)
        seats.append(seat)
        lineups.append(tuple(lineup))
    networks = {x.name: plain_state(x.net), MAIN: main_state}
    return chunk(args, x.name, seeds, seats, lineups, networks)


def chunk(
    args: LeagueArgs,
    learner: str,
    seeds: list[int],
    seats: list[int],
    lineups: list[tuple[str, ...]],
    networks: dict[str, Any],
) -> list[RolloutTask]:
    """Tasks of ``games_per_task`` games, each carrying only the networks it plays."""
    tasks = []
    for first in range(0, len(seeds), args.games_per_task):
        part = slice(first, first + args.games_per_task)
        used = {
            e[len(NETWORK) :] for lineup in lineups[part] for e in lineup if e.startswith(NETWORK)
        }
        tasks.append(
            RolloutTask(
                learner,
                tuple(seeds[part]),
                tuple(seats[part]),
                tuple(lineups[part]),
                {name: networks[name] for name in sorted(used)},
                tuple(args.net),
                args.prior,
            )
        )
    return tasks


def advantages(traj: Trajectories, gamma: float, lam: float) -> np.ndarray:
    """GAE over each whole game: the learner's return is the reward of its last decision."""
    out = np.zeros(len(traj.actions), np.float32)
    start = 0
    for length, ret in zip(traj.lengths.tolist(), traj.returns.tolist(), strict=True):
        values = traj.values[start : start + length].astype(np.float64)
        following = np.append(values[1:], 0.0)
        deltas = gamma * following - values
        if length:
            deltas[-1] += ret
        running = 0.0
        for t in range(length - 1, -1, -1):
            running = deltas[t] + gamma * lam * running
            out[start + t] = running
        start += length
    return out


def learn(learner: Learner, traj: Trajectories, args: LeagueArgs, step: int) -> list[float]:
    """One PPO update of ``learner`` on ``traj`` (minibatches drawn from ``(seed, step)``)."""
    if len(traj.actions) == 0:
        return [float("nan")] * 6
    adv = th.from_numpy(advantages(traj, args.gamma, args.gae_lambda))[:, None]
    n = len(traj.actions)
    buffer = Rollout(
        obs=th.from_numpy(traj.obs)[:, None],
        legal=th.from_numpy(traj.legal.astype(np.float32))[:, None],
        actions=th.from_numpy(traj.actions)[:, None],
        logprobs=th.from_numpy(traj.logprobs)[:, None],
        rewards=th.zeros((n, 1)),
        starts=th.zeros((n, 1)),
        values=th.from_numpy(traj.values)[:, None],
    )
    rng = np.random.default_rng([args.seed, 2, step, len(learner.name)])
    return update(learner.net, learner.optimizer, buffer, adv, args, rng)


def make_rollouts(args: LeagueArgs, game: Game) -> LocalRollouts | RayRollouts:
    if args.backend == "ray":
        return RayRollouts(game, args.num_workers, args.address or None)
    with children_ignore_sigint():  # a Ctrl-C reaches the workers too: this process decides
        return LocalRollouts(game, args.num_workers)


def as_tensors(state: dict[str, np.ndarray]) -> dict[str, th.Tensor]:
    return {k: th.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}


def restore_league(
    saved: dict[str, Any],
    states: list[tuple[str, dict[str, Any]]],
    population: Population,
    exploiters: list[Learner],
    out: Path,
) -> dict[str, dict[str, np.ndarray]]:
    """The population, the exploiters and the snapshots' weights of the checkpoint."""
    source = str(out / "config.json")
    fix = "restore the file, or start a new league with another --out"
    population.restore(saved.get("league"), source)
    by_name = dict(states)
    snapshots = {}
    for name in population.snapshot_names:
        if name not in by_name:
            raise InvalidConfigError(f"{source}: snapshot {name!r:.40} has no weights; {fix}")
        snapshots[name] = {k: v.numpy().copy() for k, v in by_name[name].items()}
    saved_x = saved.get("exploiters", [])
    if not isinstance(saved_x, list) or len(saved_x) != len(exploiters):
        raise InvalidConfigError(
            f"{source}: the league had {len(saved_x) if isinstance(saved_x, list) else '?'} "
            f"exploiters, --exploiters {len(exploiters)}: resume with the league's own settings"
        )
    for x, data in zip(exploiters, saved_x, strict=True):
        ok = isinstance(data, dict) and data.get("name") == x.name
        steps, restarts = (data.get("steps"), data.get("restarts")) if ok else (None, None)
        scores = data.get("scores") if ok else None
        numbers = isinstance(scores, list) and all(
            isinstance(s, int | float) and not isinstance(s, bool) and 0 <= s <= 1 for s in scores
        )
        counts = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                     for v in (steps, restarts))  # fmt: skip
        if not (ok and numbers and counts) or LIVE + x.name not in by_name:
            raise InvalidConfigError(f"{source}: exploiter {x.name} is damaged; {fix}")
        try:
            x.net.load_state_dict(by_name[LIVE + x.name], strict=True)
        except (RuntimeError, KeyError) as e:
            raise InvalidConfigError(f"{source}: exploiter {x.name}'s weights: {e}; {fix}") from e
        x.steps, x.restarts = int(steps), int(restarts)  # type: ignore[arg-type]
        x.scores = deque(float(s) for s in scores)  # type: ignore[union-attr]
    return snapshots


def write_league_csv(out: Path, step: int, population: Population) -> None:
    """Each member's draw probability, score and games at ``step`` (a row each)."""
    table = population.probabilities()
    with open_append(out / "league.csv", out) as f:
        w = csv.writer(f)
        if f.tell() == 0:
            w.writerow(LEAGUE_FIELDS)
        for name, p in table.items():
            m = population.members.get(name)
            kind = m.kind if m is not None else LATEST
            score = round(m.score(population.settings.prior_games), 4) if m is not None else ""
            games = len(m.scores) if m is not None else ""
            w.writerow([step, name, kind, round(p, 4), score, games])


def start_line(
    args: LeagueArgs,
    game: Game,
    out: Path,
    done: int,
    target: int,
    resumed: bool,
    rollouts: LocalRollouts | RayRollouts,
) -> str:
    what = f"resuming at step {done:,} to {target:,}" if resumed else f"{target:,} steps"
    where = f"{game.name} {game.num_players}p"
    if isinstance(rollouts, RayRollouts):
        runs = f"rollouts on {len(rollouts.actors)} Ray actors"
    else:
        runs = f"rollouts on {rollouts.workers or 'no'} worker processes"
    members = ", ".join(args.members) or "none"
    extra = f", {args.exploiters} exploiters" if args.exploiters else ""
    if args.seats:
        extra += f"; the learner in seats {args.seats}"
    if args.max_snapshots == 0:
        extra += "; no snapshots"
    return (
        f"league: {where}, {what} into {out}; members {members}, self-play "
        f"{args.latest_weight:.2f}{extra}; {runs}"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the flags and train; a runtime error exits 1 with one line."""
    args = parse_league_args(argv)
    try:
        return train_league(args)
    except (InvalidConfigError, GameError, ValueError) as e:
        raise SystemExit(f"league: error: {e}") from e


if __name__ == "__main__":
    main()
