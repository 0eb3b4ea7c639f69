"""The strength ladder (issue 6): ISMCTS against random and against each game's heuristic.

Goal: ISMCTS (400 iterations) beats random in >= 90% and the heuristic in >= 55% of 2-player games
of Castle Nightingale (both roles), Castle Flutterstone and The White Castle, and wins more often
than the heuristic seats in 5-player Night of the Ninja.

Every match is a seeded series with the seats rotated (``boardgames_rl.arena.play_series``), so
each agent plays every seat equally often (Nightingale: as ninja and as samurai). Win rates come
with 95% Wilson intervals; a win shared by k players counts 1/k; a truncated game is nobody's win.

    python lab/experiments/strength_ladder.py                # the whole ladder (~40 min, 1 core)
    python lab/experiments/strength_ladder.py --games 2      # a smoke run
    python lab/experiments/strength_ladder.py --only white_castle --iterations 200
    python lab/experiments/strength_ladder.py --workers 2    # the same games in 2 processes

Writes ``docs/results/strength_ladder.json`` (``--out`` changes the path) with its provenance;
``--only GAME`` replaces that game's rows in an existing file and lists the rerun with its own
provenance. ``python docs/generate.py`` then writes the site's page from it.

**The rating ladder** (issue 15.4), ``--ratings``: per game,
:func:`boardgames_rl.arena.ladder.rate_against_ladder` (a round-robin tournament: every pair,
seats rotated, seeded; in Night of the Ninja each agent alone against a field of another)
among random, the heuristic, the tuned ISMCTS at two budgets (``--budgets``), the shipped
``pretrained`` agent and ``pretrained+search`` (when an entry fits the game), rated by
Bradley-Terry on the Elo scale (random = 0) with 95% bootstrap intervals.
Each game's folder ``docs/results/ladder/<game>/`` gets the arena's files (``ratings.csv``,
``pairwise.csv``, ``heatmap.png``, ``games.jsonl``: an interrupted ladder resumes; ``results.json``
with its provenance) and ``ladder_heatmap.png`` (short labels, strongest first); the site's page
is written from them by ``python docs/generate.py``::

    python lab/experiments/strength_ladder.py --ratings --games 40 --budgets 50,400 --workers 2
    python lab/experiments/strength_ladder.py --ratings --only white_castle --games 4 \\
        --budgets 10,40

How the per-game specs were chosen (probe games, 400 iterations, seats rotated; ISMCTS wins):

* Flutterstone vs heuristic: random rollouts cut at 20 + evaluate, no prior 2/12; with the
  heuristic prior 7/12 (prior_visits=20), 9/16 and 15/40 (40), 16/40 (100), cut at 6: 10/20,
  c=0.7: 9/20 and 11/20, heuristic rollouts (epsilon 0.1, cut at 6) 7/12 -- even with the
  heuristic, which itself wins 16 of the same 40 seeded games in the same seats: chance
  (the flicks) dominates.
* White Castle vs heuristic: cut at 20, no prior 7/8; with the prior 8/8; vs random 4/4.
* Nightingale vs heuristic: cut at 30, no prior 0/2 (~115 s a game); cut at 10 with the prior
  3/4 and 3/6; vs random 6/6.
* Night of the Ninja, one ISMCTS seat vs four heuristic seats (an even share is 1/5): random
  rollouts cut at 40: 0/5; + prior 2/10; full random rollouts + prior 1/10; heuristic rollouts
  (epsilon 0.1, cut at 10) + prior 3/5 and 1/10 (a heuristic in the same seat of the same seeded
  games: 1/5 and 2/10); cut at 25: 2/10 (heuristic 3/10) at ~27 CPU s a game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from boardgames_rl.agents.ismcts import tuned_spec
from boardgames_rl.arena import (
    SeriesResult,
    TournamentMismatchError,
    play_series,
    wilson_interval,
)
from boardgames_rl.arena.ladder import (
    LADDER_GAMES,
    ladder_game,
    pretrained_coverage,
    rate_against_ladder,
)
from boardgames_rl.registry import make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's helpers
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402


# --------------------------------------------------------------------------- what is played
def ismcts_spec(game: str, iterations: int) -> str:
    """The ISMCTS configuration used on each game: ``ismcts.TUNED_SETTINGS``, chosen by the
    probes above, written out in full."""
    return tuned_spec(game, iterations)


@dataclass
class Match:
    """One series: ``agents[0]`` is always ISMCTS; ``target`` is the win rate it must reach."""

    game: str
    config: dict
    opponent: str  # "random", "heuristic" (2 players) or "heuristic x4" (Night of the Ninja)
    games: int  # default number of games (see --games)
    target: str


# Default game counts: CPU seconds per game measured with 400 iterations (Nightingale ~18 against
# random and ~25 against the heuristic, Flutterstone ~5 and ~4, White Castle ~11 and ~10, Night of
# the Ninja ~19) times these counts add up to about 40 minutes on one core. Counts are multiples
# of the number of seats, so that every seat is played equally often.
MATCHES = [
    Match("castle_nightingale", {"side": "A"}, "random", 16, ">= 0.90 per seat"),
    Match("castle_nightingale", {"side": "A"}, "heuristic", 24, ">= 0.55 per seat"),
    Match("castle_flutterstone", {"num_players": 2}, "random", 20, ">= 0.90"),
    Match("castle_flutterstone", {"num_players": 2}, "heuristic", 70, ">= 0.55"),
    Match("white_castle", {"num_players": 2}, "random", 16, ">= 0.90"),
    Match("white_castle", {"num_players": 2}, "heuristic", 40, ">= 0.55"),
    Match("night_of_the_ninja", {"num_players": 5}, "heuristic x4", 30, "> heuristic seat"),
]


# --------------------------------------------------------------------------- playing
def play(
    match: Match, iterations: int, games: int, seed: int, workers: int = 1
) -> tuple[SeriesResult, float, float | None]:
    """Play one series (in ``workers`` processes: the same games); return it, the wall-clock
    seconds and the CPU seconds it took (they differ when the machine is shared; None with
    workers, whose CPU time this process does not see)."""
    game = make_game(match.game, **match.config)
    if match.opponent == "heuristic x4":
        agents = [ismcts_spec(match.game, iterations)] + ["heuristic"] * (game.num_players - 1)
    else:
        agents = [ismcts_spec(match.game, iterations), match.opponent]
    start, cpu_start = time.perf_counter(), time.process_time()
    result = play_series(game, agents, games, seed=seed, progress=True, workers=workers)
    cpu = time.process_time() - cpu_start if workers == 1 else None
    return result, time.perf_counter() - start, cpu


def rate(wins: float, n: int) -> dict:
    """A win rate with its Wilson 95% interval."""
    low, high = wilson_interval(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "low": low, "high": high}


def summarise(match: Match, result: SeriesResult, seconds: float, cpu: float | None) -> list[dict]:
    """Table rows: ISMCTS's win rate overall and, on Nightingale, per seat (0 ninja,
    1 samurai); on Night of the Ninja also the mean heuristic seat's."""
    n = len(result.records)
    base = {
        "game": match.game,
        "opponent": match.opponent,
        "target": match.target,
        "seconds_per_game": seconds / max(n, 1),
        "cpu_seconds_per_game": None if cpu is None else cpu / max(n, 1),
        "mean_length": sum(r.length for r in result.records) / max(n, 1),
        "truncated": sum(r.truncated for r in result.records),
    }
    rows = [{**base, "seat": "all", **rate(result.wins(0), n)}]
    if match.game == "castle_nightingale":
        for seat, seat_name in enumerate(("ninja", "samurai")):
            records = [r for r in result.records if r.seats[seat] == 0]
            wins = sum(1.0 / len(r.winners) for r in records if seat in r.winners)
            rows.append({**base, "seat": seat_name, **rate(wins, len(records))})
    if match.opponent == "heuristic x4":
        others = [result.wins(i) for i in range(1, len(result.agents))]
        heuristic_seat = sum(others) / len(others)
        rows.append({**base, "seat": "a heuristic seat", **rate(heuristic_seat, n)})
    return rows


