"""The strength ladder: rate a new agent against the library's reference agents (issue 15).

The ladder of a game is :func:`ladder_agents`: ``random``, the game's ``heuristic``, the tuned
ISMCTS (:func:`boardgames_rl.agents.ismcts.tuned_spec`) at two budgets, and, when a shipped
pretrained entry covers every seat of the game, ``pretrained`` and ``pretrained+search`` (the
tuned ISMCTS at the smaller budget with the policy as its root prior). Whatever is in
``boardgames_rl/pretrained/`` is picked up (:func:`boardgames_rl.agents.pretrained.list_entries`).
A game's own agents (``GameSpec.agents``, e.g. Castle Flutterstone's race ``solver``) join where
they apply to the game's configuration.

:func:`rate_against_ladder` plays a round robin among the ladder and your candidates with
:func:`boardgames_rl.arena.tournament` (every pair, ``games_per_pair`` games, seats rotated, each
game seeded from ``(seed, table, game)``; in games of more than two players, e.g. 5-player Night
of the Ninja, each agent plays alone against a field of another) and returns a
:class:`LadderResult`: Bradley-Terry ratings on the Elo scale with ``random`` = 0 and 95%
bootstrap intervals (:mod:`boardgames_rl.arena.ratings`), the pairwise win rates with 95% Wilson
intervals, and a heatmap. The same seed gives the same result, whatever ``workers`` is.

A candidate is an agent spec string (``"ismcts:iterations=100"``) or your own
:class:`~boardgames_rl.core.agent.Agent` object::

    import numpy as np

    from boardgames_rl.arena.ladder import rate_against_ladder
    from boardgames_rl.core.agent import Agent


    class FirstLegal(Agent):
        name = "first_legal"
        needs_info_set = False  # reads the legal-action mask only

        def act(self, info_set, rng):
            return int(np.flatnonzero(info_set.legal_action_mask)[0])


    result = rate_against_ladder(
        "castle_flutterstone", {"mine": FirstLegal()}, games_per_pair=2, budgets=(4, 8)
    )
    print(result.table())
    result.heatmap().savefig("ladder.png")

(Two games per table and tiny search budgets keep the example quick; the defaults,
``games_per_pair=20`` and ``budgets=(50, 400)``, give ratings worth reading.)

An Agent object is copied (``copy.deepcopy``) for every seat it holds, so that a field of it in
Night of the Ninja does not share one memory, and your object itself is left untouched; its games
are played in this process (spawned worker processes could not rebuild it), so ``workers`` only
speeds up a ladder of spec strings. The full ladder of every game is
``python lab/experiments/strength_ladder.py --ratings`` (see that script).
"""

from __future__ import annotations

import copy
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.agents import registry as agent_registry
from boardgames_rl.agents.ismcts import TUNED_SETTINGS, tuned_spec
from boardgames_rl.arena.results import TournamentResult, save_picture
from boardgames_rl.arena.tournament import tournament
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import make_dir, write_text
from boardgames_rl.core.game import Game
from boardgames_rl.registry import game_spec, make_game

LADDER_GAMES: dict[str, dict[str, Any]] = {
    "castle_nightingale": {"side": "A"},
    "castle_flutterstone": {"num_players": 2},
    "white_castle": {"num_players": 2},
    "night_of_the_ninja": {"num_players": 5},
}
"""The configuration each game's ladder is played in when the game is given by name (the
configurations of issue 15's targets)."""

DEFAULT_BUDGETS = (50, 400)
"""ISMCTS iterations per decision of the two ISMCTS rungs."""

OBJECT_PREFIX = "object."
"""Agent objects are played under the spec name ``object.<label>`` (see the module doc)."""


# --------------------------------------------------------------------------- the ladder
def ladder_game(game: Game | str) -> Game:
    """``game`` itself, or the registered game of that name in its :data:`LADDER_GAMES`
    configuration (the default configuration for a game not listed there)."""
    if isinstance(game, Game):
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a Game or a registered game name, got {game!r}")
    return make_game(game, **LADDER_GAMES.get(game, {}))


def pretrained_coverage(game: Game) -> str | None:
    """None when the shipped ``pretrained`` agent covers every seat of ``game``, else why not
    (one line: no entry for this game and configuration, a seat missing, torch missing...)."""
    try:
        agent = agent_registry.make_agent("pretrained", game)
    except (InvalidConfigError, ImportError) as e:
        return str(e).splitlines()[0] if str(e) else type(e).__name__
    seats = agent.seats_played(game.num_players)
    if seats != list(range(game.num_players)):
        return f"the shipped entries cover seats {seats} of {game.num_players}"
    return None


