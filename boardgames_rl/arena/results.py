"""Results of a tournament: win rates, pairwise scores, ratings, tables and saved files.

Win rates are per *seat*: an agent's win rate is the share of the seats it held that won (a win
shared by k seats counts 1/k to each), so the fair share is ``1 / num_players`` whatever the
table layout. Pairwise rates and ratings use the comparisons of :mod:`boardgames_rl.arena.ratings`
(winners beat non-winners, a draw is half), so 0.5 means "as strong" in every game. Intervals
are 95% Wilson intervals; in games of more than two players the seats and comparisons of one game
are correlated, so those intervals are somewhat too narrow (the rating bootstrap is over games and
does not have that problem).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl._util.extras import EXTRAS, require
from boardgames_rl.agents.registry import file_spec
from boardgames_rl.arena.ratings import Rating, anchor_index, comparison_tensor, fit_ratings
from boardgames_rl.arena.records import GAMES_FILE, GameRecord, read_jsonl_numbered, sort_records
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.errors import InvalidConfigError, MissingExtraError
from boardgames_rl.core.files import make_dir, read_json, remove_file, write_stream, write_text

PARAMS_FILE = "tournament.json"
"""Name of the parameter file inside a tournament folder."""
FORMAT_VERSION = 1
SEAT_MODES = ("rotate", "fixed")
MAX_GAMES = 2**31
"""Most games per table a tournament file may name."""


class PictureSkippedWarning(UserWarning):
    """A result folder was written without one of its pictures: drawing needs matplotlib (the
    ``[viz]`` extra), which is not installed. The tables, records and ratings are complete."""


@dataclass(frozen=True)
class AgentStats:
    """Totals of one agent over a tournament (win counts are per seat held)."""

    agent: str
    games: int
    seats: int
    wins: float
    mean_return: float

    @property
    def win_rate(self) -> float:
        """Share of the seats held that won."""
        return self.wins / self.seats if self.seats else 0.0


@dataclass(frozen=True)
class Pairwise:
    """``score[i, j]``: comparisons agent i won against agent j (draws half) out of
    ``count[i, j]``."""

    agents: list[str]
    score: np.ndarray
    count: np.ndarray

    @property
    def rate(self) -> np.ndarray:
        """i's win rate against j (``nan`` where they never met)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.count > 0, self.score / np.maximum(self.count, 1), np.nan)

    def interval(self, i: int, j: int) -> tuple[float, float]:
        """95% Wilson interval of i's win rate against j."""
        return wilson_interval(float(self.score[i, j]), int(round(self.count[i, j])))