# --------------------------------------------------------------------------- rating ladder
# The ladder itself (its agents, the round robin, the ratings and the heatmap) is the library's
# boardgames_rl.arena.ladder; this script plays it for every game and writes the page.
def rating_ladder(args: argparse.Namespace) -> None:
    """Play (or resume) each game's ladder (:func:`rate_against_ladder`) and save its folder,
    its ``results.json`` stamped with its provenance."""
    budgets = [int(b) for b in args.budgets.split(",")]
    root = Path(args.ladder_out)
    for name in LADDER_GAMES:
        if args.only not in (None, name):
            continue
        game = ladder_game(name)
        missing = pretrained_coverage(game)
        if missing is not None:
            print(f"{name}: no pretrained agent in the ladder ({missing})")
        out = root / name
        result = rate_against_ladder(
            game,
            {},
            args.games or 20,
            seed=args.seed,
            workers=args.workers,
            out_dir=out,
            budgets=budgets,
        )
        print(result.table())
        summary = out / "results.json"
        summary.write_text(
            json.dumps({**json.loads(summary.read_text()), "provenance": provenance()}, indent=1)
        )
        for page in ("ladder.md", "ladder.txt"):  # the site's page is written from results.json
            (out / page).unlink(missing_ok=True)
    print(f"wrote {root}; now run `python docs/generate.py` to write the site's pages")


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per match (default: each match's own count, ~40 minutes in total on one core)",
    )
    parser.add_argument("--iterations", type=int, default=400, help="ISMCTS iterations/decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=None, help="play only this game's matches")
    parser.add_argument(
        "--out",
        default="docs/results/strength_ladder.json",
        help="the JSON results file",
    )
    parser.add_argument(
        "--ratings", action="store_true", help="play the rating ladder instead (see above)"
    )
    parser.add_argument("--budgets", default="50,400", help="the two ISMCTS budgets (--ratings)")
    parser.add_argument("--workers", type=int, default=1, help="game processes (same games)")
    parser.add_argument(
        "--ladder-out", default="docs/results/ladder", help="--ratings: one folder per game"
    )
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be >= 1")
    if args.workers < 1:
        parser.error("--workers must be >= 1")
    if args.ratings:
        if args.only not in (None, *LADDER_GAMES):
            parser.error(f"--only {args.only!r}: choose from {', '.join(LADDER_GAMES)}")
        try:
            if len([int(b) for b in args.budgets.split(",")]) != 2:
                raise ValueError
        except ValueError:
            parser.error(f"--budgets takes two iteration counts, e.g. 50,400; got {args.budgets!r}")
        try:
            rating_ladder(args)
        except TournamentMismatchError as e:  # a folder of other games: say so in one line
            raise SystemExit(f"strength_ladder: {e} (--ladder-out DIR)") from None
        return
    matches = [m for m in MATCHES if args.only in (None, m.game)]
    if not matches:
        parser.error(
            f"--only {args.only!r}: no such game in the ladder; choose from "
            f"{', '.join(sorted({m.game for m in MATCHES}))}"
        )

    rows: list[dict] = []
    started = time.perf_counter()
    for k, match in enumerate(matches, 1):
        games = args.games or match.games
        print(f"[{k}/{len(matches)}] {match.game}: ISMCTS vs {match.opponent}, {games} games")
        result, seconds, cpu = play(match, args.iterations, games, args.seed, args.workers)
        rows.extend(summarise(match, result, seconds, cpu))
    total = time.perf_counter() - started

    out = Path(args.out).with_suffix(".json")
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "iterations": args.iterations,
        "seed": args.seed,
        "minutes": total / 60,
        "specs": {m.game: ismcts_spec(m.game, args.iterations) for m in matches},
        "rows": rows,
        "provenance": provenance(),
    }
    if args.only and out.is_file():
        payload = rerun(json.loads(out.read_text()), payload, args.only, argv)
    out.write_text(json.dumps(payload, indent=1))
    print(f"wrote {out}; now run `python docs/generate.py` to write the site's pages")


def rerun(saved: dict, new: dict, game: str, argv: list[str] | None) -> dict:
    """``--only GAME`` into an existing file: that game's rows and spec replaced, the others
    kept with the file's provenance, and the rerun (command, minutes, provenance) listed."""
    command = "python lab/experiments/strength_ladder.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    entry = {"game": game, "command": command, "minutes": new["minutes"]}
    return {
        **saved,
        "specs": {**saved.get("specs", {}), **new["specs"]},
        "rows": [r for r in saved.get("rows", []) if r["game"] != game] + new["rows"],
        "reruns": [r for r in saved.get("reruns", []) if r["game"] != game]
        + [{**entry, "provenance": new["provenance"]}],
    }


if __name__ == "__main__":
    main()
