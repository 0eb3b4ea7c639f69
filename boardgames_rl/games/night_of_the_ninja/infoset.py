"""Night of the Ninja information sets: full states consistent with everything one player knows.

:meth:`NightOfTheNinjaInfoSet.sample` deals again everything the observer cannot see,
consistently with what it knows (observation module docstring, data sheet section 7):

* **Honor tokens.** Tokens have public identities (ids 0-34, who holds which is public); the
  observer knows the values of the tokens it ever held or looked at (and, once the game is over,
  of all held tokens). The values of the other tokens (held by others or in the stack, whose order
  is thus dealt again too) are re-dealt among themselves, keeping every public fact "this
  player's tokens were worth less than the target score at the end of that round" (rejection
  sampling, then a complete depth-first search).
* **House cards.** At most one Shapeshifter per round, so the houses are the deal D, possibly
  with one swap of the two publicly named players. The swap flag is drawn (unless the observer is
  that Shapeshifter) with weights equal to the number of deals consistent with each hypothesis,
  then a uniform consistent deal: its own dealt card, every look and public reveal (a look taken
  before the Shapeshifter named that player tells D, a later one tells the current card), and once
  the round is over who received a House-win token.
* **Ninja cards.** The round's 33 cards fill 33 slots: for each player its first pick ``P1[q]``
  and the two cards it passed, kept ``K[q]`` / discarded ``X[q]`` by its left neighbour, plus the
  set-aside cards. The observer knows its own 3 slots (up to the split of its passed pair, drawn
  among the splits allowed by what it saw) and the 2 it received (``K`` / ``X`` of its right
  neighbour); a card played from a hand lies in that player's ``{P1[q], K[q-1]}``, a card played
  from the Grave Digger or seen by its Grave Digger in the ``X`` slots, a card seen with its
  Mystic in that player's hand slots (a card of its own a Mystic saw is kept as it is, with
  ``target_learns_look``); once the round is over without a Mastermind reveal, the
  Mastermind is in no living player's hands. Pinned cards go to random free slots of their group,
  the others are shuffled into the rest (uniform over consistent deals). The draft history,
  hands, discards, the Grave Digger's hidden take, others' hidden commitments of the current
  phase and the other players' own private records (looks, Mystic and Grave Digger sights) are
  derived or drawn from that deal.

The chance generator is replaced. ``knowledge`` is the state dict with all of this already dealt
once from a fixed generator over sorted pools, so it carries nothing hidden.

The House-swap beliefs are written once, here: :func:`house_hypotheses` (the swap hypotheses, the
cards each pins, their weights) serves both the re-deal above and the heuristic's beliefs
(:mod:`.ai.beliefs`). The heuristic reads a :class:`PlayerView` (``info_set.view()``, or
:func:`player_view` of the sampled state in search rollouts): typed attributes holding only what
the player knows, built once per decision, instead of the engine's untyped lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import factorial
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.game import InfoSet
from boardgames_rl.core.plain_state import RedealtInfoSet
from boardgames_rl.core.record import Record
from boardgames_rl.games.night_of_the_ninja import cards
from boardgames_rl.games.night_of_the_ninja.actions import Layout
from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja

SRC_HAND: Final = 0
SRC_GD: Final = 1
AWARD_HOUSE: Final = 0
RESULT_NONE: Final = -1
NOT_IN_CLASS: Final = 0
WINNING_HOUSE: Final = 1
OTHER_HOUSE: Final = 2
"""A seat's House class on the deal: unknown, in the winning House, not in it (``_houses``)."""


class NightOfTheNinjaInfoSet(RedealtInfoSet["NightOfTheNinja"]):
    """One player's information state. ``sample(rng)`` deals everything that player cannot see
    (see the module docstring); ``knowledge`` carries nothing hidden; ``view()`` is the typed
    :class:`PlayerView` the heuristic reads."""

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        deal_hidden(d, player, self.game, rng)

    def view(self) -> PlayerView:
        """What this player knows, as typed attributes (:class:`PlayerView`)."""
        state = self.known_state()
        assert isinstance(state, NightOfTheNinjaState)  # made by this game's states
        return player_view(state, self.player)


