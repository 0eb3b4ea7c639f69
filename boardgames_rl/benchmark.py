"""Throughput benchmark: every game beside PettingZoo's connect_four_v3 and texas_holdem_v4.

For every game configuration, in one process and one run, three figures are measured:

* **engine** steps/s: ``State.apply`` with uniformly random legal actions taken from
  ``state.legal_action_mask()``, a new game when one ends, no observations;
* **AEC** steps/s: a :class:`~boardgames_rl.envs.aec.GameAECEnv` driven by the loop a user writes
  (``agent_iter`` / ``last`` / ``step``), counting ``step`` calls with a real (non-``None``) action;
* **vector** steps/s: a :class:`~boardgames_rl.envs.vector.VectorEnv` of ``--num-envs`` slots,
  counting slot-steps (``num_envs`` per ``step`` call).

Beside them the same AEC loop runs on PettingZoo's ``connect_four_v3`` and ``texas_holdem_v4``;
texas_holdem also gets an engine figure from rlcard's ``LimitHoldemGame`` (the engine under the
PettingZoo env). Every figure is also given as a ratio to the two PettingZoo AEC figures.

Every measurement uses ``time.perf_counter``, a warm-up on the same objects, and the same random
action selection: one ``Generator.random()`` draw ``u`` per decision, action = the
``floor(u * n_legal)``-th legal action of the mask (the vector column applies that rule to all
rows at once).

Run ``python -m boardgames_rl.benchmark --help``, ``boardgames-rl bench`` or
``python benchmarks/throughput.py``.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import platform
import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.options import parse_option_string
from boardgames_rl.core.seeding import next_game_seed, seed_stream
from boardgames_rl.envs import make_env
from boardgames_rl.envs.aec import GameAECEnv
from boardgames_rl.envs.vector import VectorEnv
from boardgames_rl.registry import game_spec, list_games, make_game

DEFAULT_OUT = Path("benchmarks/results/throughput.json")
"""Default JSON file, used when its folder exists (relative to the working directory)."""

NAMED_CONFIGS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "castle_flutterstone": (
        ("4p", {"num_players": 4}),
        ("4p+ghosts", {"num_players": 4, "pesky_ghosts": True}),
    ),
    "castle_nightingale": (("side B", {"side": "B"}),),
    "night_of_the_ninja": (
        ("4p", {"num_players": 4}),
        ("7p", {"num_players": 7}),
        ("11p", {"num_players": 11}),
    ),
    "white_castle": (("3p", {"num_players": 3}), ("4p", {"num_players": 4})),
}
"""Configurations measured beside each game's default (whose label is ``"default"``). Games not
listed here get their registry ``test_configs`` instead (at most :data:`MAX_FALLBACK_CONFIGS`)."""

MAX_FALLBACK_CONFIGS = 3

COLUMNS = ("engine", "aec", "vector")
BASELINES = ("connect_four_v3", "texas_holdem_v4")
REFERENCE_LABELS = {"connect_four_v3": "c4", "texas_holdem_v4": "hold"}
COLUMN_LABELS = {"engine": "eng", "aec": "AEC", "vector": "vec"}

RLCARD_ENGINE_NOTE = (
    "texas_holdem_v4 engine = rlcard LimitHoldemGame.step (the engine under the PettingZoo env); "
    "it also builds its raw per-player state dict each step and does not validate actions, "
    "and the loop builds a 4-entry mask from get_legal_actions() for the shared action picker"
)
NOT_MEASURED = {
    "connect_four_v3": {
        "engine": "its rules live inside the PettingZoo env: no separate engine",
        "vector": "PettingZoo ships no vectorised connect_four",
    },
    "texas_holdem_v4": {"vector": "neither PettingZoo nor rlcard ships a vectorised holdem"},
}
"""Baseline columns left empty (N/A), and why."""


# --------------------------------------------------------------------------- action selection
def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of one mask: the ``floor(u * n_legal)``-th legal action.

    The one selection rule of the benchmark, shared by every single-env measurement.
    """
    legal = np.flatnonzero(mask)
    k = int(rng.random() * legal.size)
    return int(legal[min(k, legal.size - 1)])


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """:func:`random_legal_action` applied to every row of ``masks`` ``[N, A]`` at once."""
    counts = masks.sum(axis=1)
    k = (rng.random(masks.shape[0]) * counts).astype(np.int64)
    np.minimum(k, counts - 1, out=k)
    return (np.cumsum(masks, axis=1) <= k[:, None]).sum(axis=1).astype(np.int64)


