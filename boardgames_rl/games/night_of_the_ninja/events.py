"""What one seat sees happen in a Night of the Ninja game, one action at a time.

``boardgames-rl play`` and ``replay`` tell a person the events of the game as they happen:
:class:`EventLog` turns each action (the state before it, the action, the state after it) into
lines of text, with only what the viewing seat may know at the table (rulebook: kills, cards
played face up, House cards shown, the House Reveal and who draws Honor tokens are public;
what a Spy, Mystic, Shapeshifter, Troublemaker, Shinobi, Grave Digger or Spirit Merchant looks at
is known to its owner only, and a token's value to those who held or saw it). ``viewer=None`` is
an observer who sees everything.

Lines of one action, in order:

* the cards turned face up (``face up: player_1 Spy 2, player_3 Spy 5``) and each card once it
  has resolved or was lost, in the words of the round's table (:mod:`.render`): whom it looked at
  or attacked, who died;
* what the viewer saw (``you saw player_2's House card: Crane 2``; the Mystic's card, the Grave
  Digger's discards, the Spirit Merchant's token), House cards shown to all, Honor tokens that
  changed hands (with the values the viewer knows);
* the House Reveal: every living player's House card, the winning House, who draws an Honor token
  and why (the values: the viewer's own only);
* the end of a round: the tokens each player holds (the viewer's own points), and the next round's
  start (the viewer's House card); the end of the game: everyone's points and the winners.

The engine deals the next round inside the action that ends a round, so the round's end is read
from the state stopped just before that deal (:func:`round_end_state`, the engine's own stage
functions run on a copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.render import (
    AWARD_WORDS,
    PENDING,
    RESULT_WORDS,
    SRC_GD,
    _record_text,
)

if TYPE_CHECKING:
    from boardgames_rl.core.game import Game, State
    from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

REACT_OR_REVEAL: Final = frozenset((data.MIRROR_MONK, data.MARTYR, data.MASTERMIND))
"""Cards that are shown at once when used, never played face down in a phase."""


def round_end_state(before: NightOfTheNinjaState, action: int) -> NightOfTheNinjaState | None:
    """A copy of ``before`` with ``action`` applied, stopped at the end of the round (House Reveal
    done, tokens drawn, the next round not dealt yet), when ``action`` ends a round; else ``None``.

    It answers the decision and runs the engine's stages (``DECISION_HANDLERS``,
    ``STAGE_RUNNERS``) as ``apply`` does, stopping at the ``round_end`` stage: the copy's chance
    generator is the original's, so every draw up to there is the one the game made."""
    s = cast("NightOfTheNinjaState", before.clone())
    d = s.decision
    if d is None:
        return None
    s.decision = None
    s._mask = None
    s.DECISION_HANDLERS[d["kind"]](s, action, d)
    while s.decision is None and not s.over and s.stage != "round_end":
        s.STAGE_RUNNERS[s.stage](s)
    return s if s.stage == "round_end" and s.decision is None else None


def _shown_house(state: NightOfTheNinjaState, q: int) -> int:
    """``q``'s House card as last shown to everyone (public look), or -1."""
    card = -1
    for who, target, house, pre in state.looks:
        if who == -1 and target == q and not pre:
            card = house
    return card


