"""The training script's settings: :class:`Args`, each game's defaults, and the command line.

Every setting of :mod:`boardgames_rl.training.ppo` is a documented field of :class:`Args` (the
string under a field is its ``--help`` text) and a flag (the name with hyphens); :data:`PER_GAME`
gives a game its own defaults. :func:`parse_args` reads the flags (a resumed run's saved settings
under them), checks every value and refuses a bad one in one line (exit 2); flags of the SB3
trainer of earlier versions are answered with their new name or with the lab recipe that keeps
them. Agent specs are stored without trust options and read back from a file as data. This module
needs no torch: a typo or ``--help`` answers at once.
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


@dataclass
class Args:
    """Every setting of a run (``config.json`` holds them; ``resume`` excepted)."""

    game: str = ""
    """the game to train on (required)"""
    config: dict[str, Any] = field(default_factory=dict)
    """game option KEY=VALUE (flag -c, repeatable; true/false, numbers, a,b,c lists)"""
    seat: str = "random"
    """the learner's seat: an int, or 'random' (drawn per game)"""
    seed: int = 0
    """seed of the network, the games and the evaluation"""
    out: str = ""
    """the run folder (default runs/ppo_<game>_s<seed>)"""
    resume: bool = False
    """continue the run in --out (a finished one for --timesteps more)"""
    timesteps: int = 300_000
    """learner steps to train (with --resume: more steps)"""
    max_minutes: float = 0.0
    """stop, saved and resumable, after this wall time (0: no limit)"""
    num_envs: int = 4
    """games played side by side"""
    num_workers: int = 0
    """worker processes stepping them (0: this process; same games with any count)"""
    num_steps: int = 512
    """steps per game per rollout"""
    batch_size: int = 256
    """minibatch size"""
    update_epochs: int = 5
    """passes over each rollout"""
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
    net: list[int] = field(default_factory=lambda: [128, 128])
    """hidden layer sizes of the actor and of the critic"""
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic", "self"])
    """opponent agent specs (self: frozen snapshots of the learner)"""
    opponent_weights: list[float] = field(default_factory=lambda: [2.0, 1.0, 1.0])
    """draw weight of each opponent"""
    snapshot_every: int = 50_000
    """learner steps between self-play snapshots"""
    max_snapshots: int = 5
    """self-play snapshots kept"""
    eval_every: int = 50_000
    """learner steps between evaluations (0: only at the end)"""
    eval_games: int = 50
    """games per evaluation opponent (0: no evaluation)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """evaluation opponent specs"""
    checkpoint_every: int = 10_000
    """learner steps between checkpoints (0: at the end and on a signal only)"""
    threads: int = 1
    """torch threads of the learner (the games run in num_workers processes)"""


PER_GAME: dict[str, dict[str, Any]] = {
    "castle_flutterstone": {"config": {"num_players": 2}},
    "castle_nightingale": {
        "net": [256, 256],
        "batch_size": 512,
        "opponents": ["random"],
        "opponent_weights": [1.0],
    },
    "white_castle": {"config": {"num_players": 2}, "net": [256, 256]},
    "night_of_the_ninja": {"config": {"num_players": 5}, "net": [256, 256]},
}
"""Each game's defaults over :class:`Args`' (the game's default table, wider nets for the wide
observations). Castle Nightingale's strong recipe (behaviour cloning of the heuristic, reward
shaping) is a lab recipe."""
# ---------------------------------------------------------------------------- the command line
RENAMED = {
    "--n-steps": "--num-steps",
    "--n-epochs": "--update-epochs",
    "--lr": "--learning-rate",
    "--clip-range": "--clip-coef",
    "--n-envs": "--num-envs",
    "--vec-workers": "--num-workers",
}
"""Flags of the SB3 trainer under their new names."""
IN_THE_LAB = (
    "--bc-",
    "--prior",
    "--init-from",
    "--shaping",
    "--value-warmup",
    "--vec",
    "--device",
    "--threads",
    "--trust-model-file",
    "--eval-deterministic",
    "--verbose",
)
"""Flags of the SB3 trainer that ``lab/recipes/train_sb3.py`` keeps."""
LIST_ITEM = {"net": int, "opponents": str, "opponent_weights": float, "eval_opponents": str}


def field_types(cls: type = Args) -> dict[str, Any]:
    """Each field's type of the dataclass ``cls`` (its annotations, resolved)."""
    return typing.get_type_hints(cls)


