"""The training arguments: one typed dataclass, :class:`TrainArgs` (CleanRL style).

Each knob of ``train_ppo`` is defined once, as a field: a type, a default and a help text
(``field(metadata={"help": ...})``). The command-line parser is built from the fields (a flag
cannot exist without one), :mod:`lab.recipes.sb3.defaults` puts per-game values on top
of the field defaults, and explicit flags win over both. On ``--resume`` (or rerunning an
interrupted run) the run's saved ``config.json`` gives the defaults instead.

``config.json`` is data: :func:`check_saved` checks the type of every value it holds when it is
read (one line naming the field and the file), and an agent spec taken from it (the opponents,
the evaluation opponents, the teacher, the prior) goes through
:func:`~boardgames_rl.agents.registry.file_spec`, so the file cannot opt in to unpickling a model
(``trust=1``): only a spec given again on the command line carries the person's opt-in. The
writer stores specs without it (:func:`settings_for_file`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import re
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from boardgames_rl.agents.registry import file_spec, spec_for_file, split_specs
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import UnsafeFileError, loads_json, read_text
from boardgames_rl.core.options import parse_options
from boardgames_rl.envs.policy_obs import SAFE_PRIORS
from boardgames_rl.registry import list_games
from lab.recipes.sb3.defaults import PER_GAME
from lab.recipes.sb3.shaping import SHAPING_KINDS


def _arg(default: Any = None, help: str = "", **extra: Any) -> Any:
    """A field with its help text; ``extra`` goes to argparse (``choices``, ``metavar``,
    ``flags`` for extra option strings, ``action``) but ``flag`` (False: not a flag),
    ``tty`` (the flag's default: whether stderr is a terminal) and ``shown_default`` (the default as
    ``--help`` names it, when the value is worked out later)."""
    meta = {"help": help, **extra}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class TrainArgs:
    """Every setting of a training run (``config.json`` holds them minus :data:`NOT_SAVED`)."""

    game: str = _arg("", "the game to train on", shown_default="none, required")
    config: dict[str, Any] = _arg(
        {},
        "game option KEY=VALUE, repeatable, parsed like every command's -c (true/false, "
        "numbers, a,b,c lists)",
        flags=("-c",),
        metavar="KEY=VALUE",
    )
    seat: str = _arg("random", "learner seat: an int, or 'random'")
    timesteps: int = _arg(300_000, "learner steps to train")
    max_minutes: float = _arg(0.0, "stop after this wall time (0: no limit), whichever comes first")
    seed: int = _arg(0, "seed of the model, the games and the evaluation")
    out: str = _arg("", "run folder", shown_default="runs/ppo_<game>_s<seed>")
    resume: bool = _arg(
        False,
        "continue the run in --out: an interrupted run to its target, a finished one for "
        "--timesteps more (rerunning an interrupted command also resumes)",
        action="store_true",
    )
    checkpoint_every: int = _arg(
        10_000,
        "checkpoint every N learner steps (rounded up to whole rollouts of n_steps x n_envs; "
        "0: only at the end and on SIGINT/SIGTERM)",
    )
    trust_model_file: bool = _arg(
        False,
        "let --resume unpickle the run's model.zip (only for a file you trust; by default "
        "model files are read without running any code)",
        action="store_true",
    )
    vec: Literal["batched", "dummy", "subproc"] = _arg(
        "batched",
        "vectorised env kind: batched (boardgames_rl.envs.batched_sb3.BatchedVecEnv, shared-memory "
        "workers with --vec-workers), or SB3's dummy / subproc of one gym env each",
        choices=("batched", "dummy", "subproc"),
    )
    vec_workers: int = _arg(
        0, "workers of --vec batched (0: in-process; same results with any count)"
    )
    vec_main_steps: bool = _arg(
        True,
        "with --vec-workers K >= 2, this process is one of the K workers: it steps a chunk of the "
        "envs itself and K - 1 processes are started (off: K processes; same results)",
    )
    device: str = _arg("cpu", "torch device")
    threads: int = _arg(1, "torch threads")
    progress: bool = _arg(
        True, "show progress bars", shown_default="on when stderr is a terminal", tty=True
    )
    eval_deterministic: bool = _arg(
        True, "evaluate the most probable action (else draw from the policy)"
    )
    verbose: int = _arg(0, "SB3 verbosity (0, 1, 2)")
    shaping: str = _arg(
        "none",
        "training reward shaping (potential-based; evaluation ignores it)",
        choices=SHAPING_KINDS,
    )
    n_steps: int = _arg(512, "PPO rollout length per env")
    batch_size: int = _arg(256, "PPO minibatch size")
    n_epochs: int = _arg(5, "PPO epochs per update")
    lr: float = _arg(3e-4, "PPO learning rate")
    ent_coef: float = _arg(
        0.01,
        "PPO entropy coefficient (negative: an entropy penalty, sharpening the policy towards "
        "the moves a deterministic agent plays)",
    )
    vf_coef: float = _arg(0.5, "PPO value-loss coefficient")
    clip_range: float = _arg(0.2, "PPO clip range")
    gamma: float = _arg(0.999, "discount factor")
    gae_lambda: float = _arg(0.95, "GAE lambda")
    max_grad_norm: float = _arg(0.5, "gradient clipping norm")
    n_envs: int = _arg(4, "parallel envs")
    snapshot_every: int = _arg(50_000, "learner steps between self-play snapshots")
    max_snapshots: int = _arg(5, "self-play snapshots kept in the opponent pool")
    eval_every: int = _arg(50_000, "learner steps between evaluations (0: only at the end)")
    eval_games: int = _arg(50, "games per evaluation opponent")
    shaping_scale: float = _arg(1.0, "scale of the shaping reward")
    bc_games: int = _arg(0, "behaviour-cloning warm start: teacher games (0: off)")
    bc_epochs: int = _arg(10, "behaviour-cloning epochs")
    bc_lr: float = _arg(1e-3, "behaviour-cloning learning rate")
    bc_batch_size: int = _arg(256, "behaviour-cloning minibatch size")
    bc_value_coef: float = _arg(0.5, "behaviour-cloning value-loss coefficient")
    bc_dagger_rounds: int = _arg(0, "DAgger rounds after cloning")
    bc_dagger_games: int = _arg(100, "games per DAgger round")
    bc_dagger_epochs: int = _arg(8, "epochs per DAgger round")
    bc_teacher: str = _arg(
        "heuristic", "agent spec of the behaviour-cloning teacher (used when --bc-games > 0)"
    )
    bc_data: str = _arg(
        "",
        "behaviour cloning from saved demonstrations (folders from "
        "lab/experiments/collect_demos.py, comma-separated) instead of --bc-games (no DAgger "
        "rounds: the folders are the data); with --init-from it trains the entry further",
    )
    net: list[int] = _arg([128, 128], "hidden layer sizes, comma-separated")
    prior: str = _arg(
        "",
        "residual policy on top of this agent spec (e.g. heuristic): the observation ends with "
        "the one-hot of its move and the logits add a learned scale times it ('': plain MLP)",
    )
    prior_scale: float = _arg(3.0, "initial scale of the prior's logit bonus (with --prior)")
    value_warmup: int = _arg(
        0, "learner steps at the start during which only the value function learns (0: none)"
    )
    init_from: str = _arg(
        "",
        "start the policy from a pretrained entry: a shipped name (castle_nightingale-2p) or an "
        "entry's .json path; its actor is copied, the critic starts new (see --value-warmup)",
    )
    opponents: list[str] = _arg(
        ["random", "heuristic", "self"],
        "opponent agent specs, comma-separated (ismcts:iterations=50,rollout=random; self: "
        "frozen snapshots of the learner)",
    )
    opponent_weights: list[float] = _arg([2.0, 1.0, 1.0], "opponent draw weights, comma-separated")
    eval_opponents: list[str] = _arg(
        ["random", "heuristic"], "evaluation opponent specs, comma-separated"
    )

    interrupted: bool = _arg(
        False, "set by parse_args: the run folder holds an interrupted run", flag=False
    )
    """Not a flag (``flag=False``) and not saved."""


NOT_SAVED = ("resume", "progress", "max_minutes", "interrupted", "trust_model_file")
"""Flags of one invocation, not settings of the run."""
RESUME_KEPT = (
    "seat",
    "seed",
    "vec",
    "device",
    "threads",
    "eval_deterministic",
    "checkpoint_every",
    "init_from",
    "bc_data",
)
"""Run flags whose saved value is the default of a resumed run (besides the per-game ones)."""
HYPER = (
    "net",
    "prior",
    "prior_scale",
    "value_warmup",
    "n_steps",
    "batch_size",
    "n_epochs",
    "lr",
    "ent_coef",
    "vf_coef",
    "clip_range",
    "gamma",
    "gae_lambda",
    "max_grad_norm",
    "n_envs",
    "opponents",
    "opponent_weights",
    "snapshot_every",
    "max_snapshots",
    "eval_every",
    "eval_games",
    "eval_opponents",
    "shaping",
    "shaping_scale",
    "bc_games",
    "bc_teacher",
    "bc_epochs",
    "bc_lr",
    "bc_batch_size",
    "bc_value_coef",
    "bc_dagger_rounds",
    "bc_dagger_games",
    "bc_dagger_epochs",
)
"""Fields a game may give its own default (:mod:`lab.recipes.sb3.defaults`); a resumed
run takes them, and ``config``, from its saved settings."""
LIST_FIELDS = ("net", "opponents", "opponent_weights", "eval_opponents")
"""Comma-separated fields."""
SPEC_FIELDS = ("opponents", "eval_opponents", "bc_teacher", "prior")
"""Fields that hold agent specs: read back from ``config.json`` they are data
(:func:`~boardgames_rl.agents.registry.file_spec`), written without ``trust``."""
SAVED_EXTRA: dict[str, Any] = {
    "num_timesteps": int,
    "target_timesteps": int,
    "complete": bool,
    "wall_time": float,
    "bc_wall_time": float,
    "final_eval": list[dict[str, Any]],
}
"""What ``config.json`` holds besides the settings (and ``checkpoint``), with its type."""
CHECKPOINT_FILES = {
    "model": (
        re.compile(r"model\.zip|checkpoints/model-[0-9]{1,20}\.zip"),
        "model.zip or checkpoints/model-<steps>.zip",
    ),
    "pool": (re.compile(r"checkpoints/pool-[0-9]{1,20}\.pt"), "checkpoints/pool-<steps>.pt"),
}
"""The checkpoint's files as ``config.json`` names them (inside the run folder, nowhere else;
``checkpoints/model-<steps>.zip`` for a moment while a checkpoint is saved, and in runs of
earlier versions)."""


def field_types() -> dict[str, Any]:
    """Field name -> type (resolved annotations)."""
    hints = typing.get_type_hints(TrainArgs)
    return {f.name: hints[f.name] for f in dataclasses.fields(TrainArgs)}


def flag_fields() -> list[dataclasses.Field]:
    """The fields that are flags (all but ``interrupted``)."""
    return [f for f in dataclasses.fields(TrainArgs) if f.metadata.get("flag", True)]


def flag_name(name: str) -> str:
    return "--" + name.replace("_", "-")


def common_defaults() -> dict[str, Any]:
    """Each field's own default."""
    return dataclasses.asdict(TrainArgs())


