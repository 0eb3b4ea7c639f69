"""Castle Nightingale rules engine: the full true state and its transitions.

The game is a sequence of *stages* (the rulebook's turn structure) and *tasks* (short procedures
such as a capture or a lockdown that may interrupt a stage). A stage or task that needs a player's
choice sets ``self.decision``; the next ``apply`` answers it and the engine runs on until the next
decision. Everything is plain data, so ``to_dict`` / ``clone`` are exact.

Seats: 0 = the ninja player, 1 = the samurai player. Data sheet references (G1..G21, W1..W9) point
to the component data sheet that accompanies the rulebook (its readings are restated in
``docs/rules/castle_nightingale.md``, which maps every rule to this code and to its test).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

import numpy as np

from boardgames_rl.core.game import State
from boardgames_rl.core.plain_state import PlainDataState
from boardgames_rl.core.seeding import make_rng
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.board import NUM_SQUARES, Board, board_of_list
from boardgames_rl.games.castle_nightingale.data import (
    BANKED,
    FACE_UP,
    HAND,
    NINJA,
    PROGRAMMED,
    SAMURAI,
    STOLEN,
)
from boardgames_rl.games.castle_nightingale.legal import legal_list, legal_mask
from boardgames_rl.games.castle_nightingale.observation import encode, encode_into
from boardgames_rl.games.castle_nightingale.paths import (
    PlacementContext,
    Placements,
    legal_placements,
)
from boardgames_rl.games.castle_nightingale.renamed import renamed

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.game import CastleNightingale

# fmt: off
DECISION_PLAYER: Final[dict[str, int]] = {
    "setup_close": SAMURAI, "setup_start": SAMURAI, "prog_s_card": SAMURAI,
    "prog_s_tile": SAMURAI, "prog_n_card": NINJA, "w2": SAMURAI, "bell_out": SAMURAI,
    "bell_in": SAMURAI, "sprint_out": SAMURAI, "sprint_in": SAMURAI, "pick_lock": NINJA,
    "pebble": NINJA, "scout": NINJA, "listen": NINJA, "meditate": NINJA, "start": NINJA,
    "place": NINJA, "jump_token": NINJA, "jump_land": NINJA, "lockpick": NINJA, "map_vase": NINJA,
    "w4": NINJA, "w3_end": NINJA, "decoy": NINJA, "w5": SAMURAI, "lantern_zone": SAMURAI,
    "lantern_choice": NINJA, "lantern_disc": NINJA, "w6_s": SAMURAI, "sandals": SAMURAI,
    "w6_n": NINJA, "entry": SAMURAI, "entry_end": SAMURAI, "adjust_token": SAMURAI,
    "final_square": SAMURAI, "vase_move": SAMURAI, "w8": NINJA, "confiscate": SAMURAI,
    "reopen": SAMURAI, "reopen_extra": SAMURAI, "w9": SAMURAI, "iron_bar": SAMURAI,
    "hound": SAMURAI, "track": SAMURAI, "bar": SAMURAI, "sweep_keep": NINJA, "inspect": SAMURAI,
    "inspect_move": SAMURAI, "muster": SAMURAI, "ledger": SAMURAI,
}
"""Every decision kind and the seat that makes it, in the order of the observation's
``decision`` field (the legality, naming and heuristic tables have the same keys)."""
DECISIONS: Final = tuple(DECISION_PLAYER)
DECISION_INDEX: Final = {k: i for i, k in enumerate(DECISIONS)}

_FIELDS: Final = (
    "layout", "vase_content", "vase_where", "ninja_knows", "samurai_knows", "closed",
    "samurai_sq", "samurai_zone", "ninja_sq", "discs", "turn_discs", "start_sq", "captured",
    "n_deck", "n_hand", "n_discard", "s_deck", "s_hand", "s_discard",
    "n_stack", "n_equip", "n_used", "n_spent", "n_bottom",
    "s_stack", "s_equip", "s_used", "s_spent", "s_bottom",
    "tile_loc", "tile_revealed", "tile_in", "tile_out", "n_card", "s_card", "n_card_shown",
    "s_card_shown", "known_n_hand", "listen_answers", "bell_used", "peek", "flags", "turn",
    "stage", "tasks", "decision", "winner", "draw", "truncated_flag", "setup_closed",
)
# fmt: on


class _PlacementsNow:
    """A state's :meth:`~CastleNightingaleState.placements` (asked without arguments) and copies
    of everything they were computed from (what :meth:`~CastleNightingaleState.placement_context`
    and ``placements`` read); :meth:`fits` compares them with a state by value."""

    def __init__(self, s: CastleNightingaleState, placements: Placements) -> None:
        self.board = s.board
        self.start_sq = s.start_sq
        self.samurai_sq = s.samurai_sq
        self.turn_discs = s.turn_discs[:]
        self.closed = s.closed[:]
        self.n_equip = s.n_equip[:]
        self.flags = _placement_flags(s.flags)
        self.placements = placements

    def fits(self, s: CastleNightingaleState) -> bool:
        """Whether ``s`` has the inputs these placements were computed from."""
        return (
            self.board is s.board
            and self.start_sq == s.start_sq
            and self.samurai_sq == s.samurai_sq
            and self.turn_discs == s.turn_discs
            and self.closed == s.closed
            and self.n_equip == s.n_equip
            and self.flags == _placement_flags(s.flags)
        )


def _placement_flags(f: dict[str, Any]) -> tuple[Any, ...]:
    """The flags the next placement depends on."""
    return (f["jump_paid"], f["jump_used"], f["shuko"], f["free_jump"], f["discs_left"])


class CastleNightingaleState(PlainDataState["CastleNightingale"]):
    """Full state of a Castle Nightingale game (see the module docstring)."""

    FIELDS = _FIELDS
    # The observation encoder keeps each observer's base bytes (the entries that rarely change)
    # in ``_obs_base`` and reuses them while their inputs are equal (observation._base).
    _obs_base: list[Any] | None = None
    # ``placements()`` of the state as it is, with the inputs they were computed from.
    _placements_now: _PlacementsNow | None = None

    # The plain fields (``FIELDS``), set by ``initial`` / ``from_state_dict`` / ``clone``:
    layout: list[Any]
    """``Layout.to_list()``: ``[side, boards by position, rotated by position]``."""
    vase_content: list[bool]
    """Per vase token: holds a relic."""
    vase_where: list[int]
    """Per vase token: its square, ``STOLEN`` (taken this turn) or ``BANKED``."""
    ninja_knows: list[bool]
    samurai_knows: list[bool]
    closed: list[bool]
    """Per passage (``board.passages`` order): its trap door is closed."""
    samurai_sq: int
    samurai_zone: int
    ninja_sq: int
    """The ninja figurine's square (-1: hidden or not in the castle)."""
    discs: list[int]
    turn_discs: list[int]
    start_sq: int
    captured: int
    n_deck: list[int]
    n_hand: list[int]
    n_discard: list[int]
    s_deck: list[int]
    s_hand: list[int]
    s_discard: list[int]
    n_stack: list[int]
    n_equip: list[int]
    n_used: list[int]
    n_spent: list[int]
    n_bottom: list[int]
    s_stack: list[int]
    s_equip: list[int]
    s_used: list[int]
    s_spent: list[int]
    s_bottom: list[int]
    tile_loc: list[int]
    """Per colour: ``HAND``, ``PROGRAMMED`` or ``FACE_UP``."""
    tile_revealed: list[bool]
    tile_in: list[bool]
    tile_out: list[bool]
    n_card: int
    s_card: int
    n_card_shown: bool
    s_card_shown: bool
    known_n_hand: list[int]
    listen_answers: list[list[int]]
    """``[colour, programmed]`` per question of Listen at the Floor this turn."""
    bell_used: bool
    peek: list[int]
    flags: dict[str, Any]
    turn: int
    stage: str
    tasks: list[list[Any]]
    """Pending procedures, ``[name, argument]``, run before the next stage."""
    winner: int
    draw: bool
    setup_closed: int

    # ====================================================================== construction
    @classmethod
    def initial(cls, game, seed: int | None) -> CastleNightingaleState:
        s = cls(game, make_rng(seed))
        rng = s.rng
        if game.side == "A" and not game.random_layout:
            from boardgames_rl.games.castle_nightingale.board import FIRST_GAME_LAYOUT

            layout = FIRST_GAME_LAYOUT
        else:
            from boardgames_rl.games.castle_nightingale.board import random_layout

            layout = random_layout(game.side, rng)
        s.layout = layout.to_list()
        board = s.board
        contents = [True] * C.NUM_RELICS + [False] * (C.NUM_VASES - C.NUM_RELICS)
        rng.shuffle(contents)
        s.vase_content = [bool(v) for v in contents]
        s.vase_where = list(board.vase_squares)  # token t lies on the t-th vase square
        s.ninja_knows = [False] * C.NUM_VASES
        s.samurai_knows = [False] * C.NUM_VASES
        s.closed = [False] * len(board.passages)
        s.samurai_sq = -1
        s.samurai_zone = -1
        s.ninja_sq = -1
        s.discs = []
        s.turn_discs = []
        s.start_sq = -1
        s.captured = 0
        # Decks and stacks are shuffled now, face down; the cards and the token are drawn in the
        # rulebook's order (G8): the samurai's after his trap doors (setup 4 -> 5), the ninja's
        # after the samurai's figurine (setup 6), so no choice sees a hand it would not yet hold.
        n_cards, s_cards = list(range(10)), list(range(10))
        rng.shuffle(n_cards)
        rng.shuffle(s_cards)
        s.s_hand, s.s_deck = [], s_cards
        s.n_hand, s.n_deck = [], n_cards
        s.n_discard, s.s_discard = [], []
        n_tok, s_tok = list(range(7)), list(range(7))
        rng.shuffle(n_tok)
        rng.shuffle(s_tok)
        s.s_equip, s.s_stack = [], s_tok
        s.n_equip, s.n_stack = [], n_tok
        s.n_used, s.n_spent, s.n_bottom = [], [], []
        s.s_used, s.s_spent, s.s_bottom = [], [], []
        s.tile_loc = [HAND] * 6
        s.tile_revealed = [False] * 6
        s.tile_in = [False] * 6
        s.tile_out = [False] * 6
        s.n_card = s.s_card = -1
        s.n_card_shown = s.s_card_shown = False
        s.known_n_hand = []
        s.listen_answers = []
        s.bell_used = False
        s.peek = []
        s.flags = _fresh_flags()
        s.flags["twin_next"] = False
        s.flags["silent_night"] = False
        s.flags["watch_fire_next"] = -1
        s.flags["watch_fire_zone"] = -1
        s.turn = 0
        s.stage = "setup_close"
        s.tasks = []
        s.decision = None
        s.winner = -1
        s.draw = False
        s.truncated_flag = False
        s.setup_closed = 0
        s._run()
        return s

    def __init__(self, game: CastleNightingale, rng: np.random.Generator | None):
        super().__init__(game, rng)
        self._board: Board | None = None

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = board_of_list(self.layout, self.game.merge_zones_across_seams)
        return self._board

    def _copy_caches(self, other: PlainDataState) -> None:
        cast(CastleNightingaleState, other)._board = self._board

    # ====================================================================== contract
    def returns(self) -> np.ndarray:
        out = np.zeros(2)
        if self.decision is None and self.winner >= 0:
            out[:] = -1.0
            out[self.winner] = 1.0
        return out

    def _observation(self, player: int) -> np.ndarray:
        if player not in (NINJA, SAMURAI):
            raise ValueError(f"castle_nightingale: no seat {player}")
        return encode(self, player)

    def _write_observation(self, player: int, out: np.ndarray) -> None:
        if player not in (NINJA, SAMURAI):
            raise ValueError(f"castle_nightingale: no seat {player}")
        encode_into(self, player, out)

    def state_vector(self) -> np.ndarray:
        return encode(self, None)

    def _info_set(self, player: int):
        from boardgames_rl.games.castle_nightingale.infoset import CastleNightingaleInfoSet

        return CastleNightingaleInfoSet(self, player)

    def _render(self, player: int | None = None, colour: bool = False) -> str:
        """Text board from ``player`` 's view (``None``: omniscient); ``colour=True`` paints the
        floor colours with ANSI escapes for a terminal."""
        from boardgames_rl.games.castle_nightingale.render import render_text

        return render_text(self, player, colour=colour)

    def _render_rgb(self, player: int | None = None) -> np.ndarray:
        from boardgames_rl.games.castle_nightingale.render import render_rgb

        return render_rgb(self, player)

    def _action_name(self, action: int) -> str:
        from boardgames_rl.games.castle_nightingale.naming import contextual_name

        return contextual_name(self, action)

    # ====================================================================== the engine loop
    def _ask(self, kind: str, **ctx: Any) -> None:
        self.decision = {"kind": kind, "player": DECISION_PLAYER[kind], **ctx}

    def _run(self) -> None:
        guard = 0
        while self.decision is None and self.winner < 0 and not self.draw:
            guard += 1
            if guard > 10_000:
                raise RuntimeError("castle_nightingale: engine loop did not reach a decision")
            if self.tasks:
                name, arg = self.tasks.pop(0)
                self.TASKS[name](self, arg)
            else:
                self.STAGES[self.stage](self)
        if self.winner >= 0 or self.draw:
            self.decision = None

    def _apply(self, action: int) -> None:
        d = self.decision
        if d is None:  # (State.apply refuses an action once the game is over)
            raise RuntimeError("castle_nightingale: no decision to answer")
        self.decision = None
        self.ON_DECISION[d["kind"]](self, action, d)
        self._run()

    def _legal_action_mask(self) -> np.ndarray:
        return legal_mask(self)

    def _legal_list(self) -> list[int]:
        if self._mask is not None:  # the mask is made already: list it
            return self._mask.nonzero()[0].tolist()
        return legal_list(self)

    # ====================================================================== helpers
    def open_passages(self) -> list[int]:
        return [p for i, p in enumerate(self.board.passages) if not self.closed[i]]

    def closed_passages(self) -> list[int]:
        return [p for i, p in enumerate(self.board.passages) if self.closed[i]]

    def is_open_passage(self, sq: int) -> bool:
        b = self.board
        return b.passage[sq] and not self.closed[b.passages.index(sq)]

    def vase_at(self, sq: int) -> int:
        """Token on square ``sq`` or -1."""
        for t, where in enumerate(self.vase_where):
            if where == sq:
                return t
        return -1

    def vases_on_board(self) -> list[int]:
        return [w for w in self.vase_where if w >= 0]

    def free_floor(self, sq: int, ignore_samurai: bool = False) -> bool:
        """A non-passage square with no vase, no disc and no figurine (data sheet terms)."""
        return (
            not self.board.passage[sq]
            and sq not in self.vase_where
            and sq not in self.discs
            and (ignore_samurai or sq != self.samurai_sq)
            and sq != self.ninja_sq
        )

    def programmed_tiles(self) -> list[int]:
        return [c for c in range(6) if self.tile_loc[c] == PROGRAMMED]

    def hand_tiles(self) -> list[int]:
        return [c for c in range(6) if self.tile_loc[c] == HAND]

    def ninja_on_board(self) -> bool:
        """The ninja's figurine or a footprint disc is on the board."""
        return self.ninja_sq >= 0 or bool(self.discs)

    def ninja_in_castle(self) -> bool:
        """A ninja is in the castle, spotted or hidden: from its entry until it is captured ("When
        a ninja is caught by the samurai, another ninja from their clan takes over and enters
        the castle in turn") or leaves by Kawarimi. Its figurine or a disc is on the board, or,
        with neither (the samurai removed its last disc), it started this turn's movement
        (``start_sq``, set in Phase 1) and nothing has taken it since (a capture clears
        ``start_sq``). Closings, and so lockdowns, happen only in the samurai phase, after
        Phase 1."""
        return self.ninja_on_board() or self.start_sq >= 0

    def samurai_position(self) -> int:
        """Floor-board position (0..3) the samurai figurine stands on."""
        return self.board.position_of[self.samurai_sq]

    def _draw_equipment(self, player: int) -> None:
        stack = self.n_stack if player == NINJA else self.s_stack
        equip = self.n_equip if player == NINJA else self.s_equip
        bottom = self.n_bottom if player == NINJA else self.s_bottom
        if stack:
            token = stack.pop(0)
            equip.append(token)
            if token in bottom:
                bottom.remove(token)

    def _use_token(self, player: int, token: int, public: bool) -> None:
        """Discard a held token: shown and used for its effect (public) or face down (jump or
        adjustment: only its owner knows which)."""
        equip = self.n_equip if player == NINJA else self.s_equip
        equip.remove(token)
        if public:
            (self.n_used if player == NINJA else self.s_used).append(token)
        else:
            (self.n_spent if player == NINJA else self.s_spent).append(token)

    def discs_kept(self) -> int:
        """How many discs the samurai's effects must leave on the board: 1 under the variant
        ``keep_last_disc`` (data sheet G4), else 0 (the rulebook: "they remove it")."""
        return 1 if self.game.keep_last_disc else 0

    def _remove_discs(self, squares: list[int]) -> None:
        """A samurai effect removes discs (G4); with ``keep_last_disc`` the last one stays."""
        for sq in squares:
            if sq in self.discs:
                if len(self.discs) <= self.discs_kept():
                    return
                self.discs.remove(sq)

    # ====================================================================== setup (rulebook Setup)
    def _stage_setup_close(self) -> None:
        if self.setup_closed < C.SETUP_TRAPDOORS:
            self._ask("setup_close")  # setup 4, before he has drawn anything
        else:
            self._setup_draw(SAMURAI)  # setup 5: 3 cards and 1 token, then his figurine
            self.stage = "setup_start"

    def _setup_draw(self, player: int) -> None:
        """Setup 5 / 6: draw the starting hand of 3 cards and 1 equipment token."""
        deck = self.n_deck if player == NINJA else self.s_deck
        hand = self.n_hand if player == NINJA else self.s_hand
        while len(hand) < C.HAND_SIZE:
            hand.append(deck.pop(0))
        self._draw_equipment(player)

    def _on_setup_close(self, action: int, d: dict) -> None:
        self.closed[self.board.passages.index(action - A.SQUARE)] = True
        self.setup_closed += 1

    def _stage_setup_start(self) -> None:
        self._ask("setup_start")

    def _on_setup_start(self, action: int, d: dict) -> None:
        self._place_samurai(action - A.SQUARE)
        self._setup_draw(NINJA)  # setup 6: the ninjas prepare to enter
        self.stage = "turn_start"

    def _place_samurai(self, sq: int) -> None:
        self.samurai_sq = sq
        self.samurai_zone = self.board.zone_of[sq]

    # ====================================================================== 1/ programming
    def _stage_turn_start(self) -> None:
        if self.turn >= self.game.max_turns:
            self.truncated_flag = self.game.on_turn_limit == "draw"
            if self.game.on_turn_limit == "samurai":
                self.winner = SAMURAI
            else:
                self.draw = True
            return
        self.turn += 1
        twin = self.flags.get("twin_next", False)
        silent = self.flags.get("silent_night", False)
        wf_next = self.flags.get("watch_fire_next", -1)
        self.flags = _fresh_flags()
        self.flags["twin"] = twin
        self.flags["twin_next"] = False
        self.flags["silent_night"] = silent
        self.flags["watch_fire_zone"] = wf_next
        self.flags["watch_fire_next"] = -1
        self.turn_discs = []
        self.start_sq = -1
        self.n_card = self.s_card = -1
        self.n_card_shown = self.s_card_shown = False
        self.tile_revealed = [False] * 6
        self.tile_in = [False] * 6
        self.tile_out = [False] * 6
        self.listen_answers = []
        self.bell_used = False
        self.stage = "prog_s_card"

    def _stage_prog_s_card(self) -> None:
        self._ask("prog_s_card")

    def _on_prog_s_card(self, action: int, d: dict) -> None:
        card = action - A.SAMURAI_CARD
        self.s_hand.remove(card)
        self.s_card = card
        self.stage = "prog_s_tile"

    def _stage_prog_s_tile(self) -> None:
        need = 2 if self.flags["twin"] else 1
        if len(self.programmed_tiles()) < need:
            self._ask("prog_s_tile")
        else:
            self.stage = "prog_n_card"

    def _on_prog_s_tile(self, action: int, d: dict) -> None:
        self.tile_loc[action - A.TILE] = PROGRAMMED

    def _stage_prog_n_card(self) -> None:
        self._ask("prog_n_card")

    def _on_prog_n_card(self, action: int, d: dict) -> None:
        if A.NINJA_TOKEN <= action < A.SAMURAI_TOKEN:  # W1: Listening Tube
            self._use_token(NINJA, C.LISTENING_TUBE, public=True)
            for c in range(6):
                if self.tile_loc[c] == PROGRAMMED:
                    self.tile_in[c] = True
                elif self.tile_loc[c] == HAND:
                    self.tile_out[c] = True
            return
        card = action - A.NINJA_CARD
        self.n_hand.remove(card)
        self.n_card = card
        self.stage = "n_reveal"

    # ====================================================================== 2/ ninja's phase
    def _stage_n_reveal(self) -> None:
        self.n_card_shown = True
        if self.n_card in self.known_n_hand:  # the samurai now knows which one was played
            self.known_n_hand.remove(self.n_card)
        self.stage = "w2"

    def _stage_w2(self) -> None:
        self.stage = "n_action"
        if self.s_equip:
            self._ask("w2")

    def _on_w2(self, action: int, d: dict) -> None:
        if action == A.SAMURAI_TOKEN + C.ALARM_BELL:
            self._use_token(SAMURAI, C.ALARM_BELL, public=True)
            self.bell_used = True
            self._forget_tile_knowledge()
            self._ask("bell_out")

    def _on_bell_out(self, action: int, d: dict) -> None:
        self._ask("bell_in", out=action - A.TILE)

    def _on_bell_in(self, action: int, d: dict) -> None:
        self.tile_loc[d["out"]] = HAND
        self.tile_loc[action - A.TILE] = PROGRAMMED

    def _forget_tile_knowledge(self) -> None:
        """After a possible exchange the ninja only keeps what has been revealed."""
        for c in range(6):
            self.tile_in[c] = self.tile_revealed[c]
            self.tile_out[c] = False

    def _stage_n_action(self) -> None:
        """The ninja's card action, before the starting point (data sheet section 4)."""
        self.stage = "n_start"
        card = self.n_card
        if card == C.SPRINT:
            self._forget_tile_knowledge()
            self._ask("sprint_out")
        elif card == C.ROOFTOP_LEAP:
            self.flags["free_jump"] = True
        elif card == C.PICK_THE_LOCK:
            if [p for p in self.closed_passages() if p != self.samurai_sq]:
                self._ask("pick_lock")
        elif card == C.THROWN_PEBBLE:
            if self.pebble_targets():
                self._ask("pebble")
        elif card == C.VANISH:
            self.flags["vanish"] = True
        elif card == C.SCOUT:
            self.tasks.append(["draw_equipment", NINJA])
            if self.vases_on_board():
                self._ask("scout")
        elif card == C.FALSE_TRAIL:
            self.flags["decoys"] = 2
        elif card == C.LISTEN:
            self._ask("listen")
        elif card == C.SUPPLY_CACHE:
            self._draw_equipment(NINJA)
        elif card == C.MEDITATE:
            self._peek(NINJA)

    def _task_draw_equipment(self, player: int) -> None:
        self._draw_equipment(player)

    def _peek(self, player: int) -> None:
        stack = self.n_stack if player == NINJA else self.s_stack
        if len(stack) >= 2:
            self.peek = stack[:2]
            self._ask("meditate" if player == NINJA else "muster")
        elif stack:
            self._draw_equipment(player)

    def _keep_one(self, player: int, token: int) -> None:
        stack = self.n_stack if player == NINJA else self.s_stack
        equip = self.n_equip if player == NINJA else self.s_equip
        bottom = self.n_bottom if player == NINJA else self.s_bottom
        other = [t for t in self.peek if t != token][0]
        stack.remove(token)
        stack.remove(other)
        equip.append(token)
        stack.append(other)
        for t in (token, other):
            if t in bottom:
                bottom.remove(t)
        bottom.append(other)
        self.peek = []

    def _on_meditate(self, action: int, d: dict) -> None:
        self._keep_one(NINJA, action - A.NINJA_TOKEN)

    def _on_sprint_out(self, action: int, d: dict) -> None:
        # A second decision always follows (out = -1: he keeps his tiles), so the order of
        # decisions never tells the ninja whether he exchanged (sheet N1, section 8).
        self._ask("sprint_in", out=-1 if action == A.PASS else action - A.TILE)

    def _on_sprint_in(self, action: int, d: dict) -> None:
        if d["out"] >= 0:
            self.tile_loc[d["out"]] = HAND
            self.tile_loc[action - A.TILE] = PROGRAMMED

    def _on_pick_lock(self, action: int, d: dict) -> None:
        self.closed[self.board.passages.index(action - A.SQUARE)] = False

    def pebble_targets(self) -> list[int]:
        b = self.board
        out: list[int] = []
        for z in b.zone_neighbours[self.samurai_zone]:
            if b.zone_is_passage[z]:
                continue
            out.extend(sq for sq in b.zone_squares[z] if self.free_floor(sq))
        return sorted(out)

    def _on_pebble(self, action: int, d: dict) -> None:
        self._place_samurai(action - A.SQUARE)  # not an entry: no capture, closing or removal

    def _on_scout(self, action: int, d: dict) -> None:
        self.ninja_knows[self.vase_at(action - A.SQUARE)] = True

    def _on_listen(self, action: int, d: dict) -> None:
        colour = action - A.TILE
        answer = self.tile_loc[colour] == PROGRAMMED
        self.listen_answers.append([colour, answer])
        if answer:
            self.tile_in[colour] = True
        else:
            self.tile_out[colour] = True
        if len(self.listen_answers) < 2:
            self._ask("listen")

    # ---------------------------------------------------------------- Phase 1: the starting point
    def start_options(self) -> list[int]:
        opts: set[int] = set()
        if self.ninja_sq >= 0:
            opts.add(self.ninja_sq)
        elif self.discs:
            opts.update(self.discs)
        else:
            opts.update(p for p in self.open_passages() if p != self.samurai_sq)
        if self.flags["vanish"]:
            opts.update(p for p in self.open_passages() if p != self.samurai_sq)
        if not opts:  # no open passage at all (cannot happen after a lockdown reopening)
            opts.update(sq for sq in range(NUM_SQUARES) if self.free_floor(sq))
        return sorted(opts)

    def _stage_n_start(self) -> None:
        opts = self.start_options()
        self.stage = "n_place"
        if len(opts) == 1:
            self._set_start(opts[0])
        else:
            self._ask("start")

    def _on_start(self, action: int, d: dict) -> None:
        self._set_start(action - A.SQUARE)

    def _set_start(self, sq: int) -> None:
        self.ninja_sq = sq  # the silhouette appears
        self.discs = []
        self.start_sq = sq
        self.turn_discs = []
        self.flags["discs_left"] = C.NINJA_CARDS[self.n_card].move

    # ---------------------------------------------------------------- Phase 2: the discs
    def placement_context(
        self, equip: list[int] | None = None, opened: int = -1, jump_paid: bool = False
    ) -> PlacementContext:
        """The next placement's context; ``equip`` / ``opened`` / ``jump_paid`` ask what it would
        be with those tokens held, that passage opened or the jump paid (the masks of the W3
        tokens and of the token paid for a jump compare the two)."""
        cur = self.turn_discs[-1] if self.turn_discs else self.start_sq
        f = self.flags
        held = self.n_equip if equip is None else equip
        paid = f["jump_paid"] or jump_paid
        used = f["jump_used"]
        shuko = f["shuko"]
        open_p = self.open_passages()
        if opened >= 0:
            open_p.append(opened)
        # tuple.__new__: the named tuple's own __new__ is generated Python code, which the
        # compiled build runs interpreted (it cost more than the rest of this method)
        return tuple.__new__(
            PlacementContext,
            (
                cur,  # current
                (self.start_sq, *self.turn_discs),  # visited
                self.samurai_sq,  # samurai
                tuple(open_p),  # open_passages
                f["free_jump"] and not used,  # free_jump
                not used and (bool(held) or paid),  # paid_jump
                shuko,  # diagonal
                C.SHUKO in held and not shuko,  # shuko_held
                paid or len(held) >= 2,  # spare_token
            ),
        )

    def placements(
        self, equip: list[int] | None = None, opened: int = -1, jump_paid: bool = False
    ) -> Placements:
        """The legal next placements (``paths``; arguments as in :meth:`placement_context`).

        Those of the state as it is (no argument) are asked in turn by the engine (may the ninja
        go on?), the action mask and the answer, of one unchanged state: they are kept with
        copies of what they were computed from (:class:`_PlacementsNow`) and given again while
        those are equal by value, so a changed state (by the rules or by an edit) never gets
        them."""
        if equip is None and opened < 0 and not jump_paid:
            now = self._placements_now
            if now is not None and now.fits(self):
                return now.placements
            found = legal_placements(
                self.board, self.placement_context(), self.flags["discs_left"],
                self.game.never_force_token,
            )  # fmt: skip
            self._placements_now = _PlacementsNow(self, found)
            return found
        return legal_placements(
            self.board,
            self.placement_context(equip, opened, jump_paid),
            self.flags["discs_left"],
            self.game.never_force_token,
        )

    def _moving(self) -> bool:
        """Discs are still to be placed this turn (Phase 2 under way)."""
        return self.stage == "n_place" and self.flags["discs_left"] > 0

    def _keeps_target(self, equip: list[int], opened: int = -1, best: int = -1) -> bool:
        """Spending a token for its effect leaves the ninja able to place as many discs (the
        default reading of "must place all"; always true under ``never_force_token``).
        ``best``: the target now (``placements().best``) if the caller has it."""
        if self.game.never_force_token or not self._moving():
            return True
        if best < 0:
            best = self.placements().best
        return self.placements(equip, opened).best >= best

    def w3_tokens(self, opts: Placements | None = None) -> list[int]:
        """W3 tokens the ninja may use between placements: those that can do something and, by
        default, leave its target reachable (a Shuko only when its diagonal keeps the target).
        ``opts``: :meth:`placements` if the caller has it already."""
        if opts is None:
            opts = self.placements()
        out = []
        for t in self.n_equip:
            rest = [x for x in self.n_equip if x != t]
            if t == C.SHUKO:
                ok = not self.flags["shuko"] and opts.shuko
            elif t == C.LOCKPICK:
                ok = any(self._keeps_target(rest, p, opts.best) for p in self.lockpick_squares())
            elif t == C.RICE_PAPER_MAP:
                ok = bool(self.map_targets()) and self._keeps_target(rest, -1, opts.best)
            else:
                ok = False
            if ok:
                out.append(t)
        return out

    def lockpick_squares(self) -> list[int]:
        """Closed passages a Lockpick may open (not the one under the samurai)."""
        return [p for p in self.closed_passages() if p != self.samurai_sq]

    def lockpick_targets(self) -> list[int]:
        """The passages the Lockpick just used may open: by default, during the movement, those
        that leave the ninja able to place as many discs as before it spent the token."""
        opts = self.lockpick_squares()
        if self.game.never_force_token or not self._moving():
            return opts
        before = self.placements([*self.n_equip, C.LOCKPICK]).best
        keep = [p for p in opts if self.placements(opened=p).best >= before]
        return keep or opts

    def jump_tokens(self) -> list[int]:
        """Tokens that may pay for the jump: by default those after which a landing still
        reaches the target (never the Shuko a later diagonal needs, if another token can pay)."""
        if self.game.never_force_token:
            return list(self.n_equip)
        best = self.placements().best
        keep = [
            t
            for t in self.n_equip
            if self.placements([x for x in self.n_equip if x != t], jump_paid=True).jump_best
            >= best
        ]
        return keep or list(self.n_equip)

    def _stage_n_place(self) -> None:
        if self.flags["revealed"] or self.flags["discs_left"] <= 0:
            self.stage = "n_move_end"
            return
        # Stranded (G7): no disc can be placed, the unplaced discs go back. While the ninja holds
        # a token it is asked all the same (W3: a Lockpick may open a way; "stop" is legal):
        # whether a decision is asked depends on the public count of tokens only, never on
        # their kinds.
        if not self.placements().any and not self.n_equip:
            self.flags["discs_left"] = 0
            self.stage = "n_move_end"
            return
        self._ask("place")

    def _on_place(self, action: int, d: dict) -> None:
        if action == A.PASS:  # nothing can be placed (or, never_force_token, only by paying)
            self.flags["discs_left"] = 0
            return
        if action == A.JUMP:
            if self.flags["free_jump"]:
                self._ask("jump_land")
            else:
                self._ask("jump_token")
            return
        if A.NINJA_TOKEN <= action < A.SAMURAI_TOKEN:
            self._ninja_w3_token(action - A.NINJA_TOKEN)
            return
        sq = action - A.SQUARE
        opts = self.placements()
        if sq not in opts.free and sq in opts.free_jumps:
            self.flags["jump_used"] = True
        self._place_disc(sq)

    def _ninja_w3_token(self, token: int) -> None:
        self._use_token(NINJA, token, public=True)
        if token == C.LOCKPICK:
            self._ask("lockpick")
        elif token == C.SHUKO:
            self.flags["shuko"] = True
        elif token == C.RICE_PAPER_MAP:
            self.flags["map_looks"] = min(2, len(self.vases_on_board()))
            if self.flags["map_looks"]:
                self._ask("map_vase")

    def _on_lockpick(self, action: int, d: dict) -> None:
        self.closed[self.board.passages.index(action - A.SQUARE)] = False

    def _on_map_vase(self, action: int, d: dict) -> None:
        self.ninja_knows[self.vase_at(action - A.SQUARE)] = True
        self.flags["map_looks"] -= 1
        if self.flags["map_looks"] > 0 and self.map_targets():
            self._ask("map_vase")

    def map_targets(self) -> list[int]:
        return sorted(
            w for t, w in enumerate(self.vase_where) if w >= 0 and not self.ninja_knows[t]
        )

    def _on_jump_token(self, action: int, d: dict) -> None:
        self._use_token(NINJA, action - A.NINJA_TOKEN, public=False)
        self.flags["jump_paid"] = True
        self._ask("jump_land")

    def _on_jump_land(self, action: int, d: dict) -> None:
        self.flags["jump_used"] = True
        self.flags["jump_paid"] = False
        self._place_disc(action - A.SQUARE)

    def _place_disc(self, sq: int) -> None:
        """One footprint disc: vase pickup first, then the nightingale / Watch Fire (G14)."""
        b = self.board
        self.flags["shuko"] = False
        self.discs.append(sq)
        self.turn_discs.append(sq)
        self.flags["discs_left"] -= 1
        t = self.vase_at(sq)
        if t >= 0:
            self.vase_where[t] = STOLEN
            self.ninja_knows[t] = True
        colour = b.colour[sq]
        sings = self.tile_loc[colour] == PROGRAMMED
        fire = (
            not sings
            and self.flags["watch_fire_zone"] >= 0
            and b.zone_of[sq] == self.flags["watch_fire_zone"]
            and not self.flags["watch_fire_used"]
        )
        if fire:
            self.flags["watch_fire_used"] = True
        if not sings:
            self.tile_out[colour] = True  # the ninja learns this colour is not programmed
        if sings or fire:
            if sings:
                self.tile_revealed[colour] = True
                self.tile_in[colour] = True
            if self.n_equip:
                self._ask("w4", square=sq)
            else:
                self._detected(sq)

    def _on_w4(self, action: int, d: dict) -> None:
        if action == A.NINJA_TOKEN + C.SOFT_TABI:
            self._use_token(NINJA, C.SOFT_TABI, public=True)
        else:
            self._detected(d["square"])

    def _detected(self, sq: int) -> None:
        """The floor sings: the figurine replaces that disc, every disc goes, the turn ends."""
        self.ninja_sq = sq
        self.discs = []
        self.flags["revealed"] = True
        self.flags["discs_left"] = 0

    def _stage_n_move_end(self) -> None:
        if self.flags["revealed"]:
            self.stage = "n_phase_end"
            return
        if self.turn_discs:
            self.ninja_sq = -1  # hidden: the figurine leaves the board
            self.stage = "n_decoys"
            if self.n_equip:
                self._ask("w3_end")
        else:
            self.ninja_sq = self.start_sq  # no disc placed: the figurine stays, visible (G7)
            self.stage = "n_phase_end"

    def _on_w3_end(self, action: int, d: dict) -> None:
        if action != A.PASS:
            self._ninja_w3_token(action - A.NINJA_TOKEN)
            self.tasks.append(["ask_w3_end", 0])

    def _task_ask_w3_end(self, _: int) -> None:
        if self.n_equip:  # asked on public grounds only (the count of tokens held)
            self._ask("w3_end")

    def w3_end_tokens(self) -> list[int]:
        usable = {
            C.LOCKPICK: bool(self.lockpick_squares()),
            C.RICE_PAPER_MAP: bool(self.map_targets()),
        }
        return [t for t in self.n_equip if usable.get(t, False)]

    def decoy_targets(self) -> list[int]:
        """N7: free floor squares next to a disc placed this turn, a decoy already placed
        included (sheet terms: "this turn's discs ... decoys included"); Phase 1 removed every
        older disc, so these are all the discs on the board."""
        b = self.board
        out = set()
        for disc in self.discs:
            for n in b.neighbours[disc]:
                if self.free_floor(n):
                    out.add(n)
        return sorted(out)

    def _stage_n_decoys(self) -> None:
        if self.flags["decoys"] > 0 and self.decoy_targets():
            self._ask("decoy")
            return
        self.flags["decoys"] = 0
        self.stage = "w5"

    def _on_decoy(self, action: int, d: dict) -> None:
        self.discs.append(action - A.SQUARE)
        self.flags["decoys"] -= 1

    def _stage_w5(self) -> None:
        self.stage = "n_phase_end"
        if self.s_equip and self.discs:
            self._ask("w5")

    def _on_w5(self, action: int, d: dict) -> None:
        if action == A.SAMURAI_TOKEN + C.PAPER_LANTERN:
            self._use_token(SAMURAI, C.PAPER_LANTERN, public=True)
            self._ask("lantern_zone")

    def _on_lantern_zone(self, action: int, d: dict) -> None:
        self._ask("lantern_choice", zone=action - A.ZONE)

    def _on_lantern_choice(self, action: int, d: dict) -> None:
        zone = d["zone"]
        in_zone = [sq for sq in self.discs if self.board.zone_of[sq] == zone]
        if action == A.REVEAL:
            if len(in_zone) == 1:
                self._detected(in_zone[0])
            else:
                self._ask("lantern_disc", zone=zone)
        else:
            for sq in in_zone:
                self.discs.remove(sq)

    def _on_lantern_disc(self, action: int, d: dict) -> None:
        self._detected(action - A.SQUARE)

    def _stage_n_phase_end(self) -> None:
        self.flags["watch_fire_zone"] = -1  # last turn's Watch Fire marker leaves the board
        self.stage = "s_reveal"

    # ====================================================================== 3/ samurai's phase
    def _stage_s_reveal(self) -> None:
        for c in self.programmed_tiles():
            self.tile_revealed[c] = True
        for c in range(6):
            self.tile_in[c] = self.tile_loc[c] == PROGRAMMED
            self.tile_out[c] = self.tile_loc[c] == HAND
        self.s_card_shown = True
        self.flags["target"] = C.SAMURAI_CARDS[self.s_card].move
        self.flags["entries"] = 0
        self.stage = "w6_n"
        if self.s_equip:
            self._ask("w6_s")

    def _on_w6_s(self, action: int, d: dict) -> None:
        if action != A.PASS:
            self._samurai_move_token(action - A.SAMURAI_TOKEN)
            self.tasks.append(["ask_again", "w6_s"])

    def _task_ask_again(self, kind: str) -> None:
        if self.s_equip:
            self._ask(kind)

    def _samurai_move_token(self, token: int) -> None:
        self._use_token(SAMURAI, token, public=True)
        if token == C.STRAW_SANDALS:
            self._ask("sandals")
        elif token == C.INVENTORY_LEDGER:
            self._start_ledger()

    def _start_ledger(self) -> None:
        self.flags["ledger_looks"] = min(2, len(self.ledger_targets()))
        if self.flags["ledger_looks"]:
            self._ask("ledger")

    def ledger_targets(self) -> list[int]:
        return sorted(
            w for t, w in enumerate(self.vase_where) if w >= 0 and not self.samurai_knows[t]
        )

    def _on_ledger(self, action: int, d: dict) -> None:
        self.samurai_knows[self.vase_at(action - A.SQUARE)] = True
        self.flags["ledger_looks"] -= 1
        if self.flags["ledger_looks"] > 0 and self.ledger_targets():
            self._ask("ledger")

    def _on_sandals(self, action: int, d: dict) -> None:
        self.flags["target"] += 2 if action == A.PLUS_TWO else 1

    def _stage_w6_n(self) -> None:
        self.stage = "s_entries"
        if self.n_equip:
            self._ask("w6_n")

    def _on_w6_n(self, action: int, d: dict) -> None:
        if action == A.NINJA_TOKEN + C.BLOWGUN:
            self._use_token(NINJA, C.BLOWGUN, public=True)
            f = self.flags
            f["target"] = max(1, f["target"] - 1, f["entries"])

    def _stage_s_entries(self) -> None:
        f = self.flags
        if f["entries"] < f["target"]:
            self._ask("entry")
        elif self.s_equip:
            self._ask("entry_end")
        else:
            self.stage = "s_final_square"

    def _on_entry(self, action: int, d: dict) -> None:
        if action in (A.ADJUST_PLUS, A.ADJUST_MINUS):
            self._ask("adjust_token", delta=1 if action == A.ADJUST_PLUS else -1)
            return
        if A.SAMURAI_TOKEN <= action < A.PASS:
            self._samurai_move_token(action - A.SAMURAI_TOKEN)
            return
        self._enter_zone(action - A.ZONE)

    def _on_entry_end(self, action: int, d: dict) -> None:
        if action == A.PASS:
            self.stage = "s_final_square"
        else:
            self._on_entry(action, d)

    def _on_adjust_token(self, action: int, d: dict) -> None:
        self._use_token(SAMURAI, action - A.SAMURAI_TOKEN, public=False)
        self.flags["adjust_used"] = True
        self.flags["target"] += d["delta"]

    def _enter_zone(self, zone: int) -> None:
        """One entry (G12): capture, then closing an open passage, then the lockdown check."""
        b = self.board
        self.flags["entries"] += 1
        self.samurai_zone = zone
        self.samurai_sq = b.zone_squares[zone][0]  # any square; the final one is chosen at the end
        if self.ninja_sq >= 0 and b.zone_of[self.ninja_sq] == zone:
            self.tasks.append(["capture", "entry"])
        if b.zone_is_passage[zone] and self.is_open_passage(self.samurai_sq):
            self.tasks.append(["close", self.samurai_sq])
        if len(b.zone_positions[zone]) > 1:
            # a zone merged across a seam (variant): the board he stands on matters to a
            # confiscation or a reopening during this entry, so he chooses his square now
            self._ask("final_square", mid=True)

    def _task_close(self, sq: int) -> None:
        self.closed[self.board.passages.index(sq)] = True
        if all(self.closed):
            self.tasks.insert(0, ["lockdown", 0])

    def _task_lockdown(self, _: int) -> None:
        """G6: "If the samurai closes all the secret passages, the ninja is captured, whether
        they are spotted or still hidden in the shadows": a ninja in the castle, even one whose
        last disc he removed (variant ``lockdown_needs_trace``: only one with its figurine or a
        disc on the board); then passages reopen."""
        self.tasks.insert(0, ["reopen_start", 0])
        caught = self.ninja_on_board() if self.game.lockdown_needs_trace else self.ninja_in_castle()
        if caught:
            self.tasks.insert(0, ["capture", "lockdown"])

    def _task_capture(self, how: str) -> None:
        if how == "entry" and self.n_equip:
            self._ask("w8")
        else:
            self._capture(saved=False)

    def _on_w8(self, action: int, d: dict) -> None:
        saved = action == A.NINJA_TOKEN + C.KAWARIMI
        if saved:
            self._use_token(NINJA, C.KAWARIMI, public=True)
        self._capture(saved)

    def _capture(self, saved: bool) -> None:
        """G5: figurine to the samurai, discs removed, this turn's vases confiscated."""
        if not saved:
            self.captured += 1
        self.ninja_sq = -1
        self.discs = []
        self.start_sq = -1  # this turn's ninja has left the castle (``ninja_in_castle``)
        if self.captured >= C.NINJAS:
            self.winner = SAMURAI
            return
        for t, where in enumerate(self.vase_where):
            if where == STOLEN:
                self.tasks.insert(0, ["confiscate", t])

    def confiscate_targets(self) -> list[int]:
        pos = self.samurai_position()
        # during his entries his square is only provisional (G12): it blocks no square
        moving = self.stage == "s_entries"
        here = [sq for sq in self.board.squares_at[pos] if self.free_floor(sq, moving)]
        return here or [sq for sq in range(NUM_SQUARES) if self.free_floor(sq, moving)]

    def _task_confiscate(self, token: int) -> None:
        self._ask("confiscate", token=token)

    def _on_confiscate(self, action: int, d: dict) -> None:
        self.vase_where[d["token"]] = action - A.SQUARE

    def _task_reopen_start(self, _: int) -> None:
        """G6 reopening. Default ``three_plus_one``: one closed trap door from each of the three
        boards he is not on, then one more from one of those. Variant ``one_per_board``: one from
        each of the four boards, never the trap door he stands on."""
        here = self.samurai_position()
        if self.game.lockdown_reopen == "one_per_board":
            self.flags["reopen_boards"] = [0, 1, 2, 3]
        else:
            self.flags["reopen_boards"] = [p for p in range(4) if p != here]
        self.tasks.insert(0, ["reopen_next", 0])

    def _task_reopen_next(self, _: int) -> None:
        b = self.board
        boards = self.flags["reopen_boards"]
        # a board with nothing to reopen is passed over (after a lockdown every board has two)
        boards[:] = [p for p in boards if any(b.position_of[q] == p for q in self.reopen_targets())]
        if boards:
            self._ask("reopen")
        elif self.game.lockdown_reopen == "three_plus_one" and self.reopen_targets(extra=True):
            self._ask("reopen_extra")

    def reopen_targets(self, extra: bool = False) -> list[int]:
        b = self.board
        here = self.samurai_position()
        boards = [p for p in range(4) if p != here] if extra else self.flags["reopen_boards"]
        return [
            p for p in self.closed_passages() if b.position_of[p] in boards and p != self.samurai_sq
        ]

    def _on_reopen(self, action: int, d: dict) -> None:
        sq = action - A.SQUARE
        self.closed[self.board.passages.index(sq)] = False
        self.flags["reopen_boards"].remove(self.board.position_of[sq])
        self.tasks.insert(0, ["reopen_next", 0])

    def _on_reopen_extra(self, action: int, d: dict) -> None:
        self.closed[self.board.passages.index(action - A.SQUARE)] = False

    def _stage_s_final_square(self) -> None:
        self._ask("final_square")

    def _on_final_square(self, action: int, d: dict) -> None:
        sq = action - A.SQUARE
        self.samurai_sq = sq
        if d.get("mid"):  # his square on entering a zone that spans two boards
            return
        self.stage = "w9_before"
        if sq in self.discs:  # remove a footprint disc by ending on it (G4: even the last)
            self._remove_discs([sq])
        t = self.vase_at(sq)
        if t >= 0:  # move a vase by ending on it: he looks, then moves it on the same board
            self.samurai_knows[t] = True
            if self.vase_move_targets(sq):
                self._ask("vase_move", token=t)

    def vase_move_targets(self, origin: int) -> list[int]:
        pos = self.board.position_of[origin]
        return [sq for sq in self.board.squares_at[pos] if sq != origin and self.free_floor(sq)]

    def _on_vase_move(self, action: int, d: dict) -> None:
        self.vase_where[d["token"]] = action - A.SQUARE

    # ---------------------------------------------------------------- action step (W9 + card)
    def _stage_w9_before(self) -> None:
        self.stage = "s_action"
        if self.s_equip:
            self._ask("w9", when="before")

    def _stage_w9_after(self) -> None:
        self.stage = "turn_end"
        if self.s_equip:
            self._ask("w9", when="after")

    def _on_w9(self, action: int, d: dict) -> None:
        if action == A.PASS:
            return
        token = action - A.SAMURAI_TOKEN
        self._use_token(SAMURAI, token, public=True)
        self.tasks.append(["ask_w9", d["when"]])
        if token == C.IRON_BAR:
            self._ask("iron_bar")
        elif token == C.HOUND:
            self.flags["hound_left"] = 2
            if len(self.discs) > self.discs_kept():
                self._ask("hound")
        elif token == C.WATCH_FIRE:
            self.flags["watch_fire_next"] = self.samurai_zone
        elif token == C.INVENTORY_LEDGER:
            self._start_ledger()

    def _task_ask_w9(self, when: str) -> None:
        if self.s_equip:
            self._ask("w9", when=when)

    def _on_iron_bar(self, action: int, d: dict) -> None:
        self.tasks.insert(0, ["close", action - A.SQUARE])

    def _on_hound(self, action: int, d: dict) -> None:
        if action == A.PASS:
            return
        self._remove_discs([action - A.SQUARE])
        self.flags["hound_left"] -= 1
        if self.flags["hound_left"] > 0 and len(self.discs) > self.discs_kept():
            self._ask("hound")

    def _stage_s_action(self) -> None:
        """The samurai card's action, after the movement (data sheet section 5)."""
        self.stage = "w9_after"
        card = self.s_card
        b = self.board
        if card == C.PATROL:
            self._draw_equipment(SAMURAI)
        elif card == C.TRACK_THE_TRAIL:
            if len(self.discs) > self.discs_kept():
                self._ask("track")
        elif card == C.BAR_THE_HATCH:
            if self.bar_targets():
                self._ask("bar")
        elif card == C.LANTERN_SWEEP:
            zones = {self.samurai_zone, *b.zone_neighbours[self.samurai_zone]}
            swept = [sq for sq in self.discs if b.zone_of[sq] in zones]
            if self.discs_kept() and swept and len(swept) == len(self.discs):
                if len(swept) == 1:
                    return  # the last disc stays
                self._ask("sweep_keep")
            else:
                for sq in swept:
                    self.discs.remove(sq)
        elif card == C.SILENT_NIGHT:
            self.flags["silent_night"] = True
        elif card == C.INSPECT_THE_VASES:
            if self.inspect_targets():
                self._ask("inspect")
        elif card == C.TWIN_NIGHTINGALES:
            self.flags["twin_next"] = True
        elif card == C.MUSTER_THE_GUARD:
            self._peek(SAMURAI)
        elif card == C.WATCHTOWER:
            self._draw_equipment(SAMURAI)
            self.flags["watchtower"] = True

    def _on_track(self, action: int, d: dict) -> None:
        self._remove_discs([action - A.SQUARE])

    def bar_targets(self) -> list[int]:
        here = self.samurai_position()
        return [p for p in self.open_passages() if self.board.position_of[p] == here]

    def _on_bar(self, action: int, d: dict) -> None:
        self.tasks.insert(0, ["close", action - A.SQUARE])

    def _on_sweep_keep(self, action: int, d: dict) -> None:
        self.discs = [action - A.SQUARE]

    def inspect_targets(self) -> list[int]:
        b = self.board
        zones = {self.samurai_zone, *b.zone_neighbours[self.samurai_zone]}
        return sorted(w for w in self.vases_on_board() if b.zone_of[w] in zones)

    def _on_inspect(self, action: int, d: dict) -> None:
        sq = action - A.SQUARE
        t = self.vase_at(sq)
        self.samurai_knows[t] = True
        if self.vase_move_targets(sq):
            self._ask("inspect_move", token=t)

    def _on_inspect_move(self, action: int, d: dict) -> None:
        if action != A.PASS:
            self.vase_where[d["token"]] = action - A.SQUARE

    def _on_muster(self, action: int, d: dict) -> None:
        self._keep_one(SAMURAI, action - A.SAMURAI_TOKEN)

    # ====================================================================== 4/ end of the turn
    def _stage_turn_end(self) -> None:
        """G13: bank this turn's vases, discard and draw, rotate tiles, Watchtower, then wins."""
        for t, where in enumerate(self.vase_where):
            if where == STOLEN:
                self.vase_where[t] = BANKED
        self.n_discard.append(self.n_card)
        self.s_discard.append(self.s_card)
        self._refill(NINJA)
        self._refill(SAMURAI)
        silent = self.flags["silent_night"]
        for c in range(6):
            if self.tile_loc[c] == FACE_UP:
                self.tile_loc[c] = HAND
            elif self.tile_loc[c] == PROGRAMMED:
                self.tile_loc[c] = HAND if silent else FACE_UP
        self.flags["silent_night"] = False
        if self.flags["watchtower"]:
            self.known_n_hand = sorted(self.n_hand)
        self.n_card = self.s_card = -1
        self.stage = "turn_start"
        if self.banked_relics() >= C.RELICS_TO_WIN:
            self.winner = NINJA

    def _refill(self, player: int) -> None:
        deck = self.n_deck if player == NINJA else self.s_deck
        hand = self.n_hand if player == NINJA else self.s_hand
        discard = self.n_discard if player == NINJA else self.s_discard
        while len(hand) < C.HAND_SIZE:
            if not deck:  # G9: the discard pile, with the card just played, is shuffled
                pile = list(discard)
                discard.clear()
                self.rng.shuffle(pile)
                deck.extend(int(c) for c in pile)
            hand.append(deck.pop(0))

    def banked_relics(self) -> int:
        return sum(1 for t, w in enumerate(self.vase_where) if w == BANKED and self.vase_content[t])

    @property
    def decision_kind(self) -> str:
        return self.decision["kind"] if self.decision else "over"

    # ====================================================================== dispatch tables
    # The engine loop reaches every handler through these tables, and only through them.
    STAGES: ClassVar[dict[str, Callable[[CastleNightingaleState], None]]]
    """``stage`` -> its step of the turn structure (it may set a decision or the next stage)."""

    TASKS: ClassVar[dict[str, Callable[[CastleNightingaleState, Any], None]]]
    """Task name -> its procedure, called with its argument (``tasks`` holds ``[name, arg]``)."""

    ON_DECISION: ClassVar[dict[str, Callable[[CastleNightingaleState, int, dict], None]]]
    """Decision kind -> its handler ``(state, action, decision)``, in the order of ``DECISIONS``."""


