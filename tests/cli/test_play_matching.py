"""Issue 40.10: ``play`` reads an answer as any word or part of one option's name, any case
(the options of one decision share their first words: ``iron``, ``Scout``, ``yellow`` were
refused); an answer that fits several options lists them in one short line; a number still
picks by index.

Through the real ``play`` in a Night of the Ninja draft (``pick Spy 3``, ``pick Mystic 2``, ...:
every option starts with ``pick``); through the matching function for the issue's own words, in
decisions as Castle Nightingale and The White Castle name them (those games' names are being
reworded elsewhere, so their lists are written out here).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from boardgames_rl.cli.play import parse_choice
from boardgames_rl.registry import make_game

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}

NIGHTINGALE_CARDS = ["play card Thrown Pebble", "play card Scout", "play card False Trail"]
WHITE_CASTLE_TAKE = [
    "take the coral 3 from the left end",
    "take the coral 5 from the right end",
    "take the black 5 from the left end",
    "take the yellow 6 from the right end",
    "exchange 1 seal for 1 coin",
    "exchange 2 seals for 1 food",
    "exchange 2 seals for 1 iron",
]


@pytest.mark.parametrize(
    "names, answer, chosen",
    [
        (NIGHTINGALE_CARDS, "Scout", "play card Scout"),
        (NIGHTINGALE_CARDS, "scout", "play card Scout"),
        (NIGHTINGALE_CARDS, "pebble", "play card Thrown Pebble"),
        (NIGHTINGALE_CARDS, "trail", "play card False Trail"),
        (WHITE_CASTLE_TAKE, "iron", "exchange 2 seals for 1 iron"),
        (WHITE_CASTLE_TAKE, "yellow", "take the yellow 6 from the right end"),
        (WHITE_CASTLE_TAKE, "BLACK", "take the black 5 from the left end"),
        (WHITE_CASTLE_TAKE, "coral 5", "take the coral 5 from the right end"),
        (WHITE_CASTLE_TAKE, "coral right", "take the coral 5 from the right end"),
        (WHITE_CASTLE_TAKE, "for 1 coin", "exchange 1 seal for 1 coin"),
        (WHITE_CASTLE_TAKE, "exchange 1", "exchange 1 seal for 1 coin"),  # the start comes first
        (WHITE_CASTLE_TAKE, "2", "take the coral 5 from the right end"),  # a number: the index
    ],
)
def test_a_word_or_part_of_one_name_chooses_it(names, answer, chosen):
    """ "Match any unique word or substring (case-insensitive) ... numbers still select by
    index"."""
    assert names[parse_choice(answer, names)] == chosen


@pytest.mark.parametrize(
    "names, answer, listed",
    [
        (WHITE_CASTLE_TAKE, "coral", [1, 2]),
        (WHITE_CASTLE_TAKE, "seals", [6, 7]),
        (NIGHTINGALE_CARDS, "play card", [1, 2, 3]),
    ],
)
def test_an_answer_fitting_several_options_lists_them(names, answer, listed):
    """ "an ambiguous input lists the few matching options in one short message"."""
    with pytest.raises(ValueError) as err:
        parse_choice(answer, names)
    message = str(err.value)
    assert "\n" not in message and len(message) < 250
    assert re.findall(r"(\d+)\. ", message) == [str(k) for k in listed]
    for k in listed:
        assert names[k - 1] in message
    assert f"{answer!r} is ambiguous, {len(listed)} options hold it (" in message
    assert message.endswith("): type more of the name or its number")


def test_many_matches_are_cut_short():
    names = [f"flick aim {a} force 1.00 yaw {y}" for a in range(10, 61, 5) for y in (-15, 15)]
    with pytest.raises(ValueError) as err:
        parse_choice("force", names)
    message = str(err.value)
    assert "\n" not in message and f"and {len(names) - 6} more" in message
    assert len(re.findall(r"\d+\. flick", message)) == 6


def test_no_match_says_what_to_type():
    with pytest.raises(ValueError, match=r"no legal action is named 'ruby': type a number 1-7"):
        parse_choice("ruby", WHITE_CASTLE_TAKE)


def draft_names(seed: int) -> list[str]:
    """The person's (seat 0) first draft options in ``play night_of_the_ninja --seed seed``."""
    from boardgames_rl.cli.session import QuitGame, run_session

    game = make_game("night_of_the_ninja", num_players=4)
    seen: list[str] = []

    def person(state, seat, rng):
        seen.extend(state.action_name(int(a)) for a in state.legal_actions())
        raise QuitGame("done")

    with pytest.raises(QuitGame):
        run_session(game, [person] * 4, ["human"] * 4, seed)
    return seen


def test_play_reads_a_word_of_one_option_and_lists_an_ambiguous_one():
    """In the real ``play``: the draft's options all start with ``pick``; ``pick`` lists them in
    one line and asks again; a word only one option holds picks that option; so does a number."""
    seed = 5
    names = draft_names(seed)
    assert len(names) == 3 and all(n.startswith("pick ") for n in names)
    # a word of one name only, not its start: the card's kind or its number
    word = next(
        w
        for n in names
        for w in n.split()[1:]
        if sum(re.search(rf"\b{re.escape(w.lower())}\b", m.lower()) is not None for m in names) == 1
    )
    chosen = next(n for n in names if re.search(rf"\b{re.escape(word)}\b", n))
    proc = subprocess.run(
        [*CLI, "play", "night_of_the_ninja", "-c", "num_players=4", "--seed", str(seed)],
        input=f"pick\n{word.lower()}\n2\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    out = proc.stdout
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    listed = ", ".join(f"{k}. {n}" for k, n in enumerate(names, start=1))
    refused = f"'pick' is ambiguous, 3 options hold it ({listed}): type more of the name or its"
    assert f"> {refused} number\n" in out
    assert f"  you: {chosen}\n" in out
    assert re.search(r"^  you: keep ", out, re.M)  # "2" answered the second pick by its number
