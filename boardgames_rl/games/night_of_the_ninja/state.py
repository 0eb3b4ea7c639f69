"""Night of the Ninja rules engine: the full true state and its transitions.

A game is a sequence of rounds; a round is a sequence of *stages* (the rulebook's Start of Round,
Ninja Draft, the five Night phases, House Reveal, End of Round). A stage that needs a player's
choice sets ``self.decision`` (a dict of public facts only: ``kind``, ``player`` who decides, the
resolving ``card``, its ``owner`` and ``target``); the next ``apply`` answers it and the engine
runs on until the next decision. Everything is plain data, so ``to_dict`` / ``clone`` are exact.

Decision kinds (``DECISIONS``), with their legal actions (ids in ``actions.py``):

==================  ===========================================================================
``draft_pick1``     every player in seat order: keep 1 of the 3 dealt cards (card); the other two
                    go to the left neighbour once everyone has picked
``draft_pick2``     every player in seat order: keep 1 of the 2 received cards (card); the other
                    is discarded face down
``commit``          a Night phase's commitment, hidden until every living player has committed.
                    Every living player is asked, in seat order, once per Ninja card it holds
                    (a public count; at least once): play one of its cards of this phase (card)
                    or ``DONE`` (after ``DONE`` only ``DONE`` is legal for the rest of its asks)
``target``          the owner of a resolving Spy, Mystic, Troublemaker, Spirit Merchant, Judge,
                    Blind Assassin or Shinobi names another player (player): a living one for
                    the cards that KILL (Judge, Blind Assassin, Shinobi), any other player, dead
                    or alive, for the others (``living_targets_only``: a living one always)
``ss_first``        Shapeshifter: first player named (any player, itself allowed; a living one
                    with ``living_targets_only``)
``ss_second``       Shapeshifter: second player named (likewise, other than the first)
``ss_swap``         Shapeshifter, having seen both House cards: ``YES`` swap / ``DONE`` no swap
``gd_take``         Grave Digger: take one of the 2 (random) discards it sees (card)
``gd_use``          Grave Digger: ``YES`` play the card now (cards with an effect of their own
                    only) / ``DONE`` keep it face down for later
``kept_trickster``  the Grave Digger owner holding a kept card, asked at every Trickster number
                    3-6 not played this phase: play the kept Trickster of that number (card) or
                    ``DONE``
``tm_reveal``       Troublemaker, having looked: ``YES`` reveal the House card to all / ``DONE``
``sm_look``         Spirit Merchant: ``LOOK_HOUSE`` or ``LOOK_TOKEN`` (a random token of the
                    target, if it has one)
``sm_swap``         Spirit Merchant (both players hold tokens): ``GIVE_2/3/4`` give one of its
                    tokens of that value for the seen token (or a random one after a House look)
                    / ``DONE`` no swap
``thief_target``    Thief (after revealing its House card): take a random token from a player
                    (dead or alive; living only with ``living_targets_only``) holding more
                    tokens than it (player) or ``DONE``
``shinobi_kill``    Shinobi, having looked: ``YES`` kill / ``DONE`` spare
``react``           the living victim of a Blind Assassin's or Shinobi's kill, always asked:
                    reveal the Mirror Monk or the Martyr it holds (card) or ``DONE``
==================  ===========================================================================

The engine reaches its code through two explicit tables at the end of
:class:`NightOfTheNinjaState`: ``STAGE_RUNNERS`` (engine stage -> the method running it) and
``DECISION_HANDLERS`` (decision kind -> the method applying the answer). The legal actions of
each kind are in ``legal.LEGAL_ACTIONS``, their names in ``naming.NAMING``, the heuristic's rules
in ``heuristic.NightOfTheNinjaHeuristic.DECISION_RULES``; all four have the kinds of
``DECISIONS`` (``tests/night_of_the_ninja/test_dispatch.py``).

Seats are ``0..n-1``; the left neighbour of ``p`` is ``p + 1``. Data sheet references (sections
2-8) point to ``shared/games/night_of_the_ninja.md``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final

import numpy as np

from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.plain_state import PlainDataState
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.night_of_the_ninja import actions, cards
from boardgames_rl.games.night_of_the_ninja.legal import legal_list, legal_mask
from boardgames_rl.games.night_of_the_ninja.observation import encode

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja  # noqa: F401

DECISIONS: Final = (
    "draft_pick1",
    "draft_pick2",
    "commit",
    "target",
    "ss_first",
    "ss_second",
    "ss_swap",
    "gd_take",
    "gd_use",
    "kept_trickster",
    "tm_reveal",
    "sm_look",
    "sm_swap",
    "thief_target",
    "shinobi_kill",
    "react",
)
DECISION_INDEX: Final = {k: i for i, k in enumerate(DECISIONS)}

STAGES: Final = ("draft1", "draft2", "night0", "night1", "night2", "night3", "night4", "over")
"""Public stage labels used by the observation (the Night phases by index)."""

SRC_HAND: Final = 0
SRC_GD: Final = 1
"""Where a played card came from: the drafted hand, or the Grave Digger (taken from the discards,
played at once or kept face down and played later). Public."""

PENDING: Final = 0
RESOLVED: Final = 1
LOST: Final = 2
"""Status of a played card: face up waiting, resolved, lost (its owner died first)."""

AWARD_HOUSE, AWARD_RONIN, AWARD_TIE, AWARD_MARTYR = range(4)
"""Why a player received an Honor token this round (public)."""

KILLING_PHASES: Final = (cards.BLIND_ASSASSIN, cards.SHINOBI)
"""Night phases whose cards KILL (with the Judge): their targets are living players."""

RESULT_NONE: Final = -1
RESULT_TIE: Final = 2
RESULT_RONIN_MASTERMIND: Final = 3
"""Round results besides ``cards.LOTUS`` (0) / ``cards.CRANE`` (1): not yet, total tie, no House
wins (a living Ronin revealed the Mastermind)."""

_FIELDS: Final = (
    "round",
    "token_value",
    "stack",
    "tokens",
    "known",
    "checks",
    "round_start_tokens",
    "winners",
    "over",
    "truncated_flag",
    "dealt_house",
    "house",
    "alive",
    "dealt",
    "pick1",
    "received",
    "pick2",
    "discard_of",
    "hand",
    "kept",
    "discards",
    "aside",
    "committed",
    "played",
    "looks",
    "mystic",
    "gd",
    "ss",
    "sm",
    "death",
    "awards",
    "result",
    "by_mastermind",
    "stage",
    "phase",
    "ask_seat",
    "asks_total",
    "asks_left",
    "commit_done",
    "queue",
    "decision",
)


class NightOfTheNinjaState(PlainDataState["NightOfTheNinja"]):
    """Full state of a Night of the Ninja game (see the module docstring).

    Game-long fields: ``round`` (1-based), ``token_value[t]`` (hidden values of the 35 tokens),
    ``stack`` (token ids, top first), ``tokens[p]`` (ids held, public), ``known[p]`` (ids whose
    value ``p`` knows: every token it ever held or looked at; public as a set of ids),
    ``checks`` (token-id sets publicly known to be worth less than the target score: the
    holdings checked at the end of each round that did not end the game), ``round_start_tokens``.

    Round fields: ``dealt_house`` / ``house`` (as dealt / now), ``alive``, the draft
    (``dealt``, ``pick1``, ``received``, ``pick2``, ``discard_of``), ``hand[p]`` (drafted cards
    not played), ``kept[p]`` (the Grave Digger's kept card or -1), ``discards`` (draft discard
    pile), ``aside`` (undealt cards), ``committed`` (this phase's hidden ``[card, owner, src]``),
    ``played`` (public ``[card, owner, src, target1, target2, status]``), ``looks`` (``[who,
    target, house card, before_swap]``; ``who`` -1 = public reveal; ``before_swap`` is True when
    a Shapeshifter named the target after the look), ``mystic`` (``[who, target, card seen or
    -1, len(played) at the look]``; the target knows the card with ``target_learns_look``),
    ``gd`` (``[owner, seen1, seen2, taken, use]``), ``ss`` (``[owner, a, b, swapped]``), ``sm``
    (``[owner, target, looked at a token, token id]``; the token id is public, its value known to
    the owner and the holder),
    ``death[p]`` (card that killed ``p`` or -1), ``awards[p]`` (award codes), ``result``.
    """

    FIELDS = _FIELDS

    # game-long fields
    round: int
    token_value: list[int]
    stack: list[int]
    tokens: list[list[int]]
    known: list[list[int]]
    checks: list[list[int]]
    round_start_tokens: list[list[int]]
    winners: list[int]
    over: bool
    # round fields
    dealt_house: list[int]
    house: list[int]
    alive: list[bool]
    dealt: list[list[int]]
    pick1: list[int]
    received: list[list[int]]
    pick2: list[int]
    discard_of: list[int]
    hand: list[list[int]]
    kept: list[int]
    discards: list[int]
    aside: list[int]
    committed: list[list[int]]
    played: list[list[int]]
    looks: list[list[int]]
    mystic: list[list[int]]
    gd: list[int]
    ss: list[int]
    sm: list[int]
    death: list[int]
    awards: list[list[int]]
    result: int
    by_mastermind: bool
    # engine position
    stage: str
    phase: int
    ask_seat: int
    asks_total: list[int]
    asks_left: list[int]
    commit_done: list[bool]
    queue: list[list[int]]

    # ====================================================================== construction
    @classmethod
    def initial(cls, game, seed: int | None) -> NightOfTheNinjaState:
        """A new game: token values dealt, first round dealt, at the first draft pick."""
        s = cls(game, make_rng(seed))
        n = game.num_players
        values = [v for v in cards.TOKEN_VALUES for _ in range(cards.HONOR_SPLIT[v])]
        s.rng.shuffle(values)
        s.token_value = [int(v) for v in values]
        s.stack = list(range(cards.NUM_TOKENS))
        s.tokens = [[] for _ in range(n)]
        s.known = [[] for _ in range(n)]
        s.checks = []
        s.winners = []
        s.over = False
        s.truncated_flag = False
        s.round = 0
        s.decision = None
        s._new_round()
        s._run()
        return s

    # ====================================================================== contract
    def returns(self) -> np.ndarray:
        """Mode "game": +1 for each player sharing the highest final score, -1 for the others
        (all 0 after a truncation). Mode "round": +1 for each player who gained Honor points this
        round, -1 for the others (all 0 if nobody did). All 0 before the end."""
        n = self.game.num_players
        out = np.zeros(n)
        if self.decision is not None or self.truncated_flag:
            return out
        if self.game.mode == "round":
            start = [self.score_of(t) for t in self.round_start_tokens]
            gained = [self.score(p) > start[p] for p in range(n)]
            if any(gained):
                out[:] = [1.0 if g else -1.0 for g in gained]
            return out
        out[:] = -1.0
        out[self.winners] = 1.0
        return out

    def _observation(self, player: int) -> np.ndarray:
        if not 0 <= player < self.game.num_players:
            raise ValueError(f"night_of_the_ninja: no seat {player}")
        return encode(self, player)

    def state_vector(self) -> np.ndarray:
        return np.concatenate([encode(self, p) for p in range(self.game.num_players)])

    def _info_set(self, player: int):
        from boardgames_rl.games.night_of_the_ninja.infoset import NightOfTheNinjaInfoSet

        return NightOfTheNinjaInfoSet(self, player)

    def _render(self, player: int | None = None) -> str:
        """Text table of the round from ``player`` 's view (``None``: omniscient)."""
        from boardgames_rl.games.night_of_the_ninja.render import render_text

        return render_text(self, player)

    def _render_rgb(self, player: int | None = None) -> np.ndarray:
        from boardgames_rl.games.night_of_the_ninja.render import render_rgb

        return render_rgb(self, player)

    def _action_name(self, action: int) -> str:
        from boardgames_rl.games.night_of_the_ninja.naming import contextual_name

        return contextual_name(self, action)

    # ====================================================================== engine loop
    @property
    def decision_kind(self) -> str:
        """Kind of the pending decision, or ``"over"``."""
        return self.decision["kind"] if self.decision else "over"

    def _ask(self, kind: str, player: int, card: int = -1, owner: int = -1, target: int = -1):
        self.decision = {
            "kind": kind,
            "player": player,
            "card": card,
            "owner": owner,
            "target": target,
        }

    def _run(self) -> None:
        """Run the stages (``STAGE_RUNNERS``) until one asks for a decision or the game ends."""
        guard = 0
        while self.decision is None and not self.over:
            guard += 1
            if guard > 100_000:
                raise RuntimeError("night_of_the_ninja: engine loop did not reach a decision")
            self.STAGE_RUNNERS[self.stage](self)

    def _apply(self, action: int) -> None:
        """Answer the pending decision with its handler (``DECISION_HANDLERS``), then run on."""
        d = self.decision
        assert d is not None, "night_of_the_ninja: apply after the end of the game"
        self.decision = None
        self.DECISION_HANDLERS[d["kind"]](self, action, d)
        self._run()

    def _legal_action_mask(self) -> np.ndarray:
        return legal_mask(self)

    def _legal_list(self) -> list[int]:
        return legal_list(self)

    # ====================================================================== helpers
    def score_of(self, token_ids) -> int:
        """Points of a set of token ids."""
        v = self.token_value
        return sum(v[t] for t in token_ids)

    def score(self, player: int) -> int:
        """Honor points ``player`` holds now (hidden from the others until the game ends)."""
        return self.score_of(self.tokens[player])

    def living(self) -> list[int]:
        """Seats of the living players."""
        return [p for p in range(self.game.num_players) if self.alive[p]]

    def living_others(self, player: int) -> list[int]:
        """Living players other than ``player`` (the legal targets of the killing cards)."""
        return [p for p in range(self.game.num_players) if self.alive[p] and p != player]

    def _nameable(self, p: int) -> bool:
        """Whether a card that does not kill may name ``p``: anyone, dead or alive (the card
        texts say "player"), or only the living with ``living_targets_only``."""
        return self.alive[p] or not self.game.living_targets_only

    def targets(self, owner: int, card: int) -> list[int]:
        """Players the owner of ``card`` may name at its ``target`` decision: other living
        players for a card that KILLs (Judge, Blind Assassin, Shinobi), any other player for
        the others (Spy, Mystic, Troublemaker, Spirit Merchant), see ``living_targets_only``."""
        if cards.CARD_PHASE[card] in KILLING_PHASES or card == cards.JUDGE:
            return self.living_others(owner)
        return [p for p in range(self.game.num_players) if p != owner and self._nameable(p)]

    def shapeshifter_names(self, first: int = -1) -> list[int]:
        """Players a Shapeshifter may name (itself allowed), other than ``first``."""
        return [p for p in range(self.game.num_players) if p != first and self._nameable(p)]

    def held(self, player: int) -> list[int]:
        """Ninja cards ``player`` holds now: its hand plus a kept Grave Digger card."""
        k = self.kept[player]
        return self.hand[player] + [k] if k >= 0 else list(self.hand[player])

    def held_count(self, player: int) -> int:
        """Number of Ninja cards held (public)."""
        return len(self.hand[player]) + (1 if self.kept[player] >= 0 else 0)

    def thief_targets(self, owner: int) -> list[int]:
        """Players holding more Honor tokens (by count) than ``owner`` (dead ones too, unless
        ``living_targets_only``)."""
        mine = len(self.tokens[owner])
        return [
            p
            for p in range(self.game.num_players)
            if p != owner and self._nameable(p) and len(self.tokens[p]) > mine
        ]

    def _record(self, card: int) -> list:
        for rec in self.played:
            if rec[0] == card:
                return rec
        raise KeyError(card)

    def _remove_held(self, player: int, card: int) -> int:
        """Take ``card`` out of ``player`` 's hand or kept slot; returns its source."""
        if self.kept[player] == card:
            self.kept[player] = -1
            return SRC_GD
        self.hand[player].remove(card)
        return SRC_HAND

    def _look(self, who: int, target: int) -> None:
        self.looks.append([who, target, self.house[target], False])

    def _reveal(self, player: int) -> None:
        if not any(w == -1 and t == player and not pre for w, t, _, pre in self.looks):
            self.looks.append([-1, player, self.house[player], False])

    def _draw_token(self, player: int) -> bool:
        if not self.stack:
            return False  # data sheet section 4: no more awards once the stack is empty
        t = self.stack.pop(0)
        self.tokens[player].append(t)
        self._learn(player, t)
        return True

    def _learn(self, player: int, token: int) -> None:
        k = self.known[player]
        i = bisect.bisect_left(k, token)
        if i == len(k) or k[i] != token:
            k.insert(i, token)

    def _move_token(self, token: int, giver: int, taker: int) -> None:
        self.tokens[giver].remove(token)
        self.tokens[taker].append(token)
        self._learn(taker, token)

    def _kill(self, player: int, cause: int) -> None:
        self.alive[player] = False
        self.death[player] = cause

    def _pick(self, items: list[int]) -> int:
        return int(draws_for(self.rng).pick(items))  # rng.choice(items): the same draw

    # ====================================================================== start of round
    def _new_round(self) -> None:
        g = self.game
        n = g.num_players
        rng = self.rng
        self.round += 1
        self.round_start_tokens = [list(t) for t in self.tokens]
        houses = list(g.house_cards)
        rng.shuffle(houses)
        self.dealt_house = [int(h) for h in houses]
        self.house = list(self.dealt_house)
        self.alive = [True] * n
        deck = list(range(cards.NUM_CARDS))
        rng.shuffle(deck)
        self.dealt = [sorted(int(c) for c in deck[3 * p : 3 * p + 3]) for p in range(n)]
        self.aside = sorted(int(c) for c in deck[3 * n :])
        self.pick1 = [-1] * n
        self.received = [[] for _ in range(n)]
        self.pick2 = [-1] * n
        self.discard_of = [-1] * n
        self.hand = [[] for _ in range(n)]
        self.kept = [-1] * n
        self.discards = []
        self.committed = []
        self.played = []
        self.looks = []
        self.mystic = []
        self.gd = []
        self.ss = []
        self.sm = []
        self.death = [-1] * n
        self.awards = [[] for _ in range(n)]
        self.result = RESULT_NONE
        self.by_mastermind = False
        self.stage = "draft1"
        self.phase = -1
        self.ask_seat = 0
        self.asks_total = [0] * n
        self.asks_left = [0] * n
        self.commit_done = [False] * n
        self.queue = []

    # ====================================================================== Ninja Draft
    def _stage_draft1(self) -> None:
        n = self.game.num_players
        if self.ask_seat < n:
            self._ask("draft_pick1", self.ask_seat)
            return
        for p in range(n):  # pass the two others to the left
            left = (p + 1) % n
            self.received[left] = [c for c in self.dealt[p] if c != self.pick1[p]]
        self.stage = "draft2"
        self.ask_seat = 0

    def _on_draft_pick1(self, action: int, decision: dict) -> None:
        p = decision["player"]
        self.pick1[p] = action
        self.hand[p] = [action]
        self.ask_seat += 1

    def _stage_draft2(self) -> None:
        if self.ask_seat < self.game.num_players:
            self._ask("draft_pick2", self.ask_seat)
            return
        self.stage = "phase_start"
        self.phase = int(cards.SPY)  # state fields are plain data

    def _on_draft_pick2(self, action: int, decision: dict) -> None:
        p = decision["player"]
        other = next(c for c in self.received[p] if c != action)
        self.pick2[p] = action
        self.discard_of[p] = other
        self.hand[p].append(action)
        bisect.insort(self.discards, other)
        self.ask_seat += 1

    # ====================================================================== the Night
    def _stage_phase_start(self) -> None:
        n = self.game.num_players
        for p in range(n):
            asks = max(1, self.held_count(p)) if self.alive[p] else 0
            self.asks_total[p] = self.asks_left[p] = asks
            self.commit_done[p] = False
        self.committed = []
        self.ask_seat = 0
        self.stage = "commit"

    def _stage_commit(self) -> None:
        n = self.game.num_players
        while self.ask_seat < n and self.asks_left[self.ask_seat] == 0:
            self.ask_seat += 1
        if self.ask_seat < n:
            self._ask("commit", self.ask_seat)
            return
        self._reveal_commitments()

    def _on_commit(self, action: int, decision: dict) -> None:
        p = decision["player"]
        self.asks_left[p] -= 1
        if action == self.game.layout.DONE:
            self.commit_done[p] = True
        else:
            src = self._remove_held(p, action)
            self.committed.append([action, p, src])

    def _reveal_commitments(self) -> None:
        """Every commitment of the phase turns face up; cards resolve from number 1 to 6."""
        entries = sorted(self.committed)
        self.committed = []
        self.commit_done = [False] * self.game.num_players  # who stopped early stays hidden
        queue = []
        for card, owner, src in entries:
            self.played.append([card, owner, src, -1, -1, PENDING])
            queue.append([cards.CARD_NUMBER[card], card, owner])
        if self.phase == cards.TRICKSTER:  # moments a kept Trickster 3-6 may be played
            committed = {c for c, _, _ in entries}
            for k in range(3, 7):
                if cards.card_of(cards.TRICKSTER, k) not in committed:
                    queue.append([k, -1, -1])
        queue.sort()
        self.queue = queue
        self.stage = "resolve"

    def _stage_resolve(self) -> None:
        if not self.queue:
            self.phase += 1
            self.stage = "phase_start" if self.phase <= cards.SHINOBI else "house_reveal"
            return
        number, card, owner = self.queue.pop(0)
        if card >= 0:
            self._resolve(card, owner)
            return
        # a kept Trickster of this number may be played now (asked whenever a kept card exists)
        if not self.gd or self.gd[4] != 0:
            return
        g = self.gd[0]
        trick = cards.card_of(cards.TRICKSTER, number)
        if self.alive[g] and self.kept[g] >= 0 and not any(r[0] == trick for r in self.played):
            self._ask("kept_trickster", g, card=trick, owner=g)

    def _on_kept_trickster(self, action: int, decision: dict) -> None:
        if action == self.game.layout.DONE:
            return
        g = decision["player"]
        self.kept[g] = -1
        self.played.append([action, g, SRC_GD, -1, -1, PENDING])
        self._resolve(action, g)

    # ---------------------------------------------------------------- card resolution
    def _resolve(self, card: int, owner: int) -> None:
        """Start resolving a face-up card (its record is in ``played``)."""
        rec = self._record(card)
        if not self.alive[owner]:
            rec[5] = LOST  # data sheet 5.3 step 5: killed before its card resolves
            return
        kind = cards.CARD_KIND[card]
        if kind == "Shapeshifter":
            if len(self.shapeshifter_names()) >= 2:
                self._ask("ss_first", owner, card=card, owner=owner)
            else:
                rec[5] = RESOLVED
            return
        if kind == "Grave Digger":
            pile = self.discards
            k = min(2, len(pile))
            idx = sorted(int(i) for i in self.rng.choice(len(pile), size=k, replace=False))
            seen = [pile[i] for i in idx] + [-1] * (2 - k)
            self.gd = [owner, seen[0], seen[1], -1, -1]
            if k:
                self._ask("gd_take", owner, card=card, owner=owner)
            else:
                rec[5] = RESOLVED
            return
        if kind == "Thief":
            self._reveal(owner)
            if self.thief_targets(owner):
                self._ask("thief_target", owner, card=card, owner=owner)
            else:
                rec[5] = RESOLVED
            return
        if kind == "Judge":
            self._reveal(owner)
        if self.targets(owner, card):
            self._ask("target", owner, card=card, owner=owner)
        else:
            rec[5] = RESOLVED  # nobody to target

    def _on_target(self, action: int, decision: dict) -> None:
        card, owner = decision["card"], decision["owner"]
        t = action - actions.PLAYER
        rec = self._record(card)
        rec[3] = t
        kind = cards.CARD_KIND[card]
        if kind == "Spy":
            self._look(owner, t)
        elif kind == "Mystic":
            self._look(owner, t)
            held = self.held(t)
            seen = self._pick(held) if held else -1
            self.mystic.append([owner, t, seen, len(self.played)])
        elif kind == "Troublemaker":
            self._look(owner, t)
            self._ask("tm_reveal", owner, card=card, owner=owner, target=t)
            return
        elif kind == "Spirit Merchant":
            self._ask("sm_look", owner, card=card, owner=owner, target=t)
            return
        elif kind == "Judge":
            self._kill(t, card)  # no react answers the Judge
        elif kind == "Blind Assassin":
            self._ask("react", t, card=card, owner=owner, target=t)
            return
        elif kind == "Shinobi":
            self._look(owner, t)
            self._ask("shinobi_kill", owner, card=card, owner=owner, target=t)
            return
        rec[5] = RESOLVED

    def _on_ss_first(self, action: int, decision: dict) -> None:
        first = action - actions.PLAYER
        self._ask(
            "ss_second",
            decision["owner"],
            card=decision["card"],
            owner=decision["owner"],
            target=first,
        )

    def _on_ss_second(self, action: int, decision: dict) -> None:
        owner, a, b = decision["owner"], decision["target"], action - actions.PLAYER
        rec = self._record(decision["card"])
        rec[3], rec[4] = a, b
        for look in self.looks:  # earlier looks at a or b now tell only the dealt card
            if look[1] in (a, b):
                look[3] = True
        self.looks.append([owner, a, self.house[a], True])
        self.looks.append([owner, b, self.house[b], True])
        self.ss = [owner, a, b, -1]
        self._ask("ss_swap", owner, card=decision["card"], owner=owner, target=a)

    def _on_ss_swap(self, action: int, decision: dict) -> None:
        a, b = self.ss[1], self.ss[2]
        swap = action == self.game.layout.YES
        self.ss[3] = int(swap)
        if swap:
            self.house[a], self.house[b] = self.house[b], self.house[a]
        self._record(decision["card"])[5] = RESOLVED

    def _on_gd_take(self, action: int, decision: dict) -> None:
        self.gd[3] = action
        self.discards.remove(action)
        self._ask("gd_use", decision["owner"], card=decision["card"], owner=decision["owner"])

    def _on_gd_use(self, action: int, decision: dict) -> None:
        owner = decision["owner"]
        taken = self.gd[3]
        self._record(decision["card"])[5] = RESOLVED
        if action == self.game.layout.YES:
            self.gd[4] = 1
            self.played.append([taken, owner, SRC_GD, -1, -1, PENDING])
            self._resolve(taken, owner)
        else:
            self.gd[4] = 0
            self.kept[owner] = taken

    def _on_tm_reveal(self, action: int, decision: dict) -> None:
        if action == self.game.layout.YES:
            self._reveal(decision["target"])
        self._record(decision["card"])[5] = RESOLVED

    def _on_sm_look(self, action: int, decision: dict) -> None:
        owner, t = decision["owner"], decision["target"]
        if action == self.game.layout.LOOK_HOUSE:
            self._look(owner, t)
            self.sm = [owner, t, 0, -1]
        else:
            token = self._pick(self.tokens[t])
            self._learn(owner, token)
            self.sm = [owner, t, 1, token]
        if self.tokens[owner] and self.tokens[t]:
            self._ask("sm_swap", owner, card=decision["card"], owner=owner, target=t)
        else:
            self._record(decision["card"])[5] = RESOLVED

    def _on_sm_swap(self, action: int, decision: dict) -> None:
        owner, t = decision["owner"], decision["target"]
        lay = self.game.layout
        if action != lay.DONE:
            value = cards.TOKEN_VALUES[action - lay.GIVE]
            give = self._pick([x for x in self.tokens[owner] if self.token_value[x] == value])
            take = self.sm[3] if self.sm[2] == 1 else self._pick(self.tokens[t])
            self._move_token(give, owner, t)
            self._move_token(take, t, owner)
        self._record(decision["card"])[5] = RESOLVED

    def _on_thief_target(self, action: int, decision: dict) -> None:
        owner = decision["owner"]
        rec = self._record(decision["card"])
        if action != self.game.layout.DONE:
            t = action - actions.PLAYER
            rec[3] = t
            self._move_token(self._pick(self.tokens[t]), t, owner)
        rec[5] = RESOLVED

    def _on_shinobi_kill(self, action: int, decision: dict) -> None:
        if action == self.game.layout.YES:
            self._ask(
                "react",
                decision["target"],
                card=decision["card"],
                owner=decision["owner"],
                target=decision["target"],
            )
        else:
            self._record(decision["card"])[5] = RESOLVED

    def _on_react(self, action: int, decision: dict) -> None:
        victim, attacker, card = decision["player"], decision["owner"], decision["card"]
        if action == cards.MIRROR_MONK:
            src = self._remove_held(victim, action)
            self.played.append([action, victim, src, attacker, -1, RESOLVED])
            self._kill(attacker, cards.MIRROR_MONK)  # no react against the reflection
        elif action == cards.MARTYR:
            src = self._remove_held(victim, action)
            self.played.append([action, victim, src, -1, -1, RESOLVED])
            self._kill(victim, card)
            if self._draw_token(victim):
                self.awards[victim].append(AWARD_MARTYR)
        else:
            self._kill(victim, card)
        self._record(card)[5] = RESOLVED

    # ====================================================================== House Reveal
    def _stage_house_reveal(self) -> None:
        n = self.game.num_players
        for p in self.living():
            self._reveal(p)
        holder = -1
        for p in self.living():  # the Mastermind is revealed automatically by a living holder
            if cards.MASTERMIND in self.held(p):
                holder = p
        if holder >= 0:
            src = self._remove_held(holder, cards.MASTERMIND)
            self.played.append([cards.MASTERMIND, holder, src, -1, -1, RESOLVED])
            self.by_mastermind = True
            h = cards.house_of(self.house[holder])
            self.result = RESULT_RONIN_MASTERMIND if h == cards.RONIN_HOUSE else h
        else:
            self.result = compare_houses([self.house[p] for p in self.living()])
        for p in range(n):
            h = cards.house_of(self.house[p])
            code = -1
            if self.result in (cards.LOTUS, cards.CRANE) and h == self.result:
                code = AWARD_HOUSE
            elif h == cards.RONIN_HOUSE and self.alive[p]:
                code = AWARD_RONIN
            elif self.result == RESULT_TIE and self.alive[p]:
                code = AWARD_TIE
            if code >= 0 and self._draw_token(p):
                self.awards[p].append(code)
        self.stage = "round_end"

    def _stage_round_end(self) -> None:
        g = self.game
        n = g.num_players
        scores = [self.score(p) for p in range(n)]
        done = False
        if g.mode == "round":  # the players whose score rose this round won it
            start = [self.score_of(t) for t in self.round_start_tokens]
            self.winners = [p for p in range(n) if scores[p] > start[p]]
            done = True
        elif max(scores) >= g.target_score:
            best = max(scores)
            self.winners = [p for p in range(n) if scores[p] == best]
            done = True
        elif self.round >= g.max_rounds:
            self.truncated_flag = True
            done = True
        if done:
            self.over = True
            self.stage = "over"
            everything = sorted(t for p in range(n) for t in self.tokens[p])
            for p in range(n):  # scores are revealed at the end
                self.known[p] = sorted(set(self.known[p]) | set(everything))
            return
        for p in range(n):  # everybody is publicly below the target score
            held = sorted(self.tokens[p])
            if 4 * len(held) >= g.target_score and held not in self.checks:
                self.checks.append(held)
        self._new_round()

    # ====================================================================== dispatch tables
    STAGE_RUNNERS: ClassVar[dict[str, Callable[[NightOfTheNinjaState], None]]]
    """Engine stage (``self.stage``) -> the method that runs it (``_run``). The stage ``"over"``
    has none: the loop stops at the end of the game."""

    DECISION_HANDLERS: ClassVar[dict[str, Callable[[NightOfTheNinjaState, int, dict], None]]]
    """Decision kind (``DECISIONS``) -> the method that applies its answer (``_apply``); the
    legal actions of each kind are in ``legal.LEGAL_ACTIONS``, their names in
    ``naming.NAMING``."""


# The dispatch tables: set after the class, whose methods they name.
NightOfTheNinjaState.STAGE_RUNNERS = {
    "draft1": NightOfTheNinjaState._stage_draft1,
    "draft2": NightOfTheNinjaState._stage_draft2,
    "phase_start": NightOfTheNinjaState._stage_phase_start,
    "commit": NightOfTheNinjaState._stage_commit,
    "resolve": NightOfTheNinjaState._stage_resolve,
    "house_reveal": NightOfTheNinjaState._stage_house_reveal,
    "round_end": NightOfTheNinjaState._stage_round_end,
}

NightOfTheNinjaState.DECISION_HANDLERS = {
    "draft_pick1": NightOfTheNinjaState._on_draft_pick1,
    "draft_pick2": NightOfTheNinjaState._on_draft_pick2,
    "commit": NightOfTheNinjaState._on_commit,
    "target": NightOfTheNinjaState._on_target,
    "ss_first": NightOfTheNinjaState._on_ss_first,
    "ss_second": NightOfTheNinjaState._on_ss_second,
    "ss_swap": NightOfTheNinjaState._on_ss_swap,
    "gd_take": NightOfTheNinjaState._on_gd_take,
    "gd_use": NightOfTheNinjaState._on_gd_use,
    "kept_trickster": NightOfTheNinjaState._on_kept_trickster,
    "tm_reveal": NightOfTheNinjaState._on_tm_reveal,
    "sm_look": NightOfTheNinjaState._on_sm_look,
    "sm_swap": NightOfTheNinjaState._on_sm_swap,
    "thief_target": NightOfTheNinjaState._on_thief_target,
    "shinobi_kill": NightOfTheNinjaState._on_shinobi_kill,
    "react": NightOfTheNinjaState._on_react,
}


def compare_houses(living_houses: list[int]) -> int:
    """Round winner from the surviving House cards (data sheet section 5.4): compare the surviving
    ranks of Lotus and Crane best-first, lexicographically; a House with an extra survivor wins
    once the other's list runs out. Returns ``cards.LOTUS``, ``cards.CRANE`` or ``RESULT_TIE``."""
    lotus = sorted(cards.rank_of(h) for h in living_houses if cards.house_of(h) == cards.LOTUS)
    crane = sorted(cards.rank_of(h) for h in living_houses if cards.house_of(h) == cards.CRANE)
    for a, b in zip(lotus, crane):
        if a != b:
            return int(cards.LOTUS if a < b else cards.CRANE)
    if len(lotus) != len(crane):
        return int(cards.LOTUS if len(lotus) > len(crane) else cards.CRANE)
    return RESULT_TIE