# The dispatch tables: set after the class, whose methods they name.
CastleNightingaleState.STAGES = {
    "setup_close": CastleNightingaleState._stage_setup_close,
    "setup_start": CastleNightingaleState._stage_setup_start,
    "turn_start": CastleNightingaleState._stage_turn_start,
    "prog_s_card": CastleNightingaleState._stage_prog_s_card,
    "prog_s_tile": CastleNightingaleState._stage_prog_s_tile,
    "prog_n_card": CastleNightingaleState._stage_prog_n_card,
    "n_reveal": CastleNightingaleState._stage_n_reveal,
    "w2": CastleNightingaleState._stage_w2,
    "n_action": CastleNightingaleState._stage_n_action,
    "n_start": CastleNightingaleState._stage_n_start,
    "n_place": CastleNightingaleState._stage_n_place,
    "n_move_end": CastleNightingaleState._stage_n_move_end,
    "n_decoys": CastleNightingaleState._stage_n_decoys,
    "w5": CastleNightingaleState._stage_w5,
    "n_phase_end": CastleNightingaleState._stage_n_phase_end,
    "s_reveal": CastleNightingaleState._stage_s_reveal,
    "w6_n": CastleNightingaleState._stage_w6_n,
    "s_entries": CastleNightingaleState._stage_s_entries,
    "s_final_square": CastleNightingaleState._stage_s_final_square,
    "w9_before": CastleNightingaleState._stage_w9_before,
    "w9_after": CastleNightingaleState._stage_w9_after,
    "s_action": CastleNightingaleState._stage_s_action,
    "turn_end": CastleNightingaleState._stage_turn_end,
}

