"""Aiming a flick as a player would, for a person at the terminal (``boardgames-rl play``).

A flick has three numbers, in the order of its name ``flick aim 20 force 0.90 yaw -15``:

* **aim** -- the launch elevation in degrees (default grid 10, 15, .. 60): a low arc flies flat
  at the wall, a high arc lobs the bat over it;
* **force** -- how hard, from 0 (softest) to 1 (full), in steps of 0.1 by default;
* **yaw** -- the direction in degrees, negative to the left: -15 points at window 1, 0 at
  window 2, +15 at window 3, +-25 at the wall's edges (landing model v1 has no yaw).

A person types them in that order, ``flick 20 0.9 -15`` (v1: ``flick 50 0.5``; the word
``flick`` may be left out), or with their words in any order, ``flick yaw -15 aim 20 force
0.9``; or is asked for them one at a time (:meth:`Aim.step_menu`): the yaw (where), the
elevation (how high), then the force (how hard), the force options showing where the bat lands
with each. Only the grid's own values are accepted; any other number is refused with the values
offered.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from boardgames_rl.games.castle_flutterstone.naming import arc_words, force_words, yaw_words

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

WIDTH = 98
"""No line of the menus and help is wider."""

WORDS = {"aim": "aim", "elevation": "aim", "force": "force", "yaw": "yaw"}
"""Words a typed flick may name its numbers with (``elevation`` is ``aim``)."""


def is_flick(state: CastleFlutterstoneState) -> bool:
    """Whether the pending decision is a flick."""
    return not state.is_terminal() and state.phase_name == "flick"


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number: give the {what} as a number") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _fmt(value: float, what: str) -> str:
    if what == "force":
        return f"{value:g}"
    return f"{value:+g}" if what == "yaw" and value else f"{value:g}"


class Aim:
    """The flick grid of a state's game, read as three numbers (see the module docstring)."""

    def __init__(self, state: CastleFlutterstoneState):
        self.state = state
        g = state.game
        self.game = g
        self.grid = {"yaw": list(g.yaws), "aim": list(g.aims), "force": list(g.forces)}
        self.has_yaw = bool(g.geometry.yaw_max)
        self.order = ("aim", "force", "yaw") if self.has_yaw else ("aim", "force")
        """The order of the numbers typed after ``flick`` (the order of the names)."""
        self.steps = ("yaw", "aim", "force") if self.has_yaw else ("aim", "force")
        """The order the numbers are asked in one at a time."""

    # ------------------------------------------------------------------ words
    @property
    def typed_form(self) -> str:
        """``flick AIM FORCE YAW`` (``flick AIM FORCE`` without yaw)."""
        return "flick " + " ".join(w.upper() for w in self.order)

    def example(self) -> str:
        """A typed flick: the best flick of the moment, in the typed form."""
        from boardgames_rl.games.castle_flutterstone.render import best_flick_ids

        best = best_flick_ids(self.state, 1)[0]
        yaw, aim, force = self.game._flicks[best]
        values = {"aim": aim, "force": force, "yaw": yaw}
        return "flick " + " ".join(_fmt(values[w], w) for w in self.order)

    def offered(self, what: str) -> str:
        """The values of one number, e.g. ``10, 15, .. 60``."""
        return ", ".join(_fmt(v, what) for v in self.grid[what])

    # ------------------------------------------------------------------ numbers -> action
    def value(self, what: str, text: str) -> float:
        """The grid value of ``what`` (``aim``, ``force``, ``yaw``) typed as ``text``.

        Raises:
            ValueError: not a number, or not one the grid offers (the message lists them).
        """
        x = _number(text, what)
        for v in self.grid[what]:
            if abs(v - x) < 1e-6:
                return float(v)
        raise ValueError(f"{what} {text} is not offered: choose one of {self.offered(what)}")

    def action(self, chosen: dict[str, float]) -> int:
        """The flick action id of the chosen ``aim``, ``force`` (and ``yaw``) values."""
        g = self.game
        yaw = chosen.get("yaw", self.grid["yaw"][0])
        return g.layout.flick(
            self.grid["aim"].index(chosen["aim"]),
            self.grid["force"].index(chosen["force"]),
            self.grid["yaw"].index(yaw),
        )

    def parse(self, text: str) -> int | None:
        """The flick typed as ``text`` (``flick 20 0.9 -15``, ``flick yaw -15 aim 20 force
        0.9``, a flick's full name, or just its numbers ``20 0.9 -15``), or ``None`` when
        ``text`` is not a typed flick (it neither starts with ``flick`` nor is as many numbers
        as a flick has: a single number is an option's number).

        Raises:
            ValueError: a typed flick with a wrong count of numbers or a value not offered; the
                message says what to type.
        """
        words = text.split(":")[0].replace(",", " ").lower().split()
        if len(words) == len(self.order) and len(words) > 1 and all(map(_is_number, words)):
            words = ["flick", *words]
        if not words or words[0] != "flick":
            return None
        rest = words[1:]
        usage = f"type {self.typed_form}, e.g. {self.example()}"
        if not rest:
            raise ValueError(
                f"'flick' is ambiguous, a flick needs {len(self.order)} numbers: {usage}"
            )
        chosen: dict[str, float] = {}
        if rest[0] in WORDS:  # flick aim 20 force 0.9 yaw -15, in any order
            if len(rest) % 2:
                raise ValueError(f"each word needs its number: {usage}")
            for word, number in zip(rest[::2], rest[1::2], strict=True):
                what = WORDS.get(word)
                if what is None or what not in self.order:
                    raise ValueError(f"{word!r} is not one of {', '.join(self.order)}: {usage}")
                if what in chosen:
                    raise ValueError(f"{what} is given twice: {usage}")
                chosen[what] = self.value(what, number)
            missing = [w for w in self.order if w not in chosen]
            if missing:
                raise ValueError(f"no {' and '.join(missing)} given: {usage}")
        else:
            if len(rest) != len(self.order):
                raise ValueError(
                    f"a flick needs {len(self.order)} numbers ({', '.join(self.order)}), "
                    f"got {len(rest)}: {usage}"
                )
            for what, number in zip(self.order, rest, strict=True):
                try:
                    chosen[what] = self.value(what, number)
                except ValueError as e:
                    raise ValueError(f"{e} (the order is {self.typed_form})") from None
        return self.action(chosen)

    # ------------------------------------------------------------------ one at a time
    def step_menu(self, what: str, chosen: dict[str, float]) -> str:
        """The short list of the choices of one number (the force's with where each lands,
        given the yaw and elevation ``chosen``)."""
        geo = self.game.geometry
        if what == "yaw":
            items = [f"{_fmt(v, 'yaw')} {yaw_words(geo, v)}" for v in self.grid["yaw"]]
            return "yaw, the direction in degrees (- left, + right):\n" + _fill(" | ".join(items))
        if what == "aim":
            groups: dict[str, list[str]] = {}
            for v in self.grid["aim"]:
                groups.setdefault(arc_words(geo, v), []).append(_fmt(v, "aim"))
            items = [f"{' '.join(vs)} ({arc})" for arc, vs in groups.items()]
            return "aim, the launch elevation in degrees:\n" + _fill(" | ".join(items))
        from boardgames_rl.games.castle_flutterstone.render import chances_text, flick_outlook

        values, table = flick_outlook(self.state)
        fixed = ", ".join(f"{w} {_fmt(chosen[w], w)}" for w in self.steps if w in chosen)
        lines = [f"force, 0 softest .. 1 full ({fixed}): where the bat lands"]
        for v in self.grid["force"]:
            a = self.action({**chosen, "force": v})
            word = force_words(v).split()[0]
            lines.append(
                f"  {_fmt(v, 'force'):>4} {word:<8}{values[a]:.2f} fields  {chances_text(table[a])}"
            )
        return "\n".join(lines)


def _fill(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


def aim_help(state: CastleFlutterstoneState) -> str:
    """How a person answers a flick decision (``?`` in ``play``)."""
    aim = Aim(state)
    steps = ", then ".join(aim.steps)
    yaw = " yaw -15" if aim.has_yaw else ""
    lines = [
        _fill(
            f"A flick is {len(aim.order)} numbers, typed in the order of its name: "
            f"{aim.typed_form}, e.g. {aim.example()}; or with their words in any order, e.g. "
            f"flick force 0.9 aim 20{yaw}.",
            "",
        ),
        _fill(f"aim: the elevation in degrees, one of {aim.offered('aim')}"),
        _fill(f"force: 0 softest .. 1 full, one of {aim.offered('force')}"),
    ]
    if aim.has_yaw:
        lines.append(
            _fill(f"yaw: the direction in degrees, - left / + right, one of {aim.offered('yaw')}")
        )
    lines.append(
        _fill(
            f"Type aim to choose the {steps} one at a time (back returns here); the number "
            "of a flick plays it (the menu numbers the best flicks a, b, c of the board); list "
            "lists every flick by number.",
            "",
        )
    )
    return "\n".join(lines)
