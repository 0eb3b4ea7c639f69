"""Throughput of every boardgames_rl game beside PettingZoo's connect_four_v3 and texas_holdem_v4.

Run from the repository root::

    python benchmarks/throughput.py                 # every game, 3 s per measurement
    python benchmarks/throughput.py --seconds 2 --games castle_flutterstone
    python benchmarks/throughput.py --help

It prints a table of steps/s (engine, AEC env, VectorEnv) with ratios to the PettingZoo AEC envs
and saves everything, with the machine description, to ``benchmarks/results/throughput.json``.
All the work is done by :mod:`boardgames_rl.benchmark` (also ``boardgames-rl bench``); see
``benchmarks/README.md`` for what is measured and how to read the ratios.
"""

import sys
from pathlib import Path

# Work from a source checkout even when the package is not installed.
REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl.benchmark import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