def defaults_for(game: str) -> dict[str, Any]:
    """The default hyperparameters of ``game`` (the :data:`HYPER`
    fields' defaults overridden per game); the ``config`` entry is the default game
    configuration."""
    common = common_defaults()
    d: dict[str, Any] = {k: common[k] for k in HYPER}
    d["config"] = {}
    d.update(PER_GAME.get(game.replace("-", "_"), {}))
    return d


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "none"
    return str(value)


def default_text(name: str) -> str:
    """``"default: 512; castle_nightingale: 256"``: a field's default and each game's own."""
    base = common_defaults()[name]
    parts = [f"default: {_text(base)}"]
    for game, values in sorted(PER_GAME.items()):
        if name in values and values[name] != base:
            parts.append(f"{game}: {_text(values[name])}")
    return "; ".join(parts)


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (the full usage of every flag is ``--help``)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser(defaults: dict[str, Any] | None = None, explicit: bool = False) -> Parser:
    """One flag per :class:`TrainArgs` field; ``defaults`` (field name -> value, e.g. a game's
    from :func:`defaults_for`) replace the field defaults.
    ``explicit``: no defaults at all, so a parse holds only the flags given."""
    values = defaults_for("") if defaults is None else defaults
    types = field_types()
    p = Parser(prog="train_ppo", description="Train a masked PPO learner on one seat of a game.")
    for f in dataclasses.fields(TrainArgs):
        meta = dict(f.metadata)
        if not meta.pop("flag", True):
            continue
        help_text = meta.pop("help")
        flags = (*meta.pop("flags", ()), flag_name(f.name))
        if f.name == "game":
            help_text += f": one of {', '.join(list_games())}"
        shown = meta.pop("shown_default", None)
        kind = types[f.name]
        default = values.get(f.name, common_defaults()[f.name])
        if meta.pop("tty", False):
            default = sys.stderr.isatty()
        if f.name == "config":
            kw: dict[str, Any] = dict(action="append", default=[])
        elif kind is bool:
            kw = dict(default=default)
            kw.setdefault("action", argparse.BooleanOptionalAction)
        elif f.name in LIST_FIELDS:
            kw = dict(default=_text(default), metavar="A,B,...")
        elif kind in (int, float):
            kw = dict(type=kind, default=default)
        else:
            kw = dict(default=default)
        kw.update(meta)
        if explicit:
            kw["default"] = argparse.SUPPRESS
        help_text += f" (default: {shown})" if shown else f" ({default_text(f.name)})"
        p.add_argument(*flags, help=help_text.replace("%", "%%"), **kw)
    return p