class EventLog:
    """The events of a game as seat ``viewer`` sees them (``None``: everything)."""

    def __init__(self, game: Game, viewer: int | None):
        if not isinstance(game, NightOfTheNinja):
            raise TypeError(f"a Night of the Ninja event log needs that game, got {game.name!r}")
        self.game = game
        self.viewer = viewer
        self.names = game.player_names

    # ------------------------------------------------------------------ words
    def _you(self, q: int, possessive: bool = False) -> str:
        if q == self.viewer:
            return "your" if possessive else "you"
        return f"{self.names[q]}'s" if possessive else self.names[q]

    def _who(self, q: int) -> str:
        """``player_2``, or ``player_0 (you)`` for the viewer's seat (in lists)."""
        return f"{self.names[q]} (you)" if q == self.viewer else self.names[q]

    def _knows_token(self, state: NightOfTheNinjaState, token: int) -> bool:
        return self.viewer is None or token in state.known[self.viewer]

    # ------------------------------------------------------------------ entry point
    def step(self, before: State, action: int, after: State) -> list[str]:
        """The lines ``viewer`` learns from ``action`` played in ``before`` (giving ``after``)."""
        a = cast("NightOfTheNinjaState", before)
        b = cast("NightOfTheNinjaState", after)
        if b.round == a.round:
            lines = self.changes(a, b)
            if b.over and not a.over:
                lines += self.game_over(b)
            return lines
        end = round_end_state(a, action)
        if end is None:  # cannot happen: a new round is dealt only at a round's end
            raise RuntimeError("night_of_the_ninja: a new round without the end of the last")
        return self.changes(a, end) + self.round_over(end) + self.round_start(b)

    # ------------------------------------------------------------------ within a round
    def changes(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        """What ``viewer`` learns between two states of the same round (``b`` later)."""
        revealed = a.result < 0 <= b.result
        lines = self._cards(a, b, revealed)
        lines += self._looks(a, b, revealed)
        lines += self._sights(a, b)
        lines += self._token_moves(a, b)
        if revealed:
            lines += self._house_reveal(a, b)
        else:
            lines += self._draws(a, b)
        return lines

    def _cards(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState, revealed: bool) -> list:
        """Cards turned face up, and each card once it resolved or was lost."""
        lines: list[str] = []
        new = list(range(len(a.played), len(b.played)))
        up = [i for i in new if b.played[i][0] not in REACT_OR_REVEAL]
        for i in range(len(b.played)):
            if up and i == up[0]:
                shown = []
                for j in up:
                    card, owner, src = b.played[j][:3]
                    gd = " (from the Grave Digger)" if src == SRC_GD else ""
                    shown.append(f"{self.names[owner]} {data.CARD_NAMES[card]}{gd}")
                lines.append("face up: " + ", ".join(shown))
            card, status = b.played[i][0], b.played[i][5]
            was = a.played[i][5] if i < len(a.played) else PENDING
            if status == PENDING or was != PENDING:
                continue
            if card == data.MASTERMIND and revealed:
                continue  # said with the House Reveal
            lines.append(_record_text(b, i, self.viewer))
        return lines

    def _looks(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState, revealed: bool) -> list:
        """House cards the viewer looked at, and House cards shown to all (but the House
        Reveal's, said with it)."""
        lines = []
        for who, target, house, _pre in b.looks[len(a.looks) :]:
            card = data.HOUSE_CARD_NAMES[house]
            if who == -1:
                if not revealed:
                    lines.append(f"{self._you(target, True)} House card is shown to all: {card}")
            elif self.viewer is None or who == self.viewer:
                own = "your own" if who == self.viewer else "their own"
                whose = own if target == who else f"{self.names[target]}'s"
                lines.append(f"{self._you(who)} saw {whose} House card: {card}")
        return lines

    def _sights(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        """The Mystic's card, the Grave Digger's discards, the Spirit Merchant's token, for those
        who saw them (the observer's view has them in the cards' own lines)."""
        me = self.viewer
        if me is None:
            return []
        names = self.names
        informed = self.game.target_learns_look
        lines = []
        for who, target, card, _time in b.mystic[len(a.mystic) :]:
            if who == me:
                what = data.CARD_NAMES[card] if card >= 0 else "no Ninja card"
                lines.append(f"your Mystic saw {what} in {names[target]}'s hand")
            elif target == me and informed and card >= 0:
                lines.append(f"{names[who]}'s Mystic saw {data.CARD_NAMES[card]} in your hand")
        if b.gd and b.gd != a.gd and b.gd[0] == me and b.gd[3] < 0:
            seen = [data.CARD_NAMES[c] for c in b.gd[1:3] if c >= 0]
            lines.append(f"your Grave Digger sees {' and '.join(seen)} among the discards")
        if b.sm and b.sm != a.sm and b.sm[2] == 1 and b.sm[3] >= 0:
            owner, target, _look, token = b.sm
            value = b.token_value[token]
            if owner == me:
                lines.append(f"your Spirit Merchant saw a {value}-point token of {names[target]}")
            elif target == me and informed:
                lines.append(f"{names[owner]}'s Spirit Merchant saw your {value}-point token")
        return lines

    def _token_moves(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        """Honor tokens (their identities are public) that changed hands."""
        holder = {t: p for p, held in enumerate(a.tokens) for t in held}
        lines = []
        for q, held in enumerate(b.tokens):
            for t in held:
                p = holder.get(t, q)
                if p != q:
                    worth = f" worth {b.token_value[t]}" if self._knows_token(b, t) else ""
                    lines.append(
                        f"an Honor token{worth} moved from {self._you(p)} to {self._you(q)}"
                    )
        return lines

    def _drawn(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        """``player (why[, value])`` for every Honor token drawn from the stack."""
        had = {t for held in a.tokens for t in held}
        out = []
        for q, held in enumerate(b.tokens):
            drawn = sorted(t for t in held if t not in had)
            why = b.awards[q][len(a.awards[q]) :]
            for k, t in enumerate(drawn):
                words = AWARD_WORDS[why[k]] if k < len(why) else "drawn"
                if self._knows_token(b, t):
                    words += f", {b.token_value[t]} points"
                out.append(f"{self._who(q)} ({words})")
        return out

    def _draws(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        drawn = self._drawn(a, b)
        return [f"Honor token drawn: {', '.join(drawn)}"] if drawn else []

    def _house_reveal(self, a: NightOfTheNinjaState, b: NightOfTheNinjaState) -> list[str]:
        living = [
            f"{self._who(q)} {data.HOUSE_CARD_NAMES[_shown_house(b, q)]}"
            for q in b.living()
            if _shown_house(b, q) >= 0
        ]
        dead = [self._who(q) for q in range(self.game.num_players) if not b.alive[q]]
        lines = [
            "House Reveal: the living show their House cards: "
            + (", ".join(living) or "nobody is alive")
            + (f" (dead: {', '.join(dead)})" if dead else "")
        ]
        for i, rec in enumerate(b.played):
            if rec[0] == data.MASTERMIND and i >= len(a.played):
                lines.append(_record_text(b, i, self.viewer))
        lines.append(f"round {b.round} result: {RESULT_WORDS[b.result]}")
        drawn = self._drawn(a, b)
        none = "none" if b.stack else "none (the stack is empty)"
        lines.append(f"Honor tokens drawn: {', '.join(drawn) or none}")
        return lines

    # ------------------------------------------------------------------ round and game ends
    def round_over(self, state: NightOfTheNinjaState) -> list[str]:
        """The public end of a round the game goes on after (nobody reached the target)."""
        held = []
        for q in range(self.game.num_players):
            n = len(state.tokens[q])
            text = f"{self._who(q)} {n}"
            if q == self.viewer or self.viewer is None:
                text += f" ({state.score(q)} points)"
            held.append(text)
        target = self.game.target_score
        return [
            f"end of round {state.round}: nobody has {target} points, the game goes on; "
            f"Honor tokens held: {', '.join(held)}"
        ]

    def round_start(self, state: NightOfTheNinjaState) -> list[str]:
        """A new round: the House card the viewer is dealt (all of them for the observer)."""
        if self.viewer is None:
            dealt = ", ".join(
                f"{self.names[q]} {data.HOUSE_CARD_NAMES[h]}"
                for q, h in enumerate(state.dealt_house)
            )
            return [f"round {state.round} begins: House cards dealt: {dealt}"]
        mine = data.HOUSE_CARD_NAMES[state.dealt_house[self.viewer]]
        return [f"round {state.round} begins: new House cards are dealt; yours is {mine}"]

    def game_over(self, state: NightOfTheNinjaState) -> list[str]:
        """The end of the game: every score is shown, and the winners."""
        if state.truncated:
            return [f"game over: the round cap ({self.game.max_rounds}) is reached, nobody wins"]
        points = ", ".join(f"{self._who(q)} {state.score(q)}" for q in range(self.game.num_players))
        won = ", ".join(self._who(q) for q in state.winners) or "nobody"
        return [f"game over: the Honor tokens are shown: points {points}; won by {won}"]
