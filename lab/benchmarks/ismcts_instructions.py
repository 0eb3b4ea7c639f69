"""Instructions per warm ISMCTS move, both builds: a measure of the search's cost that the machine's
load does not move (callgrind counts instructions, not seconds).

    python lab/benchmarks/ismcts_instructions.py     # four games, both builds
    python lab/benchmarks/ismcts_instructions.py --games white_castle --builds compiled

For each game and build, one process makes ``--moves`` tuned ISMCTS decisions (``preset=tuned``,
``--iterations``) on ``throughput.py``'s decision states per round, under ``valgrind
--tool=callgrind``, once with one round and once with three: the difference, divided by two
rounds of moves, is the instructions of a move whose one-off caches (Castle Flutterstone's
landing tables) were filled in the first round. Each game takes a few minutes per build (callgrind
runs the interpreter about 50 times slower). The JSON (``--out``) holds every figure, the ratio of
the builds and the commit. Needs valgrind (Debian's package).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone
    sys.path.insert(0, str(REPO_ROOT))

from lab.benchmarks.callgrind import BUILDS, collected, measure  # noqa: E402

GAMES = [
    "castle_flutterstone:num_players=2",
    "castle_nightingale",
    "night_of_the_ninja:num_players=5",
    "white_castle:num_players=2",
]
"""The games measured by default: the issue's ISMCTS setups."""

MOVES = """
import sys
import numpy as np
from boardgames_rl.agents import make_agent
from lab.benchmarks.throughput import decision_states, targets_for
game = targets_for(sys.argv[1])[0].game
moves, rounds, iterations = (int(x) for x in sys.argv[2:5])
states = decision_states(game, 4, 0)
spec = f"ismcts:preset=tuned,iterations={iterations}"
for _ in range(rounds):
    for k in range(moves):
        state = states[k % len(states)]
        agent = make_agent(spec, game)
        agent.act(state.info_set(state.current_player), np.random.default_rng(k))
"""
"""The measured process: ``rounds`` rounds of the same ``moves`` decisions."""


def instructions(game: str, build: str, moves: int, rounds: int, iterations: int) -> int:
    """Instructions of one process making ``rounds`` rounds of ``moves`` decisions."""
    args = [game, str(moves), str(rounds), str(iterations)]
    return collected("ismcts_instructions", MOVES, args, build, game)


def per_move(game: str, build: str, moves: int, iterations: int) -> float:
    """Instructions of one warm move (three rounds less one, over two rounds of moves)."""
    one = instructions(game, build, moves, 1, iterations)
    three = instructions(game, build, moves, 3, iterations)
    return (three - one) / (2 * moves)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", nargs="+", default=GAMES, metavar="NAME[:k=v,...]")
    p.add_argument("--builds", nargs="+", default=list(BUILDS), choices=BUILDS)
    p.add_argument("--moves", type=int, default=4, help="decisions per round (default 4)")
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--out", type=Path, help="a JSON file for the figures (default: none)")
    a = p.parse_args(argv)
    if a.moves < 1 or a.iterations < 1:
        p.error("--moves and --iterations must be >= 1")
    measure(
        "ismcts_instructions",
        a.games,
        a.builds,
        lambda game, build: per_move(game, build, a.moves, a.iterations),
        (1e6, "M instructions a move"),
        "instructions per warm ISMCTS move (callgrind)",
        {"moves": a.moves, "iterations": a.iterations, "preset": "tuned"},
        a.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