def _run_state(out: Path | None) -> tuple[dict[str, Any], bool]:
    """``(saved config, interrupted)`` of a run folder: an interrupted run (``complete`` false with
    a checkpoint) is continued by the same command as by ``--resume``."""
    if out is None or not os.path.lexists(out / "config.json"):
        return {}, False
    saved = read_config(out)
    interrupted = saved.get("complete") is False and isinstance(saved.get("checkpoint"), dict)
    return saved, interrupted


def parse_args(argv: list[str] | None = None) -> TrainArgs:
    """Flags -> settings: per-game defaults (or the saved ones on ``--resume``) under the flags.
    Exits 2 on a bad flag (one line), 1 on an unreadable run folder."""
    argv = list(sys.argv[1:] if argv is None else argv)
    pre = Parser(add_help=False, prog="train_ppo")
    pre.add_argument("--game")
    pre.add_argument("--out")
    pre.add_argument("--resume", action="store_true")
    pre.add_argument("--seed", type=int, default=0)
    known, _ = pre.parse_known_args(argv)
    out = Path(known.out) if known.out is not None else None
    if out is not None and out.exists() and not out.is_dir():
        pre.exit(1, f"train_ppo: error: --out {known.out} is a file: give a folder for the run\n")
    try:
        saved, interrupted = _run_state(out)
    except InvalidConfigError as e:
        if known.resume or (out is not None and os.path.lexists(out / "model.zip")):
            pre.exit(1, f"train_ppo: error: {e}\n")
        saved, interrupted = {}, False  # no run there yet: a fresh run replaces the file
    if known.resume and not saved:
        pre.exit(
            2,
            "train_ppo: error: --resume needs --out <run folder> holding config.json and "
            f"model.zip (got --out {known.out!r})\n",
        )
    if not (known.resume or interrupted):
        saved = {}
    game_name = saved.get("game", known.game)
    defaults = defaults_for(game_name if isinstance(game_name, str) else "")
    defaults.update({k: v for k, v in saved.items() if k in defaults})
    parser = build_parser(defaults)
    if saved:
        parser.set_defaults(**{k: v for k, v in saved.items() if k in RESUME_KEPT})
    ns = parser.parse_args(argv)
    try:
        args = _finish_args(ns, defaults, saved, interrupted)
    except (InvalidConfigError, ValueError, TypeError, KeyError) as e:
        parser.error(str(e))
    if saved:
        # a spec taken from config.json is data (no trust=1); one given again here is the person's
        given = set(vars(build_parser(defaults, explicit=True).parse_args(argv)))
        try:
            for name in SPEC_FIELDS:
                if name not in given:
                    value = getattr(args, name)
                    for spec in value if isinstance(value, list) else [value] if value else []:
                        file_spec(spec, f"{(out or Path()) / 'config.json'}: {name}")
        except InvalidConfigError as e:
            pre.exit(1, f"train_ppo: error: {e}\n")
    return args