def _check_budgets(budgets: Sequence[int]) -> list[int]:
    if isinstance(budgets, (str, bytes)) or not isinstance(budgets, Sequence):
        raise ValueError(f"budgets must be a sequence of iteration counts, got {budgets!r}")
    out = []
    for b in budgets:
        if isinstance(b, bool) or not isinstance(b, int | np.integer) or b < 1:
            raise ValueError(f"budgets must be ints >= 1 (ISMCTS iterations), got {budgets!r}")
        out.append(int(b))
    if not out or len(set(out)) != len(out):
        raise ValueError(f"budgets must be distinct and at least one, got {list(budgets)!r}")
    return sorted(out)


def ladder_agents(
    game: Game | str, budgets: Sequence[int] = DEFAULT_BUDGETS, pretrained: bool = True
) -> dict[str, str]:
    """The reference agents of ``game``'s ladder, ``{label: spec}``, weakest kind first.

    ``random``, ``heuristic``, ``ismcts-<b>`` (the tuned ISMCTS of the game at ``b`` iterations) for
    each budget, and, when ``pretrained`` and a shipped entry covers every seat of the game
    (:func:`~boardgames_rl.arena.ladder.pretrained_coverage`), ``pretrained`` and
    ``pretrained+search-<b>`` at the smallest budget; then the game's own agents that apply to it
    (``GameSpec.agents``). A game without a tuned ISMCTS preset gets the default ISMCTS at each
    budget.
    """
    game = ladder_game(game)
    budgets = _check_budgets(budgets)
    agents = {"random": "random", "heuristic": "heuristic"}
    for b in budgets:
        tuned = game.name in TUNED_SETTINGS
        agents[f"ismcts-{b}"] = tuned_spec(game.name, b) if tuned else f"ismcts:iterations={b}"
    if pretrained and pretrained_coverage(game) is None:
        agents["pretrained"] = "pretrained"
        agents[f"pretrained+search-{budgets[0]}"] = f"pretrained+search:iterations={budgets[0]}"
    for name in sorted(game_spec(game.name).agents):
        try:  # building one checks that it applies to the game
            agent_registry.make_agent(name, game)
        except InvalidConfigError:
            continue
        agents[name] = name
    return agents


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class LadderRating:
    """One agent's place on the ladder.

    ``rating`` (Elo points above random) with its 95% bootstrap interval; ``win_rate`` is the share
    of the seats it held that won (fair share ``1 / num_players``) with its 95% Wilson interval.
    """

    label: str
    spec: str
    rating: float
    low: float
    high: float
    games: int
    win_rate: float
    win_low: float
    win_high: float
    candidate: bool


@dataclass(frozen=True)
class PairRate:
    """``label``'s win rate against ``opponent``: comparisons won (draws half) out of
    ``comparisons``, with the 95% Wilson interval (:mod:`boardgames_rl.arena.ratings`: the
    winner beats each non-winner; in a 2-player game one comparison per game)."""

    label: str
    opponent: str
    wins: float
    comparisons: int
    rate: float
    low: float
    high: float


