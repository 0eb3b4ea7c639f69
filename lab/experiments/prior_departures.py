"""Where a residual pretrained policy departs from its prior, and whether those departures help.

A residual entry (``train_strong.py train --prior heuristic``) plays the heuristic's move unless
its learned logits outweigh the prior's bonus. This script asks two questions of such an entry
against the heuristic, on seeded games with the seats rotated (``arena.play_series``):

1. **Departures** (always): the games are replayed and, at every decision of the entry's seat,
   the prior's move is compared with the move played. Per seat and decision kind (the state's
   ``decision["kind"]``): decisions, departures, departures per won and per lost game, and the win
   rate of the games with and without such a departure. A departure that comes with losses is a
   correlation, not a cause (longer, harder games have more decisions of every kind).
2. **Variants** (``--variant``, repeatable): the same entry with one change in one seat, played on
   the same games as the entry itself, which gives the cause. ``SEAT:defer=KIND+KIND`` plays the
   prior's move at those decision kinds (read from the observation's ``decision`` field, as the
   player sees it); ``SEAT:scale=X`` sets the prior's bonus. Each row gives both win rates in that
   seat and the paired count: games the variant won and the entry lost (+), and the reverse (-),
   with the sign test's z.

    python lab/experiments/prior_departures.py --game castle_nightingale --games 200 --seed 77 \\
        --workers 2
    python lab/experiments/prior_departures.py --game castle_nightingale --games 800 --seed 77 \\
        --workers 2 --no-departures --variant ninja:defer=place --variant samurai:scale=3

Works for games whose states name their decisions and whose observation has a ``decision`` field
(Castle Nightingale, Night of the Ninja). ``--out`` gets the JSON (every game's seat and result per
agent, each replayed game's decisions and departures per kind, and its provenance); the tables are
printed, and the site's page is written from the JSON by ``python docs/generate.py``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.agents.pretrained import PretrainedAgent
from boardgames_rl.agents.registry import make_agent, register_agent
from boardgames_rl.arena import play_series
from boardgames_rl.arena.records import GameRecord
from boardgames_rl.core.agent import agent_view
from boardgames_rl.core.game import Game, InfoSet, State
from boardgames_rl.registry import make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's helpers
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402


# ---------------------------------------------------------------------------- 1. the variant agent
def decision_names(game: Game) -> tuple[str, ...]:
    """The decision kinds in the order of the observation's ``decision`` field."""
    names = importlib.import_module(f"boardgames_rl.games.{game.name}.state").DECISIONS
    if game.observation_spec["decision"].size != len(names):
        raise ValueError(f"{game.name}: the decision field does not match state.DECISIONS")
    return tuple(names)


class VariantAgent(PretrainedAgent):
    """The shipped entry with, in ``seat`` only, the prior's move at the decision kinds of
    ``defer`` (``+``-separated) and the prior's bonus ``scale`` (negative: the entry's)."""

    def __init__(self, game: Game, seat: int = 0, defer: str = "", scale: float = -1.0):
        super().__init__(game)
        if seat not in self.policies or self.policies[seat][0].prior is None:
            raise ValueError(f"pretrained_variant: seat {seat} has no residual entry")
        kinds = decision_names(game)
        unknown = [k for k in defer.split("+") if k and k not in kinds]
        if unknown:
            raise ValueError(f"pretrained_variant: unknown decision kinds {unknown}")
        self.seat, self.scale = seat, float(scale)
        field = game.observation_spec.slices["decision"]
        self.defer_columns = [field.start + kinds.index(k) for k in defer.split("+") if k]

    def logits(self, info_set: InfoSet, feature: np.ndarray | None) -> np.ndarray:
        obs = np.asarray(info_set.observation)
        if info_set.player == self.seat and feature is not None and obs[self.defer_columns].any():
            return np.where(feature > 0, 0.0, -np.inf)  # the prior's move
        return super().logits(info_set, feature)

    def prior_scale(self, seat: int) -> float:
        if seat == self.seat and self.scale >= 0:
            return self.scale
        return super().prior_scale(seat)


register_agent("pretrained_variant", VariantAgent)  # at import: spawned workers register it too


def variant_spec(text: str, game: Game) -> str:
    """``ninja:defer=place`` -> ``pretrained_variant:seat=0,defer=place``."""
    seat, _, options = text.partition(":")
    index = game.player_names.index(seat) if seat in game.player_names else int(seat)
    return f"pretrained_variant:seat={index}" + (f",{options}" if options else "")


# ---------------------------------------------------------------------------- 2. departures
def pending_kind(state: State) -> str:
    """The kind of ``state``'s pending decision (``state.decision["kind"]``, in the games whose
    states name their decisions)."""
    decision = getattr(state, "decision", None)
    if not isinstance(decision, dict):
        raise ValueError(f"{type(state).__name__} names no pending decision")
    return str(decision["kind"])


def departures(record: dict[str, Any]) -> dict[str, Any]:
    """Replay one record of ``pretrained`` (agent 0): its seat, whether it won, and per decision
    kind of its seat the decisions and the departures from the prior's move."""
    rec = GameRecord.from_dict(record)
    game = make_game(rec.game, **rec.config)
    agent = make_agent("pretrained", game)
    assert isinstance(agent, PretrainedAgent)
    agent.reset()
    seat = rec.seats.index(0)
    state = game.new_state(rec.state_seed)
    decisions: dict[str, int] = defaultdict(int)
    departed: dict[str, int] = defaultdict(int)
    for action in rec.actions:
        if state.current_player == seat:
            info = agent_view(agent, state, seat)
            feature = agent.prior_move(info)
            if feature is None:
                raise ValueError(f"{rec.game}: the pretrained entry has no prior to depart from")
            mask = np.asarray(info.legal_action_mask, bool)
            played = int(np.argmax(np.where(mask, agent.logits(info, feature), -np.inf)))
            if played != action:
                raise RuntimeError(f"game {rec.seed}: the replay does not play as recorded")
            kind = pending_kind(state)
            decisions[kind] += 1
            departed[kind] += played != int(np.argmax(feature))
        state.apply(action)
    return {
        "seat": seat,
        "won": seat in rec.winners,
        "decisions": dict(decisions),
        "departures": {k: v for k, v in departed.items() if v},
    }


