"""Issue 40.8: Night of the Ninja ``play`` tells every round's end -- the kills, the House Reveal
and who scored -- and what the person's own Spy or Mystic saw, and nothing the person's seat may
not know; ``replay --seat S`` tells what seat S knew, ``replay`` without a seat everything.

The person's stdin answers "1" (the first option) until the game ends; the game is recorded, and
the facts each transcript must hold are read from the record replayed here, with the engine
itself stopped at the end of every round (its ``_new_round`` is wrapped to copy the state just
before the next deal), not from the event log under test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from boardgames_rl.arena import load_records
from boardgames_rl.games.night_of_the_ninja import data
from boardgames_rl.games.night_of_the_ninja.render import RESULT_WORDS
from boardgames_rl.games.night_of_the_ninja.state import AWARD_MARTYR, NightOfTheNinjaState
from boardgames_rl.registry import make_game

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}
SEAT, SEED = 0, 3
"""A seeded 4-player game, several rounds, in which other seats' Spies and Mystics look at
House cards the person's seat never sees, and the person's seat looks at some itself."""


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, timeout=300, env=ENV
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def round_ends(record) -> list[NightOfTheNinjaState]:
    """The state at the end of every round of a recorded game (tokens drawn, before the next
    deal); the last is the final state."""
    game = make_game(record.game, **record.config)
    ends: list[NightOfTheNinjaState] = []
    real = NightOfTheNinjaState._new_round

    def copy_then_deal(self: NightOfTheNinjaState) -> None:
        if self.round >= 1:
            ends.append(self.clone())
        real(self)

    NightOfTheNinjaState._new_round = copy_then_deal  # type: ignore[method-assign]
    try:
        s = game.new_state(record.state_seed)
        for a in record.actions:
            s.apply(a)
    finally:
        NightOfTheNinjaState._new_round = real  # type: ignore[method-assign]
    assert s.is_terminal()
    return [*ends, s]


def segments(text: str, rounds: int) -> list[str]:
    """The transcript cut into rounds: from round r's first board to the line that begins round
    r + 1 (the news of round r's end comes before round r + 1's first board)."""
    out = []
    for r in range(1, rounds + 1):
        start = text.index(f"| round {r} (")
        nxt = re.search(rf"^.*round {r + 1} begins.*$|\| round {r + 1} \(", text[start:], re.M)
        out.append(text[start : start + nxt.start()] if nxt else text[start:])
    return out


def secrets(end: NightOfTheNinjaState, seat: int) -> list[tuple[str, str, str]]:
    """``(looker, target, House card)`` of the looks by other seats at a House card that ``seat``
    never learns that round (not its own, not looked at by it, never shown to all)."""
    known = {end.dealt_house[seat]}
    known |= {h for who, _t, h, _pre in end.looks if who in (-1, seat)}
    names = end.game.player_names
    return [
        (names[who], names[t], data.HOUSE_CARD_NAMES[h])
        for who, t, h, _pre in end.looks
        if who not in (-1, seat) and t != seat and h not in known
    ]


def label(names: tuple[str, ...], q: int) -> str:
    """A seat as the person's event lines list it: ``player_0 (you)`` for the person's."""
    return f"{names[q]} (you)" if q == SEAT else names[q]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    record = tmp_path_factory.mktemp("ninja") / "games.jsonl"
    proc = run(
        "play",
        "night_of_the_ninja",
        "-c",
        "num_players=4",
        "--vs",
        "random",
        "--seat",
        str(SEAT),
        "--seed",
        str(SEED),
        "--record",
        str(record),
        stdin="1\n" * 600,
    )
    assert proc.returncode == 0, proc.stderr
    (rec,) = load_records(record)
    return proc.stdout, record, round_ends(rec)


@pytest.mark.pure_only  # round_ends spies on the engine's _new_round
def test_every_round_end_is_told_kills_reveal_and_scores(played):
    """ "the rest of a round is played automatically, so the kills, the House Reveal and who
    scored never appear": every round's deaths, the House cards the living show, the result,
    who drew Honor tokens (and the person's own token values), the holdings at each round's
    end and the final points are in the transcript, in that round's part of it."""
    out, _record, ends = played
    assert len(ends) >= 3, "the seeded game should last several rounds"
    names = ends[0].game.player_names
    parts = segments(out, len(ends))
    kills = 0
    for end, part in zip(ends, parts, strict=True):
        n = end.game.num_players
        dead = [q for q in range(n) if not end.alive[q]]
        kills += len(dead)
        for q in dead:
            assert re.search(rf"{names[q]} (died|dies)|killed {names[q]}\b", part), names[q]
        reveal = re.findall(
            r"^ +House Reveal: the living show their House cards: (.*)$", part, re.M
        )
        assert len(reveal) == 1, (end.round, reveal)
        for q in range(n):
            if end.alive[q]:
                shown = f"{label(names, q)} {data.HOUSE_CARD_NAMES[end.house[q]]}"
                assert shown in reveal[0], (end.round, shown)
        assert f"round {end.round} result: {RESULT_WORDS[end.result]}" in part
        drawn = re.search(r"^ +Honor tokens drawn: (.*)$", part, re.M)
        assert drawn, end.round
        winners = [q for q in range(n) if any(a != AWARD_MARTYR for a in end.awards[q])]
        assert winners
        for q in winners:
            assert names[q] in drawn.group(1)
        at_start = {t for held in end.round_start_tokens for t in held}
        drawn_lines = " ".join(re.findall(r"^ +Honor tokens? drawn: (.*)$", part, re.M))
        for t in end.tokens[SEAT]:  # the person's own tokens drawn this round, with their values
            if t not in at_start:
                assert f"{end.token_value[t]} points" in drawn_lines, (end.round, drawn_lines)
        if not end.is_terminal():
            held = ", ".join(
                f"{label(names, q)} {len(end.tokens[q])}"
                + (f" ({end.score(q)} points)" if q == SEAT else "")
                for q in range(n)
            )
            assert f"Honor tokens held: {held}" in part
    assert kills, "the seed should kill someone"
    final = ends[-1]
    points = ", ".join(f"{label(names, q)} {final.score(q)}" for q in range(final.game.num_players))
    assert f"points {points}" in parts[-1]


@pytest.mark.pure_only  # round_ends spies on the engine's _new_round
def test_own_looks_are_told_and_other_seats_looks_are_not(played):
    """ "what a Spy or Mystic saw is lost the same way": the person's own looks are told as they
    happen; another seat's look at a House card the person never sees leaves no trace of that
    card in the round's transcript (no hidden-information leak)."""
    out, _record, ends = played
    names = ends[0].game.player_names
    own = hidden = 0
    for end, part in zip(ends, segments(out, len(ends)), strict=True):
        for who, t, h, _pre in end.looks:
            if who == SEAT and t != SEAT:
                own += 1
                card = data.HOUSE_CARD_NAMES[h]
                assert f"you saw {names[t]}'s House card: {card}" in part, (end.round, t, card)
        for looker, target, card in secrets(end, SEAT):
            hidden += 1
            assert not re.search(rf"\b{card}\b", part), (end.round, looker, target, card)
            assert f"{looker} saw" not in part
    assert own and hidden, "the seed should hold both kinds of looks"


@pytest.mark.pure_only  # round_ends spies on the engine's _new_round
def test_replay_tells_a_seats_events_or_everything(played):
    """ "in `replay` (replay with `--seat S` shows what seat S knew; without a seat, the
    observer's view)": both tell every round's House Reveal; only the observer's view tells the
    other seats' private looks."""
    _out, record, ends = played
    seat_view = run("replay", str(record), "--seat", str(SEAT)).stdout
    everything = run("replay", str(record)).stdout
    for text in (seat_view, everything):
        assert len(re.findall(r"House Reveal: the living show their House cards: ", text)) == len(
            ends
        )
        for end in ends:
            assert f"round {end.round} result: {RESULT_WORDS[end.result]}" in text
    told = 0
    for end in ends:
        for looker, target, card in secrets(end, SEAT):
            line = f"{looker} saw {target}'s House card: {card}"
            assert line in everything
            assert line not in seat_view and f"saw {target}'s House card: {card}" not in seat_view
            told += 1
    assert told


@pytest.mark.parametrize("players, seed", [(4, 0), (5, 1), (7, 2), (11, 3)])
def test_no_seat_is_told_a_house_card_it_does_not_know(players, seed):
    """The event log of every seat, over random games: each Lotus or Crane card it names is one
    the seat knows at that moment (its own as dealt, one it looked at, one shown to all, its
    card of the next round); it tells no other seat's look or Mystic's card; and the engine's
    round end read by the log continues, with the next deal, to the game's own next state."""
    import numpy as np

    from boardgames_rl.games.night_of_the_ninja.events import EventLog, round_end_state

    game = make_game("night_of_the_ninja", num_players=players)
    logs = [EventLog(game, seat) for seat in range(players)]
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    names = game.player_names
    cards = [c for c in data.HOUSE_CARD_NAMES if c != "Ronin"]
    told = 0
    while not s.is_terminal():
        before = s.clone()
        action = int(rng.choice(s.legal_actions()))
        s.apply(action)
        seen = s
        if s.round != before.round:
            seen = round_end_state(before, action)
            assert seen is not None
            go_on = seen.clone()
            go_on.STAGE_RUNNERS["round_end"](go_on)
            go_on._run()
            assert go_on.to_dict() == s.to_dict()
        for seat, log in enumerate(logs):
            known = {seen.dealt_house[seat], s.dealt_house[seat]}
            known |= {h for who, _t, h, _pre in seen.looks if who in (-1, seat)}
            allowed = {data.HOUSE_CARD_NAMES[h] for h in known}
            for line in log.step(before, action, s):
                told += 1
                for card in cards:
                    if re.search(rf"\b{card}\b", line):
                        assert card in allowed, (seat, line)
                for other in names:
                    assert f"{other} saw" not in line, (seat, line)
                if "Mystic saw" in line:
                    assert line.startswith("your Mystic") or line.endswith("in your hand")
    assert told