@dataclass
class TournamentResult:
    """Records and parameters of a tournament, with the statistics computed from them."""

    game: str
    config: dict[str, Any]
    agents: list[str]
    games: int
    seats: str
    seed: int
    tables: list[list[int]]
    records: list[GameRecord] = field(default_factory=list)
    agent_files: dict[str, str] = field(default_factory=dict)
    """Spec -> what identifies the files its play depends on (:meth:`Agent.files_digest
    <boardgames_rl.agents.Agent.files_digest>`); only the agents that have any (``pretrained``)."""
    skipped_pictures: list[str] = field(default_factory=list, init=False, compare=False)
    """One line per picture the last :meth:`save` could not draw (no matplotlib): which file and
    which extra draws it; empty when every picture was written."""

    # ----------------------------------------------------------------- parameters and files
    def params(self) -> dict[str, Any]:
        """The parameters that define the tournament (what ``tournament.json`` holds)."""
        return {
            "format": FORMAT_VERSION,
            "game": self.game,
            "config": self.config,
            "agents": list(self.agents),
            "games": self.games,
            "seats": self.seats,
            "seed": self.seed,
            "tables": [list(t) for t in self.tables],
            **({"agent_files": dict(self.agent_files)} if self.agent_files else {}),
        }

    @classmethod
    def load(cls, out: str | Path) -> TournamentResult:
        """A result read back from a tournament folder (``tournament.json`` + ``games.jsonl``).

        Raises:
            FileNotFoundError: no ``tournament.json`` in ``out``.
            InvalidConfigError: a file that is not what it should be (the checks of
                ``read_params`` and ``read_jsonl``), in one line.
        """
        out = Path(out)
        params = read_params(out)
        params.pop("format", None)
        path, n = out / GAMES_FILE, len(params["agents"])
        numbered = read_jsonl_numbered(path) if os.path.lexists(path) else []
        for line, r in numbered:
            if len(r.seats) != len(params["tables"][0]) or not all(a < n for a in r.seats):
                raise InvalidConfigError(
                    f"{path}:{line}: the game's seats {r.seats} are not agent indices of this "
                    "tournament's tables; the file was edited or mixed: use a new folder"
                )
        return cls(**params, records=sort_records([r for _, r in numbered]))

    @property
    def num_players(self) -> int:
        """Seats per game."""
        return len(self.tables[0]) if self.tables else 0

    @property
    def expected_games(self) -> int:
        """Games in the full schedule."""
        return self.games * len(self.tables)

    # ----------------------------------------------------------------- statistics
    @property
    def mean_length(self) -> float:
        """Mean number of actions per game."""
        return float(np.mean([r.length for r in self.records])) if self.records else 0.0

    @property
    def truncated_games(self) -> int:
        """Games cut by the engine's safety cap."""
        return sum(bool(r.truncated) for r in self.records)

    def agent_stats(self) -> list[AgentStats]:
        """Per agent: games played, seats held, seat wins, mean return per seat."""
        n = len(self.agents)
        games = np.zeros(n, dtype=int)
        seats = np.zeros(n, dtype=int)
        wins = np.zeros(n)
        returns = np.zeros(n)
        for r in self.records:
            winners = r.winners
            for a in set(r.seats):
                games[a] += 1
            for s, a in enumerate(r.seats):
                seats[a] += 1
                returns[a] += r.returns[s]
                if s in winners:
                    wins[a] += 1.0 / len(winners)
        return [
            AgentStats(
                name,
                int(games[i]),
                int(seats[i]),
                float(wins[i]),
                float(returns[i] / seats[i]) if seats[i] else 0.0,
            )
            for i, name in enumerate(self.agents)
        ]

    def win_rates(self) -> dict[str, tuple[float, float, float]]:
        """Per agent: (win rate per seat, 95% low, 95% high)."""
        out = {}
        for s in self.agent_stats():
            low, high = wilson_interval(s.wins, s.seats)
            out[s.agent] = (s.win_rate, low, high)
        return out

    def pairwise(self) -> Pairwise:
        """Every agent's win rate against every other, with the comparison counts."""
        score = comparison_tensor(self.records, len(self.agents)).sum(axis=0)
        return Pairwise(list(self.agents), score, score + score.T)

    _rating_cache: tuple[int, list[Rating]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def ratings(self) -> dict[str, tuple[float, float, float]]:
        """Per agent: (Elo-scale rating, 95% low, 95% high); the anchor agent (``"random"`` if
        present, else the first) is 0. See :mod:`boardgames_rl.arena.ratings`."""
        if self._rating_cache is None or self._rating_cache[0] != len(self.records):
            fitted = fit_ratings(self.records, self.agents, bootstrap=200, seed=self.seed)
            self._rating_cache = (len(self.records), fitted)
        return {r.agent: (r.rating, r.low, r.high) for r in self._rating_cache[1]}

    # ----------------------------------------------------------------- presentation
    def _rows(self) -> list[dict[str, Any]]:
        rates = self.win_rates()
        ratings = self.ratings()
        rows = []
        for s in self.agent_stats():
            rate, low, high = rates[s.agent]
            rating, r_low, r_high = ratings[s.agent]
            rows.append(
                {
                    "agent": s.agent,
                    "games": s.games,
                    "seats": s.seats,
                    "wins": round(s.wins, 6),
                    "win_rate": round(rate, 6),
                    "win_low": round(low, 6),
                    "win_high": round(high, 6),
                    "mean_return": round(s.mean_return, 6),
                    "rating": round(rating, 2),
                    "rating_low": round(r_low, 2),
                    "rating_high": round(r_high, 2),
                }
            )
        return sorted(rows, key=lambda row: -row["rating"])

    def _anchor_note(self) -> str:
        anchor = self.agents[anchor_index(self.agents)]
        return f"ratings: Bradley-Terry on the Elo scale, {anchor!r} = 0, 95% bootstrap intervals"

    def table(self) -> str:
        """A readable terminal table, strongest agent first."""
        width = max([len("agent")] + [len(a) for a in self.agents])
        head = (
            f"{'agent':<{width}} {'games':>6} {'win rate':>8} {'95% interval':>15} "
            f"{'mean ret':>8} {'rating':>7} {'95% interval':>15}"
        )
        lines = [
            f"{self.game}: {len(self.records)}/{self.expected_games} games, "
            f"{self.num_players} players, seats {self.seats}, seed {self.seed}",
            head,
            "-" * len(head),
        ]
        for row in self._rows():
            win_ci = f"[{row['win_low']:.3f}, {row['win_high']:.3f}]"
            rating_ci = f"[{row['rating_low']:.0f}, {row['rating_high']:.0f}]"
            lines.append(
                f"{row['agent']:<{width}} {row['games']:>6} {row['win_rate']:>8.3f} "
                f"{win_ci:>15} {row['mean_return']:>8.3f} {row['rating']:>7.0f} {rating_ci:>15}"
            )
        lines.append(
            f"win rate per seat held (fair share {1 / max(self.num_players, 1):.3f}); "
            f"mean length {self.mean_length:.1f} actions; truncated games {self.truncated_games}"
        )
        lines.append(self._anchor_note())
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The results as a Markdown table (for a README)."""
        lines = [
            "| agent | games | win rate | 95% interval | mean return | rating | 95% interval |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for row in self._rows():
            lines.append(
                f"| `{row['agent']}` | {row['games']} | {row['win_rate']:.3f} | "
                f"[{row['win_low']:.3f}, {row['win_high']:.3f}] | {row['mean_return']:.3f} | "
                f"{row['rating']:.0f} | [{row['rating_low']:.0f}, {row['rating_high']:.0f}] |"
            )
        lines.append("")
        lines.append(
            f"{self.game}, {len(self.records)} games, {self.num_players} players, seats "
            f"{self.seats}, seed {self.seed}; win rate per seat held (fair share "
            f"{1 / max(self.num_players, 1):.3f}); {self._anchor_note()}."
        )
        return "\n".join(lines)

    def save(self, out: str | Path) -> Path:
        """Write the tournament folder: ``tournament.json``, ``games.jsonl``, ``results.csv``,
        ``pairwise.csv``, ``ratings.csv``, ``results.json`` and ``heatmap.png``.

        The picture needs matplotlib (the ``[viz]`` extra). Without it every other file is
        written, ``heatmap.png`` is not (one left by an earlier run is removed: it would show
        other games), a :class:`PictureSkippedWarning` says so and :attr:`skipped_pictures`
        holds the line; saving again with matplotlib installed draws it."""
        out = make_dir(Path(out), Path(out))
        write_params(out, self.params())
        write_records(out / GAMES_FILE, self.records, root=out)
        rows = self._rows()
        _write_csv(out, "results.csv", rows)
        _write_csv(
            out,
            "ratings.csv",
            [
                {"rank": k + 1, **{key: row[key] for key in ("agent", "rating")}}
                | {"low": row["rating_low"], "high": row["rating_high"]}
                for k, row in enumerate(rows)
            ],
        )
        pair_rows = self._pairwise_rows()
        _write_csv(
            out,
            "pairwise.csv",
            pair_rows,
            ["agent", "opponent", "score", "comparisons", "win_rate", "low", "high"],
        )
        summary = {
            **self.params(),
            "games_played": len(self.records),
            "mean_length": self.mean_length,
            "truncated_games": self.truncated_games,
            "rating_anchor": self.agents[anchor_index(self.agents)],
            "results": rows,
            "pairwise": pair_rows,
        }
        write_text(out / "results.json", json.dumps(summary, indent=1), root=out)
        note = save_picture(self.heatmap, out / "heatmap.png", out)
        self.skipped_pictures = [] if note is None else [note]
        return out

    def _pairwise_rows(self) -> list[dict[str, Any]]:
        pw = self.pairwise()
        rate = pw.rate
        rows = []
        for i, a in enumerate(self.agents):
            for j, b in enumerate(self.agents):
                if i == j or pw.count[i, j] == 0:
                    continue
                low, high = pw.interval(i, j)
                rows.append(
                    {
                        "agent": a,
                        "opponent": b,
                        "score": float(pw.score[i, j]),
                        "comparisons": int(round(pw.count[i, j])),
                        "win_rate": round(float(rate[i, j]), 6),
                        "low": round(low, 6),
                        "high": round(high, 6),
                    }
                )
        return rows

    def heatmap(self):
        """A matplotlib Figure of the pairwise win rates (row agent against column agent)."""
        from boardgames_rl.core.rendering import new_figure

        pw = self.pairwise()
        rate = pw.rate
        n = len(self.agents)
        size = 1.6 + 0.9 * n
        fig = new_figure(size + 1.2, size)
        ax = fig.add_subplot(1, 1, 1)
        image = ax.imshow(np.ma.masked_invalid(rate), cmap="RdBu", vmin=0.0, vmax=1.0)
        ax.set_facecolor("#dddddd")
        ax.set_xticks(range(n), [_short(a) for a in self.agents], rotation=30, ha="right")
        ax.set_yticks(range(n), [_short(a) for a in self.agents])
        ax.set_xlabel("opponent (n = comparisons)")
        ax.set_ylabel("agent")
        for i in range(n):
            for j in range(n):
                if not math.isnan(rate[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{rate[i, j]:.2f}\nn={int(round(pw.count[i, j]))}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white" if abs(rate[i, j] - 0.5) > 0.3 else "black",
                    )
        fig.colorbar(image, ax=ax, label="win rate of row against column")
        ax.set_title(f"{self.game}\npairwise win rates ({len(self.records)} games)", fontsize=10)
        fig.tight_layout()
        return fig


def _short(name: str, limit: int = 22) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def save_figure(fig: Any, path: Path, root: Path) -> None:
    """A matplotlib Figure as the PNG ``path`` inside ``root`` (a link there is replaced, never
    followed: :func:`~boardgames_rl.core.files.write_stream`)."""
    write_stream(path, lambda f: fig.savefig(f, format="png"), root)


def save_picture(draw: Callable[[], Any], path: Path, root: Path) -> str | None:
    """The Figure ``draw()`` returns, saved as the PNG ``path`` inside ``root``
    (:func:`save_figure`); ``None`` when written.

    A missing picture extra costs the picture, not the result: without matplotlib nothing is
    drawn, a picture an earlier run left at ``path`` is removed (it would show other numbers),
    a :class:`PictureSkippedWarning` is issued and its one line returned, naming the file and
    the extra that draws it."""
    try:
        require("matplotlib", f"drawing {path.name}")
        fig = draw()
    except MissingExtraError:
        old = os.path.lexists(path)
        remove_file(path, root)
        note = (
            f"{path.name} skipped: pictures need matplotlib, which is not installed: "
            f"pip install 'boardgames-rl[{EXTRAS['matplotlib']}]' and run again to draw it"
            + (f" (the older {path.name} was removed)" if old else "")
        )
        warnings.warn(note, PictureSkippedWarning, stacklevel=3)
        return note
    save_figure(fig, path, root)
    return None


def write_params(out: Path, params: dict[str, Any]) -> None:
    """Write ``tournament.json`` inside ``out`` (atomically; a link there is replaced)."""
    write_text(Path(out) / PARAMS_FILE, json.dumps(params, indent=1), root=out)


def write_records(path: Path, records: list[GameRecord], root: Path | None = None) -> None:
    """Write a ``.jsonl`` of records (atomically, replacing the file; a link at ``path`` is
    replaced, never followed) inside ``root`` (default: ``path``'s folder)."""
    write_text(Path(path), "".join(r.to_json() + "\n" for r in records), root=root)


def _write_csv(
    out: Path, name: str, rows: list[dict[str, Any]], header: list[str] | None = None
) -> None:
    header = header or (list(rows[0]) if rows else [])
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=header)
    writer.writeheader()
    writer.writerows(rows)
    write_text(out / name, text.getvalue(), root=out)


# --------------------------------------------------------------------------- reading it back
def _bad(path: Path, what: str, value: Any) -> InvalidConfigError:
    return InvalidConfigError(
        f"{path}: {what}, got {value!r:.80}; the file was edited or damaged: use a new folder "
        "(or restore the file)"
    )


def _index(v: Any, n: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def check_params(params: Any, path: Path) -> dict[str, Any]:
    """The parameters read from ``path`` (a ``tournament.json``), checked field by field: the one
    place a tournament file's parameters are validated. Agent specs go through
    :func:`~boardgames_rl.agents.registry.file_spec` (a file cannot opt in to ``trust``).

    Raises:
        InvalidConfigError: one line naming the file and the field at fault.
    """
    if not isinstance(params, dict):
        raise _bad(path, "the tournament parameters must be a JSON object", params)
    required = {"format", "game", "config", "agents", "games", "seats", "seed", "tables"}
    missing = sorted(required - set(params))
    unknown = sorted(set(params) - required - {"agent_files"})
    if missing or unknown:
        what = f"lacks {missing}" if missing else f"has unknown fields {unknown}"
        raise _bad(path, f"the tournament parameters {what}", sorted(params))
    if params["format"] != FORMAT_VERSION:
        raise _bad(path, f"format must be {FORMAT_VERSION}", params["format"])
    if not isinstance(params["game"], str) or not params["game"]:
        raise _bad(path, "game must be a game name", params["game"])
    if not isinstance(params["config"], dict):
        raise _bad(path, "config must be an object of game options", params["config"])
    agents = params["agents"]
    if not isinstance(agents, list) or len(agents) < 2 or len(set(map(str, agents))) < len(agents):
        raise _bad(path, "agents must be a list of at least 2 distinct agent specs", agents)
    for spec in agents:
        file_spec(spec, f"{path}: agents")
    games = params["games"]
    if not _index(games, MAX_GAMES) or games < 1:
        raise _bad(path, f"games must be an integer in 1..{MAX_GAMES - 1}", games)
    if params["seats"] not in SEAT_MODES:
        raise _bad(path, f"seats must be one of {SEAT_MODES}", params["seats"])
    if not _index(params["seed"], 2**128):
        raise _bad(path, "seed must be a non-negative integer", params["seed"])
    tables = params["tables"]
    if (
        not isinstance(tables, list)
        or not tables
        or not all(isinstance(t, list) and t for t in tables)
        or len({len(t) for t in tables}) != 1
        or not all(_index(a, len(agents)) for t in tables for a in t)
    ):
        raise _bad(
            path, f"tables must be lists of one size of agent indices 0..{len(agents) - 1}", tables
        )
    files = params.get("agent_files", {})
    if not isinstance(files, dict) or not all(
        a in agents and isinstance(d, str) for a, d in files.items()
    ):
        raise _bad(path, "agent_files must map agents to text", files)
    return params


def read_params(out: str | Path) -> dict[str, Any]:
    """The checked parameters of the tournament folder ``out`` (its ``tournament.json``, a regular
    file of at most 64 MiB: :func:`~boardgames_rl.core.files.read_json`, :func:`check_params`).

    Raises:
        FileNotFoundError: ``out`` holds no ``tournament.json``.
        InvalidConfigError: the file is not what it should be (one line).
    """
    path = Path(out) / PARAMS_FILE
    try:
        params = read_json(path, what="tournament parameters file")
    except FileNotFoundError:
        raise FileNotFoundError(f"{out} is not a tournament folder: no {PARAMS_FILE}") from None
    return check_params(params, path)