# --------------------------------------------------------------------------- measurement core
@dataclass
class Measurement:
    """One timed run.

    Attributes:
        steps: decisions applied (slot-steps for the vector column).
        seconds: measured wall time (``perf_counter``), warm-up excluded.
        games: games finished during the measured time.
        steps_per_s: ``steps / seconds``.
        note: what exactly was timed, when it needs saying.
    """

    steps: int
    seconds: float
    games: int
    steps_per_s: float
    note: str = ""


Loop = Callable[[float], tuple[int, int]]
"""``loop(deadline) -> (steps, games)``: run until ``perf_counter() >= deadline``."""


def _timed(loop: Loop, seconds: float, warmup: float, note: str = "") -> Measurement:
    """Warm ``loop`` up for ``warmup`` s, then time it for ``seconds`` s."""
    loop(time.perf_counter() + warmup)
    gc.collect()
    start = time.perf_counter()
    steps, games = loop(start + seconds)
    elapsed = time.perf_counter() - start
    return Measurement(steps, elapsed, games, steps / elapsed if elapsed > 0 else 0.0, note)


def _engine_loop(game: Game, seed: int, rng: np.random.Generator) -> Loop:
    """``State.apply`` with random legal actions, new game on terminal, no observations."""
    stream = seed_stream((seed, 1))
    holder = [game.new_state(next_game_seed(stream))]

    def loop(deadline: float) -> tuple[int, int]:
        steps = games = 0
        clock = time.perf_counter
        state = holder[0]
        while True:
            if state.is_terminal():
                state = game.new_state(next_game_seed(stream))
                games += 1
            state.apply(random_legal_action(state.legal_action_mask(), rng))
            steps += 1
            if clock() >= deadline:
                holder[0] = state
                return steps, games

    return loop


def _aec_loop(env: Any, seed: int, rng: np.random.Generator) -> Loop:
    """The PettingZoo loop a user writes, a new game (``reset()``) whenever one ends."""
    env.reset(seed=seed)
    first = [True]

    def loop(deadline: float) -> tuple[int, int]:
        steps = games = 0
        clock = time.perf_counter
        while True:
            if not first[0]:
                env.reset()
            first[0] = False
            for _agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    action = None
                else:
                    action = random_legal_action(obs["action_mask"], rng)
                    steps += 1
                env.step(action)
                if clock() >= deadline:
                    # the next call resumes with a new game: simple and the same for every env
                    return steps, games
            games += 1

    return loop


def _vector_loop(game: Game, num_envs: int, seed: int, rng: np.random.Generator) -> Loop:
    """``VectorEnv.step`` with a random legal action for every slot; counts slot-steps."""
    venv = VectorEnv(game, num_envs, seed=seed)
    holder = [venv.reset()]

    def loop(deadline: float) -> tuple[int, int]:
        steps = games = 0
        clock = time.perf_counter
        out = holder[0]
        while True:
            out = venv.step(random_legal_actions(out.action_mask, rng))
            steps += num_envs
            games += int(np.count_nonzero(out.terminated | out.truncated))
            if clock() >= deadline:
                holder[0] = out
                return steps, games

    return loop


