"""The samurai's decisions (seat 1). Every decision kind has its own rule; none samples states.

* Tile: a score per colour mixing (``MODEL``) the colours around where the ninja can be (the
  figurine, else the discs, else the open passages: squares 1-4 steps away by distance, more on a
  shortest way to a vase, more in zones his card can reach) with the colours on the paths the
  ninja's own search finds from what the samurai knows, for every movement value its card may
  have, fearing the colours the ninja's model says he will pick (``LEVEL3``). The tile is drawn
  with probability proportional to score^3 (a mixed strategy; Twin draws two). The Alarm Bell
  swaps a tile the Listening Tube showed; the Sprint exchange swaps when the ninja's card makes
  another colour much better.
* Movement: the walk search (:mod:`.walks`) over walks of exactly the remaining entries (or one
  more / one less with an adjustment, +1 / +2 with Straw Sandals, at a token's price). The card
  programmed is the best walk plus its action's value plus the chance to reach a detected ninja.
* Actions: the final square is a disc (the one most useful to the ninja; never the last disc on
  the board when another square will do: it pins the ninja's next start), else a vase the ninja
  is near (moved far from the ninja and the open passages; a known empty one is left as bait),
  else the square nearest the ninja. Track the Trail / Hound remove the discs farthest from him
  and nearest to the vases; Iron Bar is kept for the lockdown capture (or used when three tokens
  are held); the Paper Lantern when a reachable zone holds all (or all but one) discs; Watch Fire
  when the ninja is next to his zone; the Inventory Ledger when spare. Confiscated vases go far
  from the open passages; after a lockdown he reopens the passages nearest him and farthest from
  the vases; the setup trap doors close the passages nearest the vases.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.ai.colours import colour_scores, mix, path_colours
from boardgames_rl.games.castle_nightingale.ai.geometry import INF, Geo
from boardgames_rl.games.castle_nightingale.ai.knowledge import (
    S_MOVES,
    mask_squares,
    ninja_card_moves,
    ninja_distance,
    ninja_here,
    ninja_starts,
    open_passages,
    vase_values,
)
from boardgames_rl.games.castle_nightingale.ai.ninja_model import NinjaModel
from boardgames_rl.games.castle_nightingale.ai.tokens import SAMURAI_TOKEN_VALUE
from boardgames_rl.games.castle_nightingale.ai.walks import CAP, WalkSearch
from boardgames_rl.games.castle_nightingale.data import FACE_UP, HAND, PROGRAMMED, SAMURAI
from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleView, Decision

Handler = Callable[..., "int | None"]
"""``handler(policy, knowledge, geo, legal mask, decision, rng) -> action`` (None: no rule)."""


class SamuraiPolicy:
    """Samurai decisions (see the module docstring)."""

    TOKEN_COST = 2.0  # using a token for movement costs this plus the token's value
    LEVEL3 = 1.0  # model the ninja's own fear of the obvious paths (1 = on)
    MODEL = 0.5  # weight of the simulated ninja's paths in the tile choice
    POWER = 3.0  # tile choice: probability proportional to score ** POWER

    def __init__(self):
        self._model = NinjaModel()
        self.reset()

    def reset(self) -> None:
        self._sandals_plus = 1

    def act(self, info, g: Geo, rng: np.random.Generator) -> int | None:
        """The rule of the pending decision (``None`` if there is none)."""
        k = info.view
        d = k.decision
        handler = self.HANDLERS.get(d["kind"])
        if handler is None:
            return None
        return handler(self, k, g, info.legal_action_mask, d, rng)

    # ------------------------------------------------------------------ helpers
    def _move_bonus(self, k) -> int:
        return 1 if k.s_equip and not k.flags.adjust_used else 0

    def _tile_scores(self, k, g, move: int | None) -> list[float]:
        opens = frozenset(open_passages(k, g))
        sz = k.samurai_zone
        zone_weight = None
        if move is not None and sz >= 0:
            reach = move + self._move_bonus(k)
            zone_weight = []
            for z in range(g.nz):
                dz = g.zd[sz][z]
                need = dz if dz > 0 else 2
                zone_weight.append(1.0 if need <= reach else 0.35)
        starts = ninja_starts(k, g)
        near = colour_scores(g, starts, opens, vase_values(k, SAMURAI), zone_weight)
        if not self.MODEL:
            return near
        ctx = self._model.context(k, g, model=True)
        face_up = {c for c in range(6) if k.tile_loc[c] == FACE_UP}
        if self.LEVEL3:  # the ninja fears the colours of its own obvious paths: so does he
            prior = self._model.colour_prior(k, g)
            cand = [c for c in range(6) if c not in face_up]
            tot = sum(prior[c] ** 3 for c in cand) or 1.0
            count = 2 if k.flags.twin else 1
            ctx.risk = [
                min(1.0, count * (0.5 / len(cand) + 0.5 * prior[c] ** 3 / tot))
                if c in cand
                else 0.0
                for c in range(6)
            ]
        model = path_colours(g, ctx, starts, ninja_card_moves(k), face_up, zone_weight)
        return mix(near, model, self.MODEL)

    def _sample_tile(self, scores, options, rng) -> int:
        weights = np.array([max(scores[c], 1e-6) ** self.POWER for c in options])
        return int(options[int(rng.choice(len(options), p=weights / weights.sum()))])

    @staticmethod
    def _disc_threat(k, g, sq: int) -> float:
        """How useful a disc is to the ninja: near the vases, far from the samurai."""
        vases = vase_values(k, SAMURAI)
        vnear = min((g.grid[sq][v] for v, val in vases.items() if val > 0), default=10)
        sz = k.samurai_zone
        return min(g.zd[sz][g.zone[sq]], 5) - 0.5 * min(vnear, 6)

    def _token_cost(self, k, token: int | None = None) -> float:
        if token is None:
            token = min(k.s_equip, key=lambda t: SAMURAI_TOKEN_VALUE[t])
        return self.TOKEN_COST + SAMURAI_TOKEN_VALUE[token]

    # ------------------------------------------------------------------ movement
    def _movement_options(self, k, legal, remaining: int, at_end: bool) -> list:
        opts = [(remaining, 0.0, "base")] if remaining > 0 or at_end else []
        if legal[A.ADJUST_PLUS] and k.s_equip:
            opts.append((remaining + 1, self._token_cost(k), "plus"))
        if legal[A.ADJUST_MINUS] and k.s_equip:
            opts.append((remaining - 1, self._token_cost(k), "minus"))
        if legal[A.SAMURAI_TOKEN + C.STRAW_SANDALS]:
            cost = self._token_cost(k, C.STRAW_SANDALS)
            opts.append((remaining + 1, cost, "sandals1"))
            opts.append((remaining + 2, cost, "sandals2"))
        return [o for o in opts if o[0] >= 0]

    def _entry(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """An entry (or the end of the movement): the first zone of the best walk."""
        f = k.flags
        remaining = f.target - f.entries
        at_end = d["kind"] == "entry_end"
        opts = self._movement_options(k, legal, remaining, at_end)
        _score, tag, first = WalkSearch(k, g, k.s_card).run(opts)
        if tag == "plus":
            return A.ADJUST_PLUS
        if tag == "minus":
            return A.ADJUST_MINUS
        if tag in ("sandals1", "sandals2"):
            self._sandals_plus = 2 if tag == "sandals2" else 1
            return A.SAMURAI_TOKEN + C.STRAW_SANDALS
        if at_end:
            return A.PASS
        if first is not None and legal[A.ZONE + first]:
            return A.ZONE + first
        return None

    def _sandals(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        return A.PLUS_TWO if self._sandals_plus == 2 else A.ADJUST_PLUS

    def _adjust_token(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        tokens = [t for t in k.s_equip if legal[A.SAMURAI_TOKEN + t]]
        return A.SAMURAI_TOKEN + min(tokens, key=lambda t: SAMURAI_TOKEN_VALUE[t])

    def _w6_s(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        return A.PASS  # Straw Sandals are decided entry by entry (W7)

    # ------------------------------------------------------------------ programming
    def _prog_s_card(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        here = ninja_here(k, g)
        sz = k.samurai_zone
        on_board = k.ninja_sq >= 0 or bool(k.discs)
        p_det = 0.45 if k.ninja_sq >= 0 else 0.3 if k.discs else 0.2
        bonus = self._move_bonus(k)
        best_card: int | None = None
        best_v: float = -INF
        for card in k.s_hand:
            if not legal[A.SAMURAI_CARD + card]:
                continue
            move = S_MOVES[card]
            walk, _tag, _first = WalkSearch(k, g, card, fig_zone=-1).run([(move, 0.0, "base")])
            reach = 0.0
            for s in here:
                dz = g.zd[sz][g.zone[s]]
                need = max(dz, 1) + 1 if on_board else max(dz, 1)
                reach += 1.0 if need <= move + bonus + 1 and dz <= move + bonus else 0.0
            reach /= len(here)
            v = walk + p_det * reach * CAP * 0.5 + self._card_action_value(k, card)
            if v > best_v:
                best_card, best_v = card, v
        if best_card is None:
            raise RuntimeError("castle_nightingale heuristic: no samurai card scored")
        return A.SAMURAI_CARD + best_card

    @staticmethod
    def _card_action_value(k, card: int) -> float:
        stack = 1.0 if k.s_stack else 0.0
        if card == C.PATROL:
            return stack
        if card == C.TRACK_THE_TRAIL:
            return 0.8 if len(k.discs) >= 2 else 0.3
        if card == C.SILENT_NIGHT:
            return 0.8
        if card == C.TWIN_NIGHTINGALES:
            return 1.0
        if card == C.MUSTER_THE_GUARD:
            return 1.2 * stack
        if card == C.WATCHTOWER:
            return 1.2 * stack + 0.2
        return 0.0

    def _prog_s_tile(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        options = [c for c in range(6) if legal[A.TILE + c]]
        scores = self._tile_scores(k, g, S_MOVES[k.s_card])
        return A.TILE + self._sample_tile(scores, options, rng)

    def _w2(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        if not legal[A.SAMURAI_TOKEN + C.ALARM_BELL]:
            return A.PASS
        loc = k.tile_loc
        programmed = [c for c in range(6) if loc[c] == PROGRAMMED]
        if any(k.tile_in[c] and not k.tile_revealed[c] for c in programmed):
            return A.SAMURAI_TOKEN + C.ALARM_BELL  # the Listening Tube showed the tile
        return A.PASS

    def _bell_out(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        options = [c for c in range(6) if legal[A.TILE + c]]
        known = [c for c in options if k.tile_in[c]]
        scores = self._tile_scores(k, g, S_MOVES[k.s_card])
        return A.TILE + min(known or options, key=lambda c: scores[c])

    def _sprint_out(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        scores = self._tile_scores(k, g, S_MOVES[k.s_card])
        options = [c for c in range(6) if legal[A.TILE + c]]
        hand = [c for c in range(6) if k.tile_loc[c] == HAND]
        if not options or not hand:
            return A.PASS
        worst = min(options, key=lambda c: scores[c])
        if max(scores[c] for c in hand) > 1.4 * scores[worst]:
            return A.TILE + worst
        return A.PASS

    def _swap_in(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """The tile programmed instead (Alarm Bell, Sprint)."""
        options = [c for c in range(6) if legal[A.TILE + c]]
        if not options:
            return A.PASS  # Sprint: he kept his tiles, he only confirms
        scores = self._tile_scores(k, g, S_MOVES[k.s_card])
        return A.TILE + max(options, key=lambda c: scores[c])

    # ------------------------------------------------------------------ setup
    def _setup_close(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        vases = list(k.vase_where)
        return A.SQUARE + max(
            mask_squares(legal), key=lambda p: -min(g.grid[p][v] for v in vases if v >= 0)
        )

    def _setup_start(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        pz = [g.zone[p] for p in open_passages(k, g)]
        return A.SQUARE + max(
            mask_squares(legal),
            key=lambda s: (-sum(g.zd[g.zone[s]][z] for z in pz), -g.board.on_border[s]),
        )

    # ------------------------------------------------------------------ the ninja's phase
    @staticmethod
    def _lantern_target(k, g) -> int | None:
        discs = k.discs
        if not discs:
            return None
        sz = k.samurai_zone
        move = S_MOVES[k.s_card] + (1 if len(k.s_equip) >= 2 else 0)
        counts: dict[int, int] = {}
        for s in discs:
            counts[g.zone[s]] = counts.get(g.zone[s], 0) + 1
        best, best_v = None, 0.0
        for z, n in counts.items():
            dz = g.zd[sz][z]
            need = dz if dz > 0 else 2
            if need > move:
                continue
            if n == len(discs):
                v = 10.0 + n
            elif len(discs) - n <= 1 and n >= 2:
                v = 2.0 + n
            else:
                continue
            if v > best_v:
                best, best_v = z, v
        return best

    def _w5(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        if legal[A.SAMURAI_TOKEN + C.PAPER_LANTERN] and self._lantern_target(k, g) is not None:
            return A.SAMURAI_TOKEN + C.PAPER_LANTERN
        return A.PASS

    def _lantern_zone(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        z = self._lantern_target(k, g)
        if z is not None and legal[A.ZONE + z]:
            return A.ZONE + z
        zones = [z for z in range(g.nz) if legal[A.ZONE + z]]
        sz = k.samurai_zone
        return A.ZONE + min(zones, key=lambda z: g.zd[sz][z])

    # ------------------------------------------------------------------ the samurai's phase
    def _final_square(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        squares = mask_squares(legal)
        discs = [s for s in squares if s in k.discs]
        if len(k.discs) == 1 and len(squares) > len(discs):
            # the last disc pins the ninja's next start; removing it (G4) would free the ninja
            # to enter by any open passage, so he does not end on it
            squares = [s for s in squares if s not in discs]
            discs = []
        if discs:
            return A.SQUARE + max(discs, key=lambda s: self._disc_threat(k, g, s))
        here = ninja_here(k, g)
        vases = vase_values(k, SAMURAI)
        near = ninja_distance(k, g)
        near_vases = [s for s in squares if s in vases and vases[s] > 0 and near[s] <= 5]
        if near_vases:
            return A.SQUARE + min(near_vases, key=lambda s: near[s])
        return A.SQUARE + min(squares, key=lambda s: (min(g.grid[s][h] for h in here), s))

    @staticmethod
    def _far_square(k, g, squares: list[int]) -> int:
        """A free square far from the ninja and from the open passages."""
        here = ninja_here(k, g)
        opens = open_passages(k, g)

        def score(s):
            a = min((g.grid[s][h] for h in here), default=10)
            b = min((g.grid[s][p] for p in opens), default=10)
            return min(a, 8) + min(b, 8)

        return max(squares, key=score)

    def _vase_move(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        squares = mask_squares(legal)
        t = d["token"]
        if k.samurai_knows[t] and not k.vase_content[t]:
            here = ninja_here(k, g)  # an empty vase: leave it as bait near the ninja
            return A.SQUARE + min(squares, key=lambda s: min(g.grid[s][h] for h in here))
        return A.SQUARE + self._far_square(k, g, squares)

    def _inspect(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        here = ninja_here(k, g)
        squares = mask_squares(legal)
        unknown = [s for s in squares if not k.samurai_knows[k.vase_where.index(s)]]
        return A.SQUARE + min(unknown or squares, key=lambda s: min(g.grid[s][h] for h in here))

    def _inspect_move(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        t = d["token"]
        if not k.vase_content[t]:
            return A.PASS
        squares = mask_squares(legal)
        here = ninja_here(k, g)
        origin = k.vase_where[t]
        target = self._far_square(k, g, squares)
        near_now = min(g.grid[origin][h] for h in here)
        near_then = min(g.grid[target][h] for h in here)
        return A.SQUARE + target if near_then > near_now else A.PASS

    def _confiscate(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        return A.SQUARE + self._far_square(k, g, mask_squares(legal))

    def _reopen(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """After a lockdown: the passages nearest him and farthest from the vases."""
        sz = k.samurai_zone
        vases = vase_values(k, SAMURAI)
        return A.SQUARE + max(
            mask_squares(legal),
            key=lambda p: (
                -g.zd[sz][g.zone[p]]
                + 0.3 * min((g.grid[p][v] for v, val in vases.items() if val > 0), default=5)
            ),
        )

    def _w9(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        opens = open_passages(k, g)
        on_board = k.ninja_sq >= 0 or bool(k.discs)
        tok = A.SAMURAI_TOKEN
        if (
            legal[tok + C.IRON_BAR]
            and ((len(opens) == 1 and on_board) or len(k.s_equip) >= 3)
            and not (len(opens) == 1 and not on_board)
        ):
            return tok + C.IRON_BAR
        if d.get("when") == "before":
            return A.PASS
        if legal[tok + C.HOUND] and len(k.discs) >= 2:
            return tok + C.HOUND
        if legal[tok + C.WATCH_FIRE]:
            sz = k.samurai_zone
            if any(g.zd[sz][g.zone[s]] <= 1 for s in ninja_here(k, g)):
                return tok + C.WATCH_FIRE
        if legal[tok + C.INVENTORY_LEDGER] and len(k.s_equip) >= 2:
            return tok + C.INVENTORY_LEDGER
        return A.PASS

    def _iron_bar(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        sz = k.samurai_zone
        here = ninja_here(k, g)
        return A.SQUARE + max(
            mask_squares(legal),
            key=lambda p: g.zd[sz][g.zone[p]] - 0.3 * min(g.grid[p][h] for h in here),
        )

    def _bar(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        here = ninja_here(k, g)
        return A.SQUARE + max(mask_squares(legal), key=lambda p: -min(g.grid[p][h] for h in here))

    def _remove_disc(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        """Track the Trail / Hound: the disc most useful to the ninja."""
        squares = mask_squares(legal)
        if not squares or (len(k.discs) == 1 and legal[A.PASS]):
            return A.PASS  # (the Hound) the last disc is worth more on the board: see above
        return A.SQUARE + max(squares, key=lambda s: self._disc_threat(k, g, s))

    def _ledger(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        here = ninja_here(k, g)
        return A.SQUARE + max(mask_squares(legal), key=lambda s: -min(g.grid[s][h] for h in here))

    def _muster(
        self,
        k: CastleNightingaleView,
        g: Geo,
        legal: np.ndarray,
        d: Decision,
        rng: np.random.Generator,
    ) -> int | None:
        options = [t for t in range(7) if legal[A.SAMURAI_TOKEN + t]]
        return A.SAMURAI_TOKEN + max(options, key=lambda t: SAMURAI_TOKEN_VALUE[t])

    # ------------------------------------------------------------------ the table
    HANDLERS: ClassVar[dict[str, Handler]] = {
        "setup_close": _setup_close,
        "setup_start": _setup_start,
        "prog_s_card": _prog_s_card,
        "prog_s_tile": _prog_s_tile,
        "w2": _w2,
        "bell_out": _bell_out,
        "bell_in": _swap_in,
        "sprint_out": _sprint_out,
        "sprint_in": _swap_in,
        "w5": _w5,
        "lantern_zone": _lantern_zone,
        "w6_s": _w6_s,
        "sandals": _sandals,
        "entry": _entry,
        "entry_end": _entry,
        "adjust_token": _adjust_token,
        "final_square": _final_square,
        "vase_move": _vase_move,
        "confiscate": _confiscate,
        "reopen": _reopen,
        "reopen_extra": _reopen,
        "w9": _w9,
        "iron_bar": _iron_bar,
        "hound": _remove_disc,
        "track": _remove_disc,
        "bar": _bar,
        "inspect": _inspect,
        "inspect_move": _inspect_move,
        "muster": _muster,
        "ledger": _ledger,
    }
    """Decision kind -> its rule: every decision the samurai makes (``DECISION_PLAYER``)."""