def ninja_info_set(info_set: InfoSet) -> NightOfTheNinjaInfoSet:
    """``info_set`` as a Night of the Ninja information set (what this game's agents read),
    refused in one line if it is another game's."""
    if not isinstance(info_set, NightOfTheNinjaInfoSet):
        raise TypeError(
            "night_of_the_ninja: this agent plays Night of the Ninja only; got an information "
            f"set of {info_set.game.name}"
        )
    return info_set


# =========================================================================== typed view
# Records (``core.record``): read-only typed attributes, compiled as native classes (a search
# rollout builds a view at every move; a named tuple's ``__new__`` is interpreted Python).
class Decision(Record):
    """The pending decision's public facts (``state.decision``)."""

    FIELDS = ("kind", "player", "card", "owner", "target")

    def __init__(self, kind: str, player: int, card: int, owner: int, target: int) -> None:
        self.kind: Final = kind
        self.player: Final = player
        self.card: Final = card
        self.owner: Final = owner
        self.target: Final = target


class ShapeshifterNaming(Record):
    """The round's Shapeshifter: its owner and the two players it named (public), whether it has
    decided (public), and whether it swapped (``None`` unless the viewer is its owner)."""

    FIELDS = ("owner", "first", "second", "decided", "swapped")

    def __init__(
        self, owner: int, first: int, second: int, decided: bool, swapped: bool | None
    ) -> None:
        self.owner: Final = owner
        self.first: Final = first
        self.second: Final = second
        self.decided: Final = decided
        self.swapped: Final = swapped


class GraveDiggerSight(Record):
    """The viewer's own Grave Digger: the two discards it saw (-1: none) and the card taken."""

    FIELDS = ("seen", "taken")

    def __init__(self, seen: tuple[int, int], taken: int) -> None:
        self.seen: Final = seen
        self.taken: Final = taken


class MerchantVisit(Record):
    """The viewer's own Spirit Merchant: its target, whether it looked at a token, which one."""

    FIELDS = ("target", "looked_at_token", "token")

    def __init__(self, target: int, looked_at_token: bool, token: int) -> None:
        self.target: Final = target
        self.looked_at_token: Final = looked_at_token
        self.token: Final = token


class HouseFact(Record):
    """A House card the viewer saw (its own look) or everyone saw (a public reveal);
    ``before_swap``: the Shapeshifter named ``target`` after the look (it tells the deal)."""

    FIELDS = ("target", "card", "before_swap")

    def __init__(self, target: int, card: int, before_swap: bool) -> None:
        self.target: Final = target
        self.card: Final = card
        self.before_swap: Final = before_swap


