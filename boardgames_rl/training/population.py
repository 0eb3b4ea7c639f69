"""The league's population: who the learner plays, drawn by prioritised fictitious self-play.

Members are named. A *fixed* member is an agent spec (``random``, ``heuristic``,
``ismcts:iterations=50``, ...) that never changes; a *snapshot* is a frozen copy of a learner's
weights (the main learner's past selves, and the exploiters' frozen copies); ``latest`` stands
for the learner's current weights (self-play). Each member keeps the learner's last
``window`` results against it: a game counts for every member at its table, with the learner's
*score* in that game, its win share scaled so that an even game is 0.5
(``min(1, share * num_players / 2)``: a 2-player win is 1, a 4-player win 1, a quarter share
0.5).

**Drawing** (:meth:`Population.probabilities`): ``latest`` gets ``latest_weight``; the other
members share the rest in proportion to ``(1 - score) ** power`` (prioritised fictitious
self-play, the "hard" weighting: the members the learner loses to come up more, one it always
beats almost never), where a member's score is the mean of its window with ``prior_games``
games at 0.5 in front (a new member starts as an even match). ``power = 0`` is plain fictitious
self-play (uniform). Every other seat of a table is drawn independently (multi-player tables
are filled seat by seat).

**Freezing** (:meth:`Population.should_freeze`): a snapshot of the learner joins when it beats
the pool -- its score against the pool as drawn (the members' scores weighted by their draw
probabilities, every member with at least ``min_games`` games) is at least ``freeze_score`` --
or when ``freeze_every`` learner steps have passed since the last snapshot, whichever comes
first (and never sooner than ``freeze_min_steps``). At most ``max_snapshots`` are kept: beyond
it the snapshot the learner beats most is dropped. With ``max_snapshots = 0`` none is ever
frozen: the fixed members are the whole population (a best response to them).

The population is plain data (:meth:`Population.to_dict` / :meth:`Population.restore`: names,
kinds, specs, results), checked value by value when read back; the snapshots' weights are stored
beside it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError

LATEST = "latest"
"""The learner's current weights as an opponent (self-play)."""
FIXED, SNAPSHOT = "fixed", "snapshot"


@dataclass
class Member:
    """One member: its kind, its spec (fixed members), when it joined, the learner's scores."""

    name: str
    kind: str
    spec: str = ""
    added_at: int = 0
    scores: deque[float] = field(default_factory=deque)

    def score(self, prior_games: float) -> float:
        """The learner's mean score against this member, ``prior_games`` even games in front."""
        return (sum(self.scores) + 0.5 * prior_games) / (len(self.scores) + prior_games)


@dataclass
class PopulationSettings:
    """How the population draws and freezes (see the module docstring)."""

    power: float = 2.0
    latest_weight: float = 0.2
    window: int = 200
    prior_games: float = 4.0
    freeze_score: float = 0.6
    min_games: int = 40
    freeze_every: int = 200_000
    freeze_min_steps: int = 20_000
    max_snapshots: int = 20

    def check(self) -> None:
        def refuse(name: str, what: str) -> None:
            value = getattr(self, name)
            raise InvalidConfigError(f"--{name.replace('_', '-')} must be {what}, got {value!r}")

        if not self.power >= 0:
            refuse("power", ">= 0")
        if not 0 <= self.latest_weight < 1:
            refuse("latest_weight", "in [0, 1)")
        if self.window < 1:
            refuse("window", ">= 1")
        if not self.prior_games >= 0:
            refuse("prior_games", ">= 0")
        if not 0 < self.freeze_score <= 1:
            refuse("freeze_score", "in (0, 1]")
        if self.min_games < 0:
            refuse("min_games", ">= 0")
        if self.freeze_every < 1:
            refuse("freeze_every", ">= 1")
        if self.freeze_min_steps < 0:
            refuse("freeze_min_steps", ">= 0")
        if self.max_snapshots < 0:
            refuse("max_snapshots", ">= 0")


