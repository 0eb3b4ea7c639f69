"""The recipe for the strong reference agents (issue 15), read top to bottom.

Five subcommands:

``train``  -- one run folder, resumable, for hours in the background::

    python lab/recipes/train_strong.py train --game white_castle -c num_players=2 \\
        --teacher heuristic --bc-games 300 --dagger-rounds 2 \\
        --league random,heuristic,self --league-weights 1,2,1 \\
        --timesteps 5000000 --max-minutes 240 --out runs/strong_white_castle_2p

  0. with ``--prior heuristic``: a residual policy
     (:class:`boardgames_rl.agents.prior_policy.PriorMaskablePolicy`) whose logits add a learned
     scale times the one-hot of the heuristic's move, so PPO starts at the heuristic's strength
     and learns where to depart from it (with ``--bc-games``, cloning an ISMCTS teacher
     teaches it the search's departures from the heuristic first);
  1. behaviour cloning of ``--teacher`` (``heuristic``; ``ismcts`` = the tuned ISMCTS preset at
     ``--teacher-iterations``, which beats the heuristic in Nightingale and White Castle; any
     other agent spec, e.g. Castle Flutterstone's race solver ``solver``) in
     ``--bc-games`` games, then ``--dagger-rounds`` DAgger rounds
     (:func:`lab.recipes.sb3.imitation.warm_start`, through ``train_ppo``'s ``--bc-*``);
  2. PPO against a league (``--league``: agent specs plus ``self`` = frozen past selves, drawn with
     ``--league-weights``; add ``ismcts:iterations=50,rollout=random`` for a searching opponent);
  3. every ``--eval-every`` steps, an evaluation against ``--eval-opponents`` (the heuristic and
     random; every seat in turn, 95% Wilson intervals) into ``eval.csv``; ``learning_curve.png``.

  Checkpoints every ``--checkpoint-every`` steps; SIGINT / SIGTERM stop at a checkpoint. Running
  the same command again continues the run: an interrupted run to its target, a finished one
  (``--max-minutes`` reached or ``--timesteps`` done) for ``--timesteps`` more steps (the BC
  warm start is never redone). All of it is :func:`lab.recipes.sb3.train_ppo.main`; any
  other ``train_ppo`` flag goes after ``--`` (``... -- --n-steps 1024 --ent-coef 0.005``).
  A continued run keeps its saved settings except the PPO and league flags given again
  (``--lr``, ``--clip-range``, ``--ent-coef``, ``--n-epochs``, ``--league``, ``--league-weights``,
  ``--snapshot-every``, ``--max-snapshots``: e.g. a lower learning rate for a second phase); a
  flag that shaped the run at its start (``--prior``, ``--prior-scale``, ``--net``, the cloning
  flags) given with another value is refused. Every invocation is appended to
  ``RUN/commands.txt``; ``export`` copies those lines into the entry's JSON, so a shipped agent
  names the exact commands that trained it.

``fork SOURCE DEST`` -- a second phase from the best policy so far, leaving the run as it was::

    python lab/recipes/train_strong.py fork runs/strong_white_castle_2p runs/strong_wc_2p_ft
    python lab/recipes/train_strong.py train --game white_castle --out runs/strong_wc_2p_ft \
        --lr 1e-4 --clip-range 0.1 --n-epochs 4 --timesteps 5000000 --max-minutes 150

  copies the source's ``best/`` policy (``--model last``: its last checkpoint) with its
  self-play pool and its logs up to that step into a new run folder
  (:mod:`lab.recipes.sb3.fork`); ``train`` then continues it with the flags given.

When the run folder is gone but its entry is shipped, ``train --init-from ENTRY`` starts a new
run from the entry's actor (:mod:`lab.recipes.sb3.init_from`; the critic starts new, so
``--value-warmup STEPS`` lets it learn alone first)::

    python lab/recipes/train_strong.py train --game castle_nightingale --out runs/ngale_ft \
        --init-from castle_nightingale-2p --prior heuristic --net 256,256 --value-warmup 40000 \
        --league heuristic --league-weights 1 --lr 3e-5 --max-minutes 120

  ``INIT_FROM.json`` in the run folder names the entry, its weights' sha256 and the commands that
  trained it; ``export`` puts it in the new entry's JSON (``training.initialised_from``).

``export RUN_DIR`` -- the run's ``model.zip`` (read without unpickling) into the package::

    python lab/recipes/train_strong.py export runs/strong_white_castle_2p \\
        --name white_castle-2p --eval-games 400

  writes ``boardgames_rl/pretrained/<name>.npz`` (policy weights, float16 by default) and
  ``<name>.json`` (architecture, sizes, game config, seats, the run's settings, the commit) and
  measures the exported agent (seats rotated, seeded, Wilson intervals) into its ``strength``.
  ``--model best`` exports the run's ``best/model.zip`` instead (the policy that scored highest in
  the run's evaluations); its strength is then measured on other seeds than those it was picked on
  (``--seed``, default 2026, against the run's evaluation seed, default 0). ``--workers N``
  plays those games in N processes: game ``i`` has the same seed and the same result whatever
  N is (``arena.play_series``), so the figures compare with those measured in one process.

``evaluate NAME`` -- measure a shipped entry again (``--eval-games``, ``--workers``) and rewrite
its ``strength``.

``tune-scale NAME`` -- for a residual entry, the prior's logit bonus it plays with::

    python lab/recipes/train_strong.py tune-scale night_of_the_ninja-5p --scales 3.8,4.6,5.5 \
        --seeds 11,12,13 --eval-games 1000 --workers 2 --write

  PPO learns the bonus with the network, for its sampled policy; the agent plays the most
  probable move, where a larger bonus keeps only the departures from the prior the network is
  sure of. This plays ``--eval-games`` games against the heuristic on each of ``--seeds`` (tuning
  seeds: the same games for every scale) at the learned scale and each of ``--scales``, prints
  the table, and with ``--write`` puts the best scale into the entry's
  ``architecture.prior.scale`` (the sweep, the learned scale and this command go to
  ``training.prior_scale_tuning``) and measures its strength again on ``--seed`` (default 2026,
  which must not be a tuning seed).
"""

