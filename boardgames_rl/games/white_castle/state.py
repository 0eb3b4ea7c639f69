"""The White Castle: the rules engine (setup, turns, actions, round end, final scoring).

Pending work is a stack of frames ``{"p", "effs", "mode"}`` (mode ``seq``: in order; ``any``: the
player picks the order; ``opt``: the player picks any subset in any order). A frame needing a
choice raises a ``decision`` dict whose ``player`` decides; its options are recomputed from the
state (seal exchanges may change what is affordable) and chosen with the ``choose k`` actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, TypeVar

import numpy as np

from boardgames_rl.core.game import TERMINAL
from boardgames_rl.core.plain_state import PlainDataState
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.white_castle import scoring
from boardgames_rl.games.white_castle.actions import MAX_OPTS
from boardgames_rl.games.white_castle.data import (
    CHECKPOINTS,
    DAIMYO,
    DAIMYO_QUESTION,
    DECREES,
    DIAMOND_ROW,
    DIE_TILES,
    DIPLOMAT_LANTERN,
    DIPLOMATS,
    DOMAIN_ICONS,
    DOMAIN_VALUE,
    GARDENS,
    LANTERN,
    NUMBERED_SPACES,
    OUTSIDE_CHOICES,
    OUTSIDE_VALUE,
    PLANTS,
    POT_MAX,
    RES_CAP,
    RESOURCES,
    ROOM_FLOOR,
    ROOM_ROWS,
    ROOM_VALUE,
    ROUNDS,
    SEAL_CAP,
    SPACE_VALUE,
    START_ACTION_LANTERN,
    START_ACTIONS,
    START_RESOURCES,
    STEWARD_LANTERN,
    STEWARDS,
    STONES,
    WELL_VALUE,
    YARD_COST,
    YARD_DEAL,
    YARD_TILES,
    Block,
    Effect,
    EffectKind,
    any_resources,
    card_block,
    choice,
    courtier_continued,
    domain_row,
    gain,
    pick_of,
    room_block,
    well_space,
)
from boardgames_rl.games.white_castle.legal import legal_mask
from boardgames_rl.games.white_castle.observation import (
    CHANGED_ANY,
    CHANGED_BRIDGES,
    CHANGED_CARDS,
    CHANGED_COURTIERS,
    CHANGED_DAIMYO,
    CHANGED_DOMAIN,
    CHANGED_DOMAINS,
    CHANGED_GARDENS,
    CHANGED_HEAD,
    CHANGED_MEMBERS,
    CHANGED_OFFER,
    CHANGED_PENDING,
    CHANGED_POT,
    CHANGED_RANKS,
    CHANGED_RES,
    CHANGED_ROOMS,
    CHANGED_SPACE,
    CHANGED_SPACES,
    CHANGED_TURN_ORDER,
    CHANGED_YARDS,
    encode,
    encode_into,
)

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.game import WhiteCastleGame
    from boardgames_rl.games.white_castle.infoset import WhiteCastleInfoSet

Option = list[Any]
"""One option of a pending decision (``[space]``, ``[bridge, end]``, ``["yes"]``, ...)."""
Frame = dict[str, Any]
"""One frame of pending effects: ``{"p": seat, "effs": [effect, ...], "mode": mode}`` (mode
``seq``: in order, ``any``: the player orders them, ``opt``: any subset)."""
Decision = dict[str, Any]
"""The pending decision: ``{"player": seat, "kind": kind, ...its context}``."""

KEYS: Final = (
    "n",
    "round",
    "phase",
    "turn_order",
    "turns_taken",
    "turn_active",
    "steward_deck",
    "diplomat_deck",
    "rooms",
    "room_tiles",
    "well_tiles",
    "daimyo",
    "daimyo_pos",
    "bridges",
    "spaces",
    "domain_dice",
    "gardens",
    "garden_workers",
    "yards",
    "yard_warriors",
    "players",
    "pot_counter",
    "offer",
    "draft_left",
    "held",
    "stack",
    "decision",
    "final_left",
)


_NOTHING: Final[frozenset[str]] = frozenset()
_SEAL: Final = frozenset(("seal",))
_CAPPED: Final = frozenset((*RESOURCES, "seal"))


def new_player() -> dict[str, Any]:
    return {
        "food": 0,
        "iron": 0,
        "pearl": 0,
        "coin": 0,
        "seal": 0,
        "vp": 0,
        "pot": 0,
        "pot_arr": 0,
        "members": [5, 5, 5],
        "courtiers": [0, 0, 0, 0],
        "action_card": None,
        "lantern": [],
    }


def card_blocks(card: str) -> list[Block]:
    if card in STEWARDS:
        return STEWARDS[card][1]
    if card in DIPLOMATS:
        return DIPLOMATS[card][1]
    return START_ACTIONS[card]


def lantern_icon(card: str) -> Effect:
    if card in START_RESOURCES:
        return START_RESOURCES[card][0]
    if card in DECREES:
        return DECREES[card]
    if card in START_ACTIONS:
        return START_ACTION_LANTERN
    if card in STEWARDS:
        return STEWARD_LANTERN
    return DIPLOMAT_LANTERN


_T = TypeVar("_T")


def _shuffled(rng: np.random.Generator, items: list[_T]) -> list[_T]:
    """A shuffled copy of ``items``: the order ``[items[i] for i in rng.permutation(len(items))]``
    gives, from the same draws (numpy's permutation of ``n`` is a shuffle of ``arange(n)``, and
    its shuffle of a list makes the same swaps), without the arrays."""
    out = list(items)
    rng.shuffle(out)
    return out


def _dark_kind(card: str) -> str:
    for _rows, dark, effs in card_blocks(card):
        if dark:
            e = effs[0]
            return e[1][0] if e[0] == EffectKind.PAY_SEAL else e[0]
    return ""


class WhiteCastleState(PlainDataState["WhiteCastleGame"]):
    """Full true state of a game of The White Castle.

    Plain data named in ``FIELDS`` (clone / to_dict / from_state_dict come from
    :class:`~boardgames_rl.core.plain_state.PlainDataState`); the pending decision's player is
    ``decision["player"]``; the game never truncates.
    """

    FIELDS = KEYS

    n: int
    round: int
    phase: str
    turn_order: list[int]
    turns_taken: int
    turn_active: bool
    steward_deck: list[str]
    diplomat_deck: list[str]
    rooms: list[str | None]
    room_tiles: list[list[int]]
    well_tiles: list[str]
    daimyo: str
    daimyo_pos: list[int]
    bridges: list[list[int]]
    spaces: list[list[list[int]]]
    domain_dice: list[list[int]]
    gardens: list[str]
    garden_workers: list[list[int]]
    yards: list[list[list[Any]]]
    yard_warriors: list[list[int]]
    players: list[dict[str, Any]]
    pot_counter: int
    offer: list[list[str]]
    draft_left: list[int]
    held: list[int] | None
    stack: list[Frame]
    final_left: list[int]

    # ------------------------------------------------------------------ construction
    @classmethod
    def initial(cls, game: WhiteCastleGame, seed: int | None) -> WhiteCastleState:
        s = cls(game, make_rng(seed))
        s._setup()
        s._run()
        s._obs_views = [None] * s.n  # a game to be played: keep the seats' vectors at once
        return s

    @classmethod
    def empty(
        cls, game: WhiteCastleGame, rng: np.random.Generator | None = None
    ) -> WhiteCastleState:
        s = cls(game, rng if rng is not None else make_rng(0))
        s._clear()
        return s

    def _clear(self) -> None:
        """Every field (``KEYS``) at its value on an empty table."""
        s = self
        n = self.game.num_players
        s.n = n
        s.round = 1
        s.phase = "play"
        s.turn_order = list(range(n))
        s.turns_taken = 0
        s.turn_active = False
        s.steward_deck, s.diplomat_deck = [], []
        s.rooms = [None] * 5
        s.room_tiles = [[0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1], [0, 1]]
        s.well_tiles = ["C1", "K2"]
        s.daimyo = "DY1"
        s.daimyo_pos = [-1, -1, -1]
        s.bridges = [[], [], []]
        s.spaces = [[] for _ in range(8)]
        s.domain_dice = [[0, 0, 0] for _ in range(n)]
        s.gardens = ["P1", "G1", "P2", "G2", "P3", "G3"]
        s.garden_workers = [[] for _ in range(6)]
        s.yards = [[["Y1", 0], ["Y2", 1]], [["Y3", 0]], [["Y4", 1]]]
        s.yard_warriors = [[], [], []]
        s.players = [new_player() for _ in range(n)]
        s.pot_counter = 0
        s.offer = []
        s.draft_left = []
        s.held = None
        s.stack = []
        s.decision = None
        s.final_left = []

    def _setup(self) -> None:
        s, rng = self, self.rng
        g = self.game
        n = g.num_players
        self._clear()
        self.phase = "draft"
        stew = [c for c, (dia, _) in STEWARDS.items() if not (n == 2 and dia)]
        dipl = [c for c, (dia, _) in DIPLOMATS.items() if not (n == 2 and dia)]
        while True:
            sd = _shuffled(rng, stew)
            dd = _shuffled(rng, dipl)
            rooms = sd[:3] + dd[:2]
            if len({_dark_kind(c) for c in rooms}) > 1:
                break
        s.rooms = [*rooms]
        s.steward_deck, s.diplomat_deck = sd[3:], dd[2:]
        dy = sorted(DAIMYO)
        s.daimyo = dy[int(rng.integers(len(dy)))]
        s._deal_tiles()
        s._roll()
        plants, stones = sorted(PLANTS), sorted(STONES)
        pp = _shuffled(rng, plants[:5])[:3]
        st = _shuffled(rng, stones[:5])[:3]
        s.gardens = [pp[0], st[0], pp[1], st[1], pp[2], st[2]]
        yt = sorted(YARD_TILES)
        draw = _shuffled(rng, yt[:8])[:4]
        s.yards = [[], [], []]
        for t, (y, face) in zip(draw, YARD_DEAL):
            s.yards[y].append([t, face])
        s.turn_order = _shuffled(rng, list(range(n)))
        # markers stacked in random order: the top (first player) arrived last
        for i, p in enumerate(reversed(s.turn_order)):
            s.players[p]["pot_arr"] = i + 1
        s.pot_counter = n
        res = sorted(START_RESOURCES)
        acts = sorted(START_ACTIONS)
        rr = _shuffled(rng, res[:9])[: n + 1]
        aa = _shuffled(rng, acts[:6])[: n + 1]
        s.offer = [[r, a] for r, a in zip(rr, aa)]
        s.draft_left = list(reversed(s.turn_order))

    def _deal_tiles(self) -> None:
        rng = self.rng
        ids = sorted(DIE_TILES)
        while True:
            tiles: list[list[str | None]] = [[None] * k for k in ROOM_ROWS]
            bag = _shuffled(rng, ids[:15])
            for room, col in enumerate(_shuffled(rng, [0, 1, 2])):
                pick = next(t for t in bag if DIE_TILES[t][0] == col)
                bag.remove(pick)
                tiles[room][DIAMOND_ROW] = pick
            ok = True
            for room, row in NUMBERED_SPACES:
                cand = None
                for t in bag:
                    others = [x for x in tiles[room] if x is not None]
                    complete = len(others) == len(tiles[room]) - 1
                    cols = {DIE_TILES[x][0] for x in others} | {DIE_TILES[t][0]}
                    if not (complete and len(cols) == 1):
                        cand = t
                        break
                if cand is None:
                    ok = False
                    break
                bag.remove(cand)
                tiles[room][row] = cand
            if ok:
                break
        # every space holds a tile now (the deal is redone until it does)
        self.room_tiles = [[DIE_TILES[str(t)][0] for t in room] for room in tiles]
        self.well_tiles = bag

    def _roll(self) -> None:
        k = self.n + 1
        # one draw of the 3 bridges' dice (the same values as one draw per bridge: numpy draws
        # them one after the other; one call costs a third of three)
        dice = self.rng.integers(1, 7, size=3 * k).tolist()
        self.bridges = [sorted(dice[b * k : (b + 1) * k]) for b in range(3)]
        self._dirty |= CHANGED_BRIDGES

    # ------------------------------------------------------------------ contract
    @property
    def current_player(self) -> int:
        if self.phase == "over" or self.decision is None:
            return TERMINAL
        return self.decision["player"]

    def is_terminal(self) -> bool:
        return self.phase == "over"

    @property
    def truncated(self) -> bool:
        return False

    def returns(self) -> np.ndarray:
        out = np.zeros(self.n)
        if self.phase != "over":
            return out
        out[:] = -1.0
        out[self.winner()] = 1.0
        return out

    def winner(self) -> int:
        tot = scoring.totals(self)
        best = max(tot)
        for p in self.turn_order:
            if tot[p] == best:
                return p
        return self.turn_order[0]

    # Options are listed once per decision: ``_legal_action_mask`` (called by the core's
    # ``legal_action_mask`` whenever the cached mask was dropped: by ``apply``, or by a test
    # setting ``_mask = None`` after editing the state) lists them and keeps them in ``_opts``
    # beside the mask; ``_apply`` consumes them (the core's ``apply`` validated the action with
    # that mask, then dropped it), so a step lists them once. A caller of ``_apply`` itself
    # must have read the mask of the state as it is (as ISMCTS does), or pass a fresh state.
    _opts: list[Option] | None = None
    # The observation encoder keeps each seat's last vector in ``_obs_views`` and reuses it while
    # ``_opts`` is the same list object (listed again, as a new list, after every change); the
    # rules code marks what it changes next to the change (``self._dirty |= CHANGED_...``: bits
    # of the observation blocks) and the encoder rewrites only those blocks. ``_apply`` sets
    # ``_tracked``: the next listing of the options follows changes the rules code marked; any
    # other listing (the mask dropped after an edit from outside the rules, or a fresh state)
    # marks everything (``CHANGED_ANY``). So code that edits a state directly must drop the mask
    # afterwards, as it already must for the options; an edit made after ``apply`` but before
    # the options were listed again (by the mask, ``options()`` or an observation) is taken for
    # part of the step, so list them first (``s.options()``), then edit and drop the mask.
    _obs_views: list[Any] | None = None
    _dirty: int = CHANGED_ANY
    _tracked: bool = False

    def _legal_action_mask(self) -> np.ndarray:
        """:func:`~.legal.legal_mask` of the pending options, listed here and kept in ``_opts``."""
        if self._tracked:  # listed after a step of the rules code: it marked its changes
            self._tracked = False
        else:
            self._dirty = CHANGED_ANY
        opts = self._opts = self._options()
        return legal_mask(self, opts)

    def legal_action_mask(self) -> np.ndarray:
        """:meth:`State.legal_action_mask <boardgames_rl.core.State.legal_action_mask>` without its
        conversion and freezing of the hook's result: ``_legal_action_mask`` returns shared masks
        that are already read-only bool arrays (that step cost about 4% of an engine step)."""
        mask = self._mask
        if mask is None:
            mask = self._mask = self._legal_action_mask()
        return mask

    def options(self) -> list[Option]:
        """The options of the pending decision (``choose k`` picks option ``k``); do not mutate."""
        if self._mask is None:
            self.legal_action_mask()
        opts = self._opts
        if opts is None:  # a clone (it keeps the mask, not the options)
            opts = self._opts = self._options()
        return opts

    def _apply(self, action: int) -> None:
        opts = self._opts
        if opts is None:
            opts = self._options()
        self._opts = None
        self._mask = None  # also for callers of ``_apply`` itself (the look-ahead)
        self._tracked = True
        d = self.decision
        assert d is not None  # ``apply`` checked the action against a pending decision's mask
        if action >= MAX_OPTS:
            self._exchange(d["player"], action - MAX_OPTS)
            return
        self.decision = None
        self._resolve(d, opts[action])
        self._run()

    def _action_name(self, action: int) -> str:
        """What ``action`` does now ("take coral die from the left end"); the game's generic name
        ("choose 3") when it is not one of the current options."""
        from boardgames_rl.games.white_castle.naming import contextual_name

        if self.decision is not None and 0 <= int(action) < self.game.num_actions:
            try:
                return contextual_name(self, int(action))
            except (IndexError, KeyError, TypeError):
                pass
        return self.game._action_name(action)

    def _observation(self, player: int) -> np.ndarray:
        return encode(self, player)

    def _write_observation(self, player: int, out: np.ndarray) -> None:
        encode_into(self, player, out)

    def state_vector(self) -> np.ndarray:
        return np.concatenate([self.observation(p) for p in range(self.n)])

    def _info_set(self, player: int) -> WhiteCastleInfoSet:
        from boardgames_rl.games.white_castle.infoset import WhiteCastleInfoSet

        return WhiteCastleInfoSet.of(self, player)

    def _render(self, player: int | None = None) -> str:
        from boardgames_rl.games.white_castle.render import render_text

        return render_text(self, player)

    def _render_rgb(self, player: int | None = None) -> np.ndarray:
        from boardgames_rl.games.white_castle.render import render_rgb

        return render_rgb(self, player)

    def scores(self) -> list[dict[str, int]]:
        return [scoring.breakdown(self, p) for p in range(self.n)]

    # ------------------------------------------------------------------ helpers
    def gain(self, p: int, key: str, n: int) -> None:
        pl = self.players[p]
        self._dirty |= CHANGED_RES[p]
        if key in RESOURCES:
            pl[key] = min(RES_CAP, pl[key] + n)
        elif key == "seal":
            pl[key] = min(SEAL_CAP, pl[key] + n)
        else:
            pl[key] += n

    def _exchange(self, p: int, i: int) -> None:
        pl = self.players[p]
        self._dirty |= CHANGED_RES[p]
        if i == 0:
            pl["seal"] -= 1
            pl["coin"] += 1
        else:
            pl["seal"] -= 2
            self.gain(p, RESOURCES[i - 1], 1)

    def push(self, p: int, effs: list[Effect], mode: str = "any") -> None:
        if effs:
            # the frame's own list; the effects in it may be the data tables' own: no rule
            # changes an effect in place (decisions hold the tables' effects the same way)
            self.stack.append({"p": p, "effs": list(effs), "mode": mode})
            self._dirty |= CHANGED_PENDING

    def ask(self, p: int, kind: str, **kw: Any) -> None:
        self.decision = {"player": p, "kind": kind, **kw}

    def covered(self, space: int) -> int:
        if space == 7:
            return WELL_VALUE
        if self.spaces[space]:
            return self.spaces[space][-1][0]
        return ROOM_VALUE[space] if space < 5 else OUTSIDE_VALUE

    def room_blocks_for(self, room: int, colour: int) -> list[int]:
        """Blocks of the room's card aligned with die tiles of ``colour`` (distinct, ordered)."""
        card = self.rooms[room]
        if card is None:
            return []
        out: list[int] = []
        for row, c in enumerate(self.room_tiles[room]):
            if colour not in (-1, c):
                continue
            if room >= 3:
                bi = row
            else:
                bi = next(i for i, b in enumerate(card_blocks(card)) if row in b[0])
            if bi not in out:
                out.append(bi)
        return out

    def place_cost_ok(self, space: int, value: int, p: int) -> bool:
        diff = value - self.covered(space)
        return diff >= 0 or self.players[p]["coin"] >= -diff

    def space_open(self, space: int, colour: int, p: int) -> bool:
        if space >= 8:
            row = space - 8
            return row == colour and self.domain_dice[p][row] == 0
        if space == 7:
            return True
        cap = 1 if self.n <= 2 else 2
        if len(self.spaces[space]) >= cap:
            return False
        if space < 5:  # some block of the room's card lies beside a die tile of that colour
            return self.rooms[space] is not None and (
                colour == -1 or colour in self.room_tiles[space]
            )
        return True

    # ------------------------------------------------------------------ options
    def _options(self) -> list[Option]:
        """The options of the pending decision, listed from the state (see :meth:`options`)."""
        d = self.decision
        if d is None:
            return []
        p: int = d["player"]
        kind: str = d["kind"]
        pl = self.players[p]
        if kind == "pair":
            return [[i] for i in range(len(self.offer))]
        if kind == "die":
            out: list[Option] = []
            for b, dice in enumerate(self.bridges):
                if dice:
                    out.append([b, 0])
                    if len(dice) > 1:
                        out.append([b, 1])
            return out
        if kind == "place":
            held = self.held
            assert held is not None  # a place decision follows the take of a die
            return self._place_options(p, held[0], held[1])
        if kind in ("order", "opt"):
            fr = self.stack[-1]
            out = [[i] for i in range(len(fr["effs"]))]
            return out + [["stop"]] if kind == "opt" else out
        if kind == "pick":
            return [[i] for i in range(len(d["choices"]))]
        if kind == "res":
            return [[r] for r in RESOURCES]
        if kind in ("pay", "checkpoint", "lantern_q"):
            out = []
            if kind == "pay":
                key, amt = d["key"], d["amount"]
                if pl[key] >= amt:
                    out.append(["yes"])
            elif kind == "checkpoint":
                if pl["seal"] >= CHECKPOINTS[pl["pot"] + 1]:
                    out.append(["yes"])
            else:
                out.append(["yes"])
            return out + [["no"]]
        if kind == "gardener":
            out = [
                [i]
                for i in range(6)
                if p not in self.garden_workers[i] and pl["food"] >= GARDENS[self.gardens[i]][0]
            ]
            return out + [["skip"]]
        if kind == "warrior":
            return [[y] for y in range(3) if pl["iron"] >= YARD_COST[y]] + [["skip"]]
        if kind == "courtier":
            out = []
            if not d["aud"] and pl["members"][0] > 0 and pl["coin"] >= 2:
                out.append(["aud"])
            if not d["climb"]:
                for lvl in range(3):
                    if pl["courtiers"][lvl] == 0:
                        continue
                    for steps, cost in ((1, 2), (2, 5)):
                        to = lvl + steps
                        if to > 3 or pl["pearl"] < cost:
                            continue
                        rooms = [r for r in range(5) if ROOM_FLOOR[r] == to] if to < 3 else [-1]
                        out.extend([["climb", lvl, to, r] for r in rooms])
            return out + [["stop"]]
        if kind == "daimyo":
            return [[i] for i in range(3) if self.daimyo_pos[i] < 0]
        if kind == "final":
            return [["done"]]
        raise AssertionError(kind)

    def _place_options(self, p: int, col: int, val: int) -> list[Option]:
        """Spaces where ``p`` may place a die of colour ``col`` and value ``val``: open
        (:meth:`space_open`) and affordable (a lower value pays the difference in coins,
        :meth:`place_cost_ok`); the Domain row of the die's colour costs ``6 - val``. The same
        tests as those methods, written out because this runs at every placement."""
        coin = self.players[p]["coin"]
        cap = 1 if self.n <= 2 else 2
        out: list[Option] = []
        for sp, dice in enumerate(self.spaces):  # rooms 0-4, Outside the Walls 5-6, Well 7
            if sp < 7 and len(dice) >= cap:
                continue
            if sp < 5 and (self.rooms[sp] is None or col not in self.room_tiles[sp]):
                continue
            cover = WELL_VALUE if sp == 7 else dice[-1][0] if dice else SPACE_VALUE[sp]
            if val >= cover or coin >= cover - val:
                out.append([sp])
        if self.domain_dice[p][col] == 0 and coin >= DOMAIN_VALUE - val:
            out.append([8 + col])
        return out

    # ------------------------------------------------------------------ resolution
    def _resolve(self, d: Decision, opt: Option) -> None:
        p: int = d["player"]
        kind: str = d["kind"]
        pl = self.players[p]
        if kind == "pair":
            r, a = self.offer.pop(opt[0])
            self._dirty |= CHANGED_OFFER | CHANGED_CARDS
            pl["action_card"] = a
            pl["lantern"].append(r)
            res = START_RESOURCES[r]
            if res[2]:
                pl["lantern"].append(res[2])
            self.draft_left.pop(0)
            self.push(p, res[1], "seq")
        elif kind == "die":
            b, end = opt
            dice = self.bridges[b]
            v = dice.pop(0) if end == 0 else dice.pop()
            self._dirty |= CHANGED_BRIDGES
            self.held = [b, v, end == 0]
            self.ask(p, "place")
        elif kind == "place":
            self._place(p, opt[0])
        elif kind in ("order", "opt"):
            fr = self.stack[-1]
            self._dirty |= CHANGED_PENDING
            if opt[0] == "stop":
                self.stack.pop()
                return
            eff = fr["effs"].pop(opt[0])
            self._exec(p, eff)
        elif kind == "pick":
            self._exec(p, d["choices"][opt[0]])
        elif kind == "res":
            self.gain(p, opt[0], 1)
        elif kind == "pay":
            if opt[0] == "yes":
                pl[d["key"]] -= d["amount"]
                self._dirty |= CHANGED_RES[p]
                self._exec(p, d["then"])
        elif kind == "checkpoint":
            if opt[0] == "yes":
                pl["seal"] -= CHECKPOINTS[pl["pot"] + 1]
                self._dirty |= CHANGED_RES[p]
                self._advance_pot(p, d["steps"], paid=True)
        elif kind == "lantern_q":
            if opt[0] == "yes":
                self._exec(p, LANTERN)
        elif kind == "gardener":
            if opt[0] != "skip":
                i = opt[0]
                pl["food"] -= GARDENS[self.gardens[i]][0]
                pl["members"][1] -= 1
                self.garden_workers[i].append(p)
                self._dirty |= CHANGED_RES[p] | CHANGED_MEMBERS[p] | CHANGED_GARDENS
                self._exec(p, GARDENS[self.gardens[i]][2])
        elif kind == "warrior":
            if opt[0] != "skip":
                y = opt[0]
                pl["iron"] -= YARD_COST[y]
                pl["members"][2] -= 1
                self.yard_warriors[y].append(p)
                self._dirty |= CHANGED_RES[p] | CHANGED_MEMBERS[p] | CHANGED_YARDS
                self.push(p, [YARD_TILES[t][f] for t, f in self.yards[y]], "any")
        elif kind == "courtier":
            self._courtier(p, d, opt)
        elif kind == "daimyo":
            self.daimyo_pos[opt[0]] = p
            self._dirty |= CHANGED_DAIMYO
            self.push(p, DAIMYO[self.daimyo][opt[0]], "any")
        elif kind == "final":
            pass

    def _place(self, p: int, sp: int) -> None:
        held = self.held
        assert held is not None  # a die is placed after it was taken
        b, v, left = held
        self.held = None
        pl = self.players[p]
        self._dirty |= CHANGED_RES[p]  # the coins
        if sp >= 8:
            self.domain_dice[p][sp - 8] = v
            self._dirty |= CHANGED_DOMAIN[p]
            pl["coin"] += v - DOMAIN_VALUE
            effs = [domain_row(sp - 8)]
        else:
            pl["coin"] += v - self.covered(sp)
            self.spaces[sp].append([v, p, b])
            self._dirty |= CHANGED_SPACE[sp] | (CHANGED_HEAD if sp == 7 else 0)  # Well dice count
            if sp < 5:
                effs = [room_block(sp, bi) for bi in self.room_blocks_for(sp, b)]
            elif sp < 7:
                effs = [choice(*OUTSIDE_CHOICES[sp - 5])]
            else:
                effs = [well_space(v)]
        self.push(p, effs, "opt" if len(effs) > 1 else "any")
        if left:
            self.ask(p, "lantern_q")

    def _courtier(self, p: int, d: Decision, opt: Option) -> None:
        pl = self.players[p]
        if opt[0] == "stop":
            return
        aud, climb = d["aud"], d["climb"]
        if opt[0] == "aud":
            aud = True
        else:
            climb = True
        if not (aud and climb):
            self.push(p, [courtier_continued(aud, climb)])
        self._dirty |= CHANGED_RES[p] | CHANGED_COURTIERS[p]
        if opt[0] == "aud":
            pl["coin"] -= 2
            pl["members"][0] -= 1
            pl["courtiers"][0] += 1
            self._dirty |= CHANGED_MEMBERS[p]
            return
        _, lvl, to, room = opt
        pl["pearl"] -= 2 if to - lvl == 1 else 5
        pl["courtiers"][lvl] -= 1
        pl["courtiers"][to] += 1
        if to == 3:
            self.push(p, [DAIMYO_QUESTION])
            self._exec(p, LANTERN)
            return
        card = self.rooms[room]
        if card is None:
            return
        pl["lantern"].append(pl["action_card"])
        pl["action_card"] = card
        deck = self.steward_deck if room < 3 else self.diplomat_deck
        self.rooms[room] = deck.pop(0) if deck else None
        self._dirty |= CHANGED_CARDS | CHANGED_ROOMS | CHANGED_HEAD
        lights = [card_block(card, i) for i, b in enumerate(card_blocks(card)) if not b[1]]
        if lights:
            self.push(p, [pick_of(lights)])

    def _advance_pot(self, p: int, steps: int, paid: bool = False) -> None:
        pl = self.players[p]
        moved = False
        while steps > 0 and pl["pot"] < POT_MAX:
            nxt = pl["pot"] + 1
            if nxt in CHECKPOINTS and not paid:
                if pl["seal"] >= CHECKPOINTS[nxt]:
                    if moved:
                        self._arrive(p)
                    self.ask(p, "checkpoint", steps=steps)
                    return
                break
            paid = False
            pl["pot"] = nxt
            self._dirty |= CHANGED_POT[p]
            steps -= 1
            moved = True
        if moved:
            self._arrive(p)

    def _arrive(self, p: int) -> None:
        self.pot_counter += 1
        self.players[p]["pot_arr"] = self.pot_counter
        self._dirty |= CHANGED_RANKS  # every seat's arrival rank

    def _exec(self, p: int, eff: Effect) -> None:
        pl = self.players[p]
        k: str = eff[0]
        if k == EffectKind.GAIN:
            self.gain(p, eff[1], eff[2])
        elif k == EffectKind.ANY_RESOURCES:
            if eff[1] > 1:
                self.push(p, [any_resources(eff[1] - 1)])
            self.ask(p, "res", left=eff[1])
        elif k == EffectKind.TIME_STEPS:
            self._advance_pot(p, eff[1])
        elif k == EffectKind.LANTERN:
            # "in any order": an "any" frame (the player orders them when a cap can bite)
            self.push(p, [lantern_icon(c) for c in pl["lantern"]], "any")
        elif k in (EffectKind.WELL, EffectKind.WELL_SPACE):
            # "in any order you choose": the seal is one of the Well's actions, beside the
            # tiles (an "any" frame: the player orders them only when a cap can bite). The
            # space's coins were gained on placement; see well_effects for the tiles
            self.push(p, self.well_effects(eff), "any")
        elif k == EffectKind.COURTIER:
            self.ask(p, "courtier", aud=False, climb=False)
        elif k == EffectKind.COURTIER_CONTINUED:
            self.ask(p, "courtier", aud=eff[1], climb=eff[2])
        elif k == EffectKind.GARDENER:
            if pl["members"][1] > 0 and any(p not in w for w in self.garden_workers):
                self.ask(p, "gardener")
        elif k == EffectKind.WARRIOR:
            if pl["members"][2] > 0:
                self.ask(p, "warrior")
        elif k == EffectKind.DOMAIN:
            self.ask(p, "pick", choices=[domain_row(r) for r in range(3)])
        elif k == EffectKind.DOMAIN_ROW:
            r = eff[1]
            icons = list(DOMAIN_ICONS[r][: 5 - pl["members"][r]])
            card = pl["action_card"]
            bi = next((i for i, b in enumerate(card_blocks(card)) if r in b[0]), None)
            # step 1 (the row's icons, any order) before step 2 (the card's block)
            if bi is not None:
                self.push(p, [card_block(card, bi)], "seq")
            self.push(p, icons, "any")
        elif k == EffectKind.ROOM_BLOCK:
            card = self.rooms[eff[1]]
            assert card is not None  # a room's block is offered only while it holds a card
            self._exec(p, card_block(card, eff[2]))
        elif k == EffectKind.CARD_BLOCK:
            self.push(p, card_blocks(eff[1])[eff[2]][2], "any")
        elif k in (EffectKind.ANY_TILE, EffectKind.LIGHT):
            ch: list[Effect] = []
            for room in range(5):
                card = self.rooms[room]
                if card is None:
                    continue
                bis = (
                    self.room_blocks_for(room, eff[1])
                    if k == EffectKind.ANY_TILE
                    else [i for i, b in enumerate(card_blocks(card)) if not b[1]]
                )
                ch.extend(card_block(card, bi) for bi in bis)
            if ch:
                self.ask(p, "pick", choices=ch)
        elif k == EffectKind.DAIMYO_QUESTION:
            if any(x < 0 for x in self.daimyo_pos):
                self.ask(p, "daimyo")
        elif k == EffectKind.PICK_OF:
            self.ask(p, "pick", choices=eff[1])
        elif k == EffectKind.CHOICE:
            self.ask(p, "pick", choices=eff[1:])
        elif k == EffectKind.PAY_SEAL:
            self.ask(p, "pay", key="seal", amount=1, then=eff[1])
        elif k == EffectKind.PAY_COINS:
            self.ask(p, "pay", key="coin", amount=eff[1], then=eff[2])
        else:
            raise AssertionError(eff)

    # ------------------------------------------------------------------ effect order
    def may_spend(self, p: int, eff: Effect, reach: int = POT_MAX) -> frozenset[str]:
        """The capped counters (food, iron, pearl, seal) that ``eff`` could make ``p`` spend.

        Conservative: Passage of Time spends seals when a checkpoint lies within ``reach``
        steps (the most the marker can move while the frame resolves, ``pot_reach``; default:
        any checkpoint ahead); the Lantern, the Well and card blocks are looked into; every
        other compound effect (worker actions, paid parts, picks, the Domain, die-tile and light
        actions) may spend anything.
        """
        k: str = eff[0]
        if k in (EffectKind.GAIN, EffectKind.ANY_RESOURCES):
            return _NOTHING
        if k == EffectKind.TIME_STEPS:
            pos = self.players[p]["pot"]
            return _SEAL if any(pos < c <= pos + reach for c in CHECKPOINTS) else _NOTHING
        subs = self._inner(p, eff)
        if subs is None:
            return _CAPPED
        out = _NOTHING
        for e in subs:
            out = out | self.may_spend(p, e, reach)
        return out

    def pot_reach(self, p: int, eff: Effect) -> int:
        """Most Passage of Time steps ``eff`` can move ``p`` (``POT_MAX`` when unknown)."""
        k: str = eff[0]
        if k in (EffectKind.GAIN, EffectKind.ANY_RESOURCES):
            return 0
        if k == EffectKind.TIME_STEPS:
            return eff[1]
        subs = self._inner(p, eff)
        if subs is None:
            return POT_MAX
        return min(POT_MAX, sum(self.pot_reach(p, e) for e in subs))

    def _inner(self, p: int, eff: Effect) -> list[Effect] | None:
        """The effects a compound ``eff`` resolves as one frame (the Lantern's icons, the
        Well's seal and tiles, a card block's icons), or None for the others (worker actions,
        paid parts, picks, the Domain, die-tile and light actions), which may do anything."""
        k: str = eff[0]
        if k == EffectKind.LANTERN:
            return [lantern_icon(c) for c in self.players[p]["lantern"]]
        if k in (EffectKind.WELL, EffectKind.WELL_SPACE):
            return self.well_effects(eff)
        if k == EffectKind.ROOM_BLOCK:
            card = self.rooms[eff[1]]
            return card_blocks(card)[eff[2]][2] if card is not None else []
        if k == EffectKind.CARD_BLOCK:
            return card_blocks(eff[1])[eff[2]][2]
        return None

    def well_effects(self, eff: Effect) -> list[Effect]:
        """The actions of a Well effect, resolved as one ``any`` frame: the seal and the two
        Well tiles' rewards.

        ``["wellspace", v]`` is a die of value ``v`` placed on the Well: "If you place a die
        with a value greater than 1, you gain the difference in coins (beyond the 1 value), plus
        the benefits indicated on the 2 tiles in the Well. You always gain 1 Daimyo Seal." A 1
        gains only the seal, unless the game's ``well_one_pays_tiles`` flag is set (the data
        sheet's reading). ``["well"]`` is the Well action of a card, garden or yard: no die, so
        no coins; the seal and both tiles (data sheet §8).
        """
        tiles = [DIE_TILES[t][1] for t in self.well_tiles]
        if (
            eff[0] == EffectKind.WELL_SPACE
            and eff[1] <= WELL_VALUE
            and not self.game.well_one_pays_tiles
        ):
            tiles = []
        return [gain("seal"), *tiles]

    def free_gain(self, p: int, effs: list[Effect]) -> int | None:
        """Index of a plain gain of ``effs`` that may be resolved now without asking, or None.

        "In any order you choose": the player orders the effects only when the order can change
        the result. A gain that fits under its cap (or has none) is resolved first: gains commute
        and gaining early only helps paying later. A gain that would overflow its cap (7 of a
        resource, 5 seals) is resolved at once only if no other effect of the frame could spend
        that counter; otherwise spending first could keep the gain, so the player is asked.
        """
        pl = self.players[p]
        capped = []
        for i, e in enumerate(effs):
            if e[0] != EffectKind.GAIN:
                continue
            key = e[1]
            cap = RES_CAP if key in RESOURCES else SEAL_CAP if key == "seal" else None
            if cap is None or pl[key] + e[2] <= cap:
                return i
            capped.append(i)
        if not capped:
            return None
        # the marker moves at most this far while the frame resolves: a checkpoint beyond it
        # spends no seal, whatever the order
        reach = min(POT_MAX, sum(self.pot_reach(p, e) for e in effs))
        for i in capped:
            key = effs[i][1]
            if not any(key in self.may_spend(p, e, reach) for j, e in enumerate(effs) if j != i):
                return i
        return None

    # ------------------------------------------------------------------ flow
    def _run(self) -> None:
        while self.decision is None and self.phase != "over":
            if self.stack:
                fr = self.stack[-1]
                effs: list[Effect] = fr["effs"]
                if not effs:
                    self.stack.pop()
                    self._dirty |= CHANGED_PENDING
                    continue
                mode: str = fr["mode"]
                if mode == "opt":
                    self.ask(fr["p"], "opt")
                    continue
                if mode == "any":
                    # a plain gain that loses nothing in any order goes first (see free_gain)
                    gi = self.free_gain(fr["p"], effs)
                    if gi is not None:
                        self._dirty |= CHANGED_PENDING
                        self._exec(fr["p"], effs.pop(gi))
                        continue
                if mode == "seq" or all(e == effs[0] for e in effs):
                    self._dirty |= CHANGED_PENDING
                    self._exec(fr["p"], effs.pop(0))
                    continue
                self.ask(fr["p"], "order")
                continue
            self._flow()

    def _flow(self) -> None:
        if self.phase == "draft":
            if self.draft_left:
                self.ask(self.draft_left[0], "pair")
                return
            self.offer = []
            self._dirty |= CHANGED_OFFER
            self.phase = "play"
        if self.phase == "play":
            if self.turn_active:
                self.turn_active = False
                self.turns_taken += 1
                self._dirty |= CHANGED_HEAD
                if self.turns_taken == 3 * self.n:
                    self._end_round()
                    return
            p = self.turn_order[self.turns_taken % self.n]
            self.turn_active = True
            self.ask(p, "die")
            return
        if self.phase == "gardens":
            self._new_round()
            return
        if self.phase == "final":
            if self.final_left:
                self.ask(self.final_left.pop(0), "final")
                return
            self.phase = "over"

    def _end_round(self) -> None:
        ps = self.players
        self.turn_order = sorted(range(self.n), key=lambda p: (-ps[p]["pot"], -ps[p]["pot_arr"]))
        self._dirty |= CHANGED_TURN_ORDER
        if self.round >= ROUNDS:
            self.phase = "final"
            self.final_left = [p for p in self.turn_order if ps[p]["seal"] > 0]
            return
        self.phase = "gardens"
        for p in reversed(self.turn_order):
            effs = [
                GARDENS[self.gardens[i]][2]
                for i in range(6)
                if p in self.garden_workers[i] and self.bridges[i // 2]
            ]
            self.push(p, effs, "opt")

    def _new_round(self) -> None:
        self.round += 1
        self.turns_taken = 0
        self.spaces = [[] for _ in range(8)]
        self.domain_dice = [[0, 0, 0] for _ in range(self.n)]
        self._dirty |= CHANGED_HEAD | CHANGED_SPACES | CHANGED_DOMAINS
        self._roll()
        self.phase = "play"
