"""The race solver as a player: every decision by the chance of winning it leads to.

:class:`RaceSolverAgent` reads its info set (all of it public) and the solved tables of
:mod:`.solver`: a flick by its zone chances times the chance of winning after each zone, a move
by where it ends, a card by what follows playing it, a discard by the three cards kept. The draw
chances of the moat come from the true pile (its contents are public; only its order is hidden).
It is deterministic.

With two players it plays the solved race. With three or four it races its **rival**, the
opponent most likely to win a two-player race against it from here (that opponent's chance as
the next mover in the tables of the two seats' skills), by the two-player tables; where its
figure ends is moved by every figure on the path, as the rules move it. That is an
approximation whose worth depends on the table: the strength ladder's page has its win rates
alone against heuristics (``lab/experiments/flutterstone_solver.py --players N``): well ahead of
a heuristic seat at three players, behind one at four.

``moat`` (``solver:moat=0.3``) values a moat landing at that share of what the two-player tables
say its drawn card is worth, the rest as a landing that draws nothing (default 1: the tables'
value). With three opponents a drawn card is worth less than the tables say: at four players
``moat=0.3`` plays level with a heuristic seat where the solver falls behind one (measured by
``lab/experiments/flutterstone_solver_parts.py``; the figures are in
``docs/results/flutterstone_parts_4p.json`` and the CHANGELOG).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from boardgames_rl._util.progress import progress_bar
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import UnsafeFileError, read_bytes, write_stream
from boardgames_rl.core.game import InfoSet
from boardgames_rl.games.castle_flutterstone.ai.solver import (
    DECK_SHARE,
    HANDS,
    MAX_HELPFUL_HELD,
    MINUS,
    RaceModel,
    RaceTables,
    check_solvable,
    hand_index,
    solve,
    two_player_twin,
)
from boardgames_rl.games.castle_flutterstone.data import Card, Phase
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import (
    CastleFlutterstoneView,
    flutterstone_info_set,
)
from boardgames_rl.games.castle_flutterstone.landing import Zone
from boardgames_rl.games.castle_flutterstone.movement import (
    advance,
    ghost_jump,
    occupied_by_others,
)

PLAYER_COUNTS = (2, 3, 4)
"""The player counts the agent plays: the solved race with two, its rival's race with more."""

_SOLVED: dict[str, tuple[RaceModel, RaceTables]] = {}
"""Solved tables by game configuration (JSON), shared by every agent of this process."""

CACHE_VERSION = 1
"""Bumped whenever the solved model changes, so that older cached tables are solved again."""