from __future__ import annotations

import argparse
import math
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from boardgames_rl.agents.ismcts import tuned_spec
from boardgames_rl.agents.pretrained import (
    PACKAGE_DIR,
    Entry,
    PretrainedError,
    read_entry,
    write_meta,
)
from boardgames_rl.arena import play_series, wilson_interval
from boardgames_rl.cli.common import positive_int
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import MAX_JSON_BYTES, append_text, printable, read_text, write_text
from boardgames_rl.registry import make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's recipes
    sys.path.insert(0, str(REPO_ROOT))

from lab.recipes.export_pretrained import export_policy  # noqa: E402
from lab.recipes.sb3.init_from import read_record  # noqa: E402

# ---------------------------------------------------------------------------- 1. train


RESUMABLE = {  # recipe flag -> the train_ppo flag a resumed run takes as a new value
    "--lr": "--lr",
    "--clip-range": "--clip-range",
    "--ent-coef": "--ent-coef",
    "--n-epochs": "--n-epochs",
    "--league": "--opponents",
    "--league-weights": "--opponent-weights",
    "--snapshot-every": "--snapshot-every",
    "--max-snapshots": "--max-snapshots",
}
"""PPO and league flags that may change when a run is continued (e.g. a lower learning rate)."""
FIXED_AT_START = {  # recipe flag -> (its dest here, the run's saved setting in config.json)
    "--prior": ("prior", "prior"),
    "--prior-scale": ("prior_scale", "prior_scale"),
    "--bc-games": ("bc_games", "bc_games"),
    "--bc-epochs": ("bc_epochs", "bc_epochs"),
    "--dagger-rounds": ("dagger_rounds", "bc_dagger_rounds"),
    "--dagger-games": ("dagger_games", "bc_dagger_games"),
    "--dagger-epochs": ("dagger_epochs", "bc_dagger_epochs"),
    "--net": ("net", "net"),
    "--init-from": ("init_from", "init_from"),
    "--value-warmup": ("value_warmup", "value_warmup"),
}
"""Recipe flags that shape a run at its start (the network, the prior, the warm start)."""


