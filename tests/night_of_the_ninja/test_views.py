"""Night of the Ninja's views (issue 16 points 1, 2 and 6): the text table and the picture.

* every render mode (``render(seat)``, ``render(None)``, ``render_rgb``, and the AEC env's
  ``ansi`` / ``human`` / ``rgb_array``) at reachable states of seeded random play at 4, 5 and 11
  players, from every seat and omniscient; the text fits 100 columns;
* no hidden fact in a seat's view: a state and a state sampled from that seat's information set
  (both true states the seat cannot tell apart) give the same text and the same picture;
* every public event is named: each sentence below is from the rulebook (or the issue) and is
  checked on a hand-made position.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.envs.aec import GameAECEnv
from boardgames_rl.games.night_of_the_ninja import data, render
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.scenario import build, commit, play
from boardgames_rl.games.night_of_the_ninja.state import DECISIONS, NightOfTheNinjaState
from boardgames_rl.testing.random_play import random_action

WIDTH = 100
PLAYER_COUNTS = (4, 5, 11)
HOUSES5 = ["L1", "C1", "L2", "C2", "R"]


def reachable_states(num_players: int, seed: int, count: int = 6) -> list[NightOfTheNinjaState]:
    """``count`` states spread over one seeded random game (the last one terminal)."""
    game = NightOfTheNinja(num_players=num_players)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    trail = [state.clone()]
    while not state.is_terminal():
        state.apply(random_action(state, rng))
        trail.append(state.clone())
    picks = np.linspace(0, len(trail) - 1, count).round().astype(int)
    return [trail[i] for i in picks]


def fill(hands: dict[int, list[str]], n: int = 5) -> list[list[str]]:
    """Hands for ``n`` seats: those given, the others Spies / Mystics nobody else holds."""
    used = {data.CARD_NAMES.index(c) for h in hands.values() for c in h}
    spare = [c for c in range(12) if c not in used]
    return [
        list(hands[p])
        if p in hands
        else [data.CARD_NAMES[spare.pop()], data.CARD_NAMES[spare.pop()]]
        for p in range(n)
    ]


def events(state, seat=None) -> list[str]:
    """The lines of the text view's "this round" section."""
    lines = state.render(seat).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("this round"))
    out: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("    ") and out:  # a long line wrapped at 100 columns
            out[-1] += " " + line.strip()
        elif line.startswith("  "):
            out.append(line.strip())
        else:
            break
    return out


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_text_view_from_every_seat_fits_100_columns(num_players):
    """Issue 16.1: "compact aligned tables that fit 100 columns at the largest player count";
    one table line per seat, the phase and the decision in words, a legend."""
    for seed in (0, 1):
        for state in reachable_states(num_players, seed):
            for seat in [None, *range(num_players)]:
                text = state.render(seat)
                lines = text.splitlines()
                assert max(len(line) for line in lines) <= WIDTH, (seed, seat)
                header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("seat"))
                rows = lines[header + 1 : header + 1 + num_players]
                assert [r[2:].split()[0] for r in rows] == list(state.game.player_names)
                assert any(line.startswith("legend:") for line in lines)
                assert lines[1] == f"now: {render.stage_text(state)}"
                if state.is_terminal():
                    assert "game over" in text
                else:
                    assert f"decision: {render.decision_text(state)}" in text
                    assert "_" not in render.decision_text(state).replace("player_", "")


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_picture_from_every_seat_and_omniscient(num_players):
    """Issue 16.2: "Each picture is produced from the seat's view for a player and from the
    omniscient view for an observer": an RGB image for every seat and for an observer; a seat's
    picture differs from the observer's where the observer sees more."""
    state = reachable_states(num_players, 3, count=3)[1]
    omniscient = state.render_rgb(None)
    assert omniscient.dtype == np.uint8 and omniscient.ndim == 3 and omniscient.shape[2] == 3
    assert len(np.unique(omniscient.reshape(-1, 3), axis=0)) > 20  # not a blank canvas
    for seat in range(num_players):
        picture = state.render_rgb(seat)
        assert picture.shape == omniscient.shape
        assert not np.array_equal(picture, omniscient)  # the House cards it cannot see


def test_env_render_modes():
    """Every ``render_mode`` of the AEC env gives the omniscient view."""
    for mode in ("ansi", "human", "rgb_array"):
        env = GameAECEnv(NightOfTheNinja(num_players=5), render_mode=mode)
        env.reset(seed=2)
        out = env.render()
        if mode == "ansi":
            assert out == env.game_state.render(None)
        elif mode == "rgb_array":
            assert np.array_equal(out, env.game_state.render_rgb(None))
        else:
            assert out is None


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_seat_views_show_no_hidden_fact(num_players):
    """Observations hold every public fact and nothing hidden: two true states sharing a seat's
    information set (the state and one sampled from that info set) give that seat the same text
    and, at one state, the same picture."""
    rng = np.random.default_rng(num_players)
    for k, state in enumerate(reachable_states(num_players, 5, count=5)):
        for seat in range(num_players):
            twin = state.info_set(seat).sample(rng)
            assert twin.render(seat) == state.render(seat), (k, seat)
            if k == 2 and seat < 2:
                assert np.array_equal(twin.render_rgb(seat), state.render_rgb(seat))


