"""The ninja's decisions (seat 0). Every decision kind has its own rule; none samples states.

* Movement: the path search (:mod:`.paths`) over the footprint paths of the card's length from
  every starting option, with the colour risks of :mod:`.ninja_model`. The card played is the one
  whose best path plus the value of its action (equipment, Pick the Lock when the lockdown is
  near, Listen's information, decoys...) is highest; the start and the discs follow that plan,
  replanned when something changes.
* Tokens: Soft Tabi on every detection, Kawarimi on every capture, Blowgun when it takes a
  capture (or the lockdown) out of the samurai's reach, the Listening Tube when the best plan is
  risky and worthwhile, Lockpick when the lockdown is near, the Rice-Paper Map / Scout on unknown
  vases; the cheapest token is discarded to jump. Lantern: clear rather than reveal; the disc
  kept or revealed is the best placed one far from the samurai. Decoys go on free squares with the
  best potential, far from the samurai, in zones without a disc. Thrown Pebble sends the samurai
  to the adjacent zone farthest from the ninja.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.colours import colour_scores
from boardgames_rl.games.castle_nightingale.ai.geometry import INF, Geo
from boardgames_rl.games.castle_nightingale.ai.knowledge import (
    N_MOVES,
    mask_squares,
    ninja_starts,
    open_passages,
    vase_values,
)
from boardgames_rl.games.castle_nightingale.ai.ninja_model import NinjaModel
from boardgames_rl.games.castle_nightingale.ai.paths import plan, plans
from boardgames_rl.games.castle_nightingale.ai.tokens import NINJA_TOKEN_VALUE
from boardgames_rl.games.castle_nightingale.data import NINJA
from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleView, Decision

Handler = Callable[..., "int | None"]
"""``handler(policy, knowledge, geo, legal mask, decision, rng) -> action`` (None: no rule)."""


class NinjaPolicy:
    """Ninja decisions (see the module docstring)."""

    def __init__(self):
        self.model = NinjaModel()
        self.reset()

    def reset(self) -> None:
        self.model.reset()
        self._plan: dict[str, Any] | None = None

    def act(self, info, g: Geo, rng: np.random.Generator) -> int | None:
        """The rule of the pending decision (``None`` if there is none)."""
        k = info.view
        d = k.decision
        handler = self.HANDLERS.get(d["kind"])
        if handler is None:
            return None
        return handler(self, k, g, info.legal_action_mask, d, rng)

    # ------------------------------------------------------------------ the plan of this turn
    @staticmethod
    def _signature(k: CastleNightingaleView) -> tuple:
        """What a movement plan depends on besides the discs placed along it."""
        return (
            k.turn,
            k.samurai_sq,
            tuple(k.closed),
            tuple(k.tile_in),
            tuple(k.ninja_knows),
            tuple(map(tuple, k.listen_answers)),
            k.bell_used,
        )

    def _planned_step(self, k: CastleNightingaleView) -> tuple[int, int] | None:
        """The next step of this turn's plan, if the plan still holds."""
        plan_ = self._plan
        if plan_ is None or plan_["sig"] != self._signature(k) or plan_["start"] != k.start_sq:
            return None
        done = list(k.turn_discs)
        steps = plan_["steps"]
        if len(done) >= len(steps) or [sq for sq, _ in steps[: len(done)]] != done:
            return None
        return steps[len(done)]

    @staticmethod
    def _step_action(step, legal, shuko_on: bool) -> int | None:
        sq, kind = step
        if kind == 1 and legal[A.JUMP]:
            return A.JUMP
        if kind == 2 and not shuko_on and legal[A.NINJA_TOKEN + C.SHUKO]:
            return A.NINJA_TOKEN + C.SHUKO
        if legal[A.SQUARE + sq]:
            return A.SQUARE + sq
        return None

    # ------------------------------------------------------------------ programming
    def _prog_n_card(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        self.model.remember_prior(k, g)
        ctx = self.model.context(k, g)
        base_starts = ninja_starts(k, g)
        opens = [p for p in ctx.opens if p != k.samurai_sq]
        n_open = len(ctx.opens)
        tokens = len(k.n_equip)
        options = []  # (card, search key): cards sharing a search are planned together
        groups: dict[tuple, set[int]] = {}
        for card in k.n_hand:
            if not legal[A.NINJA_CARD + card]:
                continue
            starts = base_starts
            if card == C.VANISH:
                starts = sorted(set(base_starts) | set(opens))
            key = (tuple(starts), card == C.ROOFTOP_LEAP, 0.45 if card == C.LISTEN else 1.0)
            groups.setdefault(key, set()).add(N_MOVES[card])
            options.append((card, key))
        found = {}
        for key, moves in groups.items():
            key_starts, free, scale = key
            c2 = ctx
            if scale != 1.0:
                c2 = dataclasses.replace(ctx, risk=[x if x >= 1.0 else x * scale for x in ctx.risk])
            found[key] = plans(
                g, c2, list(key_starts), tuple(sorted(moves)), free, tokens > 0, allow_diag=False
            )
        best_card, best_det, best_gain = -1, 0.0, 0.0
        best_value: float = -INF
        for card, key in options:
            value, start, steps, det = found[key][N_MOVES[card]]
            gain = sum(ctx.vases.get(sq, 0.0) for sq, _ in steps)
            value += self._card_bonus(card, n_open, k)
            if value > best_value:
                best_card, best_value, best_det, best_gain = card, value, det, gain
                self._plan = {
                    "sig": self._signature(k),
                    "card": card,
                    "start": start,
                    "steps": steps,
                }
        if legal[A.NINJA_TOKEN + C.LISTENING_TUBE] and best_det > 0.2 and best_gain > 0.4:
            return A.NINJA_TOKEN + C.LISTENING_TUBE
        return A.NINJA_CARD + best_card

    @staticmethod
    def _card_bonus(card: int, n_open: int, k: CastleNightingaleView) -> float:
        stack = len(k.n_stack)
        token = 0.6 if stack else 0.0
        if card == C.PICK_THE_LOCK:
            closed = C.NUM_TRAPDOORS - n_open
            return (
                (0.2 if closed else 0.0)
                + (1.0 if n_open <= 3 else 0.0)
                + (2.0 if n_open <= 2 else 0.0)
            )
        if card == C.SCOUT:
            return 0.2 + token
        if card == C.SUPPLY_CACHE:
            return token
        if card == C.MEDITATE:
            return token + (0.2 if stack >= 2 else 0.0)
        if card == C.FALSE_TRAIL:
            return 0.3
        if card == C.THROWN_PEBBLE:
            return 0.15
        if card == C.LISTEN:
            return 0.1
        return 0.0

    # ------------------------------------------------------------------ movement
    def _start(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        plan_ = self._plan
        card = k.n_card
        if (
            plan_ is not None
            and plan_["card"] == card
            and plan_["sig"] == self._signature(k)
            and plan_["start"] is not None
            and legal[A.SQUARE + plan_["start"]]
        ):
            return A.SQUARE + plan_["start"]
        ctx = self.model.context(k, g)
        starts = mask_squares(legal)
        move = N_MOVES[card]
        f = k.flags
        free = bool(f.free_jump) and not f.jump_used
        paid = not f.jump_used and bool(k.n_equip)
        _v, start, steps, _det = plan(g, ctx, starts, move, free, paid)
        start = start if start is not None else starts[0]
        self._plan = {"sig": self._signature(k), "card": card, "start": start, "steps": steps}
        return A.SQUARE + start

    def _place(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        f = k.flags
        # Lockpick when the lockdown is near (it also reopens a way to travel)
        if legal[A.NINJA_TOKEN + C.LOCKPICK] and sum(1 for c in k.closed if not c) <= 2:
            return A.NINJA_TOKEN + C.LOCKPICK
        step = self._planned_step(k)
        if step is not None:
            action = self._step_action(step, legal, bool(f.shuko))
            if action is not None:
                return action
        ctx = self.model.context(k, g)
        cur = k.turn_discs[-1] if k.turn_discs else k.start_sq
        visited = (k.start_sq, *k.turn_discs)
        free = bool(f.free_jump) and not f.jump_used
        paid = not f.jump_used and (bool(k.n_equip) or bool(f.jump_paid))
        _v, _s, steps, _det = plan(
            g,
            ctx,
            [cur],
            f.discs_left,
            free,
            paid,
            prefix=tuple(k.turn_discs),
            visited0=visited,
            shuko_active=bool(f.shuko),
        )
        if steps:
            self._plan = {
                "sig": self._signature(k),
                "card": k.n_card,
                "start": k.start_sq,
                "steps": [(sq, 0) for sq in k.turn_discs] + steps,
            }
            action = self._step_action(steps[0], legal, bool(f.shuko))
            if action is not None:
                return action
        # the plan is not legal (should not happen): the legal square with the best potential
        squares = mask_squares(legal)
        if squares:
            return A.SQUARE + max(squares, key=lambda s: ctx.pot[s] - 2 * ctx.risk[g.col[s]])
        if legal[A.JUMP]:  # only a paid jump goes on (G7): it places the remaining discs
            return A.JUMP
        if legal[A.NINJA_TOKEN + C.SHUKO] and not legal[A.PASS]:
            return A.NINJA_TOKEN + C.SHUKO  # only the Shuko's diagonal goes on (G7)
        if legal[A.PASS]:  # stranded with tokens held: stop, the unplaced discs go back
            return A.PASS
        return None

    def _jump_token(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        tokens = [t for t in k.n_equip if legal[A.NINJA_TOKEN + t]]
        return A.NINJA_TOKEN + min(tokens, key=lambda t: NINJA_TOKEN_VALUE[t])

    def _jump_land(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        step = self._planned_step(k)
        if step is not None and legal[A.SQUARE + step[0]]:
            return A.SQUARE + step[0]
        f = k.flags
        ctx = self.model.context(k, g)
        visited = (k.start_sq, *k.turn_discs)
        best_sq: int | None = None
        best_v: float = -INF
        for sq in mask_squares(legal):
            # value of landing here, then the best continuation
            v, _s, _steps, _det = plan(
                g,
                ctx,
                [sq],
                f.discs_left - 1,
                False,
                False,
                prefix=tuple(k.turn_discs) + (sq,),
                visited0=visited,
            )
            v += ctx.vases.get(sq, 0.0) - 2.0 * ctx.risk[g.col[sq]]
            if v > best_v:
                best_sq, best_v = sq, v
        if best_sq is None:
            raise RuntimeError("castle_nightingale heuristic: no jump landing scored")
        return A.SQUARE + best_sq

    # ------------------------------------------------------------------ timing windows
    def _w4(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        if legal[A.NINJA_TOKEN + C.SOFT_TABI]:
            return A.NINJA_TOKEN + C.SOFT_TABI
        return A.PASS

    def _w8(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        if legal[A.NINJA_TOKEN + C.KAWARIMI]:
            return A.NINJA_TOKEN + C.KAWARIMI
        return A.PASS

    def _w6_n(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        if not legal[A.NINJA_TOKEN + C.BLOWGUN]:
            return A.PASS
        f = k.flags
        sz = k.samurai_zone
        target = f.target
        reduced = max(1, target - 1, f.entries)
        if k.ninja_sq >= 0:
            dz = g.zd[sz][g.zone[k.ninja_sq]]
            need = dz if dz > 0 else 2
            if reduced < need <= target:
                return A.NINJA_TOKEN + C.BLOWGUN
        opens = open_passages(k, g)
        if (k.ninja_sq >= 0 or k.discs) and len(opens) == 1:
            dz = g.zd[sz][g.zone[opens[0]]]
            if reduced < dz <= target:
                return A.NINJA_TOKEN + C.BLOWGUN
        return A.PASS

    def _w3_end(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        opens = open_passages(k, g)
        if legal[A.NINJA_TOKEN + C.LOCKPICK] and len(opens) <= 3:
            return A.NINJA_TOKEN + C.LOCKPICK
        unknown = sum(1 for t, w in enumerate(k.vase_where) if w >= 0 and not k.ninja_knows[t])
        if legal[A.NINJA_TOKEN + C.RICE_PAPER_MAP] and unknown >= 2:
            return A.NINJA_TOKEN + C.RICE_PAPER_MAP
        return A.PASS

    # ------------------------------------------------------------------ card and token effects
    @staticmethod
    def _reopen_score(k, g, sq: int) -> float:
        """A closed passage worth opening: far from the samurai, near the ninja and the vases."""
        sz = k.samurai_zone
        here = [sq2 for sq2 in (k.discs or ([k.ninja_sq] if k.ninja_sq >= 0 else []))]
        near = min((g.grid[sq][h] for h in here), default=5)
        vases = vase_values(k, NINJA)
        vnear = min((g.grid[sq][v] for v, val in vases.items() if val > 0), default=10)
        return 0.5 * min(g.zd[sz][g.zone[sq]], 5) - 0.3 * near - 0.2 * vnear

    def _lockpick(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """Lockpick and Pick the Lock: the closed passage most worth opening."""
        return A.SQUARE + max(mask_squares(legal), key=lambda s: self._reopen_score(k, g, s))

    def _look_vase(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """Scout / Map: the nearest vase whose content it does not know."""
        here = ninja_starts(k, g)
        known = {w for t, w in enumerate(k.vase_where) if w >= 0 and k.ninja_knows[t]}
        return A.SQUARE + max(
            mask_squares(legal), key=lambda s: (s not in known, -min(g.grid[s][h] for h in here))
        )

    def _meditate(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        options = [t for t in range(7) if legal[A.NINJA_TOKEN + t]]
        return A.NINJA_TOKEN + max(options, key=lambda t: NINJA_TOKEN_VALUE[t])

    def _listen(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        p, _twin = self.model.tile_probs(k, g)
        opens = frozenset(open_passages(k, g))
        need = colour_scores(g, ninja_starts(k, g), opens, vase_values(k, NINJA))
        options = [c for c in range(6) if legal[A.TILE + c]]
        return A.TILE + max(options, key=lambda c: (need[c] * (0.2 + p[c]), -c))

    def _pebble(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        here = ninja_starts(k, g)
        zones = {g.zone[h] for h in here}

        def score(s):
            z = g.zone[s]
            return (min(g.zd[z][hz] for hz in zones), min(g.grid[s][h] for h in here))

        return A.SQUARE + max(mask_squares(legal), key=score)

    def _decoy(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        ctx = self.model.context(k, g)
        used_zones = {g.zone[s] for s in k.discs}
        sz = k.samurai_zone
        return A.SQUARE + max(
            mask_squares(legal),
            key=lambda s: (
                ctx.pot[s]
                + 0.1 * min(g.zd[sz][g.zone[s]], 4)
                + (0.3 if g.zone[s] not in used_zones else 0.0)
            ),
        )

    def _lantern_choice(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        return A.CLEAR if legal[A.CLEAR] else A.REVEAL

    def _keep_disc(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """The disc kept (Lantern Sweep) or revealed (Paper Lantern): best placed, far from him."""
        ctx = self.model.context(k, g)
        sz = k.samurai_zone
        return A.SQUARE + max(
            mask_squares(legal),
            key=lambda s: ctx.pot[s] + 0.5 * min(g.zd[sz][g.zone[s]], 4),
        )

    # ------------------------------------------------------------------ the table
    HANDLERS: ClassVar[dict[str, Handler]] = {
        "pick_lock": _lockpick,
        "pebble": _pebble,
        "scout": _look_vase,
        "listen": _listen,
        "meditate": _meditate,
        "prog_n_card": _prog_n_card,
        "start": _start,
        "place": _place,
        "jump_token": _jump_token,
        "jump_land": _jump_land,
        "lockpick": _lockpick,
        "map_vase": _look_vase,
        "w4": _w4,
        "w3_end": _w3_end,
        "decoy": _decoy,
        "lantern_choice": _lantern_choice,
        "lantern_disc": _keep_disc,
        "w6_n": _w6_n,
        "w8": _w8,
        "sweep_keep": _keep_disc,
    }
    """Decision kind -> its rule: every decision the ninja makes (``DECISION_PLAYER``)."""
