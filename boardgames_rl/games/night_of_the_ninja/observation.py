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

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.night_of_the_ninja import cards

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

NC, NH = cards.NUM_CARDS, cards.NUM_HOUSE_CARDS
DRAFT_ROWS = ("dealt", "kept first", "passed left", "received", "kept second", "discarded")
RESULTS = ("Lotus won", "Crane won", "total tie", "Ronin Mastermind", "by the Mastermind")


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
            Field("alive", (n,)),
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
            Field("own_hand", (NC,)),
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


_OFFSETS: dict[int, dict[str, int]] = {}


def _offsets(spec: ObservationSpec, n: int) -> dict[str, int]:
    off = _OFFSETS.get(n)
    if off is None:
        off = {name: sl.start for name, sl in spec.slices.items()}
        _OFFSETS[n] = off
    return off


def encode(s: NightOfTheNinjaState, me: int) -> np.ndarray:
    """The observation of seat ``me`` (see the module docstring)."""
    from boardgames_rl.games.night_of_the_ninja.state import DECISION_INDEX

    g = s.game
    n = g.num_players
    spec = g.observation_spec
    o = _offsets(spec, n)
    vec = np.zeros(spec.size, dtype=np.float32)
    ones: list[int] = []
    add = ones.append

    def row(q: int) -> int:
        return (q - me) % n

    vec[o["round"]] = min(1.0, s.round / g.max_rounds)
    if s.over:
        stage = 7
    elif s.stage in ("draft1", "draft2"):
        stage = 0 if s.stage == "draft1" else 1
    else:
        stage = min(7, 2 + s.phase)
    add(o["stage"] + stage)
    d = s.decision
    if d is not None:
        add(o["decision"] + DECISION_INDEX[d["kind"]])
        add(o["decider"] + row(d["player"]))
        if d["card"] >= 0:
            add(o["context_card"] + d["card"])
            vec[o["context_number"]] = cards.CARD_NUMBER[d["card"]] / 6.0
        if d["owner"] >= 0:
            add(o["context_players"] + row(d["owner"]))
        if d["target"] >= 0:
            add(o["context_players"] + n + row(d["target"]))

    tv = s.token_value
    known = set(s.known[me])
    committed_by = [0] * n
    for card, owner, _src in s.committed:
        committed_by[owner] += 1
        if owner == me:
            add(o["own_committed"] + card)
    for q in range(n):
        r = row(q)
        if s.alive[q]:
            add(o["alive"] + r)
        held = s.tokens[q]
        vec[o["tokens_held"] + r] = len(held)
        for t in held:
            if t in known:
                vec[o["tokens_known"] + 3 * r + tv[t] - 2] += 1
        vec[o["asks_left"] + r] = min(3, s.asks_left[q])
        vec[o["held_count"] + r] = min(3, s.held_count(q) + committed_by[q])
        if s.death[q] >= 0:
            add(o["death_cause"] + NC * r + s.death[q])
        for code in s.awards[q]:
            add(o["awards"] + 4 * r + code)
    vec[o["stack"]] = len(s.stack)

    add(o["own_house_dealt"] + s.dealt_house[me])
    for who, target, house, pre in s.looks:
        if who == me or who == -1:
            r = row(target)
            if pre:
                add(o["house_seen_before_swap"] + NH * r + house)
            else:
                add(o["house_known"] + NH * r + house)
                if who == -1:
                    add(o["house_revealed"] + r)
    if s.ss:
        owner, a, b, swapped = s.ss
        add(o["ss_named"] + row(a))
        add(o["ss_named"] + row(b))
        if owner == me and swapped >= 0:
            add(o["ss_swap"] + (0 if swapped else 1))

    for card, owner, src, t1, t2, status in s.played:
        add(o["card_owner"] + n * card + row(owner))
        if t1 >= 0:
            add(o["card_target"] + n * card + row(t1))
        if t2 >= 0:
            add(o["card_target"] + n * card + row(t2))
        add(o["card_status"] + 3 * card + status)
        if src:
            add(o["card_from_gd"] + card)

    for c in s.hand[me]:
        add(o["own_hand"] + c)
    if s.kept[me] >= 0:
        add(o["own_kept"] + s.kept[me])
    if s.commit_done[me] and s.stage == "commit":
        vec[o["own_done"]] = 1.0

    dr = o["draft"]
    for c in s.dealt[me]:
        add(dr + c)
    if s.pick1[me] >= 0:
        add(dr + NC + s.pick1[me])
        for c in s.dealt[me]:
            if c != s.pick1[me]:
                add(dr + 2 * NC + c)
    for c in s.received[me]:
        add(dr + 3 * NC + c)
    if s.pick2[me] >= 0:
        add(dr + 4 * NC + s.pick2[me])
        add(dr + 5 * NC + s.discard_of[me])

    informed = g.target_learns_look
    for who, target, card, _time in s.mystic:
        if who == me:
            if card >= 0:
                add(o["mystic_seen"] + NC * row(target) + card)
            else:
                add(o["mystic_empty"] + row(target))
        elif target == me and informed and card >= 0:
            add(o["mystic_saw_yours"] + NC * row(who) + card)
    if s.gd:
        owner, seen1, seen2, _taken, use = s.gd
        add(o["gd_owner"] + row(owner))
        if use == 0 and not any(r[1] == owner and r[2] for r in s.played):
            add(o["gd_kept"] + row(owner))  # (a hidden commitment of it is still "kept")
        if owner == me:
            for c in (seen1, seen2):
                if c >= 0:
                    add(o["gd_seen"] + c)
    if s.sm:
        owner, target, looked_token, token = s.sm
        add(o["sm_look"] + looked_token)
        if looked_token and (owner == me or (target == me and informed)):
            add(o["sm_token_seen"] + tv[token] - 2)
    if s.round > 1 and g.mode == "game":  # every earlier round ended below the target score
        vec[o["game_went_on"]] = 1.0
        for q in range(n):
            vec[o["checked_tokens"] + row(q)] = len(s.round_start_tokens[q])
    if s.result >= 0:
        add(o["result"] + s.result)
        if s.by_mastermind:
            add(o["result"] + 4)
    vec[ones] = 1.0
    return vec
