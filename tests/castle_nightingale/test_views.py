"""Castle Nightingale's views: the text board, the picture and the names of public moves.

Written from issue 16 ("Readable for people"): "every glyph explained by a legend", "phase and
decision names in words", "every public move named for the other players (moves of the
samurai ...)", "compact aligned tables that fit 100 columns", "each picture is produced from the
seat's view for a player and from the omniscient view for an observer", "every render mode of
every game at several reachable states"; and from the contract: a seat's view holds nothing
hidden from that seat (two true states sharing its information set look the same to it).
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.data import COLOUR_LETTERS, COLOURS
from boardgames_rl.games.castle_nightingale.naming import (
    DECISION_WORDS,
    SECRET_FROM_OPPONENT,
    decision_words,
    public_name,
)
from boardgames_rl.games.castle_nightingale.render import MARKS, WIDTH, legend_lines
from boardgames_rl.games.castle_nightingale.scenario import Ninja, Samurai, build, play
from boardgames_rl.games.castle_nightingale.state import DECISIONS
from boardgames_rl.registry import make_game

NINJA, SAMURAI = 0, 1
VIEWERS = (NINJA, SAMURAI, None)
CONFIGS = ({}, {"side": "B"}, {"side": "B", "keep_last_disc": True})
# hands holding the cards the scenarios play; no equipment, so no token window opens
QUIET_NINJA = Ninja(hand=["Scout", "Supply Cache", "Vanish"], tokens=[], stack=[])
QUIET_SAMURAI = Samurai(hand=["Forced March", "Patrol", "Bar the Hatch"], tokens=[], stack=[])


def random_states(config: dict, seed: int, every: int, limit: int = 400):
    """States met in one seeded random game, one every ``every`` decisions (and the last)."""
    game = make_game("castle_nightingale", **config)
    s = game.new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    for step in range(limit):
        if s.is_terminal():
            break
        if step % every == 0:
            out.append(s.clone())
        s.apply(int(rng.choice(s.legal_actions())))
    out.append(s.clone())
    return out


def grid_cells(text: str) -> list[str]:
    """The cells of the board part of a text view (rows 1-11, garden blank)."""
    cells = []
    for line in text.splitlines()[2:13]:
        assert re.match(r"^ ?\d{1,2}  ", line), line
        cells.extend(t for t in line.split()[1:] if t != "garden")
    return cells


# --------------------------------------------------------------------------- words for decisions
def test_every_decision_kind_has_words():
    """Issue 16: "phase and decision names in words (no prog_n_card, w6_n, w3_end)": every kind
    the engine can ask has a phrase, and no phrase shows an internal kind name."""
    assert set(DECISION_WORDS) == set(DECISIONS)
    internal = [k for k in DECISIONS if "_" in k or any(ch.isdigit() for ch in k)]
    for kind, words in DECISION_WORDS.items():
        assert len(words) <= 85, kind
        assert not any(re.search(rf"\b{k}\b", words) for k in internal), kind


@pytest.mark.parametrize("config", CONFIGS, ids=["A", "B", "B-keep-last-disc"])
def test_text_views_at_random_states(config):
    """Every seat's and the omniscient text view at states of seeded random play: at most 100
    columns; every cell is a colour letter and a glyph the legend under the board explains;
    the pending decision is said in words, never by an internal kind name."""
    internal = [k for k in DECISIONS if "_" in k or any(ch.isdigit() for ch in k)]
    marks_seen = set()
    for seed in (1, 2):
        for s in random_states(config, seed, every=37):
            for viewer in VIEWERS:
                text = s.render(viewer)
                assert max(len(line) for line in text.splitlines()) <= WIDTH
                legend = "\n".join(text.splitlines()[13:20])
                for cell in grid_cells(text):
                    assert cell[0] in COLOUR_LETTERS and cell[1:] in MARKS, cell
                    assert f" {cell[1:]} {MARKS[cell[1:]]}" in legend, cell
                    marks_seen.add(cell[1:])
                for kind in internal:
                    assert not re.search(rf"\b{kind}\b", text), (kind, viewer)
                if s.is_terminal():
                    assert "game over:" in text
                else:
                    assert text.splitlines()[-1].endswith(decision_words(s))
    assert {".", "V", "@", "#", "o", "S"} <= marks_seen  # the run met the usual glyphs


def test_legend_names_every_glyph_and_colour():
    """Issue 16: "every glyph ... explained by a legend": each mark and colour letter is in it."""
    legend = "\n".join(legend_lines({"So"}))
    for mark, meaning in MARKS.items():
        assert f"{mark} {meaning}" in legend
    for letter, colour in zip(COLOUR_LETTERS, COLOURS, strict=True):
        assert f"{letter} {colour}" in legend
    assert "So" not in "\n".join(legend_lines(set()))  # the variant's glyph only when shown


def test_the_decision_words_give_the_public_counts():
    """The prompt says how many discs are left to place and which zone entry is next."""
    game = make_game("castle_nightingale")
    s = build(
        game,
        ninja=replace(QUIET_NINJA, card="Scout", square="J5"),
        samurai=replace(QUIET_SAMURAI, card="Forced March", tiles="red"),
    )
    play(s, "scout vase on K6")
    assert s.decision_kind == "place"
    assert decision_words(s).endswith("(3 discs left)")
    assert "to decide: ninja | ninja's movement: he places his next footprint disc" in s.render(0)
    play(s, "disc -> K5", "disc -> K4", "disc -> K3")
    while s.decision_kind != "entry":
        s.apply(int(s.legal_actions()[0]))
    assert decision_words(s).endswith("(entry 1 of 4)")


# --------------------------------------------------------------------------- nothing hidden
@pytest.mark.parametrize("config", CONFIGS[:2], ids=["A", "B"])
def test_a_seat_view_shows_nothing_hidden(config):
    """A seat's text view (and, at a few states, its picture) is the same for true states that
    share that seat's information set; the omniscient view does differ between some of them
    (so the check has teeth)."""
    rng = np.random.default_rng(5)
    omniscient_differs = 0
    pictures = 0
    for s in random_states(config, 3, every=23):
        if s.is_terminal():
            continue
        for seat in (NINJA, SAMURAI):
            view = s.render(seat)
            for _ in range(3):
                other = s.info_set(seat).sample(rng)
                assert other.render(seat) == view, seat
                omniscient_differs += other.render(None) != s.render(None)
            if pictures < 4 and s.turn >= 2:
                other = s.info_set(seat).sample(rng)
                assert (other.render_rgb(seat) == s.render_rgb(seat)).all()
                pictures += 1
    assert omniscient_differs > 0 and pictures == 4


# --------------------------------------------------------------------------- public moves
def test_public_names_tell_no_more_than_the_other_seat_sees():
    """Issue 16: "every public move named for the other players", and never what is hidden: two
    legal actions the other seat names differently must leave it different observations. (Looking
    into a vase the looker had already seen changes nothing on the board; the vase is named,
    as at the table.)"""
    for config in CONFIGS[:2]:
        game = make_game("castle_nightingale", **config)
        for seed in range(6):
            s = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_terminal():
                legal = [int(a) for a in s.legal_actions()]
                kind, actor = s.decision_kind, s.current_player
                viewer = 1 - actor
                if len(legal) > 1:
                    by_obs: dict[bytes, set[str]] = {}
                    for a in legal:
                        after = s.clone()
                        after.apply(a)
                        key = after.observation(viewer).tobytes()
                        by_obs.setdefault(key, set()).add(public_name(s, a, viewer))
                    for names in by_obs.values():
                        if len(names) > 1:
                            knows = s.ninja_knows if actor == NINJA else s.samurai_knows
                            looked = [t for t, w in enumerate(s.vase_where) if w >= 0 and knows[t]]
                            assert kind in ("scout", "inspect") and looked, (kind, names)
                s.apply(int(rng.choice(legal)))


def test_the_samurai_moves_are_named_for_the_ninja():
    """Issue 16: "the samurai's moves are logged only as 'samurai acted' though his figure
    visibly moves": the ninja is told which zone he enters; his programmed card and tile stay
    unnamed."""
    game = make_game("castle_nightingale")
    s = build(game, samurai=replace(QUIET_SAMURAI, square="K7"), ninja=QUIET_NINJA)
    card, tile = A.SAMURAI_CARD + 0, A.TILE + COLOURS.index("blue")
    assert public_name(s, card, NINJA) == SECRET_FROM_OPPONENT["prog_s_card"]
    assert public_name(s, card, SAMURAI) == "programme card Forced March"
    play(s, "programme card Forced March")
    assert "blue" not in public_name(s, tile, NINJA)
    assert public_name(s, tile, None) == "programme nightingale tile blue"
    assert public_name(s, tile, SAMURAI) == "programme nightingale tile blue"
    play(s, "programme nightingale tile blue", "play card Supply Cache")
    while s.decision_kind != "entry":
        s.apply(int(s.legal_actions()[0]))
    entry = next(a for a in s.legal_actions() if A.ZONE <= a < A.NINJA_CARD)
    zone = s.board.zone_names[entry - A.ZONE]
    assert public_name(s, int(entry), NINJA) == f"enters zone {zone}"
    from boardgames_rl.cli.play import describe_action

    assert describe_action(s, SAMURAI, int(entry), NINJA) == f"samurai: enters zone {zone}"
    with pytest.raises(ValueError, match="game is over"):
        over = s.clone()
        over.decision = None
        public_name(over, int(entry), NINJA)


# --------------------------------------------------------------------------- render modes
def test_every_render_mode_from_every_view():
    """Text (plain and ANSI colour), the picture from each seat and omniscient, and the AEC
    environment's render modes, at a few seeded random states (side A and B)."""
    from boardgames_rl.envs.aec import GameAECEnv

    for config in CONFIGS[:2]:
        states = random_states(config, 4, every=150)
        for s in states[1:3]:  # two mid-game states (decisions 150 and 300)
            for viewer in VIEWERS:
                coloured = s.render(viewer, colour=True)
                assert "\x1b[" in coloured
                assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == s.render(viewer)
                rgb = s.render_rgb(viewer)
                assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
                assert rgb.shape[0] > 500 and rgb.shape[1] > 700 and rgb.std() > 20
            assert (s.render_rgb(NINJA) != s.render_rgb(None)).any() or all(
                s.ninja_knows[t] for t, w in enumerate(s.vase_where) if w >= 0
            )
    game = make_game("castle_nightingale")
    for mode in ("ansi", "rgb_array"):
        env = GameAECEnv(game, render_mode=mode)
        env.reset(seed=3)
        for _ in range(5):
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        out = env.render()
        if mode == "ansi":
            assert out.startswith("Castle Nightingale |") and "legend:" in out
        else:
            assert out.dtype == np.uint8 and out.shape[2] == 3