CastleNightingaleState.TASKS = {
    "draw_equipment": CastleNightingaleState._task_draw_equipment,
    "ask_w3_end": CastleNightingaleState._task_ask_w3_end,
    "ask_again": CastleNightingaleState._task_ask_again,
    "close": CastleNightingaleState._task_close,
    "lockdown": CastleNightingaleState._task_lockdown,
    "capture": CastleNightingaleState._task_capture,
    "confiscate": CastleNightingaleState._task_confiscate,
    "reopen_start": CastleNightingaleState._task_reopen_start,
    "reopen_next": CastleNightingaleState._task_reopen_next,
    "ask_w9": CastleNightingaleState._task_ask_w9,
}

CastleNightingaleState.ON_DECISION = {
    "setup_close": CastleNightingaleState._on_setup_close,
    "setup_start": CastleNightingaleState._on_setup_start,
    "prog_s_card": CastleNightingaleState._on_prog_s_card,
    "prog_s_tile": CastleNightingaleState._on_prog_s_tile,
    "prog_n_card": CastleNightingaleState._on_prog_n_card,
    "w2": CastleNightingaleState._on_w2,
    "bell_out": CastleNightingaleState._on_bell_out,
    "bell_in": CastleNightingaleState._on_bell_in,
    "sprint_out": CastleNightingaleState._on_sprint_out,
    "sprint_in": CastleNightingaleState._on_sprint_in,
    "pick_lock": CastleNightingaleState._on_pick_lock,
    "pebble": CastleNightingaleState._on_pebble,
    "scout": CastleNightingaleState._on_scout,
    "listen": CastleNightingaleState._on_listen,
    "meditate": CastleNightingaleState._on_meditate,
    "start": CastleNightingaleState._on_start,
    "place": CastleNightingaleState._on_place,
    "jump_token": CastleNightingaleState._on_jump_token,
    "jump_land": CastleNightingaleState._on_jump_land,
    "lockpick": CastleNightingaleState._on_lockpick,
    "map_vase": CastleNightingaleState._on_map_vase,
    "w4": CastleNightingaleState._on_w4,
    "w3_end": CastleNightingaleState._on_w3_end,
    "decoy": CastleNightingaleState._on_decoy,
    "w5": CastleNightingaleState._on_w5,
    "lantern_zone": CastleNightingaleState._on_lantern_zone,
    "lantern_choice": CastleNightingaleState._on_lantern_choice,
    "lantern_disc": CastleNightingaleState._on_lantern_disc,
    "w6_s": CastleNightingaleState._on_w6_s,
    "sandals": CastleNightingaleState._on_sandals,
    "w6_n": CastleNightingaleState._on_w6_n,
    "entry": CastleNightingaleState._on_entry,
    "entry_end": CastleNightingaleState._on_entry_end,
    "adjust_token": CastleNightingaleState._on_adjust_token,
    "final_square": CastleNightingaleState._on_final_square,
    "vase_move": CastleNightingaleState._on_vase_move,
    "w8": CastleNightingaleState._on_w8,
    "confiscate": CastleNightingaleState._on_confiscate,
    "reopen": CastleNightingaleState._on_reopen,
    "reopen_extra": CastleNightingaleState._on_reopen_extra,
    "w9": CastleNightingaleState._on_w9,
    "iron_bar": CastleNightingaleState._on_iron_bar,
    "hound": CastleNightingaleState._on_hound,
    "track": CastleNightingaleState._on_track,
    "bar": CastleNightingaleState._on_bar,
    "sweep_keep": CastleNightingaleState._on_sweep_keep,
    "inspect": CastleNightingaleState._on_inspect,
    "inspect_move": CastleNightingaleState._on_inspect_move,
    "muster": CastleNightingaleState._on_muster,
    "ledger": CastleNightingaleState._on_ledger,
}


def as_nightingale_state(state: State) -> CastleNightingaleState:
    """``state`` itself, typed as a Castle Nightingale state (the hooks ``SPEC`` declares take
    any :class:`State`); another game's state is refused."""
    if not isinstance(state, CastleNightingaleState):
        raise TypeError(
            f"castle_nightingale: expected a castle_nightingale state, got {state!r:.60}"
        )
    return state


__getattr__ = renamed(__name__, globals())


def _fresh_flags() -> dict[str, Any]:
    # fmt: off
    return {
        "twin": False, "free_jump": False, "jump_used": False, "jump_paid": False, "shuko": False,
        "vanish": False, "decoys": 0, "discs_left": 0, "revealed": False, "watch_fire_used": False,
        "map_looks": 0, "target": 0, "entries": 0, "adjust_used": False, "watchtower": False,
        "hound_left": 0, "ledger_looks": 0, "reopen_boards": [],
    }
    # fmt: on
