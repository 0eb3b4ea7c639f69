"""Does the new trainer reach the old one's strength on the same budget?

The new trainer (``boardgames_rl.training.ppo``, CleanRL-style) replaced the SB3-based one
(``boardgames_rl.training.train_ppo``, ``FastMaskablePPO``). One question: trained on The White
Castle (2 players) for the same number of learner steps with the same hyperparameters, are their
final policies equally strong?

1. **Training.** For each seed of ``--seeds`` and each trainer, one run of ``--timesteps``
   learner steps into ``--root/<trainer>_s<seed>``: the per-game defaults of both trainers,
   passed explicitly under each one's flag names (net 256,256; opponents random, heuristic,
   self with weights 2, 1, 1; 4 envs, 512 steps per env per rollout, minibatch 256, 5 epochs,
   learning rate 3e-4), no evaluation during training, the games stepped in the trainer's own
   process (0 worker processes), torch on one thread. Runs go one at a time, each a child
   process whose wall and CPU time (``os.wait4``) are kept in ``timing.json``. The trainers
   come from ``--code`` (a checkout put first on the children's ``PYTHONPATH``), so later edits
   of the working tree do not change the experiment. A run whose ``config.json`` says complete
   is skipped; an interrupted one is resumed by the same command (both trainers resume a rerun).
2. **Evaluation.** Each final ``model.zip``, played greedily (``make_agent("ppo:path=...")``),
   against ``heuristic`` and against ``random`` (``training.evaluation.evaluate``): ``--games``
   games each, seats 0 and 1 in turn, game ``i`` from seed ``--eval-seed * 1_000_003 + i`` for
   every model. Wins (a shared win counts 1/2), rate, 95% Wilson interval; kept in
   ``eval.json`` beside the model (skipped when present with the same settings).
3. **Report.** Per run, pooled over seeds per trainer (the wins over all games, Wilson interval;
   the mean and spread of the per-seed rates), and the difference new - old two ways: over the
   pooled games (Newcombe's hybrid Wilson interval: evaluation noise only) and over the seeds
   (two-sample t on the per-seed rates, 2 x (seeds - 1) degrees of freedom: training noise
   too). Written to ``--json`` with the date, the commit and the machine, and a markdown section
   to ``--markdown``.

    PYTHONPATH=/tmp/oldtrainer python lab/experiments/trainer_strength.py \\
        --code /tmp/oldtrainer --root /tmp/trainer_strength --timesteps 200000
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

GAME = "white_castle"
GAME_CONFIG = {"num_players": 2}
TRAINERS = {
    "old": "lab.recipes.sb3.train_ppo",
    "new": "boardgames_rl.training.ppo",
}
"""Each trainer's module (run with ``python -m`` from the root of the clone; the SB3 trainer is
the lab's recipe now, ``lab/recipes/sb3``)."""
REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = {
    "net": "256,256",
    "opponents": "random,heuristic,self",
    "opponent_weights": "2,1,1",
    "num_envs": "4",
    "num_steps": "512",
    "batch_size": "256",
    "epochs": "5",
    "learning_rate": "3e-4",
}
"""The hyperparameters both runs share (White Castle's defaults in both trainers)."""
FLAGS = {
    "old": {
        "net": "--net",
        "opponents": "--opponents",
        "opponent_weights": "--opponent-weights",
        "num_envs": "--n-envs",
        "num_steps": "--n-steps",
        "batch_size": "--batch-size",
        "epochs": "--n-epochs",
        "learning_rate": "--lr",
    },
    "new": {
        "net": "--net",
        "opponents": "--opponents",
        "opponent_weights": "--opponent-weights",
        "num_envs": "--num-envs",
        "num_steps": "--num-steps",
        "batch_size": "--batch-size",
        "epochs": "--update-epochs",
        "learning_rate": "--learning-rate",
    },
}
"""Each trainer's flag for each shared setting."""
SETTING_KEYS = {
    "old": {
        "n_envs": 4,
        "n_steps": 512,
        "batch_size": 256,
        "n_epochs": 5,
        "lr": 3e-4,
        "net": [256, 256],
        "eval_games": 0,
        "vec_workers": 0,
        "threads": 1,
    },
    "new": {
        "num_envs": 4,
        "num_steps": 512,
        "batch_size": 256,
        "update_epochs": 5,
        "learning_rate": 3e-4,
        "net": [256, 256],
        "eval_games": 0,
        "num_workers": 0,
        "threads": 1,
    },
}
"""What each run's saved settings must say (checked before evaluating)."""
OPPONENTS = ("heuristic", "random")
T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 8: 2.306, 10: 2.228}
"""Student's t 0.975 quantiles by degrees of freedom."""


