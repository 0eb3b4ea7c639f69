"""Castle Flutterstone at 3 and 4 players: which of the race solver's decisions carry its strength.

The ``solver`` agent races one rival with the 2-player tables. Alone against heuristics it wins
1.56x a heuristic seat's rate at 3 players but 0.90x at 4 (2,000 games, seed 79), so it is no
prior for a 4-player entry. This script plays its variants alone against a table of
heuristics, seats rotated, and prints each one's win rate beside a heuristic seat's in the same
games and by the seat it held:

* ``solver``: the agent as shipped;
* ``heuristic:<KINDS>``: the heuristic decides the decision kinds named (``FLICK``, ``MOVE``,
  ``PLAY_CARDS``, ``DISCARD``, comma-separated: names of the game's ``Phase``), the solver the
  rest;
* ``flicks:<mean|min|product>``: a flick is valued against the race with every opponent still
  racing (their mean, their minimum, or their product), not against the rival's alone;
* ``rival:leader``: the rival is the opponent whose figure is farthest on;
* ``moat:<λ>``: a moat landing is worth ``λ`` times what the solver's tables say a drawn card is
  worth, plus ``1 - λ`` times a landing that draws nothing (``moat:1`` is the solver; the
  shipped agent's option ``solver:moat=<λ>``).

    python lab/experiments/flutterstone_solver_parts.py --players 4 --games 2000
    python lab/experiments/flutterstone_solver_parts.py --variants solver heuristic:FLICK,MOVE

A run of 2,000 games takes seconds per variant once the tables are solved (cached).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.arena import play_series  # noqa: E402
from boardgames_rl.core.agent import Agent  # noqa: E402
from boardgames_rl.core.files import write_text  # noqa: E402
from boardgames_rl.core.game import InfoSet  # noqa: E402
from boardgames_rl.games.castle_flutterstone.ai.race_agent import (  # noqa: E402
    RaceSolverAgent,
    draw_share,
    hand_index,
)
from boardgames_rl.games.castle_flutterstone.data import Phase  # noqa: E402
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame  # noqa: E402
from boardgames_rl.games.castle_flutterstone.infoset import (  # noqa: E402
    CastleFlutterstoneView,
    flutterstone_info_set,
)
from boardgames_rl.games.castle_flutterstone.landing import Zone  # noqa: E402
from boardgames_rl.games.castle_flutterstone.movement import (  # noqa: E402
    advance,
    occupied_by_others,
)
from lab.provenance import provenance  # noqa: E402

DEFAULT_VARIANTS = [
    "solver",
    "heuristic:FLICK",
    "heuristic:FLICK,MOVE",
    "heuristic:PLAY_CARDS",
    "flicks:mean",
    "flicks:min",
    "flicks:product",
    "rival:leader",
    "moat:0.3",
]


class PartlyHeuristic(Agent):
    """The solver, with the heuristic deciding the decision kinds in ``kinds``."""

    name = "solver-part-heuristic"

    def __init__(self, game: CastleFlutterstoneGame, kinds: set[Phase]):
        self.solver = RaceSolverAgent(game, progress=False)
        self.heuristic = make_agent("heuristic", game)
        self.kinds = kinds

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        phase = flutterstone_info_set(info_set).view.phase
        agent = self.heuristic if phase in self.kinds else self.solver
        return agent.act(info_set, rng)


class FlicksAgainstAll(RaceSolverAgent):
    """The solver, its flicks valued against every opponent still racing (``combine``)."""

    def __init__(self, game: CastleFlutterstoneGame, combine: str):
        super().__init__(game, progress=False)
        self.combine = combine

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        info = flutterstone_info_set(info_set)
        view, game, legal, me = info.view, info.game, info.legal_action_mask, info.player
        if view.phase != Phase.FLICK:
            return super().act(info_set, rng)
        values = np.array([self._flick_values(game, view, me, j) for j in _racing(view, me)])
        if self.combine == "mean":
            score = values.mean(axis=0)
        elif self.combine == "min":
            score = values.min(axis=0)
        else:
            score = np.log(np.maximum(values, 1e-12)).sum(axis=0)
        return int(np.argmax(np.where(legal[: game.layout.num_flicks], score, -np.inf)))

    def _flick_values(
        self, game: CastleFlutterstoneGame, view: CastleFlutterstoneView, me: int, rival: int
    ) -> np.ndarray:
        """Every flick's chance of winning the race against ``rival`` (as the solver values a
        flick against its rival)."""
        race = self.race(me, rival)
        a, hand = view.positions[me], view.hand(me)
        h = hand_index(hand)
        occupied = occupied_by_others(view.positions, me, game.goal)
        dest = [advance(a, k, occupied, game.bridges, game.goal) for k in range(4)]
        after = self._after_shot(
            race, view.shots_left, a, view.positions[rival], hand_index(view.hand(rival))
        )
        reach = [after(dest[k], h) for k in range(4)]
        w = np.zeros(5)
        w[Zone.MISS] = after(a, h)
        w[Zone.COURTYARD] = max(reach[:2]) if game.courtyard_optional else reach[1]
        w[Zone.CASTLE] = max(reach[:3])
        w[Zone.WINDOW] = max(reach)
        w[Zone.MOAT] = self._moat_value(after, a, hand, draw_share(view))
        return np.asarray(race.model.tables[race.mover] @ w)


class LeaderRival(RaceSolverAgent):
    """The solver, racing the opponent whose figure is farthest on."""

    def rival(self, view: CastleFlutterstoneView, me: int) -> int:
        return max(_racing(view, me), key=lambda j: view.positions[j])


def _racing(view: CastleFlutterstoneView, me: int) -> list[int]:
    """The opponents of ``me`` in turn order after it, those that have not finished."""
    n = len(view.positions)
    return [(me + k) % n for k in range(1, n) if (me + k) % n not in view.finished]


def make_variant(spec: str, game: CastleFlutterstoneGame) -> Agent:
    """The agent of a variant name (module docstring); an unknown name is refused."""
    kind, _, arg = spec.partition(":")
    if spec == "solver":
        return RaceSolverAgent(game, progress=False)
    if kind == "heuristic" and arg:
        try:
            return PartlyHeuristic(game, {Phase[name] for name in arg.split(",")})
        except KeyError as e:
            raise SystemExit(f"unknown decision kind {e} in {spec!r}: use FLICK, MOVE, ...") from e
    if kind == "flicks" and arg in ("mean", "min", "product"):
        return FlicksAgainstAll(game, arg)
    if spec == "rival:leader":
        return LeaderRival(game, progress=False)
    if kind == "moat":
        try:
            weight = float(arg)
        except ValueError:
            weight = -1.0
        if 0.0 <= weight <= 1.0:
            return RaceSolverAgent(game, progress=False, moat=weight)  # the shipped option
    raise SystemExit(f"unknown variant {spec!r}: see the module docstring for the names")


def measure(game: CastleFlutterstoneGame, agent: Agent, games: int, seed: int) -> dict[str, Any]:
    """``agent`` alone against heuristics, seats rotated: its rate, a heuristic seat's, by seat."""
    n = game.num_players
    result = play_series(game, [agent] + ["heuristic"] * (n - 1), games, seed=seed, progress=False)
    rate, low, high = result.win_rate(0)
    seat_rate = sum(result.wins(i) for i in range(1, n)) / (n - 1) / len(result.records)
    by_seat = []
    for seat in range(n):
        mine = [r for r in result.records if r.seats[seat] == 0]
        by_seat.append(sum(1 for r in mine if r.returns[seat] > 0) / max(len(mine), 1))
    return {
        "rate": rate,
        "low": low,
        "high": high,
        "heuristic_seat": seat_rate,
        "ratio": rate / seat_rate if seat_rate else float("inf"),
        "by_seat": by_seat,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=79)
    parser.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS)
    parser.add_argument("--out", default="", help="a JSON file for the table (default: none)")
    args = parser.parse_args(argv)
    game = CastleFlutterstoneGame(num_players=args.players)
    agents = {spec: make_variant(spec, game) for spec in args.variants}  # refuse early
    rows = {}
    print(f"{args.players} players, {args.games} games each, seed {args.seed}", flush=True)
    for spec, agent in agents.items():
        start = time.perf_counter()
        row = rows[spec] = measure(game, agent, args.games, args.seed)
        seats = " ".join(f"{x:.3f}" for x in row["by_seat"])
        print(
            f"{spec:24s} {row['rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}]  heuristic seat "
            f"{row['heuristic_seat']:.3f}  {row['ratio']:.2f}x  by seat {seats}  "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    if args.out:
        summary = {"players": args.players, "games": args.games, "seed": args.seed, "rows": rows}
        out = Path(args.out)
        write_text(out, json.dumps({**summary, "provenance": provenance()}, indent=1) + "\n")
        print(f"saved {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