def _rlcard_holdem_loop(seed: int, rng: np.random.Generator) -> Loop:
    """rlcard's ``LimitHoldemGame`` (the engine under ``texas_holdem_v4``) with random legal
    actions through the shared picker; new game on game over."""
    from rlcard.games.limitholdem.game import LimitHoldemGame

    actions = ("call", "raise", "fold", "check")  # rlcard's action ids, as in its env
    index = {a: i for i, a in enumerate(actions)}
    game = LimitHoldemGame(num_players=2)
    game.np_random = np.random.RandomState(seed)
    game.init_game()

    def loop(deadline: float) -> tuple[int, int]:
        steps = games = 0
        clock = time.perf_counter
        while True:
            mask = np.zeros(len(actions), dtype=bool)
            for a in game.get_legal_actions():
                mask[index[a]] = True
            game.step(actions[random_legal_action(mask, rng)])
            steps += 1
            if game.is_over():
                game.init_game()
                games += 1
            if clock() >= deadline:
                return steps, games

    return loop


# --------------------------------------------------------------------------- baselines
class _Unavailable:
    """A name of the missing ``pygame``: usable in annotations, raises ``ImportError`` if called."""

    def __init__(self, path: str):
        self._path = path

    def __getattr__(self, name: str) -> _Unavailable:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Unavailable(f"{self._path}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise ImportError(
            f"{self._path} needs pygame, which is not installed (PettingZoo's classic renderers "
            "use it): pip install pygame"
        )


class _MissingPygame(types.ModuleType):
    """Stand-in for ``pygame`` so PettingZoo's classic modules import without it.

    ``connect_four`` and ``texas_holdem`` import ``pygame`` at module level (and name it in
    annotations) but only use it to render, which the benchmark never does; calling anything of
    the stand-in raises ``ImportError``.
    """

    def __getattr__(self, name: str) -> _Unavailable:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Unavailable(f"pygame.{name}")


def import_baseline(name: str) -> types.ModuleType:
    """The module implementing PettingZoo's ``classic/<name>`` (with ``raw_env`` and ``env``).

    The module is found through PettingZoo's registry (``pettingzoo.spec``), so the deprecated
    ``pettingzoo.classic.<name>`` alias (and its ``DeprecationWarning``) is avoided. It imports
    even when pygame (used only to render) is missing: a stand-in is put in ``sys.modules`` for
    the duration of the import only, so a later ``import pygame`` elsewhere still fails normally.
    """
    import pettingzoo

    entry_point = pettingzoo.spec("aec", f"classic/{name}").entry_point
    if not isinstance(entry_point, str):
        raise TypeError(f"classic/{name}: unexpected entry point {entry_point!r}")
    module_name = entry_point.partition(":")[0]
    if importlib.util.find_spec("pygame") is not None:
        return importlib.import_module(module_name)
    stub = _MissingPygame("pygame")
    sys.modules["pygame"] = stub
    try:
        return importlib.import_module(module_name)
    finally:
        if sys.modules.get("pygame") is stub:
            del sys.modules["pygame"]


Job = tuple["Row", str, Callable[[np.random.Generator], Loop], str]
"""``(row, column, make_loop(rng), note)``: one measurement to run."""


def _baseline_jobs(rows: list[Row], notes: list[str], seed: int, wrapped: bool) -> list[Job]:
    """Rows and measurements of the PettingZoo baselines (``rows``/``notes`` are appended to)."""
    jobs: list[Job] = []
    for name in BASELINES:
        row = Row("baseline", name, "pettingzoo.classic", details={"num_players": 2})
        rows.append(row)
        try:
            module = import_baseline(name)
        except Exception as exc:  # e.g. rlcard missing: report it, keep the rest of the run
            row.errors["aec"] = f"cannot import PettingZoo's classic/{name}: {exc!r}"
            continue
        if name == "texas_holdem_v4":
            jobs.append(
                (row, "engine", lambda rng: _rlcard_holdem_loop(seed, rng), RLCARD_ENGINE_NOTE)
            )
            notes.append(RLCARD_ENGINE_NOTE)
        make_env = module.env if wrapped else module.raw_env
        label = f"{module.__name__}.{'env' if wrapped else 'raw_env'}()"
        jobs.append((row, "aec", lambda rng, f=make_env: _aec_loop(f(), seed, rng), label))
        row.details["not_measured"] = NOT_MEASURED[name]
        notes += [f"{name} {col}: N/A, {why}" for col, why in NOT_MEASURED[name].items()]
    return jobs


