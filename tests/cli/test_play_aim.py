"""Issue 40.9: at a Castle Flutterstone flick ``play`` no longer lists every flick (605 lines):
the person aims as a player would, typing the flick's three numbers (``flick 20 0.9 -15``: aim,
force, yaw, the order of the flick's name) or choosing yaw, aim and force one at a time, with
the best flicks, their landing chances and a small picture of where they aim on the board;
``?`` and ``board`` stay short, and other decisions keep their numbered list.

Each way of answering is checked to play the intended action id: the same seeded game is played
here with those actions (through ``play``'s own session machinery), and after each flick the
person's next board must be the one the intended action leads to, and the "you:" line must name
it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable

import pytest

from boardgames_rl.cli.common import build_agent
from boardgames_rl.cli.session import QuitGame, agent_decider, run_session
from boardgames_rl.core.game import State
from boardgames_rl.games.castle_flutterstone.render import best_flicks
from boardgames_rl.registry import make_game

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
SEED = 1
PROMPT_LINES = 60

Way = Callable[[State], tuple[str, int]]
"""One way to answer a flick decision: ``way(state) -> (the lines typed, the flick meant)``."""


def play(stdin: str, *config: str) -> str:
    proc = subprocess.run(
        [*CLI, "play", "castle_flutterstone", *config, "--vs", "random", "--seed", str(SEED)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 1  # abandoned with quit
    return proc.stdout


def flick(game, aim: float, force: float, yaw: float = 0.0) -> int:
    def at(grid, value: float) -> int:
        (k,) = [i for i, v in enumerate(grid) if abs(v - value) < 1e-9]
        return k

    return game.layout.flick(at(game.aims, aim), at(game.forces, force), at(game.yaws, yaw))


def fixed(text: str, aim: float, force: float, yaw: float = 0.0) -> Way:
    return lambda state: (text, flick(state.game, aim, force, yaw))


def script(ways: list[Way], config: dict) -> tuple[str, list[tuple[State, int, State]]]:
    """Play the seeded game here as ``play --vs random`` does, the person answering its flick
    decisions the ``ways`` in turn and any other decision with its first option ("1"). Returns
    the person's stdin and ``(decision, flick meant, the person's next decision)`` per flick."""
    game = make_game("castle_flutterstone", **config)
    lines: list[str] = []
    decisions: list[State] = []
    meant: list[int] = []

    def person(state: State, seat: int, rng) -> int:
        decisions.append(state.clone())
        if state.phase_name != "flick":  # type: ignore[attr-defined]
            lines.append("1\n")
            return int(state.legal_actions()[0])
        if len(meant) == len(ways):
            raise QuitGame("done")
        text, action = ways[len(meant)](state)
        lines.append(text)
        meant.append(action)
        decisions[-1].meant = action  # type: ignore[attr-defined]
        return action

    with pytest.raises(QuitGame):
        run_session(game, [person, agent_decider(build_agent("random", game))], ["h", "r"], SEED)
    flicks = [
        (d, d.meant, decisions[i + 1])  # type: ignore[attr-defined]
        for i, d in enumerate(decisions[:-1])
        if hasattr(d, "meant")
    ]
    return "".join(lines) + "quit\n", flicks


def check_flicks(out: str, flicks: list[tuple[State, int, State]]) -> None:
    said = re.findall(r"^  you: (flick .*)$", out, re.M)
    assert said == [d.action_name(a) for d, a, _nxt in flicks]
    at = 0
    for _d, _a, nxt in flicks:  # each intended flick leads to the board shown next
        at = out.index(nxt.render(0), at) + 1


def chunks(out: str) -> list[str]:
    """What is printed before each prompt of a flick decision (and after the last): its short
    menu ends with "? help", then the prompt "> "."""
    return re.split(r"\? help\n> ", out)


def test_a_flick_decision_is_short_and_so_are_help_and_board():
    """ "prints all 605+ flicks (636 lines) at every flick decision; the board and the 'best
    flicks' hint scroll away": every prompt of a flick decision, ``?`` and ``board`` included,
    follows fewer than 60 lines, which hold the board, the best flicks with their landing
    chances and the landing picture, and how to aim."""
    parts = chunks(play("?\nboard\nquit\n"))
    assert len(parts) == 4
    for part in parts[:3]:
        assert len(part.splitlines()) < PROMPT_LINES, part
    first = parts[0]
    assert "best flicks for player_0" in first and "fields expected" in first
    assert re.search(r"^moat   ~+", first, re.M) and re.search(r"^yaw +\^", first, re.M)
    assert re.search(r"^best +a", first, re.M)  # where the best flick aims, under its yaw
    assert "flick AIM FORCE YAW (e.g. flick " in first
    # the best flicks a, b, c of the hint, by their numbers in the list of every flick
    assert len(re.findall(r"^ +\d+\. flick aim .*  \([abc]\)$", first, re.M)) == 3
    listed = re.findall(r"^ *\d+\. flick aim", "".join(parts), re.M)
    assert len(listed) == 3 * 3  # the three best flicks at each prompt, never all of them
    assert "A flick is 3 numbers, typed in the order of its name: flick AIM FORCE YAW" in parts[1]
    assert "best flicks for player_0" in parts[2]  # board: the board with the hint again


def test_typed_and_step_by_step_flicks_play_the_intended_action():
    """ "`flick 20 0.9 -15`-style typed input and the three-step choice both play the intended
    action id"; the words of the numbers in any order;
    a number not offered is refused in one line that says what to type; ``back`` leaves the
    step-by-step choice without flicking; the number of a best flick plays it; the move
    decisions keep their numbered list."""

    def second_best(state: State) -> tuple[str, int]:
        name = best_flicks(state, 3)[2].strip().split(" (")[0]  # type: ignore[arg-type]
        action = state.game.action_from_name(name)
        legal = [int(a) for a in state.legal_actions()]
        return f"{legal.index(action) + 1}\n", action

    ways = [
        fixed("flick 20 0.9 -15\n", 20, 0.9, -15),
        fixed("15 1 -15\n", 15, 1.0, -15),  # the numbers alone
        fixed("FLICK yaw +15 aim 30 force .8\n", 30, 0.8, 15),
        fixed("aim\n-15\n20\nback\naim\n0\n25\n0.7\n", 25, 0.7, 0),  # yaw, aim, force
        fixed("aim\n-16\n-15\n90\n20\n0.8\n", 20, 0.8, -15),
        fixed("flick 20 0.95 -15\nflick 20 0.9\nflick 35 0.6 0\n", 35, 0.6, 0),
        second_best,
    ]
    stdin, flicks = script(ways, {})
    assert len(flicks) == len(ways)
    out = play(stdin)
    check_flicks(out, flicks)
    assert re.search(r"^  1\. move 0 fields", out, re.M)
    assert "> force 0.95 is not offered: choose one of 0, 0.1, 0.2," in out
    assert "> a flick needs 3 numbers (aim, force, yaw), got 2: type flick AIM FORCE YAW" in out
    assert "yaw> yaw -16 is not offered: choose one of -25, -15, 0, +15, +25; or back\n" in out
    assert "aim> aim 90 is not offered: choose one of 10, 15, 20," in out
    force_menu = out[out.index("force, 0 softest .. 1 full (yaw -15, aim 20): where") :]
    rows = re.findall(r"^ +([\d.]+) +\w+ +\d\.\d\d fields  (.*)$", force_menu, re.M)[:11]
    assert [r[0] for r in rows] == [f"{f / 10:g}" for f in range(11)]
    assert all("%" in chances for _f, chances in rows)
    # back at the force: the flick decision's menu again, and the next answer flicked
    assert re.search(r"force> +\d+\. flick aim", out)


def test_landing_model_v1_has_two_numbers():
    """Landing model v1 has no yaw: a flick is ``flick AIM FORCE``, two steps when asked."""
    ways = [fixed("flick 55 0.5\n", 55, 0.5), fixed("aim\n60\n0.4\n", 60, 0.4)]
    stdin, flicks = script(ways, {"landing_model": "v1"})
    out = play(stdin, "-c", "landing_model=v1")
    check_flicks(out, flicks)
    assert "flick AIM FORCE (e.g. flick " in out and "yaw>" not in out