# ---------------------------------------------------------------------------- training
def train_command(trainer: str, seed: int, timesteps: int, out: Path) -> list[str]:
    """The command line of one training run."""
    cmd = [sys.executable, "-m", TRAINERS[trainer], "--game", GAME, "--seed", str(seed)]
    cmd += ["--timesteps", str(timesteps), "--out", str(out), "--threads", "1"]
    cmd += ["-c", "num_players=2", "--eval-every", "0", "--eval-games", "0"]
    for name, value in SHARED.items():
        cmd += [FLAGS[trainer][name], value]
    if trainer == "old":
        cmd += ["--vec", "batched", "--vec-workers", "0", "--no-progress"]
    else:
        cmd += ["--num-workers", "0"]
    return cmd


def read_run_config(out: Path) -> dict[str, Any]:
    """The run folder's ``config.json`` (empty when there is none)."""
    path = out / "config.json"
    return json.loads(path.read_text()) if path.exists() else {}


def run_settings(trainer: str, config: dict[str, Any]) -> dict[str, Any]:
    """The settings a run folder's ``config.json`` holds (the new trainer nests them)."""
    return config.get("settings", {}) if trainer == "new" else config


def is_complete(out: Path, timesteps: int) -> bool:
    """The run in ``out`` finished its ``timesteps`` steps."""
    config = read_run_config(out)
    return bool(config.get("complete")) and int(config.get("num_timesteps", 0)) >= timesteps


def train(trainer: str, seed: int, timesteps: int, out: Path, env: dict[str, str]) -> None:
    """Run (or resume) one training run as a child process; append its times to
    ``timing.json``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = train_command(trainer, seed, timesteps, out)
    print(f"[{_now()}] train {trainer} seed {seed}: {' '.join(cmd[1:])}", flush=True)
    log = open(out.parent / f"{out.name}.log", "a")  # noqa: SIM115 - closed below
    load_before = os.getloadavg()
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO_ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    log.close()
    attempt = {
        "wall_s": round(wall, 2),
        "cpu_user_s": round(usage.ru_utime, 2),
        "cpu_sys_s": round(usage.ru_stime, 2),
        "max_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "exit_code": proc.returncode,
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "finished": _now(),
    }
    timing_path = out / "timing.json"
    attempts = json.loads(timing_path.read_text()) if timing_path.exists() else []
    attempts.append(attempt)
    out.mkdir(parents=True, exist_ok=True)
    timing_path.write_text(json.dumps(attempts, indent=1))
    print(f"[{_now()}] train {trainer} seed {seed}: {attempt}", flush=True)
    if proc.returncode != 0:
        raise SystemExit(f"train {trainer} seed {seed} exited {proc.returncode}; see its log")


def check_settings(trainer: str, out: Path, seed: int) -> None:
    """Refuse a run whose saved settings are not the experiment's."""
    settings = run_settings(trainer, read_run_config(out))
    expected = {**SETTING_KEYS[trainer], "seed": seed, "config": GAME_CONFIG, "game": GAME}
    expected["opponents"] = ["random", "heuristic", "self"]
    expected["opponent_weights"] = [2.0, 1.0, 1.0]
    wrong = {k: (settings.get(k), v) for k, v in expected.items() if settings.get(k) != v}
    if wrong:
        raise SystemExit(f"{out}: settings differ from the experiment's (saved, expected): {wrong}")


