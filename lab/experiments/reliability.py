"""Reliability fuzzing of every game configuration: random play with illegal, malformed and
wrong-player actions, JSON round trips, clones, and mutated state dicts.

    python lab/experiments/reliability.py --seconds 300            # a budget shared by all configs
    python lab/experiments/reliability.py --games 20 --no-progress # 20 games per configuration
    python lab/experiments/reliability.py --seconds 180 --seed 21 \\
        --out docs/results/reliability/results.json  # add the run to the site's figures

For each configuration in :data:`CONFIGS` it plays seeded random games to the end and, along the
way, checks (each failure is a **violation**, counted by kind with its first message):

* every illegal action (mask 0), malformed action (-1, ``num_actions``, 1.5, "a") and action by a
  player not on move raises its error (``IllegalActionError`` / ``MalformedActionError`` /
  ``WrongPlayerError``) and leaves the state unchanged;
* ``json.dumps(to_dict)`` -> ``load_state`` rebuilds the same state, and play goes on from the
  rebuilt one; a clone moved with the same action stays equal to the original;
* invariants at every step: ``current_player`` a seat or terminal as ``is_terminal`` says, a legal
  action when live, observations of the spec's shape, finite and within its bounds; at the end,
  finite returns and a length within ``max_game_length``;
* **mutated state dicts** (:func:`mutate`: a value changed, retyped, deleted, a list grown or
  shrunk, a key added, the config changed) are either refused by ``load_state`` with
  ``InvalidStateError`` or play by the rules: random play from them to the end under the same
  invariants, within ``max_game_length`` actions.

Prints one row per configuration and the totals (games, steps, checks, mutated dicts refused /
accepted, violations). Exit code 1 when any violation was found. ``--out`` adds the run's totals
to a JSON file (replacing a run of the same seed) with their provenance; ``python
docs/generate.py`` writes the site's Reliability page from it.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.core.errors import (
    IllegalActionError,
    InvalidStateError,
    MalformedActionError,
    WrongPlayerError,
)
from boardgames_rl.core.game import TERMINAL, Game, State
from boardgames_rl.registry import load_state, make_game
from boardgames_rl.state_checks import time_limit

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *[("castle_flutterstone", {"num_players": n}) for n in (2, 3, 4)],
    ("castle_flutterstone", {"num_players": 3, "pesky_ghosts": True}),
    ("castle_flutterstone", {"num_players": 2, "play_on": True}),
    ("castle_nightingale", {}),
    ("castle_nightingale", {"side": "B", "random_layout": True}),
    ("castle_nightingale", {"on_turn_limit": "samurai", "keep_last_disc": True}),
    *[("night_of_the_ninja", {"num_players": n}) for n in (4, 5, 6, 7, 8)],
    ("night_of_the_ninja", {"num_players": 5, "mode": "round"}),
    *[("white_castle", {"num_players": n}) for n in (2, 3, 4)],
]
"""The configurations fuzzed (player counts and variants of every game)."""
CHECK_EVERY = 0.06
"""Probability, at each step, of each extra check (illegal action, round trip, clone)."""
MUTATIONS = 2
"""Mutated copies of the state dict fuzzed at each round trip."""


def _norm(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _norm(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_norm(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def invariants(state: State) -> str | None:
    """What is wrong with ``state`` (None when it behaves)."""
    game = state.game
    p, terminal = state.current_player, state.is_terminal()
    if terminal != (p == TERMINAL) or not (terminal or 0 <= p < game.num_players):
        return f"current_player {p} with is_terminal={terminal}"
    if not terminal and not np.asarray(state.legal_action_mask()).any():
        return "a live state without a legal action"
    spec = game.observation_spec
    for q in range(game.num_players):
        obs = np.asarray(state.observation(q), dtype=np.float64)
        if obs.shape != (spec.size,) or not np.isfinite(obs).all():
            return f"player {q}'s observation is malformed"
        if (obs < spec.low - 1e-6).any() or (obs > spec.high + 1e-6).any():
            return f"player {q}'s observation is out of bounds"
    if terminal:
        r = np.asarray(state.returns(), dtype=np.float64)
        if r.shape != (game.num_players,) or not np.isfinite(r).all():
            return "malformed returns"
    return None


# ---------------------------------------------------------------------------- mutations
def _paths(x: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*path, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, (*path, i))


def _get(x: Any, path: tuple) -> Any:
    for k in path:
        x = x[k]
    return x


_ODD = [
    -1,
    -2,
    0,
    1,
    2,
    7,
    99,
    10**6,
    10**12,
    -(10**9),
    0.5,
    -0.5,
    float("nan"),
    True,
    False,
    None,
    "",
    "x",
    [],
    [0],
    [[-1]],
    {},
    {"x": 1},
]


def mutate(d: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """A copy of the state dict ``d`` with one to three random mutations."""
    d = copy.deepcopy(d)
    for _ in range(int(rng.integers(1, 4))):
        kind = rng.random()
        if kind < 0.04:
            d["config"] = dict(d["config"])
            key = rng.choice(sorted(d["config"])) if d["config"] else "num_players"
            d["config"][str(key)] = _ODD[int(rng.integers(len(_ODD)))]
            continue
        if kind < 0.06:
            d["game"] = ["castle_flutterstone", None, 3, "white_castle", "chess"][
                int(rng.integers(5))
            ]
            continue
        paths = [p for p in _paths(d["state"]) if p and (p[0] != "rng" or rng.random() < 0.05)]
        path = paths[int(rng.integers(len(paths)))]
        parent, key = _get(d["state"], path[:-1]), path[-1]
        value = parent[key]
        op = rng.random()
        if op < 0.35 and isinstance(value, int | float) and not isinstance(value, bool):
            delta = [-1, 1, -2, 2, 10, -10, 1000][int(rng.integers(7))]
            parent[key] = value + delta if rng.random() < 0.7 else -value - 1
        elif op < 0.6:
            parent[key] = copy.deepcopy(_ODD[int(rng.integers(len(_ODD)))])
        elif op < 0.7 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.8 and isinstance(value, list):
            if value and rng.random() < 0.5:
                value.pop(int(rng.integers(len(value))))
            else:
                value.append(copy.deepcopy(value[0]) if value else 0)
        elif op < 0.85 and isinstance(parent, list):
            parent[key], parent[0] = parent[0], parent[key]
        elif op < 0.9 and isinstance(value, dict):
            value["extra"] = 1
        elif op < 0.95 and isinstance(value, bool):
            parent[key] = not value
        else:
            parent[key] = [value] * (3 if rng.random() < 0.9 else 10**5)
    return d


# ---------------------------------------------------------------------------- one game
class Tally:
    """Counts and violations of one configuration."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.violations: Counter[str] = Counter()
        self.first: dict[str, str] = {}
        self.examples: list[tuple[list[str], str]] = []

    def violation(self, kind: str, message: str) -> None:
        self.violations[kind] += 1
        self.first.setdefault(kind, message[:300])


