"""``boardgames-rl bench``: the comparison benchmark, run from a source checkout.

The benchmark (``lab/benchmarks/throughput.py``, beside PettingZoo's connect_four and OpenSpiel)
is not part of the installed package (issue 12): it lives in the repository's ``lab/`` folder and
needs the ``[bench]`` extra. From a clone (an editable install, or any install run from inside
the clone) this command runs it; anywhere else it says in one line how to get it. A missing
``[bench]`` package is reported in one line naming the extra.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import boardgames_rl
from boardgames_rl.cli.common import CliError, add_command

NOT_IN_PACKAGE = (
    "boardgames-rl bench: the comparison benchmark ships with the source, not the package: "
    "git clone the repository, pip install -e '.[bench]' in it, and run `boardgames-rl bench` "
    "(or `python lab/benchmarks/throughput.py`) there"
)


def find_checkout() -> Path | None:
    """The root of the source checkout holding ``lab/benchmarks/throughput.py``: the one this
    package was imported from (editable install), else the working directory; ``None`` if
    neither."""
    for root in (Path(boardgames_rl.__file__).resolve().parents[1], Path.cwd().resolve()):
        if (root / "lab" / "benchmarks" / "throughput.py").is_file() and (
            root / "boardgames_rl"
        ).is_dir():
            return root
    return None


def run(args: argparse.Namespace) -> int:
    root = find_checkout()
    if root is None:
        raise CliError(NOT_IN_PACKAGE)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    bench = importlib.import_module("lab.benchmarks.throughput")
    argv: list[str] = ["--seed", str(args.seed)]
    if args.quick:
        argv.append("--quick")
    if args.rounds is not None:
        argv += ["--rounds", str(args.rounds)]
    if args.workers is not None:
        argv += ["--workers", str(args.workers)]
    if args.no_ppo:
        argv.append("--no-ppo")
    if args.no_progress:
        argv.append("--no-progress")
    if args.games:
        argv += ["--games", *args.games]
    if args.out is not None:
        argv += ["--out", args.out]
    try:
        return int(bench.main(argv) or 0)
    except SystemExit as e:  # the benchmark's one-line errors (a missing [bench] package, ...)
        if isinstance(e.code, str):
            raise CliError(e.code) from None
        raise


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "bench",
        "every speed ratio beside PettingZoo connect_four and OpenSpiel (from a source checkout)",
        [
            "boardgames-rl bench --quick",
            "boardgames-rl bench --rounds 3 --no-ppo",
            "boardgames-rl bench --games castle_flutterstone 'white_castle:num_players=4'",
        ],
        description="Runs lab/benchmarks/throughput.py of the source checkout (needs the [bench] "
        "extra; the PPO column also [train]): interleaved rounds, CPU time, medians and ranges.",
    )
    p.add_argument("--games", nargs="*", help="NAME or NAME:k=v,... (default: the issue's six)")
    p.add_argument("--quick", action="store_true", help="a smoke run")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 5)")
    p.add_argument("--workers", type=int, help="worker processes of the worker column")
    p.add_argument("--no-ppo", action="store_true", help="skip the PPO column")
    p.add_argument(
        "--no-progress", action="store_true", help="no per-round progress lines on stderr"
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", "--out", help="JSON file for the results ('' for none)")
    p.set_defaults(func=run)
