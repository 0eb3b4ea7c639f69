"""The league's settings: :class:`LeagueArgs`, each game's defaults, and the command line.

Every knob of :mod:`boardgames_rl.training.league` is a documented field of :class:`LeagueArgs`
and a flag (the name with hyphens; ``--help`` lists each with its help text and default).
:func:`parse_league_args` reads the flags (a resumed league's saved settings under them), checks
every value and refuses a bad one in one line (exit 2). Agent specs (``--members``,
``--eval-opponents``) are stored without trust options and read back from a file as data. No
torch is needed here: a typo or ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardgames_rl.agents.registry import file_spec, spec_for_file, split_specs
from boardgames_rl.core.errors import GameError, InvalidConfigError
from boardgames_rl.core.options import parse_options
from boardgames_rl.envs.policy_obs import SAFE_PRIORS
from boardgames_rl.registry import game_spec
from boardgames_rl.training.settings import field_help, field_types

BACKENDS = ("local", "ray")
TRAINER = "league"
"""``config.json``'s ``trainer`` for a league run (``boardgames-rl train`` refuses one)."""


@dataclass
class LeagueArgs:
    """Every setting of a league run (``config.json`` holds them; ``resume`` excepted)."""

    game: str = ""
    """the game to train on (required)"""
    config: dict[str, Any] = field(default_factory=dict)
    """game option KEY=VALUE (flag -c, repeatable; true/false, numbers, a,b,c lists)"""
    seed: int = 0
    """seed of the networks, the games, the draws and the evaluation"""
    out: str = ""
    """the run folder (default runs/league_<game>_s<seed>)"""
    resume: bool = False
    """continue the league in --out (a finished one for --timesteps more)"""
    timesteps: int = 1_000_000
    """main learner steps to train (with --resume: more steps)"""
    max_minutes: float = 0.0
    """stop, saved and resumable, after this wall time (0: no limit)"""
    backend: str = "local"
    """where rollouts run: local (this process or --num-workers processes) or ray"""
    num_workers: int = 0
    """rollout processes (local) or Ray actors (ray; 0: one per CPU of the cluster)"""
    address: str = ""
    """Ray cluster to join (host:port of `ray start --head`, or auto; empty: a local Ray)"""
    games_per_iteration: int = 64
    """games the main learner plays per iteration (one PPO update on all of them)"""
    games_per_task: int = 8
    """games per rollout task (played side by side; the unit a worker gets)"""
    members: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """fixed league members: agent specs (random, heuristic, ismcts:iterations=50, ...)"""
    latest_weight: float = 0.2
    """probability an opponent seat is the learner's current weights (self-play)"""
    seats: list[int] = field(default_factory=list)
    """the main learner's seats, one drawn per game and evaluated in turn (empty: every seat)"""
    pfsp_power: float = 2.0
    """PFSP weighting (1 - score) ** power over the members (0: uniform)"""
    window: int = 200
    """games per member its score is the mean of"""
    freeze_score: float = 0.6
    """freeze a snapshot once the learner's score against the pool reaches this"""
    min_games: int = 40
    """games every member needs before the pool score counts"""
    freeze_every: int = 200_000
    """learner steps after which a snapshot is frozen anyway"""
    freeze_min_steps: int = 20_000
    """learner steps at least between two snapshots"""
    max_snapshots: int = 20
    """snapshots kept (beyond: the one the learner beats most goes; 0: none is frozen, the fixed
    members are the whole population: a best response to them)"""
    exploiters: int = 0
    """exploiters: learners trained against the main learner alone, frozen into its league"""
    exploiter_freeze_score: float = 0.7
    """freeze (and restart) an exploiter once its score against the main learner reaches this"""
    exploiter_every: int = 200_000
    """exploiter steps after which it is frozen (and restarted) anyway"""
    update_epochs: int = 4
    """passes over each iteration's steps"""
    batch_size: int = 512
    """minibatch size"""
    learning_rate: float = 3e-4
    """Adam's learning rate"""
    gamma: float = 0.999
    """discount factor"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_coef: float = 0.2
    """policy ratio clip"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient norm clip"""
    net: list[int] = field(default_factory=lambda: [256, 256])
    """hidden layer sizes of the actor and of the critic"""
    prior: str = ""
    """a residual policy on this agent's moves (heuristic, random, or solver where the game has
    one; empty: none)"""
    init_from: str = ""
    """start the main learner's actor from this pretrained entry (a shipped name or an entry's
    .json): the run's game, --net and --prior; its configuration may be another variant whose
    sizes fit (a new start only)"""
    prior_scale: float = 3.0
    """initial weight of the prior's move in the logits (learned)"""
    eval_every: int = 100_000
    """learner steps between evaluations (0: only at the end)"""
    eval_games: int = 100
    """games per evaluation opponent, every seat in turn (0: no evaluation)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    """evaluation opponent specs (every other seat)"""
    checkpoint_every: int = 20_000
    """learner steps between checkpoints (0: at the end and on a signal only)"""
    threads: int = 1
    """torch threads of the updates (rollouts play on one thread each)"""


PER_GAME: dict[str, dict[str, Any]] = {
    "castle_flutterstone": {"config": {"num_players": 2}},
    "white_castle": {"config": {"num_players": 2}},
    "night_of_the_ninja": {"config": {"num_players": 5}},
}
"""Each game's defaults over :class:`LeagueArgs`' (its default player count)."""
LIST_ITEM = {"net": int, "members": str, "eval_opponents": str, "seats": int}
SPEC_FIELDS = ("members", "eval_opponents")
"""Fields that hold agent specs: stored without trust options, read back as data."""


def defaults_for(game: str) -> dict[str, Any]:
    """:class:`LeagueArgs`' defaults with ``game``'s own over them."""
    base = {f.name: getattr(LeagueArgs(), f.name) for f in dataclasses.fields(LeagueArgs)}
    return {**base, **PER_GAME.get(game, {})}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="boardgames-rl league",
        allow_abbrev=False,
        description="Train a masked PPO learner by league self-play "
        "(boardgames_rl.training.league).",
        epilog="Per-game defaults: "
        + "; ".join(
            f"{g}: {', '.join(f'{k}={v}' for k, v in d.items())}" for g, d in PER_GAME.items()
        ),
    )
    types, docs, base = field_types(LeagueArgs), field_help(LeagueArgs), defaults_for("")
    for f in dataclasses.fields(LeagueArgs):
        flag = "--" + f.name.replace("_", "-")
        value = base[f.name]
        shown = ",".join(map(str, value)) if isinstance(value, list) else value
        text = docs[f.name]
        if f.name not in ("game", "out", "resume", "config"):
            text += f" (default: {shown})"
        if f.name == "config":
            p.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE",
                           help=text)  # fmt: skip
        elif types[f.name] is bool:
            p.add_argument(flag, action="store_true", help=text)
        elif f.name in LIST_ITEM:
            p.add_argument(flag, default=None, metavar="A,B,...", help=text)
        elif f.name == "backend":
            p.add_argument(flag, default=None, choices=BACKENDS, help=text)
        else:
            p.add_argument(flag, type=types[f.name], default=None, help=text)
    return p


def _list(text: str, item: type, name: str) -> list[Any]:
    if name in SPEC_FIELDS:  # a spec's options are comma-separated too
        return split_specs(text)
    parts = [s.strip() for s in text.split(",")]
    flag = name.replace("_", "-")
    if "" in parts:
        raise InvalidConfigError(f"--{flag}: an empty item in {text!r}; give A,B,...")
    try:
        return [item(s) for s in parts]
    except ValueError:
        raise InvalidConfigError(f"--{flag}: {text!r} is not a list of {item.__name__}") from None


def parse_league_args(argv: list[str] | None = None) -> LeagueArgs:
    """:class:`LeagueArgs` from the command line (a resumed league: the saved settings, flags
    over them).

    Raises:
        SystemExit: 2 with one line for a bad flag.
    """
    parser = build_parser()
    ns = parser.parse_args(argv)
    given = {k: v for k, v in vars(ns).items() if v is not None and v is not False and v != []}
    try:
        if "config" in given:
            given["config"] = parse_options(given["config"], "-c")
        for name, item in LIST_ITEM.items():
            if name in given:
                given[name] = _list(given[name], item, name)
        values = saved_for_resume(given) if ns.resume else {}
        game = given.get("game") or values.get("game", "")
        if not game:
            raise InvalidConfigError("--game is required (e.g. --game white_castle)")
        defaults = defaults_for(game)
        config = {
            **defaults.get("config", {}),
            **values.get("config", {}),
            **given.get("config", {}),
        }
        args = LeagueArgs(**{**defaults, **values, **given, "config": config})
        check(args)
    except (InvalidConfigError, GameError) as e:
        parser.exit(2, f"{parser.prog}: error: {e}\n")
    return args


def saved_for_resume(given: dict[str, Any]) -> dict[str, Any]:
    """A resumed league's saved settings (the flags given go over them)."""
    from boardgames_rl.training.runs import read_config

    if not given.get("out"):
        raise InvalidConfigError("--resume needs --out (the league's run folder)")
    out = Path(given["out"])
    saved = read_config(out)
    fix = "restore the file, or start a new league with another --out"
    if saved.get("trainer") != TRAINER:
        raise InvalidConfigError(
            f"{out} is not a league run (config.json trainer {saved.get('trainer')!r:.30}); "
            "continue a PPO run with boardgames-rl train --resume"
        )
    settings = saved.get("settings")
    if not isinstance(settings, dict):
        raise InvalidConfigError(f"{out / 'config.json'}: settings must be a JSON object; {fix}")
    fields = {f.name for f in dataclasses.fields(LeagueArgs)} - {"resume", "timesteps", "out"}
    values = {k: v for k, v in settings.items() if k in fields}
    for name in SPEC_FIELDS:  # data: a trust option in the file is refused, never honoured
        if name in values and name not in given:
            specs = values[name]
            if not isinstance(specs, list) or not all(isinstance(x, str) for x in specs):
                raise InvalidConfigError(
                    f"{out / 'config.json'}: settings.{name} must be a list of agent specs, got "
                    f"{specs!r:.60}; {fix}"
                )
            source = f"{out / 'config.json'}: settings.{name}"
            values[name] = [file_spec(x, source) for x in split_specs(",".join(specs))]
    return values