def given_flags(argv: list[str]) -> set[str]:
    """The option strings written in ``argv`` (``--lr 1e-4`` and ``--lr=1e-4`` alike)."""
    return {token.split("=", 1)[0] for token in argv if token.startswith("-")}


def _same_setting(value: Any, saved: Any) -> bool:
    if isinstance(saved, list):  # the network: "256,256" against [256, 256]
        return [int(x) for x in str(value).split(",") if x.strip()] == saved
    if isinstance(saved, float | int) and not isinstance(saved, bool):
        return float(value) == float(saved)
    return (value or None) == (saved or None)


def resumed_overrides(a: argparse.Namespace, saved: dict[str, Any]) -> list[str]:
    """For a run that exists (``saved``: its config.json): the ``train_ppo`` flags for the
    recipe's PPO and league flags given on this command line (a continued run keeps its saved
    settings, so a flag not forwarded would be silently ignored). A flag that shaped the run at
    its start, given with another value than the run's, is refused in one line (the same
    command again continues the run)."""
    given = given_flags(getattr(a, "invocation", []))
    for flag, (dest, key) in FIXED_AT_START.items():
        if flag in given and key in saved and not _same_setting(getattr(a, dest), saved[key]):
            started = f"{flag} {saved[key]}" if saved[key] not in (None, "", []) else f"no {flag}"
            raise InvalidConfigError(
                f"{a.out} was started with {started}: {flag} {getattr(a, dest)} cannot change a "
                "run that exists; drop it to continue the run, or give a new --out"
            )
    values = {flag: getattr(a, flag[2:].replace("-", "_")) for flag in RESUMABLE}
    out: list[str] = []
    for flag, target in RESUMABLE.items():
        if flag in given:
            out += [target, str(values[flag])]
    return out


def train_argv(a: argparse.Namespace, extra: list[str]) -> list[str]:
    """The ``train_ppo`` command line of the recipe (every recipe flag maps to one of its)."""
    teacher = tuned_spec(a.game, a.teacher_iterations) if a.teacher == "ismcts" else a.teacher
    argv = ["--game", a.game, "--seat", a.seat, "--out", a.out, "--seed", str(a.seed)]
    run_exists = (Path(a.out) / "config.json").is_file()
    for c in [] if run_exists else a.config:  # a resumed run keeps its game options
        argv += ["-c", c]
    argv += [
        "--timesteps",
        str(a.timesteps),
        "--max-minutes",
        str(a.max_minutes),
        "--checkpoint-every",
        str(a.checkpoint_every),
        "--eval-every",
        str(a.eval_every),
        "--eval-games",
        str(a.eval_games),
        "--eval-opponents",
        a.eval_opponents,
        "--no-progress" if not a.progress else "--progress",
    ]
    if run_exists:
        # the saved settings are the run's own, but for the flags given again here
        from lab.recipes.sb3.args import read_config

        saved = read_config(Path(a.out))  # a damaged file: one line, nothing started
        return [*argv, "--resume", *resumed_overrides(a, saved), *extra]
    if a.prior:  # a residual policy; cloning (if any) then learns the teacher's departures
        argv += ["--prior", a.prior, "--prior-scale", str(a.prior_scale)]
    bc_games = a.bc_games
    if a.init_from:  # the policy starts as the entry's: no cloning unless asked for (refused)
        argv += ["--init-from", a.init_from]
        if "--bc-games" not in given_flags(getattr(a, "invocation", [])):
            bc_games = 0
    if a.value_warmup:
        argv += ["--value-warmup", str(a.value_warmup)]
    argv += [
        "--bc-games",
        str(bc_games),
        "--bc-teacher",
        teacher,
        "--bc-epochs",
        str(a.bc_epochs),
        "--bc-dagger-rounds",
        str(a.dagger_rounds),
        "--bc-dagger-games",
        str(a.dagger_games),
        "--bc-dagger-epochs",
        str(a.dagger_epochs),
        "--opponents",
        a.league,
        "--opponent-weights",
        a.league_weights,
        "--snapshot-every",
        str(a.snapshot_every),
        "--max-snapshots",
        str(a.max_snapshots),
        "--lr",
        str(a.lr),
        "--clip-range",
        str(a.clip_range),
        "--ent-coef",
        str(a.ent_coef),
        "--n-epochs",
        str(a.n_epochs),
    ]
    if a.net:
        argv += ["--net", a.net]
    return argv + extra


