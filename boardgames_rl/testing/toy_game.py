"""Toy bluffing game implementing the full contract, used to test the generic adapters.

Rules ("toy_bluff", 2-3 players):

* a deck holds ``copies`` cards of each value 1..6; every player is dealt one secret card;
* the game lasts ``rounds`` rounds of one turn per player; at the start of a turn a *table card*
  is drawn face up (chance);
* the mover decides ``claim_low`` (my card is 1-3), ``claim_high`` (4-6) or ``pass`` (not allowed
  in the first round). A pass discards the table card and ends the turn;
* after a claim the same player decides again: ``swap`` (discard the hand face up, take the table
  card: the new hand is publicly known) or ``keep`` (discard the table card);
* then the *next* seat decides inside the mover's turn: ``doubt`` (the hand is revealed and
  discarded; a true claim gives mover +1 / doubter -1, a false one mover -1 / doubter +1; the mover
  draws a new secret card) or ``trust`` (mover +1);
* at the end the top score wins (+1; others -1; tied top players 0). With ``cap`` set the engine
  cuts the game after ``cap`` decisions (``truncated``, returns all 0).

Hidden information: the other players' secret cards and the deck order (drawn from the state's
generator, so future chance is hidden too). ``ToyInfoSet.sample`` re-deals the unseen cards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import TERMINAL, Game, InfoSet, State
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.seeding import clone_rng, make_rng, rng_from_state, rng_to_state
from boardgames_rl.registry import GameSpec, list_games, register_game

TOY_NAME = "toy_bluff"
NUM_VALUES = 6
CLAIM_LOW, CLAIM_HIGH, PASS, SWAP, KEEP, DOUBT, TRUST = range(7)
ACTION_NAMES = ("claim_low", "claim_high", "pass", "swap", "keep", "doubt", "trust")
PHASE_CLAIM, PHASE_SWAP, PHASE_RESPOND = range(3)
PHASE_NAMES = ("claim", "swap", "respond")
TOY_TEST_CONFIGS = (
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 3, "rounds": 2, "cap": 14},
)


class ToyGame(Game):
    """The toy bluffing game (see the module docstring)."""

    name = TOY_NAME

    def __init__(self, num_players: int = 2, rounds: int = 3, cap: int | None = None):
        if num_players not in (2, 3):
            raise InvalidConfigError(f"{TOY_NAME}: num_players must be 2 or 3, got {num_players}")
        if not 1 <= rounds <= 6:
            raise InvalidConfigError(f"{TOY_NAME}: rounds must be in 1..6, got {rounds}")
        if cap is not None and cap < 1:
            raise InvalidConfigError(f"{TOY_NAME}: cap must be >= 1, got {cap}")
        super().__init__(num_players=num_players, rounds=rounds, cap=cap)
        self.num_players = num_players
        self.rounds = rounds
        self.cap = cap
        self.player_names = tuple(f"player_{i}" for i in range(num_players))
        self.num_actions = len(ACTION_NAMES)
        self.num_turns = rounds * num_players
        # every turn draws at most two cards (table card, redraw after a doubt)
        self.copies = math.ceil(num_players * (1 + 2 * rounds) / NUM_VALUES)
        full = 3 * self.num_turns
        self.max_game_length = full if cap is None else min(cap, full)
        n, t = num_players, self.num_turns
        public = [
            Field("table_card", (NUM_VALUES + 1,), description="one-hot; index 0 = none"),
            Field("public_hands", (n,), high=NUM_VALUES, description="publicly known hand, 0 = ?"),
            Field("scores", (n,), low=-t, high=t),
            Field("discards", (NUM_VALUES,), high=self.copies),
            Field("phase", (3,)),
            Field("claim", (3,), description="none / low / high"),
            Field("current_player", (n,)),
            Field("turn", (1,), description="turn / num_turns"),
        ]
        self.observation_spec = ObservationSpec(
            [Field("my_card", (NUM_VALUES,)), Field("me", (n,)), *public]
        )
        self.state_spec = ObservationSpec(
            [
                Field("hands", (n,), high=NUM_VALUES),
                Field("deck", (NUM_VALUES,), high=self.copies),
                *public,
            ]
        )

    def new_state(self, seed: int | None = None) -> ToyState:
        rng = make_rng(seed)
        s = ToyState(self, rng)
        s.deck = [self.copies] * NUM_VALUES
        s.hands = [s._draw() for _ in range(self.num_players)]
        s.table = s._draw()
        return s

    def state_from_dict(self, d: Mapping[str, Any]) -> ToyState:
        if d["game"] != self.name or d["config"] != self.config:
            raise ValueError(f"{self.name}: state dict is for {d['game']} {d['config']}")
        st = d["state"]
        s = ToyState(self, rng_from_state(st["rng"]))
        for k in ToyState.FIELDS:
            setattr(s, k, list(st[k]) if isinstance(st[k], list) else st[k])
        return s

    def _action_name(self, action: int) -> str:
        return ACTION_NAMES[action]


class ToyState(State[ToyGame]):
    """Full state of the toy game."""

    FIELDS = (
        "hands", "known", "deck", "discards", "table", "scores",
        "turn", "phase", "claim", "decisions", "over", "cut",
    )  # fmt: skip

    game: ToyGame

    def __init__(self, game: ToyGame, rng: np.random.Generator):
        super().__init__(game, rng)
        n = game.num_players
        self.hands: list[int] = [0] * n
        self.known: list[bool] = [False] * n
        self.deck: list[int] = [0] * NUM_VALUES
        self.discards: list[int] = [0] * NUM_VALUES
        self.table = 0
        self.scores: list[int] = [0] * n
        self.turn = 0
        self.phase = PHASE_CLAIM
        self.claim = 0
        self.decisions = 0
        self.over = False
        self.cut = False

    # ------------------------------------------------------------------ contract
    @property
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        mover = self.turn % self.game.num_players
        return (mover + 1) % self.game.num_players if self.phase == PHASE_RESPOND else mover

    @property
    def truncated(self) -> bool:
        return self.cut

    def _legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=bool)
        if self.over:
            return mask
        if self.phase == PHASE_CLAIM:
            mask[[CLAIM_LOW, CLAIM_HIGH]] = True
            mask[PASS] = self.turn >= self.game.num_players
        elif self.phase == PHASE_SWAP:
            mask[[SWAP, KEEP]] = True
        else:
            mask[[DOUBT, TRUST]] = True
        return mask

    def _apply(self, action: int) -> None:
        n = self.game.num_players
        mover = self.turn % n
        if self.phase == PHASE_CLAIM:
            if action == PASS:
                self.discards[self.table - 1] += 1
                self.table = 0
                self._end_turn()
            else:
                self.claim = 1 if action == CLAIM_LOW else 2
                self.phase = PHASE_SWAP
        elif self.phase == PHASE_SWAP:
            if action == SWAP:
                self.discards[self.hands[mover] - 1] += 1
                self.hands[mover] = self.table
                self.known[mover] = True
            else:
                self.discards[self.table - 1] += 1
            self.table = 0
            self.phase = PHASE_RESPOND
        else:
            doubter = (mover + 1) % n
            if action == DOUBT:
                card = self.hands[mover]
                true = card <= 3 if self.claim == 1 else card >= 4
                delta = 1 if true else -1
                self.scores[mover] += delta
                self.scores[doubter] -= delta
                self.discards[card - 1] += 1
                self.hands[mover] = self._draw()
                self.known[mover] = False
            else:
                self.scores[mover] += 1
            self._end_turn()
        self.decisions += 1
        if not self.over and self.game.cap is not None and self.decisions >= self.game.cap:
            self.over = True
            self.cut = True

    def _end_turn(self) -> None:
        self.claim = 0
        self.phase = PHASE_CLAIM
        self.turn += 1
        if self.turn >= self.game.num_turns:
            self.over = True
        else:
            self.table = self._draw()

    def _draw(self) -> int:
        total = sum(self.deck)
        k = int(self.rng.integers(total))
        for v in range(NUM_VALUES):
            if k < self.deck[v]:
                self.deck[v] -= 1
                return v + 1
            k -= self.deck[v]
        raise AssertionError("unreachable")

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> np.ndarray:
        n = self.game.num_players
        if not self.over or self.cut:
            return np.zeros(n)
        best = max(self.scores)
        winners = [p for p in range(n) if self.scores[p] == best]
        out = np.full(n, -1.0)
        out[winners] = 1.0 if len(winners) == 1 else 0.0
        return out

    def _public(self, spec: ObservationSpec, vec: np.ndarray) -> None:
        n = self.game.num_players
        spec.view(vec, "table_card")[self.table] = 1.0
        spec.view(vec, "public_hands")[:] = [
            self.hands[q] if self.known[q] else 0 for q in range(n)
        ]
        spec.view(vec, "scores")[:] = self.scores
        spec.view(vec, "discards")[:] = self.discards
        if not self.over:
            spec.view(vec, "phase")[self.phase] = 1.0
            spec.view(vec, "current_player")[self.current_player] = 1.0
        spec.view(vec, "claim")[self.claim] = 1.0
        spec.view(vec, "turn")[0] = self.turn / self.game.num_turns

    def _observation(self, player: int) -> np.ndarray:
        spec = self.game.observation_spec
        vec = spec.zeros()
        spec.view(vec, "my_card")[self.hands[player] - 1] = 1.0
        spec.view(vec, "me")[player] = 1.0
        self._public(spec, vec)
        return vec

    def state_vector(self) -> np.ndarray:
        spec = self.game.state_spec
        vec = spec.zeros()
        spec.view(vec, "hands")[:] = self.hands
        spec.view(vec, "deck")[:] = self.deck
        self._public(spec, vec)
        return vec

    def _info_set(self, player: int) -> ToyInfoSet:
        d = self._to_dict()
        public = {k: d[k] for k in ("known", "discards", "table", "scores", "turn", "phase",
                                    "claim", "decisions", "over", "cut")}  # fmt: skip
        public["public_hands"] = [
            h if k else 0 for h, k in zip(self.hands, self.known, strict=True)
        ]
        return ToyInfoSet(
            self.game,
            player,
            self.current_player,
            self.observation(player),
            self.legal_action_mask_for(player).copy(),
            public,
            self.hands[player],
        )

    def clone(self) -> ToyState:
        s = ToyState(self.game, clone_rng(self.rng))
        for k in self.FIELDS:
            v = getattr(self, k)
            setattr(s, k, list(v) if isinstance(v, list) else v)
        return s

    def _render(self, player: int | None = None) -> str:
        n = self.game.num_players
        hands = [
            str(self.hands[q]) if player is None or q == player or self.known[q] else "?"
            for q in range(n)
        ]
        who = (
            "game over"
            if self.over
            else f"{PHASE_NAMES[self.phase]} by player_{self.current_player}"
        )
        return (
            f"toy_bluff turn {self.turn}/{self.game.num_turns} ({who})\n"
            f"table: {self.table or '-'}  claim: {('none', 'low', 'high')[self.claim]}\n"
            f"hands: {' '.join(hands)}\nscores: {self.scores}\ndiscards: {self.discards}"
        )

    def _to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self.FIELDS}
        d = {k: list(v) if isinstance(v, list) else v for k, v in d.items()}
        d["rng"] = rng_to_state(self.rng)
        return d


class ToyInfoSet(InfoSet[ToyGame]):
    """What one player knows: public facts and their own card."""

    def __init__(
        self,
        game: ToyGame,
        player: int,
        current_player: int,
        observation: np.ndarray,
        legal_action_mask: np.ndarray,
        public: dict[str, Any],
        my_card: int,
    ):
        super().__init__(game, player, current_player, observation, legal_action_mask)
        self.public = public
        self.my_card = my_card

    def sample(self, rng: np.random.Generator) -> ToyState:
        game = self.game
        pub = self.public
        s = ToyState(game, make_rng(int(rng.integers(2**63 - 1))))
        pool = [game.copies - d for d in pub["discards"]]
        if pub["table"]:
            pool[pub["table"] - 1] -= 1
        hands = [0] * game.num_players
        for q in range(game.num_players):
            if q == self.player:
                hands[q] = self.my_card
            elif pub["known"][q]:
                hands[q] = pub["public_hands"][q]
            else:
                continue
            pool[hands[q] - 1] -= 1
        cards = [v + 1 for v in range(NUM_VALUES) for _ in range(pool[v])]
        order = rng.permutation(len(cards))
        k = 0
        for q in range(game.num_players):
            if hands[q] == 0:
                card = cards[order[k]]
                k += 1
                hands[q] = card
                pool[card - 1] -= 1
        assert min(pool) >= 0
        s.hands = hands
        s.deck = pool
        for key in ("known", "discards", "scores"):
            setattr(s, key, list(pub[key]))
        for key in ("table", "turn", "phase", "claim", "decisions", "over", "cut"):
            setattr(s, key, pub[key])
        return s


def register_toy_game() -> None:
    """Register ``toy_bluff`` in the game registry and with PettingZoo (idempotent)."""
    if TOY_NAME not in list_games():
        register_game(
            GameSpec(
                name=TOY_NAME,
                game=ToyGame,
                test_configs=TOY_TEST_CONFIGS,
                summary="toy bluffing game for adapter tests",
            )
        )
    from boardgames_rl.envs import register_envs

    register_envs()