class Population:
    """The members one learner draws its opponents from (see the module docstring)."""

    def __init__(self, fixed: Sequence[str], settings: PopulationSettings, num_players: int):
        settings.check()
        self.settings, self.num_players = settings, num_players
        self.members: dict[str, Member] = {}
        for spec in fixed:
            if spec in self.members or spec == LATEST:
                raise InvalidConfigError(
                    f"league members must be distinct, not {LATEST!r}: {spec!r}"
                )
            self.members[spec] = Member(spec, FIXED, spec)
        self.last_freeze = 0
        if settings.latest_weight == 0 and not self.members:
            raise InvalidConfigError(
                "the league needs a fixed member (--members) or self-play (--latest-weight > 0)"
            )

    # ------------------------------------------------------------------ drawing
    def probabilities(self) -> dict[str, float]:
        """Each member's probability for one opponent seat (``latest`` included)."""
        s = self.settings
        weights = {
            name: (1.0 - m.score(s.prior_games)) ** s.power for name, m in self.members.items()
        }
        total = sum(weights.values())
        if total <= 0:  # the learner beats every member every time: uniform
            weights, total = dict.fromkeys(self.members, 1.0), float(len(self.members))
        rest = 1.0 - s.latest_weight if self.members else 0.0
        table = {name: rest * w / total for name, w in weights.items()}
        if s.latest_weight > 0 or not self.members:
            table[LATEST] = s.latest_weight if self.members else 1.0
        return table

    def draw(self, rng: np.random.Generator, seats: int) -> list[str]:
        """One member name per opponent seat."""
        table = self.probabilities()
        names = list(table)
        p = np.array([table[n] for n in names])
        return [names[i] for i in rng.choice(len(names), size=seats, p=p / p.sum())]

    # ------------------------------------------------------------------ results
    def score_of(self, win_share: float) -> float:
        """The learner's score in one game from its win share (0.5: an even game)."""
        return min(1.0, win_share * self.num_players / 2.0)

    def record(self, lineup: Iterable[str], win_share: float) -> None:
        """One game's result against every member at its table (``latest`` is not kept)."""
        score = self.score_of(win_share)
        for name in set(lineup):
            m = self.members.get(name)
            if m is not None:
                m.scores.append(score)
                while len(m.scores) > self.settings.window:
                    m.scores.popleft()

    def pool_score(self) -> float | None:
        """The learner's score against the pool as drawn (None until every member has
        ``min_games`` games)."""
        table = {k: v for k, v in self.probabilities().items() if k != LATEST}
        if not table or any(len(self.members[n].scores) < self.settings.min_games for n in table):
            return None
        total = sum(table.values())
        return sum(p * self.members[n].score(0) for n, p in table.items()) / total

    # ------------------------------------------------------------------ snapshots
    def should_freeze(self, step: int) -> str | None:
        """Why a snapshot should be frozen at ``step`` (``"beats the pool"``, ``"step cap"``),
        or None."""
        since = step - self.last_freeze
        if self.settings.max_snapshots == 0 or since < self.settings.freeze_min_steps or since <= 0:
            return None
        score = self.pool_score()
        if score is not None and score >= self.settings.freeze_score:
            return f"beats the pool ({score:.2f})"
        if since >= self.settings.freeze_every:
            return "step cap"
        return None

    def add_snapshot(self, name: str, step: int) -> list[str]:
        """Add snapshot ``name`` (frozen at ``step``); returns the snapshots dropped for the cap
        (their weights may go)."""
        if name in self.members or name == LATEST:
            raise InvalidConfigError(f"snapshot name {name!r} is taken")
        self.members[name] = Member(name, SNAPSHOT, "", step)
        self.last_freeze = step
        dropped = []
        snapshots = [m for m in self.members.values() if m.kind == SNAPSHOT]
        while len(snapshots) > self.settings.max_snapshots:
            easiest = max(
                snapshots[:-1], key=lambda m: (m.score(self.settings.prior_games), -m.added_at)
            )
            del self.members[easiest.name]
            snapshots.remove(easiest)
            dropped.append(easiest.name)
        return dropped

    @property
    def snapshot_names(self) -> list[str]:
        return [n for n, m in self.members.items() if m.kind == SNAPSHOT]

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict[str, Any]:
        """The population as plain data: the last freeze, each member with its results."""
        return {
            "last_freeze": self.last_freeze,
            "members": [
                {
                    "name": m.name,
                    "kind": m.kind,
                    "spec": m.spec,
                    "added_at": m.added_at,
                    "scores": [round(x, 6) for x in m.scores],
                }
                for m in self.members.values()
            ],
        }

    def restore(self, data: Any, source: str) -> None:
        """The state :meth:`Population.to_dict` saved, read as data and checked value by value
        (the fixed members must be this population's own)."""
        fix = "restore the file, or start a new league with another --out"

        def bad(what: str) -> InvalidConfigError:
            return InvalidConfigError(f"{source}: {what}; {fix}")

        if not isinstance(data, Mapping):
            raise bad("league must be an object")
        last = data.get("last_freeze")
        if not isinstance(last, int) or isinstance(last, bool) or last < 0:
            raise bad("league.last_freeze must be an integer >= 0")
        members = data.get("members")
        if not isinstance(members, list):
            raise bad("league.members must be a list")
        restored: dict[str, Member] = {}
        for m in members:
            if not isinstance(m, Mapping):
                raise bad("a league member must be an object")
            name, kind, spec = m.get("name"), m.get("kind"), m.get("spec", "")
            added, scores = m.get("added_at", 0), m.get("scores", [])
            if not isinstance(name, str) or not name or name in restored or name == LATEST:
                raise bad(f"league member name {name!r:.40} is not a new non-empty string")
            if kind not in (FIXED, SNAPSHOT):
                raise bad(f"league member {name!r:.40}: kind must be {FIXED} or {SNAPSHOT}")
            if kind == FIXED and (name not in self.members or self.members[name].spec != spec):
                raise bad(f"fixed member {name!r:.40} is not one of --members")
            if not isinstance(added, int) or isinstance(added, bool) or added < 0:
                raise bad(f"league member {name!r:.40}: added_at must be an integer >= 0")
            if not isinstance(scores, list) or not all(
                isinstance(x, int | float) and not isinstance(x, bool) and 0 <= x <= 1
                for x in scores
            ):
                raise bad(f"league member {name!r:.40}: scores must be numbers in [0, 1]")
            window = deque(float(x) for x in scores[-self.settings.window :])
            restored[name] = Member(name, kind, spec if kind == FIXED else "", added, window)
        missing = [n for n, m in self.members.items() if m.kind == FIXED and n not in restored]
        if missing:
            raise bad(f"fixed members {missing} are missing from the saved league")
        self.members, self.last_freeze = restored, last