@dataclass
class LadderResult:
    """A ladder tournament: the agents by label, and the statistics under those labels.

    Attributes:
        labels: every agent's label, ladder first then candidates (the tournament's order).
        specs: the spec each label was played as (``object.<label>`` for an Agent object).
        candidates: the labels of the candidates (not part of the ladder).
        tournament: the arena's result, agents named by spec (what ``out_dir`` holds).
        objects: ``{label: class name}`` of the candidates given as Agent objects.
        skipped_pictures: the pictures the last :meth:`save` could not draw (no matplotlib).
    """

    labels: list[str]
    specs: list[str]
    candidates: list[str]
    tournament: TournamentResult
    objects: dict[str, str] = field(default_factory=dict)
    skipped_pictures: list[str] = field(default_factory=list, init=False, compare=False)

    @property
    def game(self) -> str:
        return self.tournament.game

    def labelled(self, order: Sequence[str] | None = None) -> TournamentResult:
        """The tournament with agents named by label, in ``order`` (default: the labels')."""
        order = list(self.labels if order is None else order)
        if sorted(order) != sorted(self.labels):
            raise ValueError(f"order must list every label once: {self.labels}")
        new_index = [order.index(label) for label in self.labels]
        t = self.tournament
        return TournamentResult(
            t.game,
            t.config,
            order,
            t.games,
            t.seats,
            t.seed,
            [[new_index[a] for a in table] for table in t.tables],
            [replace(r, seats=[new_index[a] for a in r.seats]) for r in t.records],
            agent_files={  # the tournament's files name agents without trust=...
                label: t.agent_files[agent_registry.spec_for_file(spec)]
                for label, spec in zip(self.labels, self.specs, strict=True)
                if agent_registry.spec_for_file(spec) in t.agent_files
            },
        )

    def ratings(self) -> list[LadderRating]:
        """Every agent, strongest first (ties: ladder order)."""
        labelled = self.labelled()
        ratings = labelled.ratings()
        rates = labelled.win_rates()
        stats = {s.agent: s for s in labelled.agent_stats()}
        rows = [
            LadderRating(
                label,
                spec,
                *ratings[label],
                stats[label].games,
                *rates[label],
                label in self.candidates,
            )
            for label, spec in zip(self.labels, self.specs, strict=True)
        ]
        return sorted(rows, key=lambda r: -r.rating)

    def rating(self, label: str) -> LadderRating:
        """The rating row of one label."""
        for row in self.ratings():
            if row.label == label:
                return row
        raise KeyError(f"no agent {label!r} on this ladder; labels: {', '.join(self.labels)}")

    def pairwise(self) -> list[PairRate]:
        """Every ordered pair of agents that met, in label order."""
        pw = self.labelled().pairwise()
        rate = pw.rate
        out = []
        for i, a in enumerate(self.labels):
            for j, b in enumerate(self.labels):
                if i != j and pw.count[i, j] > 0:
                    low, high = pw.interval(i, j)
                    n = int(round(pw.count[i, j]))
                    out.append(
                        PairRate(a, b, float(pw.score[i, j]), n, float(rate[i, j]), low, high)
                    )
        return out

    def win_rate(self, label: str, opponent: str) -> PairRate:
        """``label``'s win rate against ``opponent``."""
        for p in self.pairwise():
            if (p.label, p.opponent) == (label, opponent):
                return p
        raise KeyError(f"{label!r} and {opponent!r} did not meet (labels: {self.labels})")

    # ----------------------------------------------------------------- presentation
    def _header(self) -> str:
        t = self.tournament
        return (
            f"{t.game} {t.config}: {len(t.records)} games ({t.games} per table), "
            f"{t.num_players} players, seats {t.seats}, seed {t.seed}"
        )

    def _notes(self) -> list[str]:
        fair = 1 / max(self.tournament.num_players, 1)
        return [
            "rating: Bradley-Terry on the Elo scale, random = 0, 95% bootstrap interval over games",
            f"win rate: share of the seats held that won (fair share {fair:.3f}), 95% Wilson",
        ] + (["* = candidate"] if self.candidates else [])

    def table(self) -> str:
        """The rating table as text, strongest first."""
        rows = self.ratings()
        width = max(len("agent"), *(len(r.label) + 2 for r in rows))
        head = (
            f"{'agent':<{width}} {'rating':>7} {'95% interval':>14} {'win rate':>8} "
            f"{'95% interval':>15} {'games':>6}"
        )
        lines = [self._header(), head, "-" * len(head)]
        for r in rows:
            name = r.label + (" *" if r.candidate else "")
            lines.append(
                f"{name:<{width}} {r.rating:>7.0f} {f'[{r.low:.0f}, {r.high:.0f}]':>14} "
                f"{r.win_rate:>8.3f} {f'[{r.win_low:.3f}, {r.win_high:.3f}]':>15} {r.games:>6}"
            )
        return "\n".join(lines + self._notes())

    def to_markdown(self) -> str:
        """The rating table as Markdown (label, spec, rating, win rate, intervals)."""
        lines = [
            "| agent | spec | rating | 95% interval | win rate | 95% interval | games |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for r in self.ratings():
            name = f"**{r.label}** (candidate)" if r.candidate else r.label
            spec = f"{self.objects[r.label]} object" if r.label in self.objects else f"`{r.spec}`"
            lines.append(
                f"| {name} | {spec} | {r.rating:.0f} | [{r.low:.0f}, {r.high:.0f}] | "
                f"{r.win_rate:.3f} | [{r.win_low:.3f}, {r.win_high:.3f}] | {r.games} |"
            )
        return "\n".join([*lines, "", self._header() + "; " + "; ".join(self._notes()[:2]) + "."])

    def pairwise_table(self) -> str:
        """The pairwise win rates as text: row agent against column agent, ``rate [low, high]``
        (95% Wilson), strongest first."""
        order = [r.label for r in self.ratings()]
        cells = {(p.label, p.opponent): p for p in self.pairwise()}
        width = max(len(label) for label in order)
        col = max(16, width)
        lines = [f"{'':<{width}} " + " ".join(f"{o:>{col}}" for o in order)]
        for a in order:
            row = []
            for b in order:
                p = cells.get((a, b))
                text = "-" if p is None else f"{p.rate:.2f} [{p.low:.2f},{p.high:.2f}]"
                row.append(f"{text:>{col}}")
            lines.append(f"{a:<{width}} " + " ".join(row))
        lines.append("row's win rate against column [95% Wilson interval]; - = did not meet")
        return "\n".join(lines)

    def heatmap(self):
        """A matplotlib Figure of the pairwise win rates, agents ordered strongest first (row
        agent against column agent; red below 0.5, blue above; each cell gives the rate and the
        number of comparisons; candidates' labels in bold)."""
        fig = self.labelled([r.label for r in self.ratings()]).heatmap()
        ax = fig.axes[0]
        for tick in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
            if tick.get_text() in self.candidates:
                tick.set_fontweight("bold")
        note = "strongest first" + ("; candidates in bold" if self.candidates else "")
        ax.set_title(
            f"{self.game}: pairwise win rates ({len(self.tournament.records)} games)\n{note}",
            fontsize=10,
        )
        return fig

    def save(self, out: str | Path) -> Path:
        """Write ``ladder.md`` (the tables), ``ladder.txt`` and ``ladder_heatmap.png`` into
        ``out`` (next to the arena's tournament files when ``out`` is the tournament folder); a
        link planted at one of those names is replaced, never followed.

        The picture needs matplotlib (the ``[viz]`` extra): without it the tables are written
        all the same, ``ladder.md`` says the picture was skipped, and a
        :class:`~boardgames_rl.arena.results.PictureSkippedWarning` names the extra
        (:attr:`skipped_pictures` holds the line)."""
        out = make_dir(Path(out), Path(out))
        text = self.table() + "\n\n" + self.pairwise_table() + "\n"
        write_text(out / "ladder.txt", text, root=out)
        picture = out / "ladder_heatmap.png"
        note = save_picture(self.heatmap, picture, out)
        self.skipped_pictures = [] if note is None else [note]
        markdown = [
            f"# Ladder: {self.game}",
            "",
            self.to_markdown(),
            "",
            "```",
            self.pairwise_table(),
            "```",
            "",
            f"![pairwise win rates]({picture.name})" if note is None else f"({note})",
            "",
        ]
        write_text(out / "ladder.md", "\n".join(markdown), root=out)
        return out


# --------------------------------------------------------------------------- rating
def _object_spec(label: str) -> str:
    return OBJECT_PREFIX + re.sub(r"[^A-Za-z0-9_.+-]", "_", label)


@contextmanager
def _registered(objects: Mapping[str, Agent]) -> Iterator[None]:
    """Agent objects registered under their spec names for the tournament, then removed.

    Each build (one per agent index and seat) is a deep copy of the object (the object itself
    when it cannot be copied)."""

    def factory(obj: Agent):
        def build(game: Game, **kwargs: Any) -> Agent:
            if kwargs:
                raise InvalidConfigError(f"an agent object takes no options, got {kwargs}")
            try:
                return copy.deepcopy(obj)
            except Exception:  # noqa: BLE001 - an uncopyable agent is shared between its seats
                return obj

        return build

    known = set(agent_registry.list_agents())
    clash = sorted(set(objects) & known)
    if clash:
        raise ValueError(f"agent names {clash} are taken in the agent registry; rename the labels")
    try:
        for spec, obj in objects.items():
            agent_registry.register_agent(spec, factory(obj))
        yield
    finally:
        for spec in objects:
            agent_registry.unregister_agent(spec)


def _check_candidates(
    game: Game, ladder: Mapping[str, str], candidates: Mapping[str, str | Agent]
) -> tuple[list[str], list[str], dict[str, Agent]]:
    """(labels, specs, {object spec: Agent}) with every problem as a one-line error."""
    if not isinstance(candidates, Mapping):
        raise TypeError(
            "candidates must be a dict {label: agent spec or Agent}, e.g. {'mine': MyAgent()}; "
            f"got {type(candidates).__name__}"
        )
    labels: list[str] = []
    specs: list[str] = []
    objects: dict[str, Agent] = {}
    for label, agent in [*ladder.items(), *candidates.items()]:
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"agent labels must be non-empty strings, got {label!r}")
        if label in labels:
            raise ValueError(f"label {label!r} is used twice (the ladder has {list(ladder)})")
        if isinstance(agent, Agent):
            spec = _object_spec(label)
            if spec in objects:
                raise ValueError(f"labels {label!r} and another map to one name {spec!r}")
            objects[spec] = agent
        elif isinstance(agent, str):
            spec = agent.strip()
            try:
                agent_registry.make_agent(spec, game)
            except InvalidConfigError as e:
                raise InvalidConfigError(f"agent {label!r}: {e}") from None
        else:
            raise TypeError(
                f"agent {label!r} must be an agent spec string or an Agent, got "
                f"{type(agent).__name__}"
            )
        if spec in specs:
            other = labels[specs.index(spec)]
            raise ValueError(f"{label!r} is the same agent as {other!r} ({spec!r}); drop one")
        labels.append(label)
        specs.append(spec)
    if "random" not in labels or specs[labels.index("random")] != "random":
        raise ValueError(
            "the ladder must hold 'random' (label and spec): ratings are relative to it"
        )
    return labels, specs, objects


