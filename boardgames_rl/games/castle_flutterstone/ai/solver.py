"""The two-player race solved: win probabilities of every position by value iteration.

The heuristic plays for the most expected fields per flick. What wins a race is the chance of
reaching the last step first, and that differs: a field in front of a rotten bridge is worth
less than its number says, a figure just behind the other one jumps it for free, a Second go is
worth more when the goal is near, and a safe courtyard flick beats a likely window when one
field wins. :func:`solve` computes, for the basic two-player game, the probability that the
player whose turn starts wins, for every

    (mover's field, other figure's field, mover's helpful cards, other player's helpful cards)

(22 x 22 x 20 x 20 positions on the default track), both players playing to win. The landing
model gives each flick's zone probabilities (:class:`~..flick_values.FlickValues`), so a decision's
value is exact given the value of what follows; value iteration repeats that to a fixed point.

Modelling choices (each changes the values a little, none the rules):

* a ghost card drawn from the moat is of each helpful kind in proportion to the whole deck
  (5 / 5 / 4); at play time :class:`~.solver_agent.RaceSolverAgent` uses the true pile;
* the turn cap (a draw after 150 turns each) is ignored: no real game comes near it; instead a
  turn that ends where its last shot started is discounted towards a draw
  (:data:`STALL_DISCOUNT`), so that waiting for ever is worth a draw and the iteration converges.

Inside a turn, ``shots`` is the number of bats left including the one about to fly (a Second
go adds one). The arrays, for each mover class ``m`` (one class when both seats have the same
skill profile, else one per seat), are indexed ``[a, b, h, o]``: the mover's field ``a``, the
other figure's field ``b`` (both ``< goal``), the mover's cards ``h`` and the other player's
``o`` (indices of :data:`HANDS`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.games.castle_flutterstone.data import MAX_HELPFUL_HELD, Card
from boardgames_rl.games.castle_flutterstone.flick_values import FlickValues
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.landing import Effects, Zone
from boardgames_rl.games.castle_flutterstone.movement import advance, ghost_jump

HANDS: tuple[tuple[int, int, int], ...] = tuple(
    (s, m, j)
    for n in range(MAX_HELPFUL_HELD + 1)
    for s in range(n + 1)
    for m in range(n - s + 1)
    for j in [n - s - m]
)
"""Every holding of helpful cards (Second go, Moving forward, Ghost jump counts), at most three
cards, smallest holdings first."""

HAND_INDEX: dict[tuple[int, int, int], int] = {h: i for i, h in enumerate(HANDS)}
MAX_SHOTS = 1 + MAX_HELPFUL_HELD
"""One bat, plus one per Second go played."""

STALL_DISCOUNT = 0.98
"""A turn whose last shot leaves the figure where it was counts its outcome ``0.5 + 0.98 *
(value - 0.5)``: a little nearer a draw. Either player may always stand still (every move is
"up to"), so without it two players who both prefer waiting would wait for ever (the turn cap's
draw), and value iteration would cycle instead of converging; with it every such cycle shrinks."""

DECK_SHARE = np.array([5.0, 5.0, 4.0]) / 14.0
"""Chance of each helpful kind for a card drawn in the solved model (the whole deck's mix)."""


def _hand_tables() -> tuple[np.ndarray, np.ndarray, list[list[list[int]]]]:
    """``minus[h, c]`` (``h`` without one card of kind ``c``, or -1), ``size[h]``, and for a
    drawn card of kind ``c``, ``after_draw[c][h]``: the holdings the player may keep (one, or
    with a fourth card, any three of the four)."""
    n = len(HANDS)
    minus = np.full((n, 3), -1, dtype=np.int64)
    size = np.array([sum(h) for h in HANDS])
    after_draw: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(3)]
    for i, h in enumerate(HANDS):
        for c in range(3):
            if h[c]:
                less = list(h)
                less[c] -= 1
                minus[i, c] = HAND_INDEX[tuple(less)]  # type: ignore[index]
            more = list(h)
            more[c] += 1
            if sum(more) <= MAX_HELPFUL_HELD:
                after_draw[c][i] = [HAND_INDEX[tuple(more)]]  # type: ignore[index]
            else:  # four cards: discard any one of them
                keep = {i}
                for d in range(3):
                    if more[d]:
                        kept = list(more)
                        kept[d] -= 1
                        keep.add(HAND_INDEX[tuple(kept)])  # type: ignore[index]
                after_draw[c][i] = sorted(keep)
    return minus, size, after_draw


MINUS, SIZE, AFTER_DRAW = _hand_tables()


def hand_index(counts) -> int:
    """Index in :data:`HANDS` of a player's helpful cards (counts by kind)."""
    return HAND_INDEX[(int(counts[0]), int(counts[1]), int(counts[2]))]