def check(args: LeagueArgs) -> None:
    """Refuse a value that is not what it should be, in one line."""
    types = field_types(LeagueArgs)
    for f in dataclasses.fields(LeagueArgs):
        value, kind = getattr(args, f.name), types[f.name]
        ok = {
            int: isinstance(value, int) and not isinstance(value, bool),
            float: isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value),
            bool: isinstance(value, bool),
            str: isinstance(value, str),
        }.get(kind, True)
        if f.name in LIST_ITEM:
            ok = isinstance(value, list) and all(isinstance(v, LIST_ITEM[f.name]) for v in value)
        if f.name == "config":
            ok = isinstance(value, dict)
        if not ok:
            raise InvalidConfigError(
                f"--{f.name.replace('_', '-')} must be {getattr(kind, '__name__', kind)}, "
                f"got {value!r:.60}"
            )

    def at_least(names: tuple[str, ...], low: int) -> None:
        for name in names:
            if getattr(args, name) < low:
                raise InvalidConfigError(
                    f"--{name.replace('_', '-')} must be >= {low}, got {getattr(args, name)}"
                )

    at_least(
        ("games_per_iteration", "games_per_task", "update_epochs", "batch_size", "threads",
         "window", "freeze_every", "exploiter_every"),
        1,
    )  # fmt: skip
    at_least(
        ("seed", "timesteps", "num_workers", "min_games", "freeze_min_steps", "max_snapshots",
         "exploiters", "eval_every", "eval_games", "checkpoint_every", "max_minutes"),
        0,
    )  # fmt: skip
    for name in ("learning_rate", "clip_coef", "max_grad_norm"):
        if not getattr(args, name) > 0:
            raise InvalidConfigError(
                f"--{name.replace('_', '-')} must be > 0, got {getattr(args, name)}"
            )
    for name in ("gamma", "gae_lambda"):
        if not 0 <= getattr(args, name) <= 1:
            raise InvalidConfigError(
                f"--{name.replace('_', '-')} must be in [0, 1], got {getattr(args, name)}"
            )
    for name in ("freeze_score", "exploiter_freeze_score"):
        if not 0 < getattr(args, name) <= 1:
            raise InvalidConfigError(
                f"--{name.replace('_', '-')} must be in (0, 1], got {getattr(args, name)}"
            )
    if not 0 <= args.latest_weight < 1:
        raise InvalidConfigError(f"--latest-weight must be in [0, 1), got {args.latest_weight}")
    if args.pfsp_power < 0:
        raise InvalidConfigError(f"--pfsp-power must be >= 0, got {args.pfsp_power}")
    if not args.net or min(args.net) < 1:
        raise InvalidConfigError(f"--net must be layer sizes >= 1, got {args.net}")
    if len(set(args.seats)) != len(args.seats) or any(s < 0 for s in args.seats):
        raise InvalidConfigError(f"--seats must be distinct seat indices >= 0, got {args.seats}")
    if args.seats and args.exploiters:
        raise InvalidConfigError(
            "--seats with --exploiters: an exploiter's games put the main learner in any seat; "
            "give one of them"
        )
    if len(set(args.members)) != len(args.members):
        raise InvalidConfigError(f"--members must be distinct, got {args.members}")
    if not args.members and args.latest_weight == 0:
        raise InvalidConfigError(
            "the league needs a fixed member (--members) or self-play (--latest-weight > 0)"
        )
    if args.prior not in ("", *SAFE_PRIORS):
        raise InvalidConfigError(
            f"--prior must be one of {', '.join(SAFE_PRIORS)} (or empty), got {args.prior!r}"
        )
    if args.prior.startswith("solver") and "solver" not in game_spec(args.game).agents:
        raise InvalidConfigError(
            f"--prior {args.prior}: game {args.game!r} declares no 'solver' agent (Castle "
            "Flutterstone does); use --prior heuristic or random"
        )
    if args.backend not in BACKENDS:
        raise InvalidConfigError(f"--backend must be one of {BACKENDS}, got {args.backend!r}")
    if args.address and args.backend != "ray":
        raise InvalidConfigError("--address is for --backend ray (a Ray cluster's head)")
    if not args.out:
        args.out = f"runs/league_{args.game}_s{args.seed}"


def saved_league_args(args: LeagueArgs) -> dict[str, Any]:
    """The settings ``config.json`` holds: every field but ``resume``, agent specs without their
    trust options (an opt-in is the person's, for one invocation, never the file's)."""
    saved = {k: v for k, v in dataclasses.asdict(args).items() if k != "resume"}
    for name in SPEC_FIELDS:
        saved[name] = [spec_for_file(x) for x in saved[name]]
    return saved
