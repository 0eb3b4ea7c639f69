"""PPO results for every game: train each run within a fixed budget, evaluate, write the report.

Runs (each ``--minutes`` of wall time or ``--timesteps`` learner steps, whichever comes first):

* castle_nightingale side A, learner = the ninja (seat 0), and learner = the samurai (seat 1);
* castle_flutterstone 2 players, white_castle 2 players, night_of_the_ninja 5 players: one shared
  policy trained on a random seat.

Each trained policy (deterministic; ``--no-deterministic`` draws from it) then plays
``--eval-games`` games against random play and as many against the heuristic, in the seats it
was trained on (rotated for the shared policies, per seat rates reported). The random baseline is
a random agent in the same seats against the same opponents: Night of the Ninja's aim is a win
rate >= 1.5x that baseline; every 2-player seat aims at >= 85% against random play.

Writes ``docs/results/ppo/results.json`` (win rates with 95% Wilson intervals, steps, wall time,
provenance; ``python docs/generate.py`` writes the site's page from it), ``docs/img/ppo_<run>.png``
(learning curves), and keeps every run folder under ``--runs-dir``.

    python lab/experiments/ppo_results.py                       # the full budget (~45 minutes)
    python lab/experiments/ppo_results.py --runs white_castle --minutes 2
    python lab/experiments/ppo_results.py --timesteps 512 --eval-games 4 --docs-dir /tmp/docs
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardgames_rl.agents.ppo import PPOAgent
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.registry import make_game
from boardgames_rl.training.evaluation import EvalResult, evaluate

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's SB3 recipe
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402
from lab.recipes.sb3.train_ppo import main as train_ppo  # noqa: E402


@dataclass(frozen=True)
class Run:
    """One training run: a game configuration and the learner's seat."""

    name: str
    game: str
    config: dict
    seat: int | str
    aim: str  # "random85": >= 85% vs random in every seat; "baseline1.5": >= 1.5x random seat


RUNS = [
    Run("castle_nightingale_ninja", "castle_nightingale", {"side": "A"}, 0, "random85"),
    Run("castle_nightingale_samurai", "castle_nightingale", {"side": "A"}, 1, "random85"),
    Run("castle_flutterstone", "castle_flutterstone", {"num_players": 2}, "random", "random85"),
    Run("white_castle", "white_castle", {"num_players": 2}, "random", "random85"),
    Run("night_of_the_ninja", "night_of_the_ninja", {"num_players": 5}, "random", "baseline1.5"),
]


def _combine(parts: list[EvalResult]) -> EvalResult:
    from boardgames_rl.arena.stats import wilson_interval

    games = sum(p.games for p in parts)
    wins = sum(p.wins for p in parts)
    low, high = wilson_interval(wins, games)
    mean = sum(p.mean_return * p.games for p in parts) / games
    return EvalResult(parts[0].opponent, games, wins, wins / games, low, high, mean)