class PlayerView(Record):
    """What seat ``player`` knows at one decision, typed and read-only (built once per decision
    by :func:`player_view`). Per-seat sequences are indexed by seat; ``tokens`` (ids held) and
    ``held_counts`` (Ninja cards held, commitments included) are public; the rest is its own."""

    FIELDS = (
        "player", "num_players", "layout", "living_targets_only", "house_cards", "decision",
        "stage", "phase", "alive", "dealt_house", "house_facts", "shapeshifter", "hand", "kept",
        "dealt", "received", "picked_first", "committed", "held_counts", "played",
        "mystic_sights", "grave_digger", "merchant", "tokens", "token_values",
    )  # fmt: skip

    def __init__(
        self,
        player: int,
        num_players: int,
        layout: Layout,
        living_targets_only: bool,
        house_cards: tuple[int, ...],
        decision: Decision,
        stage: str,
        phase: int,
        alive: Sequence[bool],
        dealt_house: int,
        house_facts: tuple[HouseFact, ...],
        shapeshifter: ShapeshifterNaming | None,
        hand: Sequence[int],
        kept: int,
        dealt: Sequence[int],
        received: Sequence[int],
        picked_first: bool,
        committed: tuple[int, ...],
        held_counts: tuple[int, ...],
        played: frozenset[int],
        mystic_sights: tuple[tuple[int, int], ...],
        grave_digger: GraveDiggerSight | None,
        merchant: MerchantVisit | None,
        tokens: Sequence[Sequence[int]],
        token_values: Mapping[int, int],
    ) -> None:
        self.player: Final = player
        self.num_players: Final = num_players
        self.layout: Final = layout
        self.living_targets_only: Final = living_targets_only
        self.house_cards: Final = house_cards
        self.decision: Final = decision
        self.stage: Final = stage
        self.phase: Final = phase
        self.alive: Final = alive
        self.dealt_house: Final = dealt_house
        self.house_facts: Final = house_facts
        self.shapeshifter: Final = shapeshifter
        self.hand: Final = hand
        self.kept: Final = kept
        self.dealt: Final = dealt
        self.received: Final = received
        self.picked_first: Final = picked_first
        self.committed: Final = committed
        self.held_counts: Final = held_counts
        self.played: Final = played
        self.mystic_sights: Final = mystic_sights
        self.grave_digger: Final = grave_digger
        self.merchant: Final = merchant
        self.tokens: Final = tokens
        self.token_values: Final = token_values

    def house_hypotheses(self) -> list[HouseHypothesis]:
        """The House-swap hypotheses of this player's knowledge (:func:`house_hypotheses`)."""
        ss = self.shapeshifter
        if ss is not None and ss.decided:
            swaps = [int(ss.swapped)] if ss.swapped is not None else [0, 1]
            pair = (ss.first, ss.second)
        else:
            swaps, pair = [0], (-1, -1)
        return house_hypotheses(
            self.player,
            sorted(self.house_cards),
            self.dealt_house,
            [(f.target, f.card, f.before_swap) for f in self.house_facts],
            swaps,
            pair,
        )


def player_view(state: NightOfTheNinjaState, me: int) -> PlayerView:
    """The :class:`PlayerView` of seat ``me`` read from ``state``: an info set's knowledge as a
    state (``info_set.view()``) or, in search rollouts, the sampled state itself (the parts read
    are those ``me`` knows, the same in both).

    Search rollouts build one at every move, so it reads the state's typed fields directly and
    its parts are list comprehensions."""
    game = state.game
    n = game.num_players
    decision = state.decision
    if decision is None:
        raise ValueError("night_of_the_ninja: a player view is made at a pending decision only")
    ss = state.ss
    gd = state.gd
    sm = state.sm
    hand, kept, committed = state.hand, state.kept, state.committed
    if committed:
        per_seat = [0] * n
        for _card, owner, _src in committed:
            per_seat[owner] += 1
        held_counts = tuple([len(hand[q]) + (kept[q] >= 0) + per_seat[q] for q in range(n)])
        mine = tuple([c for c, owner, _src in committed if owner == me])
    else:
        held_counts = tuple([len(hand[q]) + (kept[q] >= 0) for q in range(n)])
        mine = ()
    values = state.token_value
    looks = state.looks
    mystic = state.mystic
    return PlayerView(
        me,
        n,
        game.layout,
        game.living_targets_only,
        game.house_cards,
        Decision(
            decision["kind"],
            decision["player"],
            decision["card"],
            decision["owner"],
            decision["target"],
        ),
        state.stage,
        state.phase,
        state.alive,
        state.dealt_house[me],
        tuple([HouseFact(t, h, bool(pre)) for w, t, h, pre in looks if w == me or w == -1])
        if looks
        else (),
        (
            ShapeshifterNaming(
                ss[0], ss[1], ss[2], ss[3] >= 0, bool(ss[3]) if ss[0] == me and ss[3] >= 0 else None
            )
            if ss
            else None
        ),
        hand[me],
        kept[me],
        state.dealt[me],
        state.received[me],
        state.pick1[me] >= 0,
        mine,
        held_counts,
        frozenset([rec[0] for rec in state.played]),
        tuple([(t, c) for w, t, c, _time in mystic if w == me and c >= 0]) if mystic else (),
        GraveDiggerSight((gd[1], gd[2]), gd[3]) if gd and gd[0] == me else None,
        MerchantVisit(sm[1], sm[2] == 1, sm[3]) if sm and sm[0] == me else None,
        state.tokens,
        {t: values[t] for t in state.known[me]},
    )