def check_solvable(game: CastleFlutterstoneGame, players: tuple[int, ...] = (2,)) -> None:
    """Refuse, in one line, a configuration the solver does not model (``players``: the player
    counts the caller accepts; the tables themselves are of the 2-player race)."""
    if game.num_players not in players or game.pesky_ghosts or game.play_on:
        counts = "/".join(str(n) for n in players)
        raise InvalidConfigError(
            f"castle_flutterstone solver: solves the basic {counts}-player game only "
            f"(num_players in {list(players)}, pesky_ghosts=false, play_on=false); use the "
            "heuristic otherwise"
        )


def two_player_twin(game: CastleFlutterstoneGame, seats: tuple[int, int]) -> CastleFlutterstoneGame:
    """The basic 2-player game of ``game`` 's track and landing model with the skills of these
    two seats (in this order): the race whose tables a seat of a bigger table reads (the turn
    cap scaled to two players; the solver ignores it)."""
    config = dict(game.config)
    config.update(
        num_players=2,
        skills=[game.config["skills"][seat] for seat in seats],
        max_turns=max(2, game.max_turns * 2 // game.num_players),
        first_player=0,
    )
    return CastleFlutterstoneGame(**config)


@dataclass
class RaceTables:
    """The solved race of one game configuration.

    ``value[m, a, b, h, o]``: chance that the mover (class ``m``) wins, at the start of a turn.
    ``flick[m, s - 1, a, b, h, o]``: the same when the mover is about to flick with ``s`` bats
    left (cards already played). ``play[m, s - 1, ...]``: the same before choosing which cards
    to play, with ``s`` bats so far. Seats map to classes by ``seat_class``.
    """

    value: np.ndarray
    flick: np.ndarray
    play: np.ndarray
    seat_class: tuple[int, ...]
    sweeps: int
    residual: float
    stall_discount: float


class RaceModel:
    """The game's race facts as arrays: where each move ends, each flick's zone chances."""

    def __init__(self, game: CastleFlutterstoneGame):
        check_solvable(game)
        self.game = game
        goal = self.goal = game.goal
        skills = list(game.skills)
        self.seat_class = (0, 0) if skills[0] == skills[1] else (0, 1)
        values = FlickValues(card_value=0.0, win_bonus=0.0)
        self.tables = [
            values.table(game, skills[seat], Effects()) for seat in sorted(set(self.seat_class))
        ]
        self.hulls = [table[extreme_rows(table)] for table in self.tables]
        # dest[a, b, k]: field reached moving k fields from a with the other figure on b
        self.dest = np.zeros((goal, goal, 4), dtype=np.int64)
        # jump[a, b]: field reached by a Ghost jump, -1 when no figure is ahead
        self.jump = np.full((goal, goal), -1, dtype=np.int64)
        for a in range(goal):
            for b in range(goal):
                occupied = {b} if 0 < b < goal else set()
                for k in range(4):
                    self.dest[a, b, k] = advance(a, k, occupied, game.bridges, goal)
                if 0 < b < goal and b > a:
                    self.jump[a, b] = ghost_jump(a, occupied, game.bridges, goal)
        self.stays = self.dest == np.arange(goal)[:, None, None]
        self.courtyard_optional = game.courtyard_optional


def extreme_rows(table: np.ndarray) -> np.ndarray:
    """Indices of the flicks that can be the best for some zone values: the vertices of the
    convex hull of the zone-chance rows (a row inside the hull is never strictly better than
    every vertex). All rows when the hull cannot be built."""
    try:
        from scipy.spatial import ConvexHull, QhullError
    except ImportError:  # scipy is optional: the full table gives the same maxima, slower
        return np.arange(len(table))
    try:
        return np.sort(ConvexHull(table[:, :4]).vertices)
    except (QhullError, ValueError):
        return np.arange(len(table))


def _pad_win(x: np.ndarray) -> np.ndarray:
    """``x[a, ...]`` with one more row ``a = goal``: the mover has reached the last step (1)."""
    return np.concatenate([x, np.ones((1, *x.shape[1:]))], axis=0)


def zone_values(
    model: RaceModel,
    after: np.ndarray,
    stay: np.ndarray,
    draw_share: np.ndarray = DECK_SHARE,
) -> np.ndarray:
    """``W[a, b, h, o, zone]``: the mover's chance to win after each landing zone, given
    ``after[a', b, h', o]`` (``a'`` up to ``goal``), the chance once the shot is resolved with
    the figure on ``a'`` and cards ``h'``, and ``stay[a, b, h', o]``, the same when the figure
    has not moved."""
    goal = model.goal
    rows = np.arange(goal)[None, :]
    moved = [
        np.where(model.stays[:, :, k, None, None], stay, after[model.dest[:, :, k], rows])
        for k in range(4)
    ]  # [k][a, b, h, o]
    up_to = list(np.maximum.accumulate(np.stack(moved), axis=0))  # best of 0..k fields
    w = np.empty((goal, goal, len(HANDS), after.shape[3], 5))
    w[..., Zone.MISS] = moved[0]
    w[..., Zone.COURTYARD] = up_to[1] if model.courtyard_optional else moved[1]
    w[..., Zone.CASTLE] = up_to[2]
    w[..., Zone.WINDOW] = up_to[3]
    moat = np.zeros(stay.shape)
    for c in range(3):
        drawn = np.empty(stay.shape)
        for h in range(len(HANDS)):
            drawn[:, :, h] = stay[:, :, AFTER_DRAW[c][h]].max(axis=2)
        moat += draw_share[c] * drawn
    w[..., Zone.MOAT] = moat
    return w


def best_flick_value(w: np.ndarray, table: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """``max over flicks f of table[f] @ w[..., :]`` for every leading index of ``w``."""
    flat = w.reshape(-1, 5)
    out = np.empty(len(flat))
    tt = np.ascontiguousarray(table.T)
    for start in range(0, len(flat), chunk):
        out[start : start + chunk] = (flat[start : start + chunk] @ tt).max(axis=1)
    return out.reshape(w.shape[:-1])


def _turn_values(
    model: RaceModel, value: np.ndarray, m: int, stall_discount: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One backup for mover class ``m`` from the current ``value`` of every class: the flick
    values for 1..4 bats left, the play values, and the new start-of-turn value."""
    goal = model.goal
    other = 0 if len(model.tables) == 1 else 1 - m
    # the end of the turn: the other player starts theirs (value from their side)
    end = _pad_win(1.0 - value[other].transpose(1, 0, 3, 2))
    after, stay = end, 0.5 + stall_discount * (end[:goal] - 0.5)
    table = model.hulls[m]
    flick = np.empty((MAX_SHOTS, goal, goal, len(HANDS), value.shape[-1]))
    for s in range(1, MAX_SHOTS + 1):
        flick[s - 1] = best_flick_value(zone_values(model, after, stay), table)
        after = _pad_win(flick[s - 1])
        stay = after[:goal]
    play = flick.copy()
    cols = np.arange(goal)[None, :]
    for h in range(len(HANDS)):  # smaller holdings first: playing a card leads to one of them
        if SIZE[h] == 0:
            continue
        for s in range(1, MAX_SHOTS + 1):
            best = play[s - 1, :, :, h]
            go = MINUS[h, Card.SECOND_GO]
            if go >= 0 and s < MAX_SHOTS:
                best = np.maximum(best, play[s, :, :, go])
            fwd = MINUS[h, Card.MOVE_FORWARD]
            if fwd >= 0:
                padded = _pad_win(play[s - 1, :, :, fwd])
                best = np.maximum(best, padded[model.dest[:, :, 1], cols])
            jmp = MINUS[h, Card.GHOST_JUMP]
            if jmp >= 0:
                target = model.jump
                ok = target >= 0
                jumped = play[s - 1, np.where(ok, target, 0), cols.repeat(goal, 0), jmp]
                best = np.where(ok[..., None], np.maximum(best, jumped), best)
            play[s - 1, :, :, h] = best
    return flick, play, play[0]


def solve(
    game: CastleFlutterstoneGame,
    tol: float = 1e-7,
    max_sweeps: int = 2000,
    stall_discount: float = STALL_DISCOUNT,
    start: np.ndarray | None = None,
    progress: Callable[[int, float], None] | None = None,
    model: RaceModel | None = None,
) -> RaceTables:
    """Value iteration to ``tol`` (largest change of a win probability in one sweep), from
    ``start`` (a ``value`` array) or even chances."""
    model = RaceModel(game) if model is None else model
    goal = model.goal
    classes = len(model.tables)
    n = len(HANDS)
    value = np.full((classes, goal, goal, n, n), 0.5) if start is None else start.copy()
    flick = np.empty((classes, MAX_SHOTS, goal, goal, n, n))
    play = np.empty_like(flick)
    residual = np.inf
    sweeps = 0
    while sweeps < max_sweeps and residual > tol:
        new = np.empty_like(value)
        for m in range(classes):
            flick[m], play[m], new[m] = _turn_values(model, value, m, stall_discount)
        residual = float(np.abs(new - value).max())
        value = new
        sweeps += 1
        if progress is not None:
            progress(sweeps, residual)
    return RaceTables(value, flick, play, model.seat_class, sweeps, residual, stall_discount)


if __name__ == "__main__":  # pragma: no cover - a quick look: python -m ...solver
    t = time.perf_counter()
    tables = solve(CastleFlutterstoneGame(), progress=lambda k, r: print(k, f"{r:.2e}", flush=True))
    print(f"{tables.sweeps} sweeps, residual {tables.residual:.1e}, {time.perf_counter() - t:.1f}s")
    print("first player wins", tables.value[0, 0, 0, 0, 0])