# --------------------------------------------------------------------------- what to measure
@dataclass
class Target:
    """One configured game to measure."""

    name: str
    label: str
    config: dict[str, Any]

    @property
    def title(self) -> str:
        return f"{self.name} [{self.label}]"


def _config_label(config: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"


def targets_for(spec: str) -> list[Target]:
    """Targets of one ``--games`` item.

    ``NAME`` gives the game's default configuration plus its named ones (:data:`NAMED_CONFIGS`,
    else up to :data:`MAX_FALLBACK_CONFIGS` registry ``test_configs``);
    ``NAME:key=value,key=value`` gives exactly that configuration.
    """
    name, colon, rest = spec.partition(":")
    entry = game_spec(name.strip())
    if colon:
        try:
            config = parse_option_string(rest, f"benchmark: game {spec!r}")
        except InvalidConfigError as e:
            raise SystemExit(str(e)) from e
        return [Target(entry.name, _config_label(config), config)]
    targets = [Target(entry.name, "default", {})]
    if entry.name in NAMED_CONFIGS:
        named = list(NAMED_CONFIGS[entry.name])
    else:
        named = [(_config_label(c), dict(c)) for c in entry.test_configs if c]
        named = named[:MAX_FALLBACK_CONFIGS]
    targets += [Target(entry.name, label, dict(config)) for label, config in named]
    return targets


# --------------------------------------------------------------------------- results
@dataclass
class Row:
    """One line of the result table (a game configuration or a PettingZoo baseline)."""

    kind: str  # "game" | "baseline"
    name: str
    label: str
    config: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    engine: Measurement | None = None
    aec: Measurement | None = None
    vector: Measurement | None = None
    ratios: dict[str, dict[str, float]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        if self.kind == "baseline":
            return f"pettingzoo {self.name}"
        return f"{self.name} [{self.label}]"

    def rate(self, column: str) -> float | None:
        m: Measurement | None = getattr(self, column)
        return None if m is None else m.steps_per_s


def _machine() -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "cpu_count": os.cpu_count(),
        "load_average_1_5_15_min": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "boardgames_rl": version("boardgames-rl"),
        "pettingzoo": version("pettingzoo"),
        "rlcard": version("rlcard"),
    }


def _add_ratios(rows: list[Row], references: dict[str, float]) -> None:
    for row in rows:
        for column in COLUMNS:
            rate = row.rate(column)
            if rate is None:
                continue
            row.ratios[column] = {
                f"vs_{ref}_aec": rate / value for ref, value in references.items() if value > 0
            }


def _fmt_rate(row: Row, column: str) -> str:
    if column in row.errors:
        return "error"
    value = row.rate(column)
    return "N/A" if value is None else f"{value:,.0f}"


def _fmt_ratio(row: Row, column: str, ref: str) -> str:
    value = row.ratios.get(column, {}).get(f"vs_{ref}_aec")
    return "-" if value is None else f"{value:.2f}x"


def format_table(rows: list[Row], settings: dict[str, Any], notes: Sequence[str]) -> str:
    """The fixed-width result table (steps/s and ratios to the PettingZoo AEC figures)."""
    refs = [r for r in BASELINES if any(row.name == r and row.aec for row in rows)]
    headers = ["game [config]", "engine/s", "AEC/s", "vector/s"]
    ratio_cols = [(c, r) for c in COLUMNS for r in refs]
    headers += [f"{COLUMN_LABELS[c]}/{REFERENCE_LABELS[r]}" for c, r in ratio_cols]
    lines_data = []
    for row in rows:
        cells = [row.title] + [_fmt_rate(row, c) for c in COLUMNS]
        cells += [_fmt_ratio(row, c, r) for c, r in ratio_cols]
        lines_data.append(cells)
    widths = [
        max([len(h)] + [len(cells[i]) for cells in lines_data]) for i, h in enumerate(headers)
    ]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)])

    out = [
        f"Throughput in steps/s ({settings['seconds']:g} s per measurement after "
        f"{settings['warmup_seconds']:g} s warm-up; vector = {settings['num_envs']} envs, "
        f"slot-steps; seed {settings['seed']})",
        line(headers),
        line(["-" * w for w in widths]),
    ]
    previous_kind = rows[0].kind if rows else ""
    for row, cells in zip(rows, lines_data, strict=True):
        if row.kind != previous_kind:  # a rule between the games and the baselines
            out.append(line(["-" * w for w in widths]))
            previous_kind = row.kind
        out.append(line(cells))
    if refs:
        out.append(
            "ratios: X/ref = this row's X steps/s / the ref's AEC steps/s ("
            + ", ".join(f"{REFERENCE_LABELS[r]} = {r}" for r in refs)
            + "); > 1x means faster than that PettingZoo env"
        )
    out += [f"note: {n}" for n in notes]
    out += [f"error: {row.title} {c}: {e}" for row in rows for c, e in row.errors.items()]
    return "\n".join(out)