# ---------------------------------------------------------------------------- evaluation
def evaluate_model(model: Path, games: int, eval_seed: int) -> dict[str, Any]:
    """The model's results against each of :data:`OPPONENTS` (seats 0 and 1 in turn)."""
    from boardgames_rl.agents.registry import make_agent
    from boardgames_rl.registry import make_game
    from boardgames_rl.training.evaluation import evaluate

    game = make_game(GAME, **GAME_CONFIG)
    agent = make_agent(f"ppo:path={model}", game)
    results: dict[str, Any] = {"games": games, "eval_seed": eval_seed, "seats": [0, 1]}
    for opponent in OPPONENTS:
        started = time.perf_counter()
        result = evaluate(agent, game, opponent, games, [0, 1], eval_seed)
        results[opponent] = {**result.as_dict(), "seconds": round(time.perf_counter() - started, 2)}
    return results


def evaluation(out: Path, games: int, eval_seed: int) -> dict[str, Any]:
    """``out/eval.json``, computed when missing or made with other settings."""
    path = out / "eval.json"
    if path.exists():
        saved = json.loads(path.read_text())
        if saved.get("games") == games and saved.get("eval_seed") == eval_seed:
            return saved
    print(f"[{_now()}] evaluate {out}", flush=True)
    results = evaluate_model(out / "model.zip", games, eval_seed)
    path.write_text(json.dumps(results, indent=1))
    return results


# ---------------------------------------------------------------------------- statistics
def wilson(wins: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of ``wins`` out of ``n``."""
    from boardgames_rl.arena.stats import wilson_interval

    return wilson_interval(wins, n)


def newcombe(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float, float]:
    """Rate a - rate b with Newcombe's hybrid Wilson 95% interval (independent samples)."""
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pa - pb
    low = d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2)
    high = d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
    return d, low, high


def seed_t(rates_a: list[float], rates_b: list[float]) -> dict[str, float]:
    """Mean of rates a - mean of rates b with a pooled two-sample t 95% interval."""
    na, nb = len(rates_a), len(rates_b)
    ma, mb = sum(rates_a) / na, sum(rates_b) / nb
    ss = sum((r - ma) ** 2 for r in rates_a) + sum((r - mb) ** 2 for r in rates_b)
    df = na + nb - 2
    if df < 1:
        return {"diff": ma - mb, "low": float("nan"), "high": float("nan"), "df": df}
    se = math.sqrt(ss / df * (1 / na + 1 / nb))
    t = T_975.get(df, 1.96)
    return {"diff": ma - mb, "low": ma - mb - t * se, "high": ma - mb + t * se, "df": df}


def _sd(values: list[float]) -> float:
    m = sum(values) / len(values)
    return (
        math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0
    )


def summarise(runs: list[dict[str, Any]], seeds: list[int]) -> dict[str, Any]:
    """Pooled figures per trainer and the differences new - old, per opponent."""
    pooled: dict[str, Any] = {}
    for trainer in TRAINERS:
        mine = [r for r in runs if r["trainer"] == trainer]
        row: dict[str, Any] = {
            "train_wall_s": [r["timing"]["wall_s"] for r in mine],
            "train_cpu_s": [r["timing"]["cpu_s"] for r in mine],
        }
        for opponent in OPPONENTS:
            wins = sum(r["eval"][opponent]["wins"] for r in mine)
            games = sum(r["eval"][opponent]["games"] for r in mine)
            rates = [r["eval"][opponent]["rate"] for r in mine]
            low, high = wilson(wins, games)
            row[opponent] = {
                "wins": wins,
                "games": games,
                "rate": wins / games,
                "low": low,
                "high": high,
                "seed_rates": rates,
                "seed_mean": sum(rates) / len(rates),
                "seed_sd": _sd(rates),
            }
        pooled[trainer] = row
    diff: dict[str, Any] = {}
    for opponent in OPPONENTS:
        new, old = pooled["new"][opponent], pooled["old"][opponent]
        d, low, high = newcombe(new["wins"], new["games"], old["wins"], old["games"])
        by_seed = seed_t(new["seed_rates"], old["seed_rates"])
        diff[opponent] = {
            "games_level": {"diff": d, "low": low, "high": high, "method": "Newcombe hybrid"},
            "seed_level": {**by_seed, "method": "pooled two-sample t on per-seed rates"},
            "within_noise": low <= 0 <= high and by_seed["low"] <= 0 <= by_seed["high"],
        }
    return {"pooled": pooled, "new_minus_old": diff, "seeds": seeds}