def deal_hidden(
    d: dict[str, Any], me: int, game: NightOfTheNinja, rng: np.random.Generator
) -> None:
    """Deal again, in place, everything ``me`` cannot see in the state dict ``d``. The result
    depends only on what ``me`` knows and on ``rng``."""
    _tokens(d, me, game, rng)
    _houses(d, me, game, rng)
    _cards(d, me, game, rng)


# =========================================================================== Honor tokens
def _tokens(d: dict[str, Any], me: int, game, rng: np.random.Generator) -> None:
    values: list[int] = d["token_value"]
    known = set(d["known"][me])
    unknown = [t for t in range(cards.NUM_TOKENS) if t not in known]
    if not unknown:
        return
    counts = dict(cards.HONOR_SPLIT)
    for t in known:
        counts[values[t]] -= 1
    pool = [v for v in cards.TOKEN_VALUES for _ in range(counts[v])]
    target = game.target_score
    constraints: list[tuple[list[int], int]] = []
    checks: list[list[int]] = d["checks"]
    for check in checks:
        free = [t for t in check if t not in known]
        if free:
            slack = target - sum([values[t] for t in check if t in known])
            constraints.append((free, slack))
    trial = [0] * cards.NUM_TOKENS  # a value per unknown token
    for _ in range(60):
        draws_for(rng).shuffle(pool)
        for i, t in enumerate(unknown):
            trial[t] = pool[i]
        if _meets(trial, constraints):
            for t in unknown:
                values[t] = trial[t]
            return
    _tokens_search(values, unknown, counts, constraints, rng)


def _meets(trial: list[int], constraints: list[tuple[list[int], int]]) -> bool:
    """Whether the token values ``trial`` keep every checked holding below its slack."""
    for free, slack in constraints:
        total = 0
        for t in free:
            total += trial[t]
        if total >= slack:
            return False
    return True


def _tokens_search(values, unknown, counts, constraints, rng) -> None:
    """Complete depth-first search of a value deal meeting every constraint (a fallback: the
    true deal meets them, so one exists)."""
    involved = sorted({t for free, _ in constraints for t in free})
    by_token: dict[int, list[int]] = {t: [] for t in involved}
    for i, (free, _) in enumerate(constraints):
        for t in free:
            by_token[t].append(i)
    partial = [0] * len(constraints)
    left = [len(free) for free, _ in constraints]
    counts = dict(counts)
    chosen: dict[int, int] = {}

    def ok(i: int) -> bool:
        return partial[i] + 2 * left[i] < constraints[i][1]

    def dfs(k: int) -> bool:
        if k == len(involved):
            return True
        t = involved[k]
        options = [v for v in cards.TOKEN_VALUES if counts[v] > 0]
        draws_for(rng).shuffle(options)
        for v in options:
            for i in by_token[t]:
                partial[i] += v
                left[i] -= 1
            if all(ok(i) for i in by_token[t]):
                counts[v] -= 1
                chosen[t] = int(v)
                if dfs(k + 1):
                    return True
                counts[v] += 1
            for i in by_token[t]:
                partial[i] -= v
                left[i] += 1
        return False

    if not dfs(0):
        raise RuntimeError("night_of_the_ninja: no Honor token deal meets the public checks")
    rest = [t for t in unknown if t not in chosen]
    pool = [v for v in cards.TOKEN_VALUES for _ in range(counts[v])]
    draws_for(rng).shuffle(pool)
    for t, v in zip(rest, pool):
        chosen[t] = int(v)
    for t, v in chosen.items():
        values[t] = v


# =========================================================================== House cards
class HouseHypothesis(Record):
    """One hypothesis on the round's House cards: the deal ``D`` with the two players a
    Shapeshifter named swapped (``swap`` 1) or not; the current card of seat ``q`` is
    ``D[sigma[q]]``. ``pins[q]`` is ``D[q]`` where a look or one's own card tells it (-1
    unknown), ``classes[q]`` whether ``D[q]`` is in the winning House (``WINNING_HOUSE``,
    ``OTHER_HOUSE`` or ``NOT_IN_CLASS``), ``free`` the House cards not pinned (sorted), ``weight``
    the number of deals consistent with it."""

    FIELDS = ("swap", "sigma", "pins", "classes", "free", "weight")

    def __init__(
        self,
        swap: int,
        sigma: list[int],
        pins: list[int],
        classes: list[int],
        free: list[int],
        weight: int,
    ) -> None:
        self.swap: Final = swap
        self.sigma: Final = sigma
        self.pins: Final = pins
        self.classes: Final = classes
        self.free: Final = free
        self.weight: Final = weight