def test_seat_view_hides_what_the_omniscient_view_shows():
    """The seat does not see the others' House cards, hands and token values; the observer
    does."""
    s = build(NightOfTheNinja(num_players=5), houses=HOUSES5, tokens=[[], [3], [], [], []])
    seat_view, everything = s.render(0), s.render(None)
    assert "Lotus 1 dealt" in seat_view and "Crane 1" not in seat_view
    assert "1 (?)" in seat_view and "1: 3 = 3" in everything
    assert "player_1 holds:" in everything and "player_1 holds:" not in seat_view


def test_every_decision_and_stage_has_words():
    """Issue 16.1: "phase and decision names in words": each decision kind and engine stage has
    a sentence (no internal name is printed)."""
    assert set(render.DECISION_WORDS) == set(DECISIONS)
    assert set(render.STAGE_WORDS) == {*NightOfTheNinjaState.STAGE_RUNNERS, "over"}


def test_spy_look_and_target_are_named():
    """Rulebook, Spy: "Look at another player's HOUSE card." The table names who looked at whom
    for everyone; the Spy's owner sees the card ("seen"), the others do not."""
    s = build(NightOfTheNinja(num_players=5), houses=HOUSES5, hands=fill({0: ["Spy 1", "Spy 2"]}))
    commit(s, {0: ["Spy 1"]})
    play(s, "Spy 1 looks at player_2")
    assert "player_0: Spy 1 - looked at player_2's House card" in events(s, 1)
    assert "Lotus 2 seen" in s.render(0) and "Lotus 2" not in s.render(1)


def test_blind_assassin_kill_is_named():
    """Rulebook, Blind Assassin: "Choose a player and KILL them." The attack, its victim and
    the death are named; the victim's row says what killed it; "Knock down your player standee
    to indicate that you are dead" -- the row says dead, not the House card."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({0: ["Blind Assassin 2", "Spy 1"]}),
        phase="blind assassin",
    )
    commit(s, {0: ["Blind Assassin 2"]})
    play(s, "Blind Assassin 2 attacks player_3", "no react")
    assert "player_0: Blind Assassin 2 - attacked player_3: player_3 died" in events(s, 4)
    row = next(line for line in s.render(4).splitlines() if line[2:].startswith("player_3"))
    assert "dead: Blind Assassin 2" in row


def test_mirror_monk_reflection_is_named():
    """Rulebook, Mirror Monk: "Reveal this if a Shinobi or Blind Assassin chooses to KILL you.
    KILL them instead." The reveal and the attacker's death are named."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({0: ["Blind Assassin 2", "Spy 1"], 3: ["Mirror Monk", "Spy 2"]}),
        phase="blind assassin",
    )
    commit(s, {0: ["Blind Assassin 2"]})
    play(s, "Blind Assassin 2 attacks player_3", "reveal Mirror Monk")
    lines = events(s, 1)
    assert "player_0: Blind Assassin 2 - attacked player_3" in lines
    assert "player_3: Mirror Monk - revealed: the attack turns back, player_0 died" in lines


def test_shinobi_look_then_spare_is_named():
    """Rulebook, Shinobi: "Choose a player. Look at their HOUSE card. You may choose to KILL
    them." A spared target is named as spared; the look shows only to the Shinobi's owner."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({1: ["Shinobi 3", "Spy 1"], 2: ["Shinobi 5", "Spy 2"]}),
        phase="shinobi",
    )
    commit(s, {1: ["Shinobi 3"], 2: ["Shinobi 5"]})  # player_2's Shinobi keeps the Night going
    play(s, "Shinobi 3 looks at player_4")
    assert "decision: player_1's Shinobi has seen player_4's House card" in s.render(0)
    play(s, "spare")
    assert "player_1: Shinobi 3 - looked at player_4's House card, spared player_4" in events(s, 0)
    assert "Ronin seen" in s.render(1) and "Ronin" not in s.render(0).split("legend")[0]


def test_house_reveal_and_tokens_drawn_are_named():
    """Rulebook, House Reveal: "After the Night, if you're still alive, reveal your House
    card! ... When a House wins, every member of the winning House draws one Honor token - even
    if they were killed!" and "If playing as the Ronin, you draw one Honor token if you survive
    the round." The result and every token drawn are named, with the reason."""
    s = build(
        NightOfTheNinja(num_players=5, mode="round"),
        houses=HOUSES5,  # L1 C1 L2 C2 R; C1 and L2 dead: L1 beats C2
        alive=[True, False, False, True, True],
        phase="shinobi",
    )
    commit(s, {})
    assert s.is_terminal()
    lines = events(s, 0)
    assert "House Reveal: the living show their House cards; House Lotus wins" in lines
    drawn = next(line for line in lines if line.startswith("tokens drawn:"))
    for name in ("player_0 (House win)", "player_2 (House win)", "player_4 (Ronin survived)"):
        assert name in drawn