# ---------------------------------------------------------------------------- report
def _cell(r: dict[str, Any]) -> str:
    return f"{r['wins']:g}/{r['games']} = {r['rate']:.3f} ({r['low']:.3f}-{r['high']:.3f})"


def markdown(result: dict[str, Any]) -> str:
    """The results as a markdown section."""
    meta, summary = result["meta"], result["summary"]
    lines = [
        "## Trainer strength: the script vs FastMaskablePPO",
        "",
        f"Measured {meta['date'][:10]} (trainers at commit {meta['code_commit'][:7]}, run from a "
        f"frozen checkout; `lab/experiments/trainer_strength.py` at {meta['repo_commit'][:7]}), "
        f"{meta['machine']['platform']}, {meta['machine']['cpus']} cores shared with other jobs. "
        f"The White Castle, 2 players: per seed and trainer one run of "
        f"{meta['timesteps']:,} learner steps (net 256,256; opponents random, heuristic, self "
        "weighted 2, 1, 1; 4 envs x 512 steps; minibatch 256; 5 epochs; lr 3e-4; no evaluation "
        "during training; games in the trainer's process, torch on one thread; runs one at a "
        "time). Then each final `model.zip`, greedy, against the heuristic and against random: "
        f"{meta['games']} games each, seats alternating, the same game seeds for every model "
        f"(evaluation seed {meta['eval_seed']}). Wins (a shared win counts 1/2) with 95% Wilson "
        "intervals; train times are the child process's wall and CPU (user + system) time.",
        "",
        "| trainer | seed | vs heuristic | vs random | train wall | train CPU |",
        "|---|---|---|---|---|---|",
    ]
    names = {"old": "old (`train_ppo`, FastMaskablePPO)", "new": "new (`ppo.py`)"}
    for run in result["runs"]:
        e, t = run["eval"], run["timing"]
        lines.append(
            f"| {run['trainer']} | {run['seed']} | {_cell(e['heuristic'])} | {_cell(e['random'])} "
            f"| {t['wall_s'] / 60:.1f} min | {t['cpu_s'] / 60:.1f} min |"
        )
    for trainer in TRAINERS:
        p = summary["pooled"][trainer]
        wall = sum(p["train_wall_s"]) / len(p["train_wall_s"])
        cpu = sum(p["train_cpu_s"]) / len(p["train_cpu_s"])
        lines.append(
            f"| **{names[trainer]}**, pooled | all | {_cell(p['heuristic'])} | "
            f"{_cell(p['random'])} | mean {wall / 60:.1f} min | mean {cpu / 60:.1f} min |"
        )
    lines += ["", "| new - old | over the pooled games (Newcombe) | over the seeds (t) |"]
    lines += ["|---|---|---|"]
    for opponent in OPPONENTS:
        d = summary["new_minus_old"][opponent]
        g, s = d["games_level"], d["seed_level"]
        lines.append(
            f"| vs {opponent} | {g['diff']:+.3f} ({g['low']:+.3f} to {g['high']:+.3f}) "
            f"| {s['diff']:+.3f} ({s['low']:+.3f} to {s['high']:+.3f}, df {s['df']}) |"
        )
    lines += [
        "",
        "Per-seed rates vs the heuristic: "
        + "; ".join(
            f"{t} {', '.join(f'{r:.3f}' for r in summary['pooled'][t]['heuristic']['seed_rates'])}"
            for t in TRAINERS
        )
        + ". The games-level interval counts the evaluation's noise only; the seed-level one "
        "also the runs' spread, from few seeds.",
        "",
    ]
    lines = [
        line
        if line.startswith("|")
        else textwrap.fill(line, width=100, break_on_hyphens=False, break_long_words=False)
        for line in lines
    ]
    return "\n".join(lines)