def house_hypotheses(
    me: int,
    house_cards: list[int],
    own_dealt: int,
    facts: Iterable[tuple[int, int, bool]],
    swaps: Iterable[int],
    pair: tuple[int, int],
    classes: Sequence[tuple[int, int]] = (),
    result: int = RESULT_NONE,
) -> list[HouseHypothesis]:
    """The consistent hypotheses of seat ``me`` on the House deal, in the order of ``swaps`` (0:
    no swap, 1: ``pair`` swapped): every ``(target, card, before_swap)`` fact pins a card of the
    deal (a look before the naming the dealt card, a later one the current card), its own dealt
    card ``own_dealt`` is pinned, and once the round is scored each ``(seat, class)`` of
    ``classes`` puts a dead seat's current card in or out of the winning House ``result``.
    ``house_cards`` are the cards in play, sorted (one per seat). The one place the swap beliefs
    are derived: the re-deal (:func:`deal_hidden`) and the heuristic both read it."""
    n = len(house_cards)
    facts = list(facts)
    out = []
    for swap in swaps:
        sigma = list(range(n))
        if swap:
            a, b = pair
            sigma[a], sigma[b] = b, a
        built = _house_constraints(n, me, own_dealt, facts, classes, sigma, result)
        if built is None:
            continue
        pins, cls = built
        free = [h for h in house_cards if h not in pins]
        weight = _count_deals(free, pins, cls, result)
        if weight:
            out.append(HouseHypothesis(swap, sigma, pins, cls, free, weight))
    return out


def _houses(d: dict[str, Any], me: int, game: NightOfTheNinja, rng: np.random.Generator) -> None:
    n = game.num_players
    facts = [(t, h, pre) for w, t, h, pre in d["looks"] if w == me or w == -1]
    classes: list[tuple[int, int]] = []  # (player, WINNING_HOUSE / OTHER_HOUSE) on its card
    result = d["result"]
    if result in (cards.LOTUS, cards.CRANE):
        informative = bool(d["stack"])  # if the stack ran out, a missing token says nothing
        for q in range(n):
            if d["alive"][q]:
                continue
            if AWARD_HOUSE in d["awards"][q]:
                classes.append((q, WINNING_HOUSE))
            elif informative:
                classes.append((q, OTHER_HOUSE))
    ss = d["ss"]
    if ss and ss[3] >= 0:
        pair = (ss[1], ss[2])
        swaps = [ss[3]] if ss[0] == me else [0, 1]
    else:
        pair = (-1, -1)
        swaps = [0]
    options = house_hypotheses(
        me, sorted(game.house_cards), d["dealt_house"][me], facts, swaps, pair, classes, result
    )
    if not options:
        raise RuntimeError("night_of_the_ninja: no House deal is consistent with the looks")
    if len(options) == 1:
        chosen = options[0]
    else:
        weights = np.array([o.weight for o in options], dtype=np.float64)
        chosen = options[int(rng.choice(len(options), p=weights / weights.sum()))]
    dealt = _deal_houses(chosen, result, rng)
    d["dealt_house"] = dealt
    d["house"] = [dealt[chosen.sigma[q]] for q in range(n)]
    if ss and ss[3] >= 0:
        ss[3] = int(chosen.swap)
    for look in d["looks"]:
        if look[0] != me and look[0] != -1:
            look[2] = dealt[look[1]] if look[3] else d["house"][look[1]]


def _in_class(card: int, cls: int, result: int) -> bool:
    inside = cards.house_of(card) == result
    return inside if cls == WINNING_HOUSE else not inside


