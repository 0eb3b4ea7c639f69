"""Night of the Ninja observations: each player's information state as one flat vector.

Built only from public facts and the observer's own knowledge (data sheet section 7):

* public: the round, stage and pending decision (kind, who decides, the resolving card, its
  number, owner and target), who is alive and what killed the dead, every played card with its
  owner, named targets, status and whether it came from the Grave Digger, the players named by the
  Shapeshifter, the House cards revealed, each player's token count and number of cards held, the
  commitment asks left, the Grave Digger's owner and whether it keeps a card, the Spirit
  Merchant's kind of look, the round's result and who received tokens and why, and the public
  end-of-round fact that the game went on because nobody had reached the target score
  (``game_went_on``), with the number of tokens each player held at that check
  (``checked_tokens``);
* the observer's own: its House card *as dealt* (a swap done to it stays invisible), its hand,
  kept card and hidden commitments, its draft (the 3 dealt, the card kept first, the 2 passed to
  its left neighbour, the 2 received from its right neighbour, the card kept, the card
  discarded), every House card it saw and of whom (split into looks still valid and looks followed
  by a Shapeshifter naming of that player), whether it swapped (as the Shapeshifter), the Ninja
  cards seen with the Mystic and the discards seen with the Grave Digger, the values of the
  tokens it knows, counted per holder; as the target of a Mystic, which of its Ninja cards that
  Mystic saw (``mystic_saw_yours``, by the Mystic's owner), and as the owner or the holder of
  the token a Spirit Merchant looked at, that token's value (``sm_token_seen``) -- the target's
  part only with ``target_learns_look`` (the default).

Rows indexed by players are seat-relative: row 0 is the observer, row 1 its left neighbour, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.night_of_the_ninja import cards

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

_U8: Final = np.dtype(np.uint8)
_F32: Final = np.dtype(np.float32)
"""The dtypes of the vector (objects: ``dtype=np.float32`` converts the type at every call)."""


NC: Final = cards.NUM_CARDS
NH: Final = cards.NUM_HOUSE_CARDS
DRAFT_ROWS: Final = ("dealt", "kept first", "passed left", "received", "kept second", "discarded")
RESULTS: Final = ("Lotus won", "Crane won", "total tie", "Ronin Mastermind", "by the Mastermind")


def make_spec(n: int) -> ObservationSpec:
    """The observation layout for ``n`` players."""
    from boardgames_rl.games.night_of_the_ninja.state import DECISIONS, STAGES

    return ObservationSpec(
        [
            Field("round", (1,), description="round / max_rounds"),
            Field("stage", (len(STAGES),), description=", ".join(STAGES)),
            Field("decision", (len(DECISIONS),), description="kind of the pending decision"),
            Field("decider", (n,), description="who decides (seat-relative)"),
            Field("context_card", (NC,), description="the card resolving / asked about"),
            Field("context_number", (1,), description="its number / 6"),
            Field("context_players", (2, n), description="owner of that card; its target"),
            Field("alive", (n,), description="players still alive this round"),
            Field("tokens_held", (n,), high=cards.NUM_TOKENS, description="Honor tokens held"),
            Field(
                "tokens_known",
                (n, 3),
                high=cards.NUM_TOKENS,
                description="tokens held whose value you know, by value 2 / 3 / 4",
            ),
            Field(
                "stack", (1,), high=cards.NUM_TOKENS, description="Honor tokens left in the stack"
            ),
            Field("own_house_dealt", (NH,), description="your House card as dealt to you"),
            Field("house_known", (n, NH), description="House cards you know (still valid)"),
            Field(
                "house_seen_before_swap",
                (n, NH),
                description="House cards you saw before a Shapeshifter named that player",
            ),
            Field("house_revealed", (n,), description="House card revealed to all"),
            Field("ss_named", (n,), description="players named by the Shapeshifter"),
            Field("ss_swap", (2,), description="as the Shapeshifter: you swapped / did not"),
            Field("card_owner", (NC, n), description="owner of each played card"),
            Field("card_target", (NC, n), description="players named by each played card"),
            Field("card_status", (NC, 3), description="played card waiting / resolved / lost"),
            Field("card_from_gd", (NC,), description="played card came from the Grave Digger"),
            Field("death_cause", (n, NC), description="card that killed the player"),
            Field("own_hand", (NC,), description="the cards in your hand"),
            Field("own_kept", (NC,), description="card you keep from the Grave Digger"),
            Field("own_committed", (NC,), description="cards you committed this phase"),
            Field("own_done", (1,), description="you are done committing this phase"),
            Field("asks_left", (n,), high=3, description="commitment asks left this phase"),
            Field("held_count", (n,), high=3, description="Ninja cards held"),
            Field("draft", (len(DRAFT_ROWS), NC), description=", ".join(DRAFT_ROWS)),
            Field("mystic_seen", (n, NC), description="Ninja cards you saw with a Mystic"),
            Field("mystic_empty", (n,), description="your Mystic found no Ninja card"),
            Field("gd_seen", (NC,), description="discards you saw with the Grave Digger"),
            Field("gd_owner", (n,), description="owner of the resolved Grave Digger"),
            Field("gd_kept", (n,), description="keeps a Grave Digger card face down"),
            Field("sm_look", (2,), description="Spirit Merchant looked at a House / a token"),
            Field(
                "sm_token_seen",
                (3,),
                description="value 2 / 3 / 4 of the token the Spirit Merchant looked at "
                "(you are its owner, or its holder with target_learns_look)",
            ),
            Field(
                "mystic_saw_yours",
                (n, NC),
                description="your Ninja cards a Mystic saw, by the Mystic's owner "
                "(with target_learns_look)",
            ),
            Field(
                "game_went_on",
                (1,),
                description="the last round ended with nobody at the target score",
            ),
            Field(
                "checked_tokens",
                (n,),
                high=cards.NUM_TOKENS,
                description="tokens each player held at that end-of-round check",
            ),
            Field("awards", (n, 4), description="tokens received: House win, Ronin, tie, Martyr"),
            Field("result", (len(RESULTS),), description=", ".join(RESULTS)),
        ]
    )


class _Layout:
    """What every observation of one player count shares: the flat offset of each field
    (``start``), the vector size, the decision indices and, per observer ``me``, the row of every
    seat (``rows[me][q] = (q - me) % n``)."""

    def __init__(self, spec: ObservationSpec, n: int):
        from boardgames_rl.games.night_of_the_ninja.state import DECISION_INDEX

        self.start = st = {name: sl.start for name, sl in spec.slices.items()}
        self.size = spec.size
        self.decision_index = DECISION_INDEX
        self.rows = [[(q - me) % n for q in range(n)] for me in range(n)]
        # the start of every field the encoder writes, as a typed attribute (read in a few
        # nanoseconds by the compiled build, where a lookup in ``start`` hashes a string)
        self.alive: int = st["alive"]
        self.asks_left: int = st["asks_left"]
        self.awards: int = st["awards"]
        self.card_from_gd: int = st["card_from_gd"]
        self.card_owner: int = st["card_owner"]
        self.card_status: int = st["card_status"]
        self.card_target: int = st["card_target"]
        self.checked_tokens: int = st["checked_tokens"]
        self.context_card: int = st["context_card"]
        self.context_number: int = st["context_number"]
        self.context_players: int = st["context_players"]
        self.death_cause: int = st["death_cause"]
        self.decider: int = st["decider"]
        self.decision: int = st["decision"]
        self.draft: int = st["draft"]
        self.game_went_on: int = st["game_went_on"]
        self.gd_kept: int = st["gd_kept"]
        self.gd_owner: int = st["gd_owner"]
        self.gd_seen: int = st["gd_seen"]
        self.held_count: int = st["held_count"]
        self.house_known: int = st["house_known"]
        self.house_revealed: int = st["house_revealed"]
        self.house_seen_before_swap: int = st["house_seen_before_swap"]
        self.mystic_empty: int = st["mystic_empty"]
        self.mystic_saw_yours: int = st["mystic_saw_yours"]
        self.mystic_seen: int = st["mystic_seen"]
        self.own_committed: int = st["own_committed"]
        self.own_done: int = st["own_done"]
        self.own_hand: int = st["own_hand"]
        self.own_house_dealt: int = st["own_house_dealt"]
        self.own_kept: int = st["own_kept"]
        self.result: int = st["result"]
        self.round: int = st["round"]
        self.sm_look: int = st["sm_look"]
        self.sm_token_seen: int = st["sm_token_seen"]
        self.ss_named: int = st["ss_named"]
        self.ss_swap: int = st["ss_swap"]
        self.stack: int = st["stack"]
        self.stage: int = st["stage"]
        self.tokens_held: int = st["tokens_held"]
        self.tokens_known: int = st["tokens_known"]


_LAYOUTS: Final[dict[int, _Layout]] = {}


def _layout(g) -> _Layout:
    lay = _LAYOUTS.get(g.num_players)
    if lay is None:
        lay = _LAYOUTS[g.num_players] = _Layout(g.observation_spec, g.num_players)
    return lay


def encode(state: NightOfTheNinjaState, me: int) -> np.ndarray:
    """The observation of seat ``me`` (see the module docstring).

    It runs at every environment step, so it is built for speed: every entry but two (the round
    and the context card's number, fractions) is a small non-negative integer -- a one-hot flag
    or a count of cards or tokens -- so the vector is first written as bytes (``buf``, one byte
    per entry), converted to ``float32`` once, then given the two fractions. Rows indexed by
    players are seat-relative: a list in seat order ``x`` becomes ``x[me:] + x[:me]`` (row 0 is
    ``me``). ``tests/night_of_the_ninja/test_speed_observation.py`` keeps the original
    field-by-field encoder as the reference this one must equal.
    """
    g = state.game
    n = g.num_players
    lay = _layout(g)
    buf = bytearray(lay.size)
    row = lay.rows[me]  # row[q]: the row of seat q

    if state.over:
        stage = 7
    elif state.stage in ("draft1", "draft2"):
        stage = 0 if state.stage == "draft1" else 1
    else:
        stage = min(7, 2 + state.phase)
    buf[lay.stage + stage] = 1
    d = state.decision
    if d is not None:
        buf[lay.decision + lay.decision_index[d["kind"]]] = 1
        buf[lay.decider + row[d["player"]]] = 1
        if d["card"] >= 0:
            buf[lay.context_card + d["card"]] = 1
        if d["owner"] >= 0:
            buf[lay.context_players + row[d["owner"]]] = 1
        if d["target"] >= 0:
            buf[lay.context_players + n + row[d["target"]]] = 1

    # ---- per player: alive, tokens held and known, asks, cards held, death, awards
    tv = state.token_value
    known = set(state.known[me])
    held = [len(h) + (k >= 0) for h, k in zip(state.hand, state.kept)]  # s.held_count
    for card, owner, _src in state.committed:
        held[owner] += 1
        if owner == me:
            buf[lay.own_committed + card] = 1
    _put_row(buf, lay.alive, me, state.alive)
    _put_row(buf, lay.tokens_held, me, list(map(len, state.tokens)))
    _put_row(buf, lay.asks_left, me, [a if a < 3 else 3 for a in state.asks_left])  # at most 3
    _put_row(buf, lay.held_count, me, [h if h < 3 else 3 for h in held])
    tokens_known, death, awards = lay.tokens_known, lay.death_cause, lay.awards
    for q in range(n):
        r = row[q]
        for t in state.tokens[q]:
            if t in known:
                buf[tokens_known + 3 * r + tv[t] - 2] += 1
        if state.death[q] >= 0:
            buf[death + NC * r + state.death[q]] = 1
        for code in state.awards[q]:
            buf[awards + 4 * r + code] = 1
    buf[lay.stack] = len(state.stack)

    buf[lay.own_house_dealt + state.dealt_house[me]] = 1
    for who, target, house, pre in state.looks:
        if who == me or who == -1:
            r = row[target]
            if pre:
                buf[lay.house_seen_before_swap + NH * r + house] = 1
            else:
                buf[lay.house_known + NH * r + house] = 1
                if who == -1:
                    buf[lay.house_revealed + r] = 1
    if state.ss:
        owner, a, b, swapped = state.ss
        buf[lay.ss_named + row[a]] = 1
        buf[lay.ss_named + row[b]] = 1
        if owner == me and swapped >= 0:
            buf[lay.ss_swap + (0 if swapped else 1)] = 1

    card_owner, card_target = lay.card_owner, lay.card_target
    for card, owner, src, t1, t2, status in state.played:
        buf[card_owner + n * card + row[owner]] = 1
        if t1 >= 0:
            buf[card_target + n * card + row[t1]] = 1
        if t2 >= 0:
            buf[card_target + n * card + row[t2]] = 1
        buf[lay.card_status + 3 * card + status] = 1
        if src:
            buf[lay.card_from_gd + card] = 1

    for c in state.hand[me]:
        buf[lay.own_hand + c] = 1
    if state.kept[me] >= 0:
        buf[lay.own_kept + state.kept[me]] = 1
    if state.commit_done[me] and state.stage == "commit":
        buf[lay.own_done] = 1

    dr = lay.draft
    for c in state.dealt[me]:
        buf[dr + c] = 1
    if state.pick1[me] >= 0:
        buf[dr + NC + state.pick1[me]] = 1
        for c in state.dealt[me]:
            if c != state.pick1[me]:
                buf[dr + 2 * NC + c] = 1
    for c in state.received[me]:
        buf[dr + 3 * NC + c] = 1
    if state.pick2[me] >= 0:
        buf[dr + 4 * NC + state.pick2[me]] = 1
        buf[dr + 5 * NC + state.discard_of[me]] = 1

    informed = g.target_learns_look
    for who, target, card, _time in state.mystic:
        if who == me:
            if card >= 0:
                buf[lay.mystic_seen + NC * row[target] + card] = 1
            else:
                buf[lay.mystic_empty + row[target]] = 1
        elif target == me and informed and card >= 0:
            buf[lay.mystic_saw_yours + NC * row[who] + card] = 1
    if state.gd:
        owner, seen1, seen2, _taken, use = state.gd
        buf[lay.gd_owner + row[owner]] = 1
        if use == 0 and not any(r[1] == owner and r[2] for r in state.played):
            buf[lay.gd_kept + row[owner]] = 1  # (a hidden commitment of it is still "kept")
        if owner == me:
            for c in (seen1, seen2):
                if c >= 0:
                    buf[lay.gd_seen + c] = 1
    if state.sm:
        owner, target, looked_token, token = state.sm
        buf[lay.sm_look + looked_token] = 1
        if looked_token and (owner == me or (target == me and informed)):
            buf[lay.sm_token_seen + tv[token] - 2] = 1
    if state.round > 1 and g.mode == "game":  # every earlier round ended below the target score
        buf[lay.game_went_on] = 1
        _put_row(buf, lay.checked_tokens, me, list(map(len, state.round_start_tokens)))
    if state.result >= 0:
        buf[lay.result + state.result] = 1
        if state.by_mastermind:
            buf[lay.result + 4] = 1

    vec = np.frombuffer(buf, _U8).astype(_F32)
    vec[lay.round] = min(1.0, state.round / g.max_rounds)
    if d is not None and d["card"] >= 0:
        vec[lay.context_number] = cards.CARD_NUMBER[d["card"]] / 6.0
    return vec


def _put_row(buf: bytearray, start: int, me: int, values: list[Any]) -> None:
    """Write a per-player row at ``start`` from a list in seat order (row 0 is seat ``me``)."""
    buf[start : start + len(values)] = values[me:] + values[:me]