def _finish_args(
    ns: argparse.Namespace, defaults: dict[str, Any], saved: dict, interrupted: bool
) -> TrainArgs:
    resume = bool(ns.resume or interrupted)
    if saved:
        if not isinstance(saved.get("game"), str) or not isinstance(saved.get("config"), dict):
            raise InvalidConfigError(
                f"{ns.out}/config.json has no valid game and config: start a new run"
            )
        if ns.game not in ("", saved["game"]):
            raise InvalidConfigError(f"--resume: the run is {saved['game']}, not {ns.game}")
        if ns.config and (
            resume
            and not interrupted
            or {**defaults["config"], **parse_options(ns.config, "-c")} != saved["config"]
        ):
            raise InvalidConfigError("--resume keeps the run's game options: drop -c")
        game, config = saved["game"], saved["config"]
    elif not ns.game:
        raise InvalidConfigError(f"--game is required: one of {', '.join(list_games())}")
    else:
        game, config = ns.game, {**defaults["config"], **parse_options(ns.config, "-c")}
    game = game.replace("-", "_")
    if game not in list_games():
        raise InvalidConfigError(f"unknown game {game!r}: one of {', '.join(list_games())}")
    try:
        net = [int(x) for x in str(ns.net).split(",") if x.strip()]
        weights = [float(w) for w in str(ns.opponent_weights).split(",") if w.strip()]
    except ValueError as e:
        raise InvalidConfigError(
            f"--net and --opponent-weights take comma-separated numbers: {e}"
        ) from e
    values = {f.name: getattr(ns, f.name) for f in flag_fields()}
    values.update(
        game=game,
        config=config,
        resume=resume,
        net=net,
        opponent_weights=weights,
        opponents=split_specs(ns.opponents),
        eval_opponents=split_specs(ns.eval_opponents),
        interrupted=interrupted,
    )
    args = TrainArgs(**values)
    _check(args, saved)
    if not args.out:
        args.out = f"runs/ppo_{args.game}_s{args.seed}"
    return args