def _git(args: list[str], cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    return done.stdout.strip()


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv: list[str] | None = None) -> None:
    """Train what is missing, evaluate what is missing, write the JSON and the markdown."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--code", required=True, help="checkout the trainers are run from")
    p.add_argument("--root", default="/tmp/trainer_strength", help="folder of the run folders")
    p.add_argument("--seeds", default="0,1,2", help="training seeds, comma-separated")
    p.add_argument("--timesteps", type=int, default=200_000, help="learner steps per run")
    p.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    p.add_argument("--eval-seed", type=int, default=20261205, help="seed of the evaluation games")
    p.add_argument("--only", choices=("train", "all"), default="all", help="stop after training")
    here = Path(__file__).resolve().parents[2]
    p.add_argument("--json", default=str(here / "lab/benchmarks/results/trainer_strength.json"))
    p.add_argument("--markdown", default="", help="write the section here (default: <root>/...)")
    args = p.parse_args(argv)
    code, root = Path(args.code).resolve(), Path(args.root)
    seeds = [int(s) for s in args.seeds.split(",")]

    import boardgames_rl

    if not Path(boardgames_rl.__file__).resolve().is_relative_to(code):
        raise SystemExit(
            f"boardgames_rl comes from {boardgames_rl.__file__}, not {code}: run "
            f"with PYTHONPATH={code}"
        )
    env = {**os.environ, "PYTHONPATH": str(code), "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    plan = [(t, s) for s in seeds for t in TRAINERS]
    for trainer, seed in plan:
        out = root / f"{trainer}_s{seed}"
        if is_complete(out, args.timesteps):
            print(f"[{_now()}] {out}: complete, skipped", flush=True)
            continue
        train(trainer, seed, args.timesteps, out, env)
        if not is_complete(out, args.timesteps):
            raise SystemExit(f"{out}: not complete after training; see {out}.log")
    if args.only == "train":
        return

    runs = []
    for trainer, seed in plan:
        out = root / f"{trainer}_s{seed}"
        check_settings(trainer, out, seed)
        attempts = json.loads((out / "timing.json").read_text())
        timing = {
            "wall_s": round(sum(a["wall_s"] for a in attempts), 2),
            "cpu_s": round(sum(a["cpu_user_s"] + a["cpu_sys_s"] for a in attempts), 2),
            "trainer_wall_s": read_run_config(out).get("wall_time"),
            "attempts": attempts,
        }
        runs.append(
            {
                "trainer": trainer,
                "module": TRAINERS[trainer],
                "seed": seed,
                "folder": str(out),
                "command": train_command(trainer, seed, args.timesteps, out)[1:],
                "timing": timing,
                "eval": evaluation(out, args.games, args.eval_seed),
            }
        )
    result = {
        "question": "does the new trainer (training/ppo.py) reach the old one's (train_ppo.py, "
        "FastMaskablePPO) strength on the same budget?",
        "meta": {
            "date": _now(),
            "repo_commit": _git(["rev-parse", "HEAD"], here),
            "code_commit": _git(["rev-parse", "HEAD"], code),
            "code": str(code),
            "game": GAME,
            "game_config": GAME_CONFIG,
            "timesteps": args.timesteps,
            "games": args.games,
            "eval_seed": args.eval_seed,
            "shared_settings": SHARED,
            "machine": {
                "platform": platform.platform(),
                "python": platform.python_version(),
                "processor": platform.processor() or platform.machine(),
                "cpus": os.cpu_count(),
            },
        },
        "runs": runs,
        "summary": summarise(runs, seeds),
    }
    sys.path.insert(0, str(REPO_ROOT))  # the lab's helpers
    from lab.provenance import provenance

    result["provenance"] = provenance()
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    section = markdown(result)
    md_path = Path(args.markdown) if args.markdown else root / "trainer_strength.md"
    md_path.write_text(section)
    print(section)
    print(f"[{_now()}] wrote {args.json} and {md_path}", flush=True)


if __name__ == "__main__":
    main()
