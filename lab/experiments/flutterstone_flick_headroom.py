"""Castle Flutterstone: how much a better flick is worth against heuristics (policy improvement).

A flick matters only through the zone it lands in. At each of its flicks the agent here values
every zone by rollouts: ``--samples`` info-set samples (the hidden order of the ghost pile dealt
again, nothing else is hidden), and for each, the flick resolved into each of the five zones and
the game played on by heuristics in every seat, with the same random numbers for the five (common
random numbers). It then takes the flick with the highest sum of zone chance times zone value,
over every legal flick; every other decision is the heuristic's. That is one step of policy
improvement of the heuristic: if it does not beat a heuristic seat, better flicks alone will not.

The zone is forced through the engine's ``state.landing_draw`` hook (the one the rules tests use),
which only the pure-Python build reads, so the script runs that build itself
(``BOARDGAMES_RL_PURE=1`` is set before the package is imported).

    python lab/experiments/flutterstone_flick_headroom.py --players 4 --games 400 --seed 90

At 4 players, 32 samples: 192 wins in 800 games (seeds 90 and 91, 400 each, 13 minutes per
process) = 0.240 [0.212, 0.271] against a heuristic seat's 0.254: no gain.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ["BOARDGAMES_RL_PURE"] = "1"  # before the package: the hook is the pure build's

import numpy as np  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import boardgames_rl.games.castle_flutterstone.state as engine  # noqa: E402
from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.arena import play_series  # noqa: E402
from boardgames_rl.core.agent import Agent  # noqa: E402
from boardgames_rl.core.game import InfoSet, State  # noqa: E402
from boardgames_rl.games.castle_flutterstone.data import Phase  # noqa: E402
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues  # noqa: E402
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame  # noqa: E402
from boardgames_rl.games.castle_flutterstone.infoset import flutterstone_info_set  # noqa: E402
from boardgames_rl.games.castle_flutterstone.landing import Effects, Zone  # noqa: E402

_draw = engine.landing_draw
_forced: list[Zone | None] = [None]


def _landing(*args: object, **kwargs: object) -> Zone:
    """The engine's draw, or the zone forced for the next flick (once)."""
    zone = _forced[0]
    if zone is None:
        return _draw(*args, **kwargs)
    _forced[0] = None
    return zone


engine.landing_draw = _landing


class FlicksByRollouts(Agent):
    """The heuristic, its flicks chosen by rollout values of the landing zones (module
    docstring). Only the basic game's effects: with a pesky card in front of it or the ghost in a
    window, it flicks as the heuristic."""

    name = "flicks-by-rollouts"

    def __init__(self, game: CastleFlutterstoneGame, samples: int):
        self.samples = samples
        self.heuristic = make_agent("heuristic", game)
        self.table = FlickValues(0.0, 0.0).table(game, game.skills[0], Effects())
        if len(set(game.skills)) != 1:
            raise SystemExit("flick headroom: every seat must have the same skill")

    def _win(self, state: State, me: int, rng: np.random.Generator) -> bool:
        while not state.is_terminal():
            state.apply(self.heuristic.act(state.info_set(state.current_player), rng))
        return bool(state.returns()[me] > 0)

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        info = flutterstone_info_set(info_set)
        view, me = info.view, info.player
        if view.phase != Phase.FLICK or any(view.pesky[me]) or view.blocked_band:
            return self.heuristic.act(info_set, rng)
        flick = self.heuristic.act(info_set, rng)  # any flick: the zone is forced
        values = np.zeros(5)
        for _ in range(self.samples):
            sampled = info_set.sample(rng)
            seed = int(rng.integers(2**31))
            for zone in Zone:
                state = sampled.clone()
                _forced[0] = zone
                state.apply(flick)
                _forced[0] = None
                values[zone] += self._win(state, me, np.random.default_rng(seed))
        legal = info.legal_action_mask[: info.game.layout.num_flicks]
        return int(np.argmax(np.where(legal, self.table @ values, -np.inf)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=90)
    parser.add_argument("--samples", type=int, default=32, help="info-set samples per flick")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.games < 1:
        raise SystemExit("--samples and --games must be at least 1")
    game = CastleFlutterstoneGame(num_players=args.players)
    n = game.num_players
    start = time.perf_counter()
    agent = FlicksByRollouts(game, args.samples)
    result = play_series(game, [agent] + ["heuristic"] * (n - 1), args.games, seed=args.seed)
    rate, low, high = result.win_rate(0)
    seat = sum(result.wins(i) for i in range(1, n)) / (n - 1) / len(result.records)
    print(
        f"{n} players, {args.samples} samples a flick, seed {args.seed}: {rate:.3f} "
        f"[{low:.3f}, {high:.3f}] of {args.games} games; a heuristic seat {seat:.3f} "
        f"({rate / seat:.2f}x); {time.perf_counter() - start:.0f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