def _house_constraints(
    n: int,
    me: int,
    own: int,
    facts: list[tuple[int, int, bool]],
    classes: Sequence[tuple[int, int]],
    sigma: list[int],
    result: int,
) -> tuple[list[int], list[int]] | None:
    """Per-player constraints on the deal D under one swap hypothesis: ``(pins, classes)`` or
    ``None`` if contradictory."""
    pin = [-1] * n
    cls = [NOT_IN_CLASS] * n
    pin[me] = own
    for t, h, pre in facts:
        q = t if pre else sigma[t]  # the current card of t is D[sigma[t]]
        if pin[q] >= 0 and pin[q] != h:
            return None
        pin[q] = h
    for t, c in classes:
        q = sigma[t]
        if cls[q] and cls[q] != c:
            return None
        cls[q] = c
    used = [h for h in pin if h >= 0]
    if len(set(used)) != len(used):
        return None
    for q in range(n):
        if pin[q] >= 0 and cls[q] and not _in_class(pin[q], cls[q], result):
            return None
    return pin, cls


def _count_deals(rest: list[int], pin: list[int], cls: list[int], result: int) -> int:
    """Deals of the unpinned cards ``rest`` meeting the classes."""
    if result not in (cards.LOTUS, cards.CRANE):
        free = sum(1 for h in pin if h < 0)
        return factorial(free)
    w = sum(1 for h in rest if cards.house_of(h) == result)
    m = len(rest) - w
    need_in = sum(1 for q, h in enumerate(pin) if h < 0 and cls[q] == WINNING_HOUSE)
    need_out = sum(1 for q, h in enumerate(pin) if h < 0 and cls[q] == OTHER_HOUSE)
    anyone = sum(1 for q, h in enumerate(pin) if h < 0 and cls[q] == NOT_IN_CLASS)
    if need_in > w or need_out > m:
        return 0
    return (
        (factorial(w) // factorial(w - need_in))
        * (factorial(m) // factorial(m - need_out))
        * (factorial(anyone))
    )


def _deal_houses(hyp: HouseHypothesis, result: int, rng: np.random.Generator) -> list[int]:
    pin, cls = hyp.pins, hyp.classes
    dealt = list(pin)
    rest = list(hyp.free)
    if result in (cards.LOTUS, cards.CRANE):
        inside = [h for h in rest if cards.house_of(h) == result]
        outside = [h for h in rest if cards.house_of(h) != result]
        draws_for(rng).shuffle(inside)
        draws_for(rng).shuffle(outside)
        for q in range(len(dealt)):
            if dealt[q] < 0 and cls[q] == WINNING_HOUSE:
                dealt[q] = inside.pop()
            elif dealt[q] < 0 and cls[q] == OTHER_HOUSE:
                dealt[q] = outside.pop()
        rest = inside + outside
    rest.sort()
    draws_for(rng).shuffle(rest)
    for q in range(len(dealt)):
        if dealt[q] < 0:
            dealt[q] = int(rest.pop())
    return [int(h) for h in dealt]


# =========================================================================== Ninja cards
def _cards(d: dict[str, Any], me: int, game, rng: np.random.Generator) -> None:
    n: int = game.num_players
    left, right = (me + 1) % n, (me - 1) % n
    stage = d["stage"]
    passed = stage != "draft1"
    n_slots = cards.NUM_CARDS
    # slots: P1[q] = q, K[q] = n + q, X[q] = 2n + q, set aside 3n..32
    # groups: hand of q = {P1[q], K[q-1]} -> q; discards X -> n; set aside -> n + 1
    XG = n
    card_at = [-1] * n_slots
    placed: set[int] = set()

    pick1: list[int] = d["pick1"]
    pick2: list[int] = d["pick2"]
    mine = sorted(d["dealt"][me])
    pair: list[int] = []
    if pick1[me] >= 0:
        _put(card_at, placed, me, pick1[me])
        pair = [c for c in mine if c != pick1[me]]
    else:
        for slot, c in zip((me, n + me, 2 * n + me), mine):
            _put(card_at, placed, slot, c)
    if passed:
        if pick2[me] >= 0:
            _put(card_at, placed, n + right, pick2[me])
            _put(card_at, placed, 2 * n + right, d["discard_of"][me])
        else:
            r0, r1 = sorted(d["received"][me])
            _put(card_at, placed, n + right, r0)
            _put(card_at, placed, 2 * n + right, r1)

    # cards whose group is known (a set of allowed groups)
    allowed: dict[int, set[int]] = {}
    played: list[list[int]] = d["played"]
    for rec in played:
        allowed[rec[0]] = {XG} if rec[2] == SRC_GD else {rec[1]}
    mystic: list[list[int]] = d["mystic"]
    for rec in mystic:
        if rec[0] == me and rec[2] >= 0:
            allowed[rec[2]] = {rec[1]}
    gd: list[int] = d["gd"]
    if gd and gd[0] == me:
        for c in gd[1:4]:
            if c >= 0:
                allowed[c] = {XG}
    no_mastermind = d["result"] >= 0 and not d["by_mastermind"] and cards.MASTERMIND not in allowed
    if no_mastermind:
        alive: list[bool] = d["alive"]
        allowed[cards.MASTERMIND] = {q for q in range(n) if not alive[q]} | {XG, n + 1}

    if pair:
        a, b = pair
        splits = [
            (k, x)
            for k, x in ((a, b), (b, a))
            if left in allowed.get(k, {left}) and XG in allowed.get(x, {XG})
        ]
        k, x = splits[draws_for(rng).below(len(splits))] if len(splits) > 1 else splits[0]
        _put(card_at, placed, n + me, k)
        _put(card_at, placed, 2 * n + me, x)
    for c in list(allowed):
        if c in placed:
            del allowed[c]

    free: list[list[int]] = [[] for _ in range(n + 2)]  # by group: the empty slots
    for slot in range(n_slots):
        if card_at[slot] < 0:
            free[_group_of(slot, n)].append(slot)
    for card in sorted(allowed, key=lambda c: (len(allowed[c]) > 1, c)):
        slots = [s for g in sorted(allowed[card]) for s in free[g]]
        slot = slots[draws_for(rng).below(len(slots))]
        free[_group_of(slot, n)].remove(slot)
        _put(card_at, placed, slot, card)
    rest = [c for c in range(n_slots) if c not in placed]
    draws_for(rng).shuffle(rest)
    i = 0
    for slot in range(n_slots):
        if card_at[slot] < 0:
            card_at[slot] = rest[i]
            i += 1

    _rebuild_round(d, me, n, card_at, passed, no_mastermind, rng, game.target_learns_look)


def _group_of(slot: int, n: int) -> int:
    """The group of a deal slot of ``_cards``: a hand (its seat), the discards (``n``) or the
    cards set aside (``n + 1``)."""
    if slot < n:
        return slot
    if slot < 2 * n:
        return (slot - n + 1) % n
    return n if slot < 3 * n else n + 1


def _put(card_at: list[int], placed: set[int], slot: int, card: int) -> None:
    """Deal ``card`` to ``slot``."""
    card_at[slot] = card
    placed.add(card)


def _rebuild_round(
    d: dict[str, Any],
    me: int,
    n: int,
    card_at: list[int],
    passed: bool,
    no_mastermind: bool,
    rng: np.random.Generator,
    informed: bool,
) -> None:
    """Derive the draft history, hands, discards, the Grave Digger's take, hidden commitments
    and the other players' private records from the slot deal."""
    P1 = card_at[:n]
    K = card_at[n : 2 * n]
    X = card_at[2 * n : 3 * n]
    d["aside"] = sorted(card_at[3 * n :])
    pick1: list[int] = d["pick1"]
    pick2: list[int] = d["pick2"]
    dealt: list[list[int]] = d["dealt"]
    received: list[list[int]] = d["received"]
    discard_of: list[int] = d["discard_of"]
    hand: list[list[int]] = d["hand"]
    kept: list[int] = d["kept"]
    played: list[list[int]] = d["played"]
    origin: list[list[int]] = [[] for _ in range(n)]
    pile_all: list[int] = []
    for q in range(n):
        if q == me:
            origin[q] = [c for c in (pick1[me], pick2[me]) if c >= 0]
            continue
        dealt[q] = sorted([P1[q], K[q], X[q]])
        if pick1[q] >= 0:
            pick1[q] = P1[q]
            origin[q].append(P1[q])
        if passed:
            received[q] = sorted([K[q - 1], X[q - 1]])
            if pick2[q] >= 0:
                pick2[q] = K[q - 1]
                discard_of[q] = X[q - 1]
                origin[q].append(K[q - 1])
    for q in range(n):
        if pick2[q] >= 0:
            pile_all.append(X[q - 1])
    played_from_hand: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for i, rec in enumerate(played):
        if rec[2] == SRC_HAND:
            played_from_hand[rec[1]].append((i, rec[0]))

    # Grave Digger: the card taken (hidden unless played) and the two seen
    gd: list[int] = d["gd"]
    taken = -1
    kept_by: dict[int, int] = {}
    if gd:
        g, _s1, _s2, taken, use = gd
        if g == me:
            if kept[me] >= 0:
                kept_by[me] = kept[me]
        else:
            public = [r[0] for r in played if r[1] == g and r[2] == SRC_GD]
            if public:
                taken = public[0]
            elif taken >= 0 or use >= 0:
                choices = sorted(pile_all)
                if no_mastermind and d["alive"][g] and use == 0:
                    choices = [c for c in choices if c != cards.MASTERMIND]
                taken = choices[draws_for(rng).below(len(choices))]
            if taken >= 0:
                others = sorted(c for c in pile_all if c != taken)
                other = others[draws_for(rng).below(len(others))] if others else -1
                gd[1:4] = [*sorted([taken, other]), taken] if other >= 0 else [taken, -1, taken]
                if use == 0 and not public:
                    kept_by[g] = taken
            else:
                seen = sorted(pile_all)
                idx = sorted(
                    int(i) for i in rng.choice(len(seen), size=min(2, len(seen)), replace=False)
                )
                picks = [seen[i] for i in idx] + [-1] * (2 - len(idx))
                gd[1:4] = [picks[0], picks[1], -1]
    d["discards"] = sorted(c for c in pile_all if c != taken)

    # hands now (before the hidden commitments)
    for q in range(n):
        if q == me:
            continue
        gone = {c for _, c in played_from_hand[q]}
        hand[q] = [c for c in origin[q] if c not in gone]
        kept[q] = kept_by.get(q, -1)

    # others' hidden commitments of the current phase
    if d["stage"] == "commit":
        phase = d["phase"]
        committed = [e for e in d["committed"] if e[1] == me]
        asks_total: list[int] = d["asks_total"]
        asks_left: list[int] = d["asks_left"]
        commit_done: list[bool] = d["commit_done"]
        for q in range(n):
            if q == me:
                continue
            done_asks = asks_total[q] - asks_left[q]
            commit_done[q] = False
            if done_asks <= 0:
                continue
            cands = sorted(
                c for c in hand[q] + [kept[q]] if c >= 0 and cards.CARD_PHASE[c] == phase
            )
            m = draws_for(rng).below(min(done_asks, len(cands)) + 1)
            if m:
                idx = sorted(int(i) for i in rng.choice(len(cands), size=m, replace=False))
                for i in idx:
                    c = cands[i]
                    if kept[q] == c:
                        kept[q] = -1
                        committed.append([c, q, SRC_GD])
                    else:
                        hand[q].remove(c)
                        committed.append([c, q, SRC_HAND])
            commit_done[q] = m < done_asks
        committed.sort(key=lambda e: (e[1], e[0]))
        d["committed"] = committed

    # the other players' Mystic sights (a sight of one's own card is known with
    # ``target_learns_look``)
    mystic: list[list[int]] = d["mystic"]
    for rec in mystic:
        who, target, time = rec[0], rec[1], rec[3]
        if who == me or (target == me and informed):
            continue
        base = origin[target]
        before = {c for i, c in played_from_hand[target] if i < time}
        held = sorted(c for c in base if c not in before)
        rec[2] = held[draws_for(rng).below(len(held))] if held else -1
