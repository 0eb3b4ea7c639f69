"""What a person reads and sees: action names in words, the text board and the picture.

Issue 16: "Castle Flutterstone lists 77 flicks with no hint of what aim means" -- every flick's
name says what its yaw, elevation and force mean; "every glyph explained by a legend", "compact
aligned tables that fit 100 columns at the largest player count"; "each picture is produced from
the seat's view for a player and from the omniscient view for an observer". The rulebook's turn
is "take aim and fire the bat towards the castle": the names say where a flick aims (which
window, the wall, its edge) and how (arc, force).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from boardgames_rl.games.castle_flutterstone import render
from boardgames_rl.games.castle_flutterstone.data import PHASE_NAMES, PHASES
from boardgames_rl.games.castle_flutterstone.naming import DECISION_WORDS, flick_target
from boardgames_rl.games.castle_flutterstone.scenario import build, play
from boardgames_rl.registry import make_game

CONFIGS = (
    {"num_players": 2},
    {"num_players": 3, "pesky_ghosts": True},
    {"num_players": 4, "pesky_ghosts": True, "play_on": True, "aim_levels": 3, "force_levels": 5},
    {"landing_model": "v1", "num_players": 2},
)


def reachable_states(game, seed: int = 0, games: int = 12) -> dict[str, object]:
    """The first state of random play at each decision kind, and one finished game."""
    rng = np.random.default_rng(seed)
    found: dict[str, object] = {}
    for g in range(games):
        s = game.new_state(seed + g)
        while not s.is_terminal():
            found.setdefault(s.phase_name, s.clone())
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        found.setdefault("over", s)
    return found


@pytest.fixture(
    scope="module", params=CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items())
)
def states(request):
    game = make_game("castle_flutterstone", **request.param)
    return game, reachable_states(game)


def test_reachable_states_cover_the_decisions(states):
    """The render tests below see every decision kind the configuration can reach."""
    game, found = states
    expected = {"play_cards", "flick", "move", "draw", "over"}
    if game.pesky_ghosts:
        expected |= {"place_ghost"}
    assert expected <= set(found)


def test_text_from_every_seat_and_the_observer_fits_100_columns(states):
    """'compact aligned tables that fit 100 columns at the largest player count'; a seat's view
    marks its figure '(you)', the observer's says so."""
    game, found = states
    for phase, s in found.items():
        for player in [None, *range(game.num_players)]:
            text = s.render(player)
            widths = [len(line) for line in text.splitlines()]
            assert max(widths) <= render.WIDTH, (phase, player, text)
            if player is None:
                assert "observer view" in text and "(you)" not in text
            else:
                assert f"seen by {game.player_names[player]}" in text
                assert f"{game.player_names[player]} (you)" in text


def test_decisions_are_in_words_not_phase_ids(states):
    """'phase and decision names in words': the decision line of every reachable state is the
    words of ``DECISION_WORDS`` (or the result), never an internal phase id."""
    game, found = states
    for phase, s in found.items():
        line = render.decision_text(s)
        if phase == "over":
            assert line.startswith("game over")
        else:
            assert DECISION_WORDS[phase] in line
        assert not any(re.search(rf"\b{p}\b", line) for p in PHASE_NAMES if "_" in p)


def test_legend_explains_every_glyph_of_the_track(states):
    """'every glyph explained by a legend': each mark of the track line is a figure letter of a
    seat named in the legend, or a glyph of ``TRACK_LEGEND`` that the legend spells out."""
    game, found = states
    for s in found.values():
        lines = s.render(0).splitlines()
        labels, marks = lines[1], lines[2]
        at = next(i for i, line in enumerate(lines) if line.startswith("legend: "))
        end = next(i for i in range(at + 1, len(lines)) if not lines[i].startswith(" " * 8))
        legend = " ".join(" ".join(lines[at:end]).split())
        for token in marks.split():
            if token in render.TRACK_LEGEND:
                assert f"{token} {render.TRACK_LEGEND[token]}" in legend
            else:
                assert set(token) <= set(render.FIGURE_LETTERS[: game.num_players]), token
                for letter in token:
                    seat = render.FIGURE_LETTERS.index(letter)
                    assert f"{letter} {game.player_names[seat]}" in legend
        for token in labels.split()[1:]:
            assert token.isdigit() or token in ("S", "G")
            if not token.isdigit():
                assert f"{token} {render.TRACK_LEGEND[token]}" in legend


def test_flick_decision_explains_aim_force_and_yaw(states):
    """While a bat is to be flicked the view says what 'aim', 'force' (and 'yaw') mean and what
    each landing gives, and lists the best flicks with their landing chances."""
    game, found = states
    text = " ".join(found["flick"].render(0).split())
    assert "aim E = launch elevation in degrees" in text and "force F = 0 softest .. 1 full" in text
    if game.geometry.yaw_max:
        assert "yaw Y = lateral aim in degrees, - left / + right" in text
        assert "window 1 -15, window 2 +0, window 3 +15" in text
    for words in ("no hit", "courtyard: 1 field", "moat: draw a ghost card", "window: up to 3"):
        assert words in text
    assert "best flicks for" in text and "fields expected" in text
    assert "aim E" not in " ".join(found["move"].render(0).split())