def evaluate_run(
    run: Run, model: Path, games: int, seed: int, deterministic: bool = True
) -> dict[str, Any]:
    """Win rates (per seat and overall) of the trained policy and of a random agent."""
    game = make_game(run.game, **run.config)
    seats = list(range(game.num_players)) if run.seat == "random" else [int(run.seat)]
    per_seat = max(1, games // len(seats))
    agent = PPOAgent(model, deterministic=deterministic, game=game)
    out: dict[str, Any] = {"seats": seats}
    for who, player in (("ppo", agent), ("random_baseline", RandomAgent())):
        for opp in ("random", "heuristic"):
            if who == "random_baseline" and opp == "heuristic" and run.aim != "baseline1.5":
                continue
            parts = [evaluate(player, game, opp, per_seat, [s], seed + s) for s in seats]
            out[f"{who}_vs_{opp}"] = {
                "overall": _combine(parts).as_dict(),
                "per_seat": {s: p.as_dict() for s, p in zip(seats, parts, strict=True)},
            }
    return out


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def aim_met(run: Run, ev: dict) -> str:
    if run.aim == "random85":
        rates = [p["rate"] for p in ev["ppo_vs_random"]["per_seat"].values()]
        return "yes" if min(rates) >= 0.85 else "no"
    base = ev["random_baseline_vs_random"]["overall"]["rate"]
    rate = ev["ppo_vs_random"]["overall"]["rate"]
    return "yes" if base > 0 and rate >= 1.5 * base else "no"


def _training_summary(settings: dict[str, Any]) -> str:
    """Opponents, weights, shaping and behaviour-cloning warm start of a run, as its report
    cell (``bc N games`` when the policy was warm-started from the teacher's games)."""
    pool = " ".join(
        f"{o}:{w:g}"
        for o, w in zip(settings["opponents"], settings["opponent_weights"], strict=False)
    )
    shaping = settings.get("shaping", "none")
    if shaping != "none":
        shaping += f" x{settings.get('shaping_scale', 1.0):g}"
    summary = f"{pool}; shaping {shaping}"
    if settings.get("bc_games", 0) > 0:
        summary += f"; bc {settings['bc_games']} games ({settings.get('bc_teacher', 'heuristic')})"
        if settings.get("bc_dagger_rounds", 0) > 0:
            summary += f" + {settings['bc_dagger_rounds']} DAgger rounds"
    return summary


def _wall_minutes(res: dict[str, Any]) -> float:
    """Training wall time of a run in minutes, its warm start included."""
    return (res["wall_time"] + res.get("bc_wall_time", 0.0)) / 60


def write_report(results: list[dict[str, Any]], docs: Path, args: argparse.Namespace) -> Path:
    """``docs/results/ppo/results.json``: the runs' figures, from which ``python
    docs/generate.py`` writes the site's PPO page."""
    runs = []
    for res in results:
        run, ev = res["run"], res["eval"]
        aim = ">= 85% vs random per seat" if run["aim"] == "random85" else ">= 1.5x random seat"
        runs.append(
            {
                "name": run["name"],
                "seat": str(run["seat"]),
                "steps": res["steps"],
                "wall_minutes": round(_wall_minutes(res), 1),
                "vs_random": _interval(ev["ppo_vs_random"]["overall"]),
                "per_seat_vs_random": {
                    str(s): p["rate"] for s, p in ev["ppo_vs_random"]["per_seat"].items()
                },
                "vs_heuristic": _interval(ev["ppo_vs_heuristic"]["overall"]),
                "random_baseline_vs_random": _interval(ev["random_baseline_vs_random"]["overall"]),
                "aim": aim,
                "aim_met": res["aim_met"],
                "training": res.get("training", ""),
                "learning_curve": f"docs/img/ppo_{run['name']}.png",
            }
        )
    data = {
        "eval_games": args.eval_games,
        "deterministic": args.deterministic,
        "seed": args.seed,
        "runs": runs,
        "provenance": provenance(),
    }
    path = docs / "results" / "ppo" / "results.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def _interval(r: dict[str, Any]) -> dict[str, float]:
    return {"rate": r["rate"], "low": r["low"], "high": r["high"]}


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--runs", nargs="*", default=[r.name for r in RUNS], choices=[r.name for r in RUNS]
    )
    p.add_argument("--minutes", type=float, default=8.0, help="wall-time budget per run")
    p.add_argument("--timesteps", type=int, default=300_000, help="step budget per run")
    p.add_argument(
        "--opponents",
        default=None,
        help="opponent pool of every run (default: train_ppo's per-game default)",
    )
    p.add_argument(
        "--opponent-weights",
        default=None,
        help="weights of --opponents (default: train_ppo's per-game default)",
    )
    p.add_argument("--eval-games", type=int, default=200, help="games per opponent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--deterministic",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="evaluate the most probable action (else draws from the policy)",
    )
    p.add_argument("--runs-dir", default="runs/ppo_results")
    p.add_argument("--docs-dir", default="docs")
    p.add_argument(
        "--train-arg",
        action="append",
        default=[],
        help="extra train_ppo flag, repeatable (e.g. --train-arg=--n-envs=8)",
    )
    args = p.parse_args(argv)
    docs, runs_dir = Path(args.docs_dir), Path(args.runs_dir)
    (docs / "img").mkdir(parents=True, exist_ok=True)
    results = []
    for run in (r for r in RUNS if r.name in args.runs):
        out = runs_dir / run.name
        if out.exists():
            shutil.rmtree(out)
        config = [f"-c{k}={json.dumps(v)}" for k, v in run.config.items()]
        start = time.perf_counter()
        settings = train_ppo(
            [
                "--game",
                run.game,
                *config,
                "--seat",
                str(run.seat),
                "--timesteps",
                str(args.timesteps),
                "--max-minutes",
                str(args.minutes),
                *(["--opponents", args.opponents] if args.opponents else []),
                *(["--opponent-weights", args.opponent_weights] if args.opponent_weights else []),
                "--seed",
                str(args.seed),
                "--out",
                str(out),
                "--eval-deterministic" if args.deterministic else "--no-eval-deterministic",
                *args.train_arg,
            ]
        )
        wall = time.perf_counter() - start
        ev = evaluate_run(
            run, out / "model.zip", args.eval_games, args.seed + 10_000, args.deterministic
        )
        shutil.copy(out / "learning_curve.png", docs / "img" / f"ppo_{run.name}.png")
        res = {
            "run": run.__dict__,
            "steps": settings["num_timesteps"],
            "wall_time": settings["wall_time"],
            "bc_wall_time": settings.get("bc_wall_time", 0.0),
            "total_time": wall,
            "eval": ev,
        }
        res["aim_met"] = aim_met(run, ev)
        res["training"] = _training_summary(settings)
        results.append(res)
        print(
            f"{run.name}: {res['steps']} steps, vs random "
            f"{_pct(ev['ppo_vs_random']['overall'])}, aim met: {res['aim_met']}",
            flush=True,
        )
        (out / "result.json").write_text(json.dumps(res, indent=1))
    # The report covers every run with a result in --runs-dir (runs of earlier invocations too,
    # e.g. `--runs castle_nightingale_ninja` re-run alone), in the order of RUNS.
    everything = [
        json.loads((runs_dir / r.name / "result.json").read_text())
        for r in RUNS
        if (runs_dir / r.name / "result.json").exists()
    ]
    (runs_dir / "results.json").write_text(json.dumps(everything, indent=1))
    print(f"wrote {write_report(everything, docs, args)}; now run `python docs/generate.py`")
    return results


if __name__ == "__main__":
    main()