def _check(args: TrainArgs, saved: dict[str, Any]) -> None:
    """Range checks: an :class:`InvalidConfigError` naming the flag."""
    if any(n < 1 for n in args.net):
        raise InvalidConfigError(f"--net layer sizes must be >= 1, got {args.net}")
    if saved and args.net != saved.get("net"):
        raise InvalidConfigError(f"--resume keeps the network {saved.get('net')}: drop --net")
    if saved and args.init_from != saved.get("init_from", ""):
        raise InvalidConfigError(
            "--init-from only starts a run: the run in --out "
            + (f"started from {saved['init_from']}" if saved.get("init_from") else "exists")
            + "; drop --init-from or give a new --out"
        )
    if args.init_from and args.bc_games > 0:
        raise InvalidConfigError(
            "--init-from and --bc-games both set the starting policy: choose one "
            "(--bc-data fine-tunes the entry on saved demonstrations)"
        )
    if args.bc_data and args.bc_games > 0:
        raise InvalidConfigError(
            "--bc-data and --bc-games are two sources of demonstrations: choose one"
        )
    if args.timesteps < 1:
        raise InvalidConfigError(f"--timesteps must be >= 1, got {args.timesteps}")
    for name in ("lr", "clip_range", "max_grad_norm", "max_snapshots", "threads"):
        value = getattr(args, name)
        if not value > 0 or value == float("inf"):
            raise InvalidConfigError(f"{flag_name(name)} must be > 0, got {value}")
    if not math.isfinite(args.ent_coef):
        raise InvalidConfigError(f"--ent-coef must be a finite number, got {args.ent_coef}")
    for name in (
        "vf_coef",
        "snapshot_every",
        "eval_every",
        "eval_games",
        "checkpoint_every",
        "value_warmup",
        "max_minutes",
        "vec_workers",
    ):
        value = getattr(args, name)
        if not value >= 0 or value == float("inf"):
            raise InvalidConfigError(f"{flag_name(name)} must be >= 0, got {value}")
    if any(not w >= 0 or w == float("inf") for w in args.opponent_weights):
        raise InvalidConfigError(f"--opponent-weights must be >= 0, got {args.opponent_weights}")
    for name in ("n_steps", "batch_size", "n_epochs", "n_envs"):
        if getattr(args, name) < 1:
            raise InvalidConfigError(f"{flag_name(name)} must be >= 1")
    if not 0 < args.gamma <= 1 or not 0 <= args.gae_lambda <= 1:
        raise InvalidConfigError("--gamma must be in (0, 1] and --gae-lambda in [0, 1]")
    if not args.shaping_scale >= 0 or args.shaping_scale == float("inf"):
        raise InvalidConfigError(f"--shaping-scale must be >= 0, got {args.shaping_scale}")
    if args.prior and args.prior not in SAFE_PRIORS:
        raise InvalidConfigError(
            f"--prior must be one of {', '.join(SAFE_PRIORS)} (what a model file may name), "
            f"got {args.prior!r}"
        )
    if not args.prior_scale >= 0 or args.prior_scale == float("inf"):
        raise InvalidConfigError(f"--prior-scale must be >= 0, got {args.prior_scale}")
    if args.bc_games < 0:
        raise InvalidConfigError(f"--bc-games must be >= 0 (0: no warm start), got {args.bc_games}")
    if (args.bc_games > 0 or args.bc_data) and (
        min(args.bc_epochs, args.bc_batch_size, args.bc_dagger_games, args.bc_dagger_epochs) < 1
        or args.bc_dagger_rounds < 0
        or not args.bc_lr > 0
        or not args.bc_value_coef >= 0
    ):
        raise InvalidConfigError(
            "with --bc-games > 0: --bc-epochs, --bc-batch-size, --bc-dagger-games and "
            "--bc-dagger-epochs must be >= 1, --bc-dagger-rounds >= 0, --bc-lr > 0 and "
            "--bc-value-coef >= 0"
        )