def test_best_flick_hint_is_the_most_expected_fields():
    """The first hinted flick is the one with the most expected fields from the landing model
    (window 3, castle 2, courtyard 1 field; a figure at the start field is never blocked)."""
    from boardgames_rl.games.castle_flutterstone.landing import Effects, landing_grid

    game = make_game("castle_flutterstone")
    s = game.new_state(0)
    table = landing_grid(game.yaws, game.aims, game.forces, "average", Effects(), game.geometry)
    best = int(np.argmax(table.reshape(-1, 5) @ np.array([0, 1, 0, 2, 3])))
    assert render.best_flicks(s)[0].strip().startswith(game.action_name(best) + " (")


def test_flick_names_say_where_and_how_in_words():
    """'take aim and fire the bat towards the castle': each flick's name is its fixed name
    followed by the target its yaw points at, the arc and the force, in words; all distinct,
    none longer than 100 characters."""
    game = make_game("castle_flutterstone")
    s = game.new_state(0)
    names = [s.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == game.num_actions and max(map(len, names)) <= 100
    where = {
        -25: "at the wall's left edge",
        -15: "at window 1 (left)",
        0: "at window 2 (centre)",
        15: "at window 3 (right)",
        25: "at the wall's right edge",
    }
    for a in range(game.layout.num_flicks):
        fixed = game.action_name(a)
        assert names[a].startswith(fixed + ": ")
        assert where[round(game.flick_yaw(a))] in names[a]
        aim, force = game.flick_params(a)
        arc = "low" if aim < 10 + 50 / 3 else ("middle" if aim < 10 + 100 / 3 else "high")
        assert f"{arc} arc" in names[a]
        assert ("full force" in names[a]) == (force > 0.85)
        assert ("softest force" in names[a]) == (force <= 0.15)
    assert (
        s.action_name(game.layout.draw) == game.action_name(game.layout.draw) == "draw ghost card"
    )
    v1 = make_game("castle_flutterstone", landing_model="v1").new_state(0)
    assert v1.action_name(0) == "flick aim 50 force 0.00: at the windows, low arc, softest force"


def test_flick_names_mark_the_window_the_ghost_blocks():
    """Pesky ghost: 'the giver puts the ghost in a window' -- the flicks aimed at that window say
    'ghost in it', no other flick does."""
    game = make_game("castle_flutterstone", num_players=2, pesky_ghosts=True)
    s = build(game, positions=[3, 0], pesky={0: ["Pesky ghost"]})
    play(s, "place ghost in window 2")
    for a in range(game.layout.num_flicks):
        assert s.action_name(a).endswith(" (ghost in it)") == (flick_target(game, a) == 2)
    play(s, s.action_name(0))  # the contextual names are what scenario.play reads


def test_seat_view_hides_the_pile_order_and_the_observer_sees_it():
    """Ghost cards lie face up; only the order of the face-down pile is hidden: two tables that
    differ only in the pile's order look the same to every seat, text and picture, while the
    observer's view shows the order (top first)."""
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    pile = ["Ghost jump", "Eyes closed", "Second go", "Pesky ghost"]
    a = build(game, positions=[2, 7, 0], cards={1: ["Moving forward"]}, draw_pile=pile)
    b = build(game, positions=[2, 7, 0], cards={1: ["Moving forward"]}, draw_pile=pile[::-1])
    for seat in range(3):
        assert a.render(seat) == b.render(seat)
        assert "pile from the top" not in a.render(seat)
        assert np.array_equal(a.render_rgb(seat), b.render_rgb(seat))
    assert "pile from the top (observer view only, hidden from players): Ghost jump, Eyes" in (
        " ".join(a.render(None).split())
    )
    assert a.render(None) != b.render(None)
    assert not np.array_equal(a.render_rgb(None), b.render_rgb(None))


def test_pictures_of_every_reachable_decision_from_every_seat(states):
    """'every render mode of every game at several reachable states': an RGB picture for the
    observer and for each seat, a real drawing (many colours), the seat's differing from the
    observer's only where the views differ (the title at least)."""
    game, found = states
    for phase in ("flick", "over", *(p for p in PHASES if p in found)):
        s = found[phase]
        pictures = [s.render_rgb(p) for p in [None, *range(game.num_players)]]
        for img in pictures:
            assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
            assert img.shape[:2] == pictures[0].shape[:2] and img.shape[1] >= 900
            assert len(np.unique(img.reshape(-1, 3), axis=0)) > 30
        assert not np.array_equal(pictures[0], pictures[1])
        break  # one phase per config keeps this test quick; the next test covers the rest


GHOST_CONFIGS = [c for c in CONFIGS if c.get("pesky_ghosts")]


@pytest.mark.parametrize(
    "config", GHOST_CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items())
)
def test_pictures_of_every_decision_kind(config):
    """Every decision kind reached is drawn without error from the turn player's seat. The tables
    with the ghost cards reach every kind the others do and two more (give, place ghost); the
    others' flick is drawn from every seat by the test above."""
    game = make_game("castle_flutterstone", **config)
    found = reachable_states(game)
    assert {"play_cards", "flick", "move", "draw", "give", "place_ghost", "over"} <= set(found)
    for s in found.values():
        seat = s.current_player if s.current_player >= 0 else 0
        img = s.render_rgb(seat)
        assert img.shape[2] == 3 and len(np.unique(img.reshape(-1, 3), axis=0)) > 30
