"""The compiled and the pure-Python engines play the same games: a differential check.

The engines compile with mypyc from their own Python source (:mod:`boardgames_rl.compiled`); the
pure build runs that source as it is. This module plays seeded random games in each build, in
two processes, and compares everything a game shows at every step:

* whose decision it is, the legal action mask, and the rewards (``returns``);
* the observation of every seat and the omniscient ``state_vector``;
* the full state as ``to_dict`` (the chance generator included);
* an information-set sample of the player on move (``info_set(p).sample(rng)``, its ``to_dict``),
  drawn from a generator of its own so that sampling never changes the game played.

Each process reports one sha256 per game played; a game whose digests differ is named with its
seed, and ``trace --per-step`` on that seed finds the first step that differs (it prints the
digest after every step, in this process's build). ``--config`` takes the game's options as a
JSON object, e.g. ``--config '{"num_players": 11}'``:

.. code-block:: bash

    python -m boardgames_rl.testing.differential compare castle_flutterstone --steps 2000
    python -m boardgames_rl.testing.differential trace white_castle --seed 7 --steps 30 --per-step

``compare`` exits 0 when both builds gave the same digests, 1 when they differ or when no
compiled build is installed (the comparison would be the pure build against itself).
The suite runs a short comparison of every game (``tests/compiled/test_differential.py``); the lab
runs a million steps a game (``lab/benchmarks/differential.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames_rl.compiled import PURE_ENV, build_info
from boardgames_rl.registry import make_game

__all__ = ["BuildComparison", "compare_builds", "first_difference", "trace"]


def _digest_step(h: Any, state: Any, num_players: int, sample_rng: np.random.Generator) -> None:
    """Everything the state shows now, into the running hash ``h``."""
    player = state.current_player
    h.update(int(player).to_bytes(2, "little", signed=True))
    h.update(state.legal_action_mask().tobytes())
    h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    for seat in range(num_players):
        h.update(state.observation(seat).tobytes())
    h.update(state.state_vector().tobytes())
    h.update(json.dumps(state.to_dict(), sort_keys=True).encode())
    if player >= 0:
        sample = state.info_set(player).sample(sample_rng)
        h.update(json.dumps(sample.to_dict(), sort_keys=True).encode())


def trace(
    name: str,
    config: Mapping[str, Any] | None = None,
    seed: int = 0,
    steps: int = 10_000,
    per_step: bool = False,
) -> dict[str, Any]:
    """Play seeded random games of ``name`` for ``steps`` actions in this process's build.

    Game ``i`` starts from ``new_state(seed + i)``; actions are drawn uniformly from the legal
    mask by ``default_rng([seed, 1])`` and info-set samples by ``default_rng([seed, 2])``.

    Returns:
        A dict with the keys ``"build"`` (this process's, ``"compiled"`` or ``"pure"``), ``"game"``,
        ``"config"``, ``"seed"``, ``"steps"``, ``"seconds"`` and ``"games"``: one entry per game
        played, ``{"seed": ..., "steps": ..., "sha256": ...}``; with ``per_step``, each entry
        also lists the digest after every step (``"steps_sha"``).
    """
    game = make_game(name, **dict(config or {}))
    actions = np.random.default_rng([seed, 1])
    samples = np.random.default_rng([seed, 2])
    games: list[dict[str, Any]] = []
    start = time.perf_counter()
    done = 0
    index = 0
    while done < steps:
        state = game.new_state(seed + index)
        h = hashlib.sha256()
        per: list[str] = []
        n = 0
        _digest_step(h, state, game.num_players, samples)
        while not state.is_terminal() and done < steps:
            legal = np.flatnonzero(state.legal_action_mask())
            state.apply(int(legal[int(actions.random() * legal.size)]))
            _digest_step(h, state, game.num_players, samples)
            if per_step:
                per.append(h.copy().hexdigest()[:16])
            n += 1
            done += 1
        entry: dict[str, Any] = {"seed": seed + index, "steps": n, "sha256": h.hexdigest()}
        if per_step:
            entry["steps_sha"] = per
        games.append(entry)
        index += 1
    return {
        "build": build_info()["build"],
        "game": name,
        "config": dict(config or {}),
        "seed": seed,
        "steps": done,
        "games": games,
        "seconds": round(time.perf_counter() - start, 3),
    }


@dataclass
class BuildComparison:
    """The result of :func:`compare_builds`."""

    game: str
    config: dict[str, Any]
    seed: int
    steps: int
    games: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    first_difference: dict[str, Any] | None = None
    error: str = ""

    @property
    def same(self) -> bool:
        """Both builds ran and gave the same digest for every game."""
        return not self.error and self.first_difference is None

    def line(self) -> str:
        """One line for a log or a report."""
        what = f"{self.game} {json.dumps(self.config, sort_keys=True)} seed {self.seed}"
        if self.error:
            return f"{what}: ERROR {self.error}"
        if self.first_difference is not None:
            return f"{what}: DIFFERENT at {json.dumps(self.first_difference)}"
        return (
            f"{what}: identical, {self.steps:,} steps in {self.games:,} games "
            f"(compiled {self.seconds.get('compiled', 0):.1f} s, pure "
            f"{self.seconds.get('pure', 0):.1f} s with every check)"
        )


def _run_build(
    build: str, name: str, config: Mapping[str, Any], seed: int, steps: int, timeout: float
) -> dict[str, Any]:
    env = dict(os.environ)
    env[PURE_ENV] = "1" if build == "pure" else "0"
    command = [
        sys.executable,
        "-m",
        "boardgames_rl.testing.differential",
        "trace",
        name,
        "--config",
        json.dumps(dict(config)),
        "--seed",
        str(seed),
        "--steps",
        str(steps),
    ]
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"the {build} build's trace failed: {tail}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def compare_builds(
    name: str,
    config: Mapping[str, Any] | None = None,
    seed: int = 0,
    steps: int = 10_000,
    timeout: float = 1800.0,
) -> BuildComparison:
    """Play the same seeded games in the compiled and the pure build (two processes) and
    compare their per-game digests (:func:`trace`).

    The comparison is an error, not a pass, when the "compiled" process did not run the compiled
    build (none installed, or out of date): the pure build against itself proves nothing.
    """
    cfg = dict(config or {})
    out = BuildComparison(game=name, config=cfg, seed=seed, steps=steps)
    try:
        runs = {b: _run_build(b, name, cfg, seed, steps, timeout) for b in ("compiled", "pure")}
    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
        out.error = str(e)
        return out
    if runs["compiled"]["build"] != "compiled":
        out.error = (
            "no compiled build runs here (boardgames_rl.build_info() says pure): install with a C "
            "compiler (pip install -e .) to compare the builds"
        )
        return out
    if runs["pure"]["build"] != "pure":
        out.error = f"{PURE_ENV}=1 did not select the pure build"
        return out
    out.seconds = {b: float(r["seconds"]) for b, r in runs.items()}
    out.games = len(runs["compiled"]["games"])
    out.first_difference = first_difference(runs["compiled"], runs["pure"])
    return out


def first_difference(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any] | None:
    """The first game whose digests differ between two :func:`trace` results (``a`` and
    ``b``), or None when every game is the same."""
    for x, y in zip(a["games"], b["games"], strict=False):
        if x != y:
            return {"seed": x["seed"], "a": x, "b": y}
    if len(a["games"]) != len(b["games"]):
        return {"games": [len(a["games"]), len(b["games"])]}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m boardgames_rl.testing.differential",
        description="The compiled and the pure-Python engines play the same games.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for command in ("trace", "compare"):
        p = sub.add_parser(command)
        p.add_argument("game")
        p.add_argument("--config", default="{}", help="the game's options as a JSON object")
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--steps", type=int, default=10_000)
        if command == "trace":
            p.add_argument("--per-step", action="store_true", help="a digest after every step")
    args = parser.parse_args(argv)
    try:
        config = json.loads(args.config)
    except ValueError as e:
        parser.error(f"--config must be a JSON object: {e}")
    if not isinstance(config, dict):
        parser.error("--config must be a JSON object, e.g. '{\"num_players\": 3}'")
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    if args.command == "trace":
        print(json.dumps(trace(args.game, config, args.seed, args.steps, args.per_step)))
        return 0
    result = compare_builds(args.game, config, args.seed, args.steps)
    print(result.line())
    return 0 if result.same else 1


if __name__ == "__main__":
    sys.exit(main())