def _play_out(state: State, rng: np.random.Generator, limit: int) -> str | None:
    """Random play to the end: the first broken invariant, an exception, or running too long."""
    for _ in range(limit + 1):
        problem = invariants(state)
        if problem:
            return problem
        if state.is_terminal():
            return None
        state.apply(int(rng.choice(state.legal_actions())))
    return f"still running after {limit} actions (the game's max_game_length)"


def fuzz_dict(d: dict[str, Any], game: Game, rng: np.random.Generator, t: Tally) -> None:
    """One mutated copy of ``d``: refused with InvalidStateError, or it plays by the rules."""
    m = mutate(d, rng)
    t.counts["mutated dicts"] += 1
    try:
        state = load_state(m)
    except InvalidStateError:
        t.counts["refused"] += 1
        return
    except Exception as e:  # noqa: BLE001 - any other error is a violation
        t.violation("from_dict raised another error", f"{type(e).__name__}: {e}")
        return
    t.counts["accepted"] += 1
    try:
        with time_limit(60.0, game.name):
            problem = _play_out(state, rng, state.game.max_game_length)
    except Exception as e:  # noqa: BLE001 - a hang (InvalidStateError from the timer) too
        problem = f"{type(e).__name__}: {e}"
    if problem:
        changed = sorted(
            k for k in set(d["state"]) | set(m["state"]) if d["state"].get(k) != m["state"].get(k)
        )
        t.violation("accepted dict broke the rules", f"{problem} (mutated: {changed})")
        t.examples.append((changed, problem))


