"""Heuristic vs random: how much better than uniform random play is a game's heuristic agent?

One question, asked of each game in the shape its seats call for (``--game`` picks it):

* ``castle_flutterstone``, ``white_castle`` (2 players, the seats alike): the heuristic and a
  random agent swap seats every game (``arena.play_series``: game ``i`` from seed
  ``seed * 1_000_003 + i``). The heuristic's win rate with its 95% Wilson interval (a shared win
  counts 1/k); for The White Castle also each agent's mean final score.
* ``castle_nightingale`` (seat 0 the ninja, seat 1 the samurai: no rotation): three matchups over
  the same seeds (game ``i`` from ``seed + i``): heuristic ninja vs random samurai, random ninja
  vs heuristic samurai, heuristic vs heuristic (the balance check of data sheet section 9). Each
  role's win rate with its interval, the draw rate (turn limit reached), the mean length in turns.
* ``night_of_the_ninja`` (4-11 players): one heuristic seat, ``i % n`` in game ``i`` (from seed
  ``seed + i``), the other seats random. The heuristic's and the mean random seat's win rates
  with intervals and their ratio, counted two ways: "any win" (a shared victory is a win for
  every sharer) and "1/k share". A random seat's interval is taken over the N games (the four
  seats of one game are not independent); a truncated game is nobody's win.

Writes every game's record to ``--out`` (JSON) and the figures with their provenance to
``--summary`` (default: ``.summary.json`` beside the records); the site's page is written from
``docs/results/heuristic_vs_random/<game>.json`` by ``python docs/generate.py``.

    python lab/experiments/heuristic_vs_random.py --game white_castle
    python lab/experiments/heuristic_vs_random.py --game castle_flutterstone -c pesky_ghosts=true
    python lab/experiments/heuristic_vs_random.py --game castle_nightingale --games 200 -c side=B
    python lab/experiments/heuristic_vs_random.py --game night_of_the_ninja --games 200 --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.agents import make_agent
from boardgames_rl.arena import play_game, play_series, replay, wilson_interval
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.options import parse_options
from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState
from boardgames_rl.games.night_of_the_ninja.ai import NightOfTheNinjaHeuristic
from boardgames_rl.games.white_castle.state import WhiteCastleState
from boardgames_rl.registry import make_game


def rotated(game: Game, games: int, seed: int, final_score: Callable[[State], list[float]] | None):
    """Heuristic and random swap seats every game; (records JSON, summary)."""
    start = time.perf_counter()
    result = play_series(game, ["heuristic", "random"], games, seed=seed)
    elapsed = time.perf_counter() - start
    rate, low, high = result.win_rate(0)
    print(result.table())
    print(
        f"\nheuristic win rate vs random: {rate:.3f} "
        f"(95% CI {low:.3f}-{high:.3f}) over {games} games in {elapsed:.1f} s"
    )
    summary: dict[str, Any] = {
        "win_rate": rate,
        "ci95": [low, high],
        "games": games,
        "seed": seed,
        "config": game.config,
    }
    if final_score is not None:  # by agent, not by seat: read from each record's final state
        scores = np.zeros((games, 2))
        for i, record in enumerate(result.records):
            totals = final_score(replay(record))
            for seat, agent in enumerate(record.seats):
                scores[i, agent] = totals[seat]
        mean_h, mean_r = scores.mean(axis=0)
        print(f"average final score: heuristic {mean_h:.2f}, random {mean_r:.2f}")
        summary["mean_score"] = {"heuristic": float(mean_h), "random": float(mean_r)}
        summary["final_scores"] = scores.tolist()
    summary["seconds"] = elapsed
    return result.to_json(), summary


def roles(game: Game, games: int, seed: int, final_score: None = None):
    """Asymmetric roles (seat 0 the ninja, seat 1 the samurai), three matchups over the same
    seeds; (records JSON, summary)."""
    matchups = {
        "heuristic ninja vs random samurai": ("heuristic", "random"),
        "random ninja vs heuristic samurai": ("random", "heuristic"),
        "heuristic ninja vs heuristic samurai": ("heuristic", "heuristic"),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, specs in matchups.items():
        agents = [make_agent(spec, game) for spec in specs]
        start = time.perf_counter()
        played = [_role_game(game, agents, seed + i) for i in range(games)]
        seconds = time.perf_counter() - start
        summary: dict[str, Any] = {"games": games, "seconds_per_game": seconds / games}
        for role in ("ninja", "samurai", "draw"):
            count = sum(g["winner"] == role for g in played)
            low, high = wilson_interval(count, games)
            summary[role] = {"wins": count, "rate": count / games, "ci95": [low, high]}
        summary["mean_turns"] = sum(g["turns"] for g in played) / games
        results[name] = {"summary": summary, "games": played}

    print(f"{game.name} {game.config}, {games} games per matchup, seeds {seed}..")
    print(f"{'matchup':38s} {'ninja wins':>22s} {'samurai wins':>22s} {'draws':>6s} {'turns':>6s}")
    for name, res in results.items():
        s = res["summary"]
        cells = [
            f"{s[r]['rate']:.3f} ({s[r]['ci95'][0]:.3f}-{s[r]['ci95'][1]:.3f})"
            for r in ("ninja", "samurai")
        ]
        print(
            f"{name:38s} {cells[0]:>22s} {cells[1]:>22s} {s['draw']['rate']:6.3f} "
            f"{s['mean_turns']:6.1f}   ({s['seconds_per_game']:.3f} s/game)"
        )
    records = json.dumps({"config": game.config, "seed": seed, "results": results})
    summaries = {name: res["summary"] for name, res in results.items()}
    return records, {"config": game.config, "seed": seed, "summary": summaries}


def _role_game(game: Game, agents: Sequence[Any], seed: int) -> dict[str, Any]:
    """One game; the last state seen by ``on_step`` gives its length in turns."""
    last: dict[str, State] = {}
    record = play_game(game, agents, seed, on_step=lambda state, p, a: last.update(state=state))
    winner = "ninja" if record.returns[0] > 0 else "samurai" if record.returns[1] > 0 else "draw"
    state = last["state"]
    assert isinstance(state, CastleNightingaleState)
    return {"seed": seed, "winner": winner, "turns": state.turn, "actions": record.length}


def one_vs_field(game: Game, games: int, seed: int, final_score: None = None):
    """One heuristic seat (rotating) against random seats; (records JSON, summary)."""
    n = game.num_players
    heuristic = make_agent("heuristic", game)  # reused: it keeps no memory between games
    assert isinstance(heuristic, NightOfTheNinjaHeuristic)
    records = []
    wins = {"any": [0.0, 0.0], "share": [0.0, 0.0]}  # [heuristic, mean random seat]
    start = time.perf_counter()
    for i in range(games):
        seat = i % n
        agents = [make_agent("random", game) for _ in range(n)]
        agents[seat] = heuristic
        record = play_game(game, agents, seed + i)
        winners = record.winners
        k = len(winners)
        if seat in winners:
            wins["any"][0] += 1
            wins["share"][0] += 1 / k
        others = [w for w in winners if w != seat]
        wins["any"][1] += len(others) / (n - 1)
        wins["share"][1] += len(others) / k / (n - 1)
        records.append(
            {
                "seed": record.seed,
                "heuristic_seat": seat,
                "winners": winners,
                "returns": record.returns,
                "length": record.length,
                "truncated": record.truncated,
            }
        )
    elapsed = time.perf_counter() - start

    summary: dict[str, Any] = {
        "game": game.name,
        "config": game.config,
        "games": games,
        "seed": seed,
        "seconds": elapsed,
        "fallbacks": heuristic.fallbacks,
        "truncated": sum(r["truncated"] for r in records),
    }
    print(f"{games} games, {n} players, one heuristic seat (rotating), {elapsed:.0f} s")
    for how, label in (("any", "any win"), ("share", "1/k share")):
        h, r = wins[how]
        h_rate, r_rate = h / games, r / games
        h_ci, r_ci = wilson_interval(h, games), wilson_interval(r, games)
        ratio = h_rate / r_rate if r_rate else float("inf")
        print(
            f"  {label:9s}: heuristic {h_rate:.3f} (95% CI {h_ci[0]:.3f}-{h_ci[1]:.3f})  "
            f"random seat {r_rate:.3f} (95% CI {r_ci[0]:.3f}-{r_ci[1]:.3f})  ratio {ratio:.2f}"
        )
        summary[how] = {
            "heuristic": h_rate,
            "heuristic_ci95": list(h_ci),
            "random_seat": r_rate,
            "random_seat_ci95": list(r_ci),
            "ratio": ratio,
        }
    return json.dumps({"summary": summary, "records": records}, indent=1), summary


@dataclass(frozen=True)
class Setup:
    """How the question is asked of one game: its shape, default length and configuration."""

    shape: Callable[..., tuple[str, dict[str, Any]]]
    games: int
    config: dict[str, Any] = field(default_factory=dict)
    out: str = ""
    final_score: Callable[[State], list[float]] | None = None


def _white_castle_totals(state: State) -> list[float]:
    assert isinstance(state, WhiteCastleState)
    return [b["total"] for b in state.scores()]


SETUPS = {
    "castle_flutterstone": Setup(
        rotated, 1000, {"num_players": 2}, "runs/flutterstone_heuristic_vs_random.json"
    ),
    "castle_nightingale": Setup(roles, 500, {}, "runs/nightingale_heuristic_vs_random.json"),
    "night_of_the_ninja": Setup(
        one_vs_field, 1000, {"num_players": 5}, "runs/ninja_heuristic_vs_random.json"
    ),
    "white_castle": Setup(
        rotated,
        500,
        {"num_players": 2},
        "runs/white_castle_heuristic_vs_random.json",
        final_score=_white_castle_totals,
    ),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(SETUPS))
    parser.add_argument("--games", type=int, help="games (per matchup); default: the game's")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", help="the records' JSON file (default: the game's, in runs/)")
    parser.add_argument("--summary", help="the figures' JSON file (default: beside --out)")
    args = parser.parse_args(argv)
    setup = SETUPS[args.game]
    games = setup.games if args.games is None else args.games
    if games < 1:
        parser.error(f"--games must be at least 1, got {games}")
    game = make_game(args.game, **{**setup.config, **parse_options(args.config)})

    records, summary = setup.shape(game, games, args.seed, setup.final_score)

    out = Path(args.out or setup.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(records)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the lab's helpers
    from lab.provenance import provenance

    figures = Path(args.summary) if args.summary else out.with_suffix(".summary.json")
    figures.parent.mkdir(parents=True, exist_ok=True)
    summary = {**summary, "game": args.game, "config": game.config, "seed": args.seed}
    figures.write_text(json.dumps({**summary, "provenance": provenance()}, indent=1) + "\n")
    print(f"saved {out} and {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