def settings_for_file(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with every agent spec (:data:`SPEC_FIELDS`, the evaluation rows' opponents)
    as a file stores it: without ``trust`` (:func:`~boardgames_rl.agents.registry.spec_for_file`),
    so reading the file back never opts in on its own."""
    out = dict(settings)
    for name in SPEC_FIELDS:
        value = out.get(name)
        if isinstance(value, list):
            out[name] = [spec_for_file(v) if isinstance(v, str) else v for v in value]
        elif isinstance(value, str):
            out[name] = spec_for_file(value)
    rows = out.get("final_eval")
    if isinstance(rows, list):
        out["final_eval"] = [
            {**r, "opponent": spec_for_file(r["opponent"])}
            if isinstance(r, dict) and isinstance(r.get("opponent"), str)
            else r
            for r in rows
        ]
    return out


def saved_settings(args: TrainArgs) -> dict[str, Any]:
    """The run's settings as ``config.json`` keeps them (every field but :data:`NOT_SAVED`,
    specs without ``trust``)."""
    return settings_for_file(
        {k: v for k, v in dataclasses.asdict(args).items() if k not in NOT_SAVED}
    )


_KINDS = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
_PLURALS = {int: "integers", float: "numbers", str: "strings"}


def _fits(value: Any, kind: Any) -> bool:
    origin, inner = typing.get_origin(kind), typing.get_args(kind)
    if kind is Any:
        return True
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    if origin is Literal:
        return isinstance(value, str) and value in inner
    if origin is list:
        return isinstance(value, list) and all(_fits(v, inner[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(_fits(v, inner[1]) for v in value.values())
    return False  # pragma: no cover - every field type is one of the above


def _describe(kind: Any) -> str:
    origin, inner = typing.get_origin(kind), typing.get_args(kind)
    if origin is Literal:
        return "one of " + ", ".join(inner)
    if origin is list:
        return "a list of " + _PLURALS.get(inner[0], "JSON objects")
    if origin is dict:
        return "a JSON object"
    return _KINDS[kind]


MAX_CONFIG_BYTES = 16 * 2**20
"""Cap of a run's ``config.json`` read back."""


def read_config(out: Path) -> dict[str, Any]:
    """``out/config.json`` as a dict, every value of its type
    (:func:`check_saved`); a missing, damaged or wrong-typed file: a
    one-line :class:`InvalidConfigError`."""
    path = Path(out) / "config.json"
    fix = "the run cannot be resumed; restore the file or start a new run with another --out"
    try:
        text = read_text(path, MAX_CONFIG_BYTES, "run settings")
    except FileNotFoundError:
        raise InvalidConfigError(
            f"{out} holds no config.json: it is not a run folder; give the folder of a run"
        ) from None
    except UnsafeFileError as e:
        raise InvalidConfigError(f"{e}: {fix}") from e
    try:
        config = loads_json(text, str(path))
    except UnsafeFileError as e:
        why = str(e).removeprefix(f"{path}: ")
        raise InvalidConfigError(f"{path} is not readable JSON: {why}; {fix}") from e
    return check_saved(config, str(path))


def check_saved(config: Any, source: str) -> dict[str, Any]:
    """``config`` (a run's ``config.json``, ``source`` its path) when every value it holds has its
    type: each :class:`TrainArgs` field its field's type (and choices), the step counts
    non-negative integers, ``checkpoint`` its files inside the run folder.

    Raises:
        InvalidConfigError: one line naming the field and the file, saying what to do.
    """
    fix = "restore the file or start a new run with another --out"
    if not isinstance(config, dict):
        raise InvalidConfigError(f"{source} is not a JSON object: {fix}")
    kinds = {**field_types(), **SAVED_EXTRA}
    choices = {f.name: f.metadata.get("choices") for f in dataclasses.fields(TrainArgs)}
    for name, value in config.items():
        kind = kinds.get(name)
        if name == "checkpoint":
            _check_checkpoint(value, source, fix)
            continue
        if kind is None:
            continue  # a key of another version: not read
        if not _fits(value, kind):
            raise InvalidConfigError(
                f"{source}: {name} must be {_describe(kind)}, got {value!r:.60}: {fix}"
            )
        allowed = choices.get(name)
        if allowed and value not in allowed:
            raise InvalidConfigError(
                f"{source}: {name} must be one of {', '.join(allowed)}, got {value!r:.60}: {fix}"
            )
        if name in SAVED_EXTRA and kind in (int, float) and value < 0:
            raise InvalidConfigError(f"{source}: {name} must be >= 0, got {value!r:.60}: {fix}")
    return config


def _check_checkpoint(value: Any, source: str, fix: str) -> None:
    if not isinstance(value, dict):
        raise InvalidConfigError(f"{source}: checkpoint must be a JSON object: {fix}")
    for key, (pattern, shape) in CHECKPOINT_FILES.items():
        name = value.get(key)
        if not isinstance(name, str) or not pattern.fullmatch(name):
            raise InvalidConfigError(
                f"{source}: checkpoint.{key} must name the run's file {shape}, got "
                f"{name!r:.60}: {fix}"
            )
    logs = value.get("logs", {})
    if not isinstance(logs, dict) or not all(_fits(v, int) and v >= 0 for v in logs.values()):
        raise InvalidConfigError(
            f"{source}: checkpoint.logs must map each log to its size (an integer >= 0), "
            f"got {logs!r:.60}: {fix}"
        )