def fuzz_game(game: Game, seed: int, t: Tally, mutate_dicts: bool = True) -> None:
    """One seeded random game with every check along the way."""
    rng = np.random.default_rng([seed, 0xF022])
    state = game.new_state(seed)
    steps = 0
    bad_actions: list[Any] = [-1, game.num_actions, 1.5, "a", None]
    while True:
        problem = invariants(state)
        if problem:
            t.violation("invariant", problem)
            return
        if state.is_terminal():
            break
        if steps > game.max_game_length:
            t.violation("too long", f"{steps} actions > max_game_length {game.max_game_length}")
            return
        before = None
        if rng.random() < CHECK_EVERY:  # illegal, malformed and wrong-player actions
            before = _norm(state.to_dict())
            mask = np.asarray(state.legal_action_mask())
            illegal = np.flatnonzero(~mask.astype(bool))
            tries: list[tuple[Any, int | None, type[Exception]]] = [
                (bad_actions[int(rng.integers(len(bad_actions)))], None, MalformedActionError)
            ]
            if len(illegal):
                tries.append((int(rng.choice(illegal)), None, IllegalActionError))
            if game.num_players > 1:
                other = (state.current_player + 1) % game.num_players
                tries.append((int(rng.choice(state.legal_actions())), other, WrongPlayerError))
            for action, player, error in tries:
                t.counts["bad actions"] += 1
                try:
                    state.apply(action, player=player)
                    t.violation(f"{error.__name__} not raised", f"action {action!r} accepted")
                except error:
                    pass
                except Exception as e:  # noqa: BLE001
                    t.violation(f"{error.__name__} not raised", f"{type(e).__name__}: {e}")
                if _norm(state.to_dict()) != before:
                    t.violation("a refused action changed the state", f"action {action!r}")
                    return
        action = int(rng.choice(state.legal_actions()))
        if rng.random() < CHECK_EVERY:  # JSON round trip; play goes on from the rebuilt state
            t.counts["round trips"] += 1
            d = state.to_dict()
            try:
                rebuilt = load_state(json.loads(json.dumps(d)))
                if _norm(rebuilt.to_dict()) != _norm(d):
                    t.violation("round trip", "to_dict differs after from_dict")
                state = rebuilt
            except Exception as e:  # noqa: BLE001
                t.violation("round trip", f"{type(e).__name__}: {e}")
                return
            if mutate_dicts:
                for _ in range(MUTATIONS):
                    fuzz_dict(d, game, rng, t)
        if rng.random() < CHECK_EVERY:  # a clone moved alike stays alike
            t.counts["clones"] += 1
            twin = state.clone()
            twin.apply(action)
            state.apply(action)
            if _norm(twin.to_dict()) != _norm(state.to_dict()):
                t.violation("clone", "a clone moved with the same action differs")
        else:
            state.apply(action)
        steps += 1
    t.counts["games"] += 1
    t.counts["steps"] += steps