def test_rules_help_names_the_decision_cards_and_tokens_and_hides_nothing():
    """Issue 16.1: "In play, ? shows the rules summary of the current decision and the text of
    the cards or tiles involved": the help starts with the decision in words, holds the text of
    each card in hand when a card is chosen and of each token the person may use now, fits 100
    columns, and is the same for true states sharing the person's information set."""
    from boardgames_rl.games.castle_nightingale import data
    from boardgames_rl.games.castle_nightingale.rules_help import rules_help

    rng = np.random.default_rng(9)
    kinds = set()
    for config in CONFIGS[:2]:
        for s in random_states(config, 6, every=7):
            if s.is_terminal():
                assert rules_help(s, NINJA) == "The game is over."
                continue
            seat = s.current_player
            text = rules_help(s, seat)
            kinds.add(s.decision_kind)
            assert text.startswith(f"Now: {decision_words(s)}.")
            assert max(len(line) for line in text.splitlines()) <= 100
            flat = " ".join(text.split())
            if s.decision_kind == "prog_n_card":
                for c in s.n_hand:
                    assert " ".join(data.NINJA_CARDS[c].text.split()) in flat
            for a in s.legal_actions():
                if A.NINJA_TOKEN <= a < A.SAMURAI_TOKEN:
                    assert data.NINJA_TOKEN_TEXT[a - A.NINJA_TOKEN] in flat
                elif A.SAMURAI_TOKEN <= a < A.PASS:
                    assert data.SAMURAI_TOKEN_TEXT[a - A.SAMURAI_TOKEN] in flat
            other = s.info_set(seat).sample(rng)
            assert rules_help(other, seat) == text
    assert {"prog_s_card", "prog_n_card", "place", "entry"} <= kinds