def field_help(cls: type = Args) -> dict[str, str]:
    """Each field's documentation (the string under it in the dataclass ``cls``)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for a, b in zip(body, body[1:], strict=False):
        named = isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
        if named and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant):
            docs[a.target.id] = str(b.value.value)
    return docs


def defaults_for(game: str) -> dict[str, Any]:
    """:class:`Args`' defaults with ``game``'s own over them."""
    base = {f.name: getattr(Args(), f.name) for f in dataclasses.fields(Args)}
    return {**base, **PER_GAME.get(game, {})}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> typing.NoReturn:
        for old, new in RENAMED.items():
            if old in message:
                message = f"{old} is now {new}"
        for prefix in IN_THE_LAB:
            if f"unrecognized arguments: {prefix}" in message:
                message = (
                    f"{message.split(': ', 1)[1].split()[0]} is a flag of the SB3 trainer, now "
                    "a lab recipe: python lab/recipes/train_sb3.py --help"
                )
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="boardgames-rl train",
        allow_abbrev=False,
        description="Train a masked PPO learner on one seat of a game "
        "(boardgames_rl.training.ppo).",
        epilog="Per-game defaults: "
        + "; ".join(
            f"{g}: {', '.join(f'{k}={v}' for k, v in d.items())}" for g, d in PER_GAME.items()
        ),
    )
    types, docs, base = field_types(), field_help(), defaults_for("")
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        kind = types[f.name]
        value = base[f.name]
        shown = ",".join(map(str, value)) if isinstance(value, list) else value
        if f.name not in ("game", "out", "resume", "config"):
            docs[f.name] += f" (default: {shown})"
        if f.name == "config":
            p.add_argument(
                "-c",
                "--config",
                action="append",
                default=[],
                metavar="KEY=VALUE",
                help=docs[f.name],
            )
        elif kind is bool:
            p.add_argument(flag, action="store_true", help=docs[f.name])
        elif f.name in LIST_ITEM:
            p.add_argument(flag, default=None, metavar="A,B,...", help=docs[f.name])
        else:
            p.add_argument(flag, type=kind, default=None, help=docs[f.name])
    return p


SPEC_FIELDS = ("opponents", "eval_opponents")
"""Fields that hold agent specs: stored without trust options, read back as data."""


def _list(text: str, item: type, flag: str) -> list[Any]:
    if flag.replace("-", "_") in SPEC_FIELDS:  # a spec's options are comma-separated too
        return split_specs(text)
    parts = [s.strip() for s in text.split(",")]
    if "" in parts:
        raise InvalidConfigError(f"--{flag}: an empty item in {text!r}; give A,B,...")
    try:
        return [item(s) for s in parts]
    except ValueError:
        raise InvalidConfigError(f"--{flag}: {text!r} is not a list of {item.__name__}") from None


def parse_args(argv: list[str] | None = None) -> Args:
    """:class:`Args` from the command line (a resumed run: the saved settings, flags over them).

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
                given[name] = _list(given[name], item, name.replace("_", "-"))
        values = _saved_for_resume(given) if ns.resume else {}
        game = given.get("game") or values.get("game", "")
        if not game:
            raise InvalidConfigError("--game is required (e.g. --game white_castle)")
        defaults = defaults_for(game)
        config = {
            **defaults.get("config", {}),
            **values.get("config", {}),
            **given.get("config", {}),
        }
        args = Args(**{**defaults, **values, **given, "config": config})
        check(args)
    except (InvalidConfigError, GameError) as e:
        parser.exit(2, f"{parser.prog}: error: {e}\n")
    return args