# ---------------------------------------------------------------------------- main
def run(
    configs: list[tuple[str, dict[str, Any]]],
    seconds: float | None,
    games: int | None,
    seed: int = 0,
    progress: bool = True,
) -> list[tuple[str, Tally]]:
    """Fuzz every configuration in turn (round-robin, one game each, until the budget is spent)."""
    built = [(f"{name} {cfg}", make_game(name, **cfg)) for name, cfg in configs]
    tallies = [Tally() for _ in built]
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        total = seconds if seconds else (games or 0) * len(built)
        bar = tqdm(total=round(total), unit="s" if seconds else "game", desc="fuzz")
    g = 0
    while True:
        if games is not None and g >= games:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        for (_, game), t in zip(built, tallies, strict=True):
            fuzz_game(game, seed * 1_000_003 + g, t)
            if bar is not None:
                bar.n = round(time.perf_counter() - start) if seconds else bar.n + 1
                bar.refresh()
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
        g += 1
    if bar is not None:
        bar.close()
    return [(label, t) for (label, _), t in zip(built, tallies, strict=True)]


COLUMNS = (
    "games",
    "steps",
    "bad actions",
    "round trips",
    "clones",
    "mutated dicts",
    "refused",
    "accepted",
)


def report(results: list[tuple[str, Tally]], wall: float) -> str:
    lines = [f"{'configuration':<60} " + " ".join(f"{c:>12}" for c in COLUMNS) + "   violations"]
    total: Counter[str] = Counter()
    violations = 0
    for label, t in results:
        total.update(t.counts)
        violations += sum(t.violations.values())
        lines.append(
            f"{label[:60]:<60} "
            + " ".join(f"{t.counts[c]:>12}" for c in COLUMNS)
            + f"   {sum(t.violations.values())}"
        )
        for kind, n in t.violations.items():
            lines.append(f"    {n} x {kind}: {t.first[kind]}")
    lines.append(
        f"{'total':<60} " + " ".join(f"{total[c]:>12}" for c in COLUMNS) + f"   {violations}"
    )
    lines.append(f"{len(results)} configurations, {wall:.0f} s wall time")
    return "\n".join(lines)


def save(path: Path, results: list[tuple[str, Tally]], seed: int, wall: float, n: int) -> None:
    """Add this run's totals to ``path`` (a run of the same seed is replaced)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the lab's helpers
    from lab.provenance import provenance

    total: Counter[str] = Counter()
    for _, t in results:
        total.update(t.counts)
    run = {
        "seed": seed,
        "seconds": round(wall),
        "games": total["games"],
        "steps": total["steps"],
        "mutated dicts": total["mutated dicts"],
        "refused": total["refused"],
        "accepted": total["accepted"],
        "violations": sum(sum(t.violations.values()) for _, t in results),
    }
    data = json.loads(path.read_text()) if path.is_file() else {"runs": []}
    data["runs"] = [r for r in data["runs"] if r["seed"] != seed] + [run]
    data.update(configurations=n, provenance=provenance())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}; now run `python docs/generate.py` to write the site's page")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=None, help="wall-time budget (all configs)")
    p.add_argument("--games", type=int, default=None, help="games per configuration")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", action="append", default=[], help="only these games (repeatable)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--out", default=None, help="add the run's totals to this JSON file")
    args = p.parse_args(argv)
    if args.seconds is None and args.games is None:
        args.seconds = 60.0
    if (args.seconds is not None and not args.seconds > 0) or (
        args.games is not None and args.games < 1
    ):
        p.error("--seconds must be > 0 and --games >= 1")
    configs = [c for c in CONFIGS if not args.game or c[0] in args.game]
    if not configs:
        p.error(f"no configuration of {args.game}; games: {sorted({c[0] for c in CONFIGS})}")
    start = time.perf_counter()
    results = run(configs, args.seconds, args.games, args.seed, args.progress)
    wall = time.perf_counter() - start
    print(report(results, wall))
    if args.out:
        save(Path(args.out), results, args.seed, wall, len(configs))
    return 1 if any(t.violations for _, t in results) else 0


if __name__ == "__main__":
    sys.exit(main())