def train(a: argparse.Namespace, extra: list[str]) -> int:
    from boardgames_rl.training.plots import plot_learning_curve
    from lab.recipes.sb3.train_ppo import main as train_ppo

    argv = train_argv(a, extra)
    print("train_ppo " + " ".join(argv), flush=True)
    log_command(Path(a.out), a.invocation)
    code = 0
    try:
        train_ppo(argv)
    except SystemExit as e:  # an interrupted run (130 / 143) keeps its checkpoint
        code = e.code if isinstance(e.code, int) else 1
        if not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
    out = Path(a.out)
    if (out / "eval.csv").is_file():
        plot_learning_curve(out, out / "learning_curve.png", f"{a.game} seat {a.seat}")
    return code


COMMANDS_FILE = "commands.txt"
"""Every command that trained a run folder, one per line, in order (``export`` copies them)."""

# ---------------------------------------------------------------------------- 1b. fork


def fork(a: argparse.Namespace) -> int:
    """A new run folder continuing ``a.source`` from its best (or last) policy
    (:func:`lab.recipes.sb3.fork.fork_run`); its ``commands.txt`` starts with the
    source's commands and this one, so an entry exported from the fork names them all."""
    from lab.recipes.sb3.fork import fork_run

    record = fork_run(Path(a.source), Path(a.dest), a.model)
    dest = Path(a.dest)
    write_text(  # inside the run folder only: a planted link is replaced, never followed
        dest / COMMANDS_FILE, "".join(f"{line}\n" for line in logged_commands(Path(a.source)))
    )
    log_command(dest, a.invocation)
    score = "" if record["score"] is None else f" (evaluated {record['score']:.3f})"
    print(
        f"forked {a.source} at {record['timesteps']:,} steps{score} into {a.dest}: continue it "
        f"with train --game GAME --out {a.dest} [--lr ...]"
    )
    return 0


def log_command(out: Path, invocation: list[str]) -> None:
    """Append the command line that is training ``out`` to ``out/commands.txt``."""
    line = shlex.join(["python", "lab/recipes/train_strong.py", *invocation])
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    append_text(out / COMMANDS_FILE, f"{line}  # {stamp}\n")  # a regular file, no link followed