def departure_table(games: list[dict[str, Any]], game: Game) -> str:
    """Markdown tables, one per seat, kinds by departures."""
    lines = []
    for seat, role in enumerate(game.player_names):
        mine = [g for g in games if g["seat"] == seat]
        won = [g for g in mine if g["won"]]
        lost = len(mine) - len(won)
        lines += [
            f"\n{role}: won {len(won)} of {len(mine)}",
            "",
            "| decision | decisions | departures | % | per won game | per lost game "
            "| win rate with one (games) | without (games) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        kinds = {k for g in mine for k in g["decisions"]}
        rows = []
        for kind in kinds:
            n = sum(g["decisions"].get(kind, 0) for g in mine)
            d = sum(g["departures"].get(kind, 0) for g in mine)
            d_won = sum(g["departures"].get(kind, 0) for g in won)
            with_one = [g["won"] for g in mine if g["departures"].get(kind)]
            without = [g["won"] for g in mine if not g["departures"].get(kind)]
            rows.append((-d, kind, n, d, d_won, with_one, without))
        for _, kind, n, d, d_won, with_one, without in sorted(rows):
            lines.append(
                f"| {kind} | {n} | {d} | {100 * d / n:.1f} | {d_won / max(len(won), 1):.2f} | "
                f"{(d - d_won) / max(lost, 1):.2f} | {_rate(with_one)} | {_rate(without)} |"
            )
    return "\n".join(lines)


def _rate(wins: Sequence[bool]) -> str:
    return f"{sum(wins) / len(wins):.2f} ({len(wins)})" if wins else "- (0)"


# ---------------------------------------------------------------------------- 3. the script
def seat_wins(result: Any) -> list[tuple[int, int]]:
    """(seat of agent 0, 1 if it won) per game."""
    return [(r.seats.index(0), int(r.seats.index(0) in r.winners)) for r in result.records]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--game", default="castle_nightingale")
    p.add_argument("--games", type=int, default=200, help="games per agent, seats rotated")
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--variant", action="append", default=[], help="SEAT:defer=K+K or :scale=X")
    p.add_argument("--no-departures", dest="departures", action="store_false")
    p.add_argument("--out", default="runs/prior_departures.json")
    a = p.parse_args(argv)
    if a.games < 1 or a.workers < 1:
        p.error("--games and --workers must be >= 1")
    game = make_game(a.game)
    specs = {"pretrained": "pretrained"}
    specs.update({v: variant_spec(v, game) for v in a.variant})
    out: dict[str, Any] = {"game": a.game, "games": a.games, "seed": a.seed, "agents": {}}
    results = {}
    for label, spec in specs.items():
        start = time.perf_counter()
        result = play_series(game, [spec, "heuristic"], a.games, a.seed, False, a.workers)
        results[label] = result
        out["agents"][label] = {"spec": spec, "seat_wins": seat_wins(result)}
        print(f"{label}: {result.wins(0) / a.games:.3f} ({time.perf_counter() - start:.0f} s)")
    command = "python lab/experiments/prior_departures.py " + " ".join(argv or sys.argv[1:])
    report = [
        f"# {a.game}: the pretrained entry's departures from its prior",
        "",
        f"`{command}`: {a.games} games against the heuristic per agent, seats rotated, seed "
        f"{a.seed}; the entry won "
        f"{results['pretrained'].wins(0) / a.games:.3f}.",
    ]
    if a.variant:
        report += [
            "",
            "| variant | seat | entry | variant | + | - | sign test z |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
    base = out["agents"]["pretrained"]["seat_wins"]
    for label in a.variant:
        mine = out["agents"][label]["seat_wins"]
        for seat, role in enumerate(game.player_names):
            pairs = [(b[1], m[1]) for b, m in zip(base, mine, strict=True) if b[0] == seat]
            up = sum(m > b for b, m in pairs)
            down = sum(m < b for b, m in pairs)
            z = (up - down) / math.sqrt(max(up + down, 1))
            report.append(
                f"| `{label}` | {role} | {sum(b for b, _ in pairs) / len(pairs):.3f} | "
                f"{sum(m for _, m in pairs) / len(pairs):.3f} | {up} | {down} | {z:.2f} |"
            )
    if a.departures:
        records = [r.to_dict() for r in results["pretrained"].records]
        if a.workers == 1:
            rows = [departures(r) for r in records]
        else:
            context = multiprocessing.get_context("spawn")
            with one_blas_thread_in_children():
                pool = ProcessPoolExecutor(a.workers, mp_context=context)
            with pool:
                rows = list(pool.map(departures, records, chunksize=4))
        out["departures"] = rows
        report.append(departure_table(rows, game))
    text = "\n".join(report) + "\n"
    print(text)
    path = Path(a.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**out, "provenance": provenance()}))
    print(f"wrote {path}; now run `python docs/generate.py` to write the site's page")


if __name__ == "__main__":
    main()