def rate_against_ladder(
    game: Game | str,
    candidates: Mapping[str, str | Agent],
    games_per_pair: int = 20,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    out_dir: str | Path | None = None,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    ladder: Mapping[str, str] | None = None,
) -> LadderResult:
    """Play ``candidates`` and the ladder of ``game`` in a round robin; rate everyone.

    Args:
        game: a Game, or a registered name (played in its
            :data:`~boardgames_rl.arena.ladder.LADDER_GAMES` configuration).
        candidates: ``{label: spec string or Agent object}`` (may be empty: the ladder alone).
        games_per_pair: games per table (a pair in 2-player games; "one agent alone against a
            field of another" in games of more players); >= 1. Seats are rotated, so an even
            count (a multiple of the number of seats) plays every seat equally often.
        seed: the tournament seed (same seed, same games, same result).
        workers: game processes for a ladder of spec strings (Agent objects: this process).
        progress: show a progress bar.
        out_dir: a folder for the arena's tournament files (resumable: a rerun with the same
            arguments plays only the missing games) and :meth:`LadderResult.save`'s. An Agent
            object is known there by its label only (``object.<label>``): after changing your
            agent, use a new label or a new folder, or its old games are kept.
        budgets: the ISMCTS iterations of the ladder's search agents (:func:`ladder_agents`;
            not used with ``ladder``).
        ladder: the reference agents ``{label: spec}`` instead of :func:`ladder_agents` (it must
            hold ``"random": "random"``, the rating anchor).

    Raises:
        InvalidConfigError: an unknown or malformed spec (the message names the label).
        ValueError: bad arguments (one line each).
        TypeError: arguments of the wrong type (one line each).
    """
    game = ladder_game(game)
    if isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int | np.integer):
        raise ValueError(f"games_per_pair must be an int >= 1, got {games_per_pair!r}")
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be >= 1, got {games_per_pair}")
    reference = ladder_agents(game, budgets) if ladder is None else dict(ladder)
    labels, specs, objects = _check_candidates(game, reference, candidates)
    if objects and workers != 1:
        warnings.warn(
            "Agent objects are played in this process (workers cannot rebuild them): workers "
            f"= {workers} ignored; the results are the same",
            RuntimeWarning,
            stacklevel=2,
        )
        workers = 1
    with _registered(objects):
        result = tournament(
            game,
            specs,
            int(games_per_pair),
            seats="rotate",
            workers=workers,
            seed=seed,
            out=out_dir,
            progress=progress,
        )
    objects_by_label = {
        label: type(candidates[label]).__name__
        for label in candidates
        if isinstance(candidates[label], Agent)
    }
    ladder_result = LadderResult(labels, specs, list(candidates), result, objects_by_label)
    if out_dir is not None:
        ladder_result.save(out_dir)
    return ladder_result