def cache_dir() -> Path:
    """Where solved tables are kept between processes: ``$BOARDGAMES_RL_CACHE``, else
    ``$XDG_CACHE_HOME/boardgames_rl``, else ``~/.cache/boardgames_rl``."""
    if os.environ.get("BOARDGAMES_RL_CACHE"):
        return Path(os.environ["BOARDGAMES_RL_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardgames_rl"


SHIPPED_DIR = Path(__file__).resolve().parent / "race_tables"
"""Solved tables shipped with the package (the default track's, which the pretrained 3-player
entry's prior plays on), read like a cache file when the user's cache has none, so that a
fresh machine starts from the solved table instead of solving the default track.
``lab/recipes/ship_race_tables.py`` writes them; a test checks each is a fixed point."""


def _cache_name(key: str) -> str:
    digest = hashlib.sha256(f"{CACHE_VERSION}:{key}".encode()).hexdigest()[:16]
    return f"castle_flutterstone_race_{digest}.npz"


def _cache_path(key: str) -> Path:
    return cache_dir() / _cache_name(key)


def shipped_path(key: str) -> Path:
    """Where the package would ship the solved table of configuration ``key`` (JSON)."""
    return SHIPPED_DIR / _cache_name(key)


def _npy(z: zipfile.ZipFile, name: str, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """The array ``name`` of the archive ``z``: its header must say ``dtype`` and ``shape``
    (C order) before any of it is read, and the entry must hold exactly that many bytes."""
    nbytes = int(np.prod(shape)) * dtype.itemsize
    info = z.getinfo(name)
    if info.file_size > nbytes + 4096:
        raise ValueError(f"{name}: {info.file_size} bytes")
    with z.open(info) as f:
        data = f.read(nbytes + 4097)
    fp = io.BytesIO(data)
    version = np.lib.format.read_magic(fp)
    if version == (1, 0):
        header = np.lib.format.read_array_header_1_0(fp)
    elif version == (2, 0):
        header = np.lib.format.read_array_header_2_0(fp)
    else:
        raise ValueError(f"{name}: .npy version {version}")
    if header != (shape, False, dtype) or len(data) - fp.tell() != nbytes:
        raise ValueError(f"{name}: {header}")
    return np.frombuffer(data, dtype=dtype, count=int(np.prod(shape)), offset=fp.tell()).copy()


def _read_cached(path: Path, model: RaceModel, key: str) -> np.ndarray | None:
    """The cached value table, or ``None`` when absent, unreadable or not this game's: a cache
    file is data (read without unpickling) and anything wrong with it means solving again. Only
    a regular file no bigger than the table it must hold is read (a FIFO or a link to
    ``/dev/zero`` is not), and each array's header is checked (dtype, shape) before its values
    are read."""
    n = len(HANDS)
    shape = (len(model.tables), model.goal, model.goal, n, n)
    f8, text = np.dtype("<f8"), np.dtype(f"<U{len(key)}")
    limit = 8 * int(np.prod(shape)) * 257 // 256 + 4 * len(key) + (1 << 16)  # deflate may grow
    try:
        blob = read_bytes(path, limit, "solver cache")
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            if sorted(z.namelist()) != ["config.npy", "value.npy"]:
                return None
            stored_key = str(_npy(z, "config.npy", text, ())[0])
            value = _npy(z, "value.npy", f8, shape).reshape(shape)
    except (
        OSError,  # missing, unreadable
        UnsafeFileError,  # not a regular file, too big
        zipfile.BadZipFile,
        zlib.error,
        EOFError,
        KeyError,
        ValueError,  # a header that is not this table's
        RuntimeError,  # an encrypted entry
        NotImplementedError,  # an unknown compression
    ):
        return None
    if stored_key != key or not np.all((value >= 0) & (value <= 1)):
        return None
    return value


def _write_cached(path: Path, value: np.ndarray, key: str) -> None:
    """Store the value table at ``path`` (in :func:`cache_dir`): a fresh file renamed over it, so
    a link planted at ``path`` is replaced, never followed. A cache folder that cannot be written
    (read-only, a link below it) only means solving again next time."""

    def save(f: IO[bytes]) -> None:
        np.savez_compressed(f, value=value, config=np.array(key))

    with contextlib.suppress(OSError, UnsafeFileError):
        write_stream(path, save, root=cache_dir())


def solved(
    game: CastleFlutterstoneGame, cache: bool = True, progress: bool = True
) -> tuple[RaceModel, RaceTables]:
    """The model and solved tables of ``game`` 's configuration: from this process, else from
    the cache folder (:func:`cache_dir`), else from the tables the package ships
    (:data:`SHIPPED_DIR`: the default track's), else solved now (a minute or two on the default
    track) and cached. The flick and play tables are always rebuilt from the value table by one
    backup, so a cached file holds only win probabilities; a cache file that is damaged, foreign
    or not a regular file is solved again and replaced. ``cache=False`` reads and writes no cache
    file (a shipped table is still used: it is part of the package)."""
    key = json.dumps(game.config, sort_keys=True)
    hit = _SOLVED.get(key)
    if hit is not None:
        return hit
    model = RaceModel(game)
    path = _cache_path(key)
    cached = _read_cached(path, model, key) if cache else None
    start = cached if cached is not None else _read_cached(shipped_path(key), model, key)
    bar = progress_bar(desc="castle_flutterstone: solving the race", unit="sweep", enabled=progress)

    def sweep_done(sweep: int, change: float) -> None:
        bar.update(1)
        bar.set_postfix_str(f"change {change:.1e}")

    tables = solve(game, model=model, start=start, progress=sweep_done)
    bar.close()
    if cache and start is None:
        _write_cached(path, tables.value, key)
    hit = _SOLVED[key] = (model, tables)
    return hit


def build_solver(
    game: CastleFlutterstoneGame, cache: bool = True, progress: bool = True, moat: float = 1.0
) -> Agent:
    """Plays the basic race for the highest chance to win: solved with 2 players, against its
    likeliest winner by the 2-player tables with 3 or 4.

    From value-iteration tables, solved at its first decision once per configuration and cached
    (``cache=false`` solves in memory only; ``progress`` draws a bar while it solves). ``moat``
    in [0, 1]: the share of a drawn card's value a moat landing is worth (the module's
    docstring)."""
    return RaceSolverAgent(game, cache=cache, progress=progress, moat=moat)


def draw_share(view: CastleFlutterstoneView) -> np.ndarray:
    """Chance of each helpful kind for the next card drawn: the pile's known contents, or the
    discards that would be shuffled into a new pile (the deck's mix if neither holds any)."""
    counts = np.array(view.next_card_pool()[:3], dtype=np.float64)
    total = counts.sum()
    return counts / total if total else DECK_SHARE


def capped_hand_index(counts: list[int]) -> int:
    """:func:`~.solver.hand_index` of a holding, a fourth card (held only while choosing which to
    discard) left out: one of the kind held most."""
    counts = list(counts)
    while sum(counts) > MAX_HELPFUL_HELD:
        counts[counts.index(max(counts))] -= 1
    return hand_index(counts)


@dataclass(frozen=True)
class Race:
    """The two-player race a seat plays: its tables, and the table classes of the seat (the
    mover) and of its rival."""

    model: RaceModel
    tables: RaceTables
    mover: int
    rival: int


class RaceSolverAgent(Agent):
    """Plays the basic race to win, from value-iteration tables (:mod:`.solver`): the solved
    race with two players, the race against its rival with three or four."""

    name = "solver"

    def __init__(
        self,
        game: CastleFlutterstoneGame,
        tables: RaceTables | None = None,
        model: RaceModel | None = None,
        cache: bool = True,
        progress: bool = True,
        moat: float = 1.0,
    ):
        """``tables`` (with their ``model``) from :func:`.solver.solve` of a 2-player game, else
        the configuration's solved tables (:func:`solved`; with more players those of its
        2-player twins, :func:`.solver.two_player_twin`), fetched at the first decision:
        building the agent is cheap and checks only that the game is one the solver plays.
        ``moat``: the share of a drawn card's value a moat landing is worth (module docstring).
        """
        check_solvable(game, PLAYER_COUNTS)
        if tables is not None and game.num_players != 2:
            raise ValueError("RaceSolverAgent: given tables are a 2-player game's")
        if isinstance(moat, bool) or not isinstance(moat, (int, float)) or not 0.0 <= moat <= 1.0:
            raise InvalidConfigError(
                f"solver: moat must be a number in [0, 1] (1: the tables' card value), got {moat!r}"
            )
        self.moat = float(moat)
        self.game = game
        self._model = model
        self._tables = tables
        self._cache = cache
        self._progress = progress
        self._races: dict[tuple[int, int], Race] = {}

    @property
    def tables(self) -> RaceTables:
        """The solved race of the game (with more players: of seats 0 and 1)."""
        if self._tables is None:
            self._model, self._tables = self._solved(0, 1)
        return self._tables

    @property
    def model(self) -> RaceModel:
        if self._model is None:
            if self._tables is not None:
                self._model = RaceModel(self.game)
            else:
                self._model, self._tables = self._solved(0, 1)
        return self._model

    def _solved(self, me: int, rival: int) -> tuple[RaceModel, RaceTables]:
        game = self.game if self.game.num_players == 2 else two_player_twin(self.game, (me, rival))
        return solved(game, self._cache, self._progress)  # shared by configuration

    def race(self, me: int, rival: int) -> Race:
        """The race seat ``me`` plays against seat ``rival`` (built once per seat pair)."""
        race = self._races.get((me, rival))
        if race is None:
            if self.game.num_players == 2:
                t = self.tables
                race = Race(self.model, t, t.seat_class[me], t.seat_class[rival])
            else:
                model, t = self._solved(me, rival)
                race = Race(model, t, t.seat_class[0], t.seat_class[1])
            self._races[me, rival] = race
        return race

    def rival(self, view: CastleFlutterstoneView, me: int) -> int:
        """The opponent most likely to win a two-player race against seat ``me`` from here:
        its chance as the next mover in their race's table (ties: the first after ``me`` in
        turn order). With two players, the other seat."""
        n = self.game.num_players
        if n == 2:
            return 1 - me
        a, h = view.positions[me], capped_hand_index(view.hand(me))

        def chance(j: int) -> float:
            race = self.race(me, j)
            o = capped_hand_index(view.hand(j))
            return float(race.tables.value[race.rival, view.positions[j], a, o, h])

        return max(((me + k) % n for k in range(1, n)), key=chance)

    # ------------------------------------------------------------------------ values
    def _after_shot(self, race: Race, shots: int, here: int, b: int, o: int):
        """``f(a', h')``: the chance to win once the shot is resolved (figure on ``a'``, cards
        ``h'``), with ``shots`` bats left before it and the figure on ``here`` before it (a last
        shot that moves nothing is discounted as in :mod:`.solver`)."""
        t, goal = race.tables, race.model.goal
        m, other = race.mover, race.rival

        def value(a: int, h: int) -> float:
            if a >= goal:
                return 1.0
            if shots > 1:
                return float(t.flick[m, shots - 2, a, b, h, o])
            v = 1.0 - float(t.value[other, b, a, o, h])
            return 0.5 + t.stall_discount * (v - 0.5) if a == here else v

        return value

    def _play_value(self, race: Race, shots: int, a: int, b: int, h: int, o: int) -> float:
        if a >= race.model.goal:
            return 1.0
        return float(race.tables.play[race.mover, shots - 1, a, b, h, o])

    # ------------------------------------------------------------------------ decisions
    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        info = flutterstone_info_set(info_set)
        game = info.game
        lay = game.layout
        view = info.view
        legal = info.legal_action_mask
        me = info.player
        phase = view.phase
        if phase == Phase.DRAW:
            return lay.draw if legal[lay.draw] else lay.decline
        rival = self.rival(view, me)
        race = self.race(me, rival)
        a, b = view.positions[me], view.positions[rival]
        hand = view.hand(me)
        o = hand_index(view.hand(rival))
        shots = view.shots_left
        occupied = occupied_by_others(view.positions, me, game.goal)
        # where k fields take the figure, every figure on the path jumped as the rules say
        dest = [advance(a, k, occupied, game.bridges, game.goal) for k in range(4)]
        if phase == Phase.FLICK:
            after = self._after_shot(race, shots, a, b, o)
            h = hand_index(hand)
            w = np.zeros(5)
            w[Zone.MISS] = after(a, h)
            reach = [after(dest[n], h) for n in range(4)]
            w[Zone.COURTYARD] = max(reach[:2]) if game.courtyard_optional else reach[1]
            w[Zone.CASTLE] = max(reach[:3])
            w[Zone.WINDOW] = max(reach)
            w[Zone.MOAT] = self._moat_value(after, a, hand, draw_share(view))
            table = race.model.tables[race.mover]
            scores = np.where(legal[: lay.num_flicks], table @ w, -np.inf)
            return int(np.argmax(scores))
        if phase == Phase.MOVE:
            after = self._after_shot(race, shots, a, b, o)
            h = hand_index(hand)
            options = [n for n in range(view.move_points, -1, -1) if legal[lay.move + n]]
            return lay.move + max(options, key=lambda n: after(dest[n], h))
        if phase == Phase.PLAY_CARDS:
            h = hand_index(hand)
            choice = lay.end_play
            best = float(race.tables.flick[race.mover, shots - 1, a, b, h, o])
            for card in (Card.MOVE_FORWARD, Card.GHOST_JUMP, Card.SECOND_GO):
                if not legal[lay.play + card]:
                    continue
                rest = int(MINUS[h, card])
                if card == Card.SECOND_GO:
                    v = self._play_value(race, shots + 1, a, b, rest, o)
                elif card == Card.MOVE_FORWARD:
                    v = self._play_value(race, shots, dest[1], b, rest, o)
                else:
                    jump = ghost_jump(a, occupied, game.bridges, game.goal)
                    v = self._play_value(race, shots, jump, b, rest, o)
                if v > best + 1e-12:
                    best, choice = v, lay.play + card
            return int(choice)
        if phase == Phase.DISCARD:
            after = self._after_shot(race, shots, a, b, o)
            kinds = [c for c in range(3) if legal[lay.discard + c]]

            def kept(c: int) -> float:
                rest = list(hand)
                rest[c] -= 1
                return after(a, hand_index(rest))

            return lay.discard + max(kinds, key=kept)
        return int(np.flatnonzero(legal)[0])

    def _moat_value(self, after, a: int, hand: list[int], share: np.ndarray) -> float:
        """Chance to win after a moat landing: a card is drawn (never worse than declining:
        with a fourth card any one may go) of each kind with the pile's chances; with ``moat``
        below 1, that share of it plus the rest of the chance after drawing nothing."""
        drawn = self._drawn_value(after, a, hand, share)
        if self.moat == 1.0:
            return drawn
        return self.moat * drawn + (1.0 - self.moat) * float(after(a, hand_index(hand)))

    def _drawn_value(self, after, a: int, hand: list[int], share: np.ndarray) -> float:
        total = 0.0
        for c in range(3):
            if not share[c]:
                continue
            more = list(hand)
            more[c] += 1
            if sum(more) <= 3:
                best = after(a, hand_index(more))
            else:
                best = after(a, hand_index(hand))
                for d in range(3):
                    if more[d]:
                        kept = list(more)
                        kept[d] -= 1
                        best = max(best, after(a, hand_index(kept)))
            total += share[c] * best
        return total