def _saved_for_resume(given: dict[str, Any]) -> dict[str, Any]:
    """A resumed run's saved settings (the flags given go over them)."""
    from boardgames_rl.training.runs import read_config, run_settings

    out = Path(given.get("out") or "")
    if not given.get("out"):
        raise InvalidConfigError("--resume needs --out (the run folder)")
    settings = run_settings(read_config(out), out)
    fields = {f.name for f in dataclasses.fields(Args)} - {"resume", "timesteps", "out"}
    values = {k: v for k, v in settings.items() if k in fields}
    for name in SPEC_FIELDS:  # data: a trust option in the file is refused, never honoured
        if name in values and name not in given:
            specs = values[name]
            if not isinstance(specs, list) or not all(isinstance(x, str) for x in specs):
                raise InvalidConfigError(
                    f"{out / 'config.json'}: settings.{name} must be a list of agent specs, got "
                    f"{specs!r:.60}; restore the file, or start a new run with another --out"
                )
            source = f"{out / 'config.json'}: settings.{name}"
            values[name] = [file_spec(x, source) for x in split_specs(",".join(specs))]
    return values


def check(args: Args) -> None:
    """Refuse a value that is not what it should be, in one line."""
    types = field_types()
    for f in dataclasses.fields(Args):
        value, kind = getattr(args, f.name), types[f.name]
        ok = {
            int: isinstance(value, int) and not isinstance(value, bool),
            float: isinstance(value, int | float) and not isinstance(value, bool),
            bool: isinstance(value, bool),
            str: isinstance(value, str),
        }.get(kind, True)
        if f.name in LIST_ITEM:
            ok = isinstance(value, list) and all(
                isinstance(v, LIST_ITEM[f.name] if LIST_ITEM[f.name] is not float else int | float)
                for v in value
            )
        if f.name == "config":
            ok = isinstance(value, dict)
        if not ok:
            raise InvalidConfigError(
                f"{f.name} must be {getattr(kind, '__name__', kind)}, got {value!r:.60}"
            )
    for f in dataclasses.fields(Args):
        value = getattr(args, f.name)
        values = value if f.name == "opponent_weights" else [value]
        if types[f.name] in (float, list[float]) and not all(map(math.isfinite, values)):
            raise InvalidConfigError(
                f"--{f.name.replace('_', '-')} must be a finite number, got {value!r:.60}"
            )
    if min(args.opponent_weights, default=0) < 0:
        raise InvalidConfigError(f"--opponent-weights must be >= 0, got {args.opponent_weights}")
    positive = ("num_envs", "num_steps", "batch_size", "update_epochs", "max_snapshots", "threads")
    for name in positive:
        if getattr(args, name) < 1:
            raise InvalidConfigError(
                f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}"
            )
    for name in (
        "seed",
        "timesteps",
        "num_workers",
        "snapshot_every",
        "eval_every",
        "eval_games",
        "checkpoint_every",
        "max_minutes",
    ):
        if getattr(args, name) < 0:
            raise InvalidConfigError(
                f"--{name.replace('_', '-')} must be >= 0, got {getattr(args, name)}"
            )
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
    if not args.net or min(args.net) < 1:
        raise InvalidConfigError(f"--net must be layer sizes >= 1, got {args.net}")
    if len(args.opponent_weights) != len(args.opponents):
        raise InvalidConfigError(
            f"give one --opponent-weights per opponent: {len(args.opponents)} opponents "
            f"{args.opponents}, {len(args.opponent_weights)} weights {args.opponent_weights}"
        )
    if not args.out:
        args.out = f"runs/ppo_{args.game}_s{args.seed}"


def saved_args(args: Args) -> dict[str, Any]:
    """The settings ``config.json`` holds: every field but ``resume``, agent specs without their
    trust options (an opt-in is the person's, for one invocation, never the file's)."""
    saved = {k: v for k, v in dataclasses.asdict(args).items() if k != "resume"}
    for name in SPEC_FIELDS:
        saved[name] = [spec_for_file(x) for x in saved[name]]
    return saved
