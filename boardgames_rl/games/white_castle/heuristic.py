"""A heuristic White Castle agent: greedy with a short look-ahead over its own decisions.

For each legal action the agent applies it to a state sampled from its information set (only the
castle deck orders are hidden) and then searches its own follow-up decisions (the die it takes
leads to the space it places on, which leads to the effects it resolves) up to ``depth`` choices
deep, stopping as soon as another player is to move. The leaves are scored by :meth:`value`:

* the scoring breakdown total if the game ended now (``state.scores()``);
* plus resources, coins and seals, Passage of Time steps, clan members placed and lantern
  cards, weighted by how much of the game is left (they turn into points later);
* minus half the best opponent's score total.

The best action wins; ties are broken by ``rng``. Seal exchanges are considered only at the root.
"""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.game import InfoSet
from boardgames_rl.games.white_castle import data as T
from boardgames_rl.games.white_castle import scoring
from boardgames_rl.games.white_castle.legal import MAX_OPTS


def _copy(x):
    """Deep copy of the engine's JSON-like data (lists, dicts, scalars): much faster than
    ``copy.deepcopy``."""
    if type(x) is list:
        return [_copy(y) for y in x]
    if type(x) is dict:
        return {k: _copy(v) for k, v in x.items()}
    return x


# keys never changed in place after setup (shared by look-ahead copies) and flat lists
_SHARED = ("room_tiles", "well_tiles", "yards", "gardens", "daimyo")
_FLAT = ("turn_order", "steward_deck", "diplomat_deck", "rooms", "daimyo_pos", "draft_left")
_NESTED = ("bridges", "domain_dice", "garden_workers", "yard_warriors")
_SCALARS = ("n", "round", "phase", "turns_taken", "turn_active", "pot_counter")


def _clone(state):
    """A look-ahead copy sharing the (sampled, private) chance generator and setup tables."""
    s = type(state)(state.game, state.rng)
    d, src = s.__dict__, state.__dict__
    for k in _SHARED + _SCALARS:
        d[k] = src[k]
    for k in _FLAT:
        d[k] = list(src[k])
    for k in _NESTED:
        d[k] = [list(x) for x in src[k]]
    d["spaces"] = [[list(x) for x in sp] for sp in src["spaces"]]
    d["players"] = [
        {
            **pl,
            "members": list(pl["members"]),
            "courtiers": list(pl["courtiers"]),
            "lantern": list(pl["lantern"]),
        }
        for pl in src["players"]
    ]
    for k in ("offer", "held", "stack", "decision", "final_left"):
        d[k] = _copy(src[k])
    return s


class WhiteCastleHeuristic(Agent):
    """Greedy look-ahead player (see module docstring)."""

    name = "heuristic"

    def __init__(
        self,
        depth: int = 2,
        resource: float = 0.6,
        coin: float = 0.3,
        seal: float = 0.6,
        pot_step: float = 0.4,
        member: float = 1.0,
        lantern: float = 0.8,
        opponent: float = 0.5,
    ):
        self.depth = depth
        self.w_resource = resource
        self.w_coin = coin
        self.w_seal = seal
        self.w_pot = pot_step
        self.w_member = member
        self.w_lantern = lantern
        self.w_opponent = opponent

    # --------------------------------------------------------------------------- evaluation
    def value(self, state, me: int) -> float:
        """Points now plus weighted assets of ``me``, minus part of the best opponent's points."""
        totals = scoring.totals(state)
        if state.is_terminal():
            best_other = max(t for p, t in enumerate(totals) if p != me)
            return totals[me] - best_other + (100.0 if state.winner() == me else 0.0)
        pl = state.players[me]
        turns_total = 3 * T.ROUNDS
        turns_done = 3 * (state.round - 1) + state.turns_taken // state.n
        future = max(0.0, (turns_total - turns_done) / turns_total)
        assets = (
            self.w_resource * sum(min(pl[r], T.RES_CAP) for r in T.RESOURCES)
            + self.w_coin * pl["coin"]
            + self.w_seal * pl["seal"]
            + self.w_member * (15 - sum(pl["members"]))
            + self.w_lantern * len(pl["lantern"])
        )
        score = totals[me] + self.w_pot * pl["pot"] + future * assets
        best_other = max(t for p, t in enumerate(totals) if p != me)
        return score - self.w_opponent * best_other

    def _search(self, state, me: int, depth: int) -> float:
        if depth <= 0 or state.is_terminal() or state.current_player != me:
            return self.value(state, me)
        best = -np.inf
        for a in range(len(state.options())):
            child = _clone(state)
            child._apply(a)  # option indices are legal by construction
            best = max(best, self._search(child, me, depth - 1))
        return best

    # --------------------------------------------------------------------------- decisions
    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(info_set.legal_action_mask)
        if len(legal) == 1:
            return int(legal[0])
        me = info_set.player
        base = info_set.sample(rng)
        scores = np.empty(len(legal))
        for i, a in enumerate(legal):
            child = _clone(base)
            child.apply(int(a))
            # an exchange keeps the same decision open: one level deeper keeps it comparable
            depth = self.depth if a < MAX_OPTS else self.depth + 1
            scores[i] = self._search(child, me, depth - 1)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return int(legal[best[int(rng.integers(len(best)))]])


_WORTH = WhiteCastleHeuristic(opponent=0.0)


def evaluate(state, scale: float = 10.0) -> np.ndarray:
    """Per-seat value in [-1, 1] of a (sampled) state, for search cut-offs (ISMCTS).

    The returns at the end; before it, ``tanh((worth - best other worth) / scale)`` where a
    player's worth is the heuristic's own :meth:`WhiteCastleHeuristic.value` without the
    opponent term (points now plus assets weighted by the game left).
    """
    if state.is_terminal():
        return state.returns()
    worth = np.array([_WORTH.value(state, p) for p in range(state.n)], dtype=np.float64)
    out = np.empty(len(worth))
    for p in range(len(worth)):
        out[p] = worth[p] - np.max(np.delete(worth, p))
    return np.tanh(out / scale)