def _row_json(row: Row) -> dict[str, Any]:
    d: dict[str, Any] = {
        "kind": row.kind,
        "name": row.name,
        "label": row.label,
        "config": row.config,
        **row.details,
    }
    for column in COLUMNS:
        m: Measurement | None = getattr(row, column)
        d[column] = None if m is None else asdict(m)
    d["ratios"] = row.ratios
    if row.errors:
        d["errors"] = row.errors
    return d


# --------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardgames-rl bench",
        description="Throughput (steps/s) of every game's engine, AEC env and VectorEnv, beside "
        "PettingZoo's connect_four_v3 and texas_holdem_v4 AEC envs, in one run.",
    )
    parser.add_argument(
        "--games",
        nargs="*",
        metavar="NAME[:k=v,...]",
        help="games to measure: NAME (default + named configs) or NAME:key=value,... "
        "(exactly that config). Default: every registered game.",
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (s)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="warm-up before each measurement (s); default 10%% of --seconds, at least 0.05",
    )
    parser.add_argument("--num-envs", type=int, default=64, help="slots of the VectorEnv")
    parser.add_argument("--seed", type=int, default=0, help="seed of games and action choices")
    parser.add_argument(
        "--out",
        default=None,
        help=f"JSON result file (default {DEFAULT_OUT} if that folder exists; '' for none)",
    )
    parser.add_argument(
        "--no-baselines", action="store_true", help="skip the PettingZoo/rlcard baselines"
    )
    parser.add_argument(
        "--wrapped",
        action="store_true",
        help="AEC column with the wrapped envs users get from pettingzoo.make / env() "
        "(default: unwrapped GameAECEnv and PettingZoo raw_env())",
    )
    parser.add_argument("--no-progress", action="store_true", help="no tqdm progress bar")
    return parser


def _resolve_out(out: str | None) -> Path | None:
    if out is None:
        return DEFAULT_OUT if DEFAULT_OUT.parent.is_dir() else None
    return Path(out) if out else None