def logged_commands(run: Path) -> list[str]:
    """The commands of ``run/commands.txt`` (empty when the run predates the file)."""
    try:
        text = read_text(run / COMMANDS_FILE, MAX_JSON_BYTES, "commands file")
    except FileNotFoundError:
        return []
    return [printable(line) for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------------------- 2. measure


def rate(wins: float, n: int) -> dict[str, float]:
    low, high = wilson_interval(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "low": low, "high": high}


def measure(
    spec: str,
    game_name: str,
    config: dict[str, Any],
    seats: list[int],
    games: int,
    seed: int,
    workers: int = 1,
    opponents: list[str] | None = None,
) -> dict[str, Any]:
    """Win rates of ``spec`` against the heuristic and random (or ``opponents``), seeded, seats
    rotated (every seat of ``seats``; 95% Wilson intervals), per seat and overall. With more than
    two players: one ``spec`` seat against heuristic seats, compared with a heuristic seat's
    rate. ``workers`` processes play the games; the games and figures do not depend on it."""
    game = make_game(game_name, **config)
    out: dict[str, Any] = {
        "games_per_opponent": games,
        "seed": seed,
        "seats_rotated": len(seats) > 1,
        "seats": list(seats),
        "deterministic": True,
        "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    if opponents is None:
        opponents = ["heuristic", "random"] if game.num_players == 2 else ["heuristic"]
    for opp in opponents:
        start, wall = time.process_time(), time.perf_counter()
        agents = [spec] + [opp] * (game.num_players - 1)
        result = play_series(  # in the entry's seats only (a one-role entry plays its role)
            game, agents, games, seed=seed, progress=False, workers=workers, first_seats=seats
        )
        records = result.records
        row: dict[str, Any] = {"all": rate(result.wins(0), len(records))}
        for seat in seats:
            mine = [r for r in records if r.seats[seat] == 0]
            wins = sum(1.0 / len(r.winners) for r in mine if seat in r.winners)
            row[game.player_names[seat]] = rate(wins, len(mine))
        if game.num_players > 2:
            others = [result.wins(i) for i in range(1, len(result.agents))]
            row["a heuristic seat"] = rate(sum(others) / len(others), len(records))
        row["truncated"] = sum(r.truncated for r in records)
        if workers == 1:  # with workers the games' CPU time is theirs, not this process's
            row["cpu_seconds"] = round(time.process_time() - start, 1)
        else:
            row["workers"] = workers
        row["wall_seconds"] = round(time.perf_counter() - wall, 1)
        out[f"vs {opp}"] = row
    return out


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


# ---------------------------------------------------------------------------- 3. export


def export(a: argparse.Namespace) -> int:
    from boardgames_rl.agents.ppo import check_plain_settings, read_model_file, resolve_model_path
    from boardgames_rl.training.envs import parse_seat
    from lab.recipes.sb3.args import read_config
    from lab.recipes.sb3.callbacks import read_best

    run = Path(a.run_dir)
    settings = read_config(run)
    game_name = a.game or settings.get("game")
    if not isinstance(game_name, str) or settings.get("game") not in (None, game_name):
        raise InvalidConfigError(f"{run}: the run is {settings.get('game')!r}, not {a.game!r}")
    config = settings.get("config", {})
    game = make_game(game_name, **config)
    seat_setting = a.seat if a.seat is not None else str(settings.get("seat", "random"))
    seat = parse_seat(seat_setting, game)
    seats = list(range(game.num_players)) if seat == "random" else [int(seat)]
    if a.model == "best" and read_best(run / "best")["score"] < 0:
        raise InvalidConfigError(
            f"{run}: no best/model.zip with its best.json (runs evaluated since this option "
            "existed keep one): export the last policy with --model last"
        )
    path = resolve_model_path(run / "best" if a.model == "best" else run)
    data, weights = read_model_file(path)
    picked = read_best(run / "best") if a.model == "best" else None
    check_plain_settings(data, f"model file {str(path)!r}")
    training = {
        "recipe": "lab/recipes/train_strong.py train (BC/DAgger from the teacher, then PPO "
        "against the league)",
        "run_folder": str(run),
        "settings": {k: v for k, v in settings.items() if k not in ("checkpoint", "final_eval")},
        "final_eval": settings.get("final_eval", []),
        "exported": "the run's last policy"
        if picked is None
        else f"best/model.zip: the run's best evaluation, at {picked['timesteps']} steps "
        f"(mean win rate {picked['score']:.3f} on the run's evaluation seeds)",
        "exported_timesteps": int(settings.get("num_timesteps", 0))
        if picked is None
        else int(picked["timesteps"]),
        "machine": a.machine,
        "commands": a.commands or logged_commands(run),
    }
    initialised = read_record(run)
    if initialised is not None:  # the run started from an entry: its lineage goes with it
        training["initialised_from"] = initialised
    name = a.name or f"{game_name}-{game.num_players}p" + (
        "" if seat == "random" else f"-{game.player_names[int(seat)]}"
    )
    out_dir = Path(a.out_dir)
    prior = settings.get("prior") or None
    json_path = export_policy(
        weights["policy"],
        game,
        seats,
        name,
        out_dir,
        training,
        commit=_commit(),
        dtype=a.dtype,
        prior=prior if isinstance(prior, str) else None,
    )
    size = sum((out_dir / f"{name}{s}").stat().st_size for s in (".npz", ".json"))
    print(f"wrote {json_path} and {name}.npz ({size / 1e6:.2f} MB)")
    if a.eval_games > 0:
        _evaluate(json_path, a.eval_games, a.seed, a.workers)
    return 0


def _entry_spec(entry: Entry, prior_scale: float | None = None) -> str:
    """The agent spec that plays ``entry`` from its folder (at ``prior_scale`` if given)."""
    spec = f"pretrained:entry={entry.name},dir={entry.folder}"
    return spec if prior_scale is None else f"{spec},prior_scale={prior_scale!r}"


def _evaluate(json_path: Path, games: int, seed: int, workers: int = 1) -> None:
    entry = read_entry(json_path)
    spec = _entry_spec(entry)
    strength = measure(spec, entry.game, entry.config, entry.seats, games, seed, workers)
    meta = dict(entry.meta)
    meta["strength"] = strength
    write_meta(json_path, meta)
    _print_strength(entry.name, strength)


def _print_strength(name: str, strength: dict[str, Any]) -> None:
    for opp in [k for k in strength if k.startswith("vs ")]:
        cells = ", ".join(
            f"{seat} {v['rate']:.3f} [{v['low']:.3f}, {v['high']:.3f}]"
            for seat, v in strength[opp].items()
            if isinstance(v, dict)
        )
        print(f"{name} {opp}: {cells}")


def evaluate(a: argparse.Namespace) -> int:
    path = Path(a.out_dir) / f"{a.name}.json"
    if not path.is_file():
        raise PretrainedError(f"no entry {a.name!r} in {a.out_dir}")
    _evaluate(path, a.eval_games, a.seed, a.workers)
    return 0


def tune_scale(a: argparse.Namespace) -> int:
    path = Path(a.out_dir) / f"{a.name}.json"
    if not path.is_file():
        raise PretrainedError(f"no entry {a.name!r} in {a.out_dir}")
    entry = read_entry(path)
    if entry.prior is None:
        raise PretrainedError(f"{a.name} has no prior (not trained with --prior): no scale to tune")
    if a.write and a.seed in a.seeds:
        raise InvalidConfigError(
            f"--seed {a.seed} is a tuning seed: measure the chosen scale on other games"
        )
    tuning = entry.meta["training"].get("prior_scale_tuning", {})
    learned = float(tuning.get("learned", entry.prior[1]))
    rows = []
    for scale in sorted({learned, *a.scales}):
        spec = _entry_spec(entry, scale)
        cells = [
            measure(spec, entry.game, entry.config, entry.seats, a.eval_games, seed, a.workers,
                    opponents=["heuristic"])["vs heuristic"]["all"]
            for seed in a.seeds
        ]  # fmt: skip
        total = rate(sum(c["wins"] for c in cells), sum(c["games"] for c in cells))
        rows.append({"scale": scale, **total, "per_seed": [round(c["rate"], 4) for c in cells]})
        print(
            f"scale {scale:g}: {total['rate']:.3f} [{total['low']:.3f}, {total['high']:.3f}] "
            f"over {total['games']} games; per seed {rows[-1]['per_seed']}",
            flush=True,
        )
    best = max(rows, key=lambda r: r["rate"])
    print(f"best: scale {best['scale']:g} ({best['rate']:.3f}); learned {learned:g}")
    if not a.write:
        return 0
    meta = dict(entry.meta)
    arch = dict(meta["architecture"])
    arch["prior"] = {**arch["prior"], "scale": best["scale"]}
    meta["architecture"] = arch
    meta["training"] = {
        **meta["training"],
        "prior_scale_tuning": {
            "learned": learned,
            "chosen": best["scale"],
            "opponent": "heuristic",
            "seeds": list(a.seeds),
            "games_per_seed": a.eval_games,
            "table": rows,
            "command": "python lab/recipes/train_strong.py " + shlex.join(a.invocation),
            "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        },
    }
    # the strength at the new scale, measured before anything is written: an interrupted run
    # leaves the entry as it was; then scale, sweep and strength go in in one (atomic) write
    spec = _entry_spec(entry, best["scale"])
    meta["strength"] = measure(
        spec, entry.game, entry.config, entry.seats, a.report_games, a.seed, a.workers
    )
    write_meta(path, meta)
    print(f"wrote scale {best['scale']:g} into {path}")
    _print_strength(entry.name, meta["strength"])
    return 0


def number_list(text: str, kind: type = float) -> list:
    """An argparse type: comma-separated numbers."""
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be comma-separated numbers, got {text!r}") from None


def scale_list(text: str) -> list[float]:
    """An argparse type: comma-separated prior scales, each a finite number >= 0 (checked when
    parsed, before any scale is played)."""
    scales = number_list(text)
    bad = [x for x in scales if not math.isfinite(x) or x < 0]
    if bad or not scales:
        raise argparse.ArgumentTypeError(f"must be comma-separated numbers >= 0, got {text!r}")
    return scales


# ---------------------------------------------------------------------------- flags
WORKERS_HELP = "processes playing the strength games (the same games and figures for any number)"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="train_strong", description=__doc__.splitlines()[0] if __doc__ else ""
    )
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="BC/DAgger from a teacher, then PPO against a league")
    t.add_argument("--game", required=True)
    t.add_argument("-c", dest="config", action="append", default=[], metavar="KEY=VALUE")
    t.add_argument("--seat", default="random", help="learner seat (an int) or random (all seats)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", required=True, help="run folder (rerun the command to continue it)")
    t.add_argument(
        "--prior",
        default="",
        help="residual policy on top of this agent (heuristic): cloning and PPO learn where to "
        "depart from its moves",
    )
    t.add_argument("--prior-scale", type=float, default=3.0, help="initial prior logit bonus")
    t.add_argument(
        "--teacher",
        default="heuristic",
        help="agent spec to clone: heuristic, ismcts (the tuned preset at --teacher-iterations), "
        "or any other, e.g. solver (Castle Flutterstone's race solver)",
    )
    t.add_argument("--teacher-iterations", type=int, default=200, help="ISMCTS teacher budget")
    t.add_argument(
        "--init-from",
        default="",
        help="start from a pretrained entry (a shipped name or an entry's .json): its actor is "
        "copied, the critic starts new; no cloning (--bc-games defaults to 0)",
    )
    t.add_argument(
        "--value-warmup",
        type=int,
        default=0,
        help="first learner steps in which only the critic learns (with --init-from or --prior)",
    )
    t.add_argument("--bc-games", type=int, default=300, help="teacher games (0: no cloning)")
    t.add_argument("--bc-epochs", type=int, default=20)
    t.add_argument("--dagger-rounds", type=int, default=2)
    t.add_argument("--dagger-games", type=int, default=100)
    t.add_argument("--dagger-epochs", type=int, default=8)
    t.add_argument("--league", default="random,heuristic,self", help="opponent specs")
    t.add_argument("--league-weights", default="1,2,1")
    t.add_argument("--snapshot-every", type=int, default=50_000, help="steps between past selves")
    t.add_argument("--max-snapshots", type=int, default=5)
    t.add_argument("--lr", type=float, default=1e-4, help="PPO learning rate (gentle after BC)")
    t.add_argument("--clip-range", type=float, default=0.1)
    t.add_argument("--ent-coef", type=float, default=0.0)
    t.add_argument("--n-epochs", type=int, default=4)
    t.add_argument("--net", default="", help="hidden sizes, e.g. 256,256 (default: the game's)")
    t.add_argument("--timesteps", type=int, default=5_000_000)
    t.add_argument("--max-minutes", type=float, default=0.0, help="wall-time limit (0: none)")
    t.add_argument("--checkpoint-every", type=int, default=20_000)
    t.add_argument("--eval-every", type=int, default=50_000)
    t.add_argument("--eval-games", type=int, default=100, help="per opponent, seats rotated")
    t.add_argument("--eval-opponents", default="heuristic,random")
    t.add_argument("--progress", action=argparse.BooleanOptionalAction, default=False)
    e = sub.add_parser("export", help="a run's model into the package (weights + JSON)")
    e.add_argument("run_dir")
    e.add_argument("--game", default="", help="checked against the run's (default: the run's)")
    e.add_argument("--seat", default=None, help="seat the weights play (default: the run's)")
    e.add_argument("--name", default="", help="entry name (default: <game>-<n>p[-<seat>])")
    e.add_argument("--out-dir", default=str(PACKAGE_DIR))
    e.add_argument("--dtype", choices=("float16", "float32"), default="float16")
    e.add_argument(
        "--model",
        choices=("last", "best"),
        default="last",
        help="the run's last policy, or best/ (its best evaluation so far)",
    )
    e.add_argument(
        "--command",
        dest="commands",
        action="append",
        default=[],
        help="a command that made the run (repeatable; default: the run's commands.txt)",
    )
    e.add_argument("--machine", default="CPU", help="where it was trained (for the JSON)")
    e.add_argument("--eval-games", type=int, default=200, help="strength games (0: skip)")
    e.add_argument("--seed", type=int, default=2026)
    e.add_argument("--workers", type=positive_int, default=1, help=WORKERS_HELP)
    f = sub.add_parser("fork", help="a new run folder continuing a run from its best policy")
    f.add_argument("source", help="the run folder to continue (only read)")
    f.add_argument("dest", help="the new run folder")
    f.add_argument(
        "--model",
        choices=("best", "last"),
        default="best",
        help="its best-evaluated policy (best/) or its last checkpoint",
    )
    v = sub.add_parser("evaluate", help="measure a shipped entry again")
    v.add_argument("name")
    v.add_argument("--out-dir", default=str(PACKAGE_DIR))
    v.add_argument("--eval-games", type=int, default=400)
    v.add_argument("--seed", type=int, default=2026)
    v.add_argument("--workers", type=positive_int, default=1, help=WORKERS_HELP)
    s = sub.add_parser("tune-scale", help="a residual entry's prior bonus, measured and chosen")
    s.add_argument("name")
    s.add_argument("--out-dir", default=str(PACKAGE_DIR))
    s.add_argument("--scales", type=scale_list, required=True, help="e.g. 3.8,4.6,5.5")
    s.add_argument(
        "--seeds", type=lambda t: number_list(t, int), default=[11, 12, 13], help="tuning seeds"
    )
    s.add_argument("--eval-games", type=int, default=1000, help="games per scale and seed")
    s.add_argument("--write", action="store_true", help="write the best scale into the entry")
    s.add_argument("--seed", type=int, default=2026, help="seed of the strength measured after")
    s.add_argument("--report-games", type=int, default=1000, help="games of that measure")
    s.add_argument("--workers", type=positive_int, default=1, help=WORKERS_HELP)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    a = build_parser().parse_args(argv)
    a.invocation = [*argv, *(["--", *extra] if extra else [])]
    try:
        if a.command == "train":
            return train(a, extra)
        if a.command == "export":
            return export(a)
        if a.command == "fork":
            return fork(a)
        if a.command == "tune-scale":
            return tune_scale(a)
        return evaluate(a)
    except InvalidConfigError as e:
        print(f"train_strong: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