def test_theft_moves_a_token_publicly():
    """Rulebook, Thief: "Reveal your HOUSE card. You may take one HONOR token from a player who
    has more than you." The reveal, the victim and the token that changed hands are named for
    everyone."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({0: ["Thief", "Spy 1"]}),
        tokens=[[], [2, 3], [], [], []],
        phase="trickster",
    )
    commit(s, {0: ["Thief"]})
    play(s, "steal from player_1")
    lines = events(s, 3)
    assert "player_0: Thief - showed their House card, took a token from player_1" in lines
    assert "1 Honor token moved from player_1 to player_0" in lines
    assert "Lotus 1 shown" in s.render(3)


def test_seat_sees_its_own_draft_and_hand():
    """The seat's own knowledge: its hand, and its draft (dealt, kept, passed, received,
    discarded)."""
    s = build(NightOfTheNinja(num_players=5), houses=HOUSES5, hands=fill({2: ["Judge", "Spy 1"]}))
    text = " ".join(s.render(2).split())  # long lines are wrapped at 100 columns
    assert "your hand: Judge, Spy 1" in text
    draft = text[text.index("your draft: dealt ") :]
    assert "kept Judge, passed" in draft and "to player_3; received" in draft
    assert "Judge" not in s.render(3)  # player_2's hand is hidden from player_3


@pytest.mark.parametrize("reveal", [True, False])
def test_troublemaker_reveal_is_named(reveal):
    """Rulebook, Troublemaker: "Look at another player's HOUSE card. You may reveal it." Whether
    it was revealed is named for everyone, and a revealed card shows in every seat's table."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({0: ["Troublemaker", "Spy 1"], 3: ["Blind Assassin 3", "Spy 2"]}),
        phase="trickster",
    )
    commit(s, {0: ["Troublemaker"]})
    play(s, "Troublemaker looks at player_1", "reveal" if reveal else "don't reveal")
    said = "showed it to all" if reveal else "kept it secret"
    for seat in (None, 0, 2):
        assert f"player_0: Troublemaker - looked at player_1's House card, {said}" in events(
            s, seat
        )
    assert ("Crane 1 shown" in s.render(2)) == reveal


def test_grave_digger_take_is_hidden_but_keeping_it_is_public():
    """Rulebook, Grave Digger: "Look at two discarded NINJA cards and pick one. You may play it
    immediately or keep it in front of you for use later." The others see that it took one and
    keeps it in front of it, not which; its owner sees both cards and the one taken."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({0: ["Grave Digger", "Spy 1"]}),
        discards=["Judge", "Thief", "Shinobi 6", "Shinobi 5", "Shinobi 4"],
        phase="trickster",
    )
    commit(s, {0: ["Grave Digger"]})
    taken = s.action_name(int(np.flatnonzero(s.legal_action_mask())[0])).removeprefix("take ")
    play(s, f"take {taken}", "keep it")
    assert "player_0: Grave Digger - took one of 2 discards, keeps it face down" in events(s, 1)
    assert f"player_0: Grave Digger - took {taken} from the discards, keeps it face down" in (
        events(s, 0)
    )
    assert "your Grave Digger saw" in s.render(0) and "Grave Digger saw" not in s.render(1)
    row = next(line for line in s.render(1).splitlines() if line[2:].startswith("player_0"))
    assert row.endswith("1 + kept")


def test_martyr_reveal_and_token_are_named():
    """Rulebook, Martyr: "Reveal this if a Shinobi or Blind Assassin chooses to KILL you. Gain an
    HONOR token." The reveal, the death and the token are named."""
    s = build(
        NightOfTheNinja(num_players=5),
        houses=HOUSES5,
        hands=fill({1: ["Blind Assassin 3", "Spy 1"], 4: ["Martyr", "Spy 2"]}),
        phase="blind assassin",
        stack=[4],
    )
    commit(s, {1: ["Blind Assassin 3"]})
    play(s, "Blind Assassin 3 attacks player_4", "reveal Martyr")
    lines = events(s, 0)
    assert "player_1: Blind Assassin 3 - attacked player_4: player_4 died" in lines
    assert "player_4: Martyr - revealed: player_4 dies and draws an Honor token" in lines