def main(argv: Sequence[str | os.PathLike[str]] | None = None) -> int:
    """Run the benchmark, print the table, write the JSON.

    Returns 0, or 1 when a measurement failed (its error is printed and saved; the other
    figures are still reported).
    """
    from tqdm import tqdm

    started = datetime.now(timezone.utc)
    machine = _machine()

    if argv is not None:
        argv = [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in argv]
    args = build_parser().parse_args(argv)
    if args.seconds <= 0:
        raise SystemExit("benchmark: --seconds must be > 0")
    if args.num_envs < 1:
        raise SystemExit("benchmark: --num-envs must be >= 1")
    warmup = args.warmup if args.warmup is not None else max(0.1 * args.seconds, 0.05)
    out_path = _resolve_out(args.out)
    specs = args.games or list_games()
    targets = [t for spec in specs for t in targets_for(spec)]
    seed = int(args.seed)
    aec_envs = (
        "wrapped like PettingZoo classic envs: boardgames_rl.envs.make_env() / PettingZoo env()"
        if args.wrapped
        else "unwrapped: GameAECEnv / PettingZoo raw_env()"
    )

    # Every measurement is a (row, column, factory-of-loop, note) job run under one progress bar.
    rows: list[Row] = []
    jobs: list[Job] = []
    for t in targets:
        game = make_game(t.name, **t.config)
        row = Row(
            "game",
            t.name,
            t.label,
            config=game.config,
            details={
                "num_players": game.num_players,
                "num_actions": game.num_actions,
                "observation_size": game.observation_spec.size,
            },
        )
        rows.append(row)
        jobs += [
            (
                row,
                "engine",
                lambda rng, g=game: _engine_loop(g, seed, rng),
                "State.apply, no observations",
            ),
            (
                row,
                "aec",
                lambda rng, t=t, g=game: _aec_loop(
                    make_env(t.name, **t.config) if args.wrapped else GameAECEnv(g), seed, rng
                ),
                "boardgames_rl.envs.make_env() (wrapped)" if args.wrapped else "GameAECEnv",
            ),
            (
                row,
                "vector",
                lambda rng, g=game: _vector_loop(g, args.num_envs, seed, rng),
                f"VectorEnv num_envs={args.num_envs}, in-process; slot-steps",
            ),
        ]

    notes: list[str] = []
    if not args.no_baselines:
        jobs += _baseline_jobs(rows, notes, seed, args.wrapped)
    notes.append(f"AEC envs: {aec_envs}; every figure comes from this process, one at a time")

    wall_start = time.perf_counter()
    bar = tqdm(jobs, desc="benchmark", unit="measure", disable=args.no_progress, file=sys.stderr)
    for i, (row, column, make_loop, note) in enumerate(bar):
        bar.set_postfix_str(f"{row.title} {column}")
        rng = np.random.default_rng([seed, i])
        try:
            setattr(row, column, _timed(make_loop(rng), args.seconds, warmup, note))
        except Exception as exc:  # keep the other figures; the error is reported in the output
            row.errors[column] = repr(exc)
    bar.close()
    wall = time.perf_counter() - wall_start

    references = {
        row.name: row.aec.steps_per_s for row in rows if row.kind == "baseline" and row.aec
    }
    _add_ratios(rows, references)
    settings = {
        "seconds": args.seconds,
        "warmup_seconds": warmup,
        "num_envs": args.num_envs,
        "seed": seed,
        "games": specs,
        "baselines": not args.no_baselines,
        "aec_envs": aec_envs,
        "action_selection": "one Generator.random() draw u per decision; action = the "
        "floor(u * n_legal)-th legal action of the mask (vector: same rule on every row)",
        "timer": "time.perf_counter",
        "total_wall_seconds": round(wall, 3),
    }
    print(format_table(rows, settings, notes))

    if out_path is not None:
        result = {
            "benchmark": "throughput",
            "timestamp": started.isoformat(timespec="seconds"),
            "machine": machine,
            "settings": settings,
            "references_aec_steps_per_s": references,
            "rows": [_row_json(r) for r in rows],
            "notes": notes,
        }
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(result, indent=2) + "\n")
        print(f"saved {out_path}")
    return 1 if any(row.errors for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
