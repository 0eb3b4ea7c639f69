"""Rule tests for Night of the Ninja (rulebook ``shared/rulebooks/night_of_the_ninja.txt`` and data
sheet ``shared/games/night_of_the_ninja.md``), plus the information model and info-set sampling.

Positions are hand-made with ``scenario.build``; decisions are answered by their contextual names
(``scenario.play``) and a Night phase's commitment asks by ``scenario.commit``.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgames_rl.core.errors import IllegalActionError, InvalidConfigError
from boardgames_rl.games.night_of_the_ninja import cards as C
from boardgames_rl.games.night_of_the_ninja import honor_shaping
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.scenario import (
    build,
    card,
    check_invariants,
    commit,
    house,
    legal_names,
    play,
    set_grave_digger_sight,
)
from boardgames_rl.games.night_of_the_ninja.state import (
    AWARD_HOUSE,
    AWARD_MARTYR,
    AWARD_RONIN,
    AWARD_TIE,
    LOST,
    RESOLVED,
    RESULT_RONIN_MASTERMIND,
    RESULT_TIE,
    compare_houses,
)
from boardgames_rl.registry import make_game

G5 = NightOfTheNinja(num_players=5)
G5R = NightOfTheNinja(num_players=5, mode="round")
G4 = NightOfTheNinja(num_players=4)
HOUSES5 = ["L1", "C1", "L2", "C2", "R"]
LOTUS_WINS = [True, False, False, True, True]  # with houses L1 L2 C1 C2 R: L1, C2, Ronin live


def hands5(**over):
    """Default 5-player hands without any Night-phase card that would need an answer, with
    replacements by seat: ``hands5(p0=["Spy 1", "Martyr"])``."""
    base = [
        ["Mirror Monk", "Spy 6"],
        ["Martyr", "Mystic 6"],
        ["Mastermind", "Spy 5"],
        ["Mystic 5", "Spy 4"],
        ["Mystic 4", "Spy 3"],
    ]
    for key, value in over.items():
        base[int(key[1:])] = value
    return base


def fill(hands, n=5):
    """Complete hands given for a few seats with cards nobody else uses (Spies / Mystics that
    will simply be skipped)."""
    used = {card(c) for h in hands.values() for c in h}
    spare = [c for c in range(12) if c not in used]
    out = []
    for p in range(n):
        if p in hands:
            out.append(list(hands[p]))
        else:
            out.append([C.CARD_NAMES[spare.pop()], C.CARD_NAMES[spare.pop()]])
    return out


def skip_to(s, phase: int) -> None:
    """Answer every commitment with "done" until the given Night phase's commitment."""
    while s.phase < phase:
        commit(s)


def obs_field(s, player, name):
    return s.game.observation_spec.unflatten(s.observation(player))[name]


def scores(s):
    return [s.score(p) for p in range(s.game.num_players)]


def assert_samples_agree(s, samples=5, seed=14):
    """Every player's information-set samples are valid states giving it the same observation."""
    rng = np.random.default_rng(seed)
    for p in range(s.game.num_players):
        info = s.info_set(p)
        for _ in range(samples):
            smp = info.sample(rng)
            check_invariants(smp)
            assert np.array_equal(smp.observation(p), s.observation(p)), p


# =========================================================================== setup
@pytest.mark.parametrize("n", range(4, 12))
def test_setup_by_player_count(n):
    g = NightOfTheNinja(num_players=n)
    s = g.new_state(3)
    k = n // 2
    expected = sorted([*range(k), *range(5, 5 + k)] + ([C.RONIN] if n % 2 else []))
    assert sorted(s.dealt_house) == expected == sorted(g.house_cards)
    assert (C.RONIN in s.dealt_house) == (n % 2 == 1)
    assert all(len(d) == 3 for d in s.dealt) and len(s.aside) == 33 - 3 * n
    assert len(s.stack) == 35 and not any(s.tokens)
    assert sorted(s.token_value) == sorted([2] * 12 + [3] * 12 + [4] * 11)
    assert s.decision_kind == "draft_pick1" and s.current_player == 0
    assert g.num_actions == 33 + 11 + 7  # one layout for every player count
    check_invariants(s)


def test_house_cards_by_count_table():
    assert [C.HOUSE_SHORT[h] for h in C.houses_for(4)] == ["L1", "L2", "C1", "C2"]
    assert [C.HOUSE_SHORT[h] for h in C.houses_for(7)] == ["L1", "L2", "L3", "C1", "C2", "C3", "R"]
    assert len(C.houses_for(11)) == 11
    assert C.NUM_CARDS == 33 and sum(C.HONOR_SPLIT.values()) == 35


def test_deck_composition():
    kinds = [c.kind for c in C.NINJA_CARDS]
    for kind in ("Spy", "Mystic", "Blind Assassin", "Shinobi"):
        assert kinds.count(kind) == 6
    assert [c.name for c in C.NINJA_CARDS[12:18]] == list(C.TRICKSTER_NAMES)
    assert [c.number for c in C.NINJA_CARDS[12:18]] == [1, 2, 3, 4, 5, 6]
    assert C.CARD_NAMES[30:] == ("Mirror Monk", "Martyr", "Mastermind")


@pytest.mark.parametrize(
    "config", [{"num_players": 3}, {"num_players": 12}, {"mode": "x"}, {"max_rounds": 0}]
)
def test_invalid_config(config):
    with pytest.raises(InvalidConfigError):
        NightOfTheNinja(**config)


def test_registered():
    g = make_game("night_of_the_ninja", num_players=6)
    assert isinstance(g, NightOfTheNinja) and g.num_players == 6


# =========================================================================== draft
def test_draft_pick_pass_left_pick_discard():
    dealt = [
        ["Spy 1", "Spy 2", "Spy 3"],
        ["Mystic 1", "Mystic 2", "Mystic 3"],
        ["Judge", "Thief", "Martyr"],
        ["Shinobi 1", "Shinobi 2", "Shinobi 3"],
    ]
    s = build(G4, phase="draft", dealt=dealt, houses=["L1", "C1", "L2", "C2"])
    assert legal_names(s) == ["pick Spy 1", "pick Spy 2", "pick Spy 3"]
    play(s, "pick Spy 1")
    assert s.current_player == 1 and s.decision_kind == "draft_pick1"
    play(s, "pick Mystic 2", "pick Judge", "pick Shinobi 3")
    # the two others went to the left neighbour
    assert s.decision_kind == "draft_pick2" and s.current_player == 0
    assert legal_names(s) == ["keep Shinobi 1", "keep Shinobi 2"]
    play(s, "keep Shinobi 2")
    assert s.received[1] == [card("Spy 2"), card("Spy 3")]
    play(s, "keep Spy 3", "keep Mystic 1", "keep Martyr")
    assert s.hand == [
        [card("Spy 1"), card("Shinobi 2")],
        [card("Mystic 2"), card("Spy 3")],
        [card("Judge"), card("Mystic 1")],
        [card("Shinobi 3"), card("Martyr")],
    ]
    assert s.discards == sorted(card(c) for c in ("Shinobi 1", "Spy 2", "Mystic 3", "Thief"))
    assert s.decision_kind == "commit" and s.phase == C.SPY
    draft = obs_field(s, 1, "draft")
    assert draft[1, card("Mystic 2")] == 1 and draft[2, card("Mystic 1")] == 1
    assert draft[2, card("Mystic 3")] == 1 and draft[3, card("Spy 2")] == 1
    assert draft[4, card("Spy 3")] == 1 and draft[5, card("Spy 2")] == 1
    check_invariants(s)


def test_draft_picks_are_hidden_from_the_others():
    dealt = [
        ["Spy 1", "Spy 2", "Spy 3"],
        ["Mystic 1", "Mystic 2", "Mystic 3"],
        ["Judge", "Thief", "Martyr"],
        ["Shinobi 1", "Shinobi 2", "Shinobi 3"],
    ]
    a = build(G4, phase="draft", dealt=dealt)
    b = a.clone()
    play(a, "pick Spy 1")
    play(b, "pick Spy 3")
    for p in (1, 2, 3):
        assert np.array_equal(a.observation(p), b.observation(p))
    assert not np.array_equal(a.observation(0), b.observation(0))


# =========================================================================== the Night
def test_phases_in_order_and_cards_by_number():
    hands = fill({1: ["Spy 5", "Mystic 2"], 3: ["Spy 2", "Judge"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    assert s.phase == C.SPY
    commit(s, {1: ["Spy 5"], 3: ["Spy 2"]})
    # Spy 2 resolves first, then Spy 5
    assert s.decision_kind == "target" and s.decision["card"] == card("Spy 2")
    play(s, "Spy 2 looks at player_0")
    assert s.decision["card"] == card("Spy 5")
    play(s, "Spy 5 looks at player_2")
    assert s.phase == C.MYSTIC and s.decision_kind == "commit"
    seen = []
    while not s.is_terminal() and s.round == 1:
        if s.decision_kind == "commit":
            seen.append(s.phase)
        commit(s)
    assert sorted(set(seen)) == [C.SPY + 1, C.TRICKSTER, C.BLIND_ASSASSIN, C.SHINOBI]


def test_a_skipped_card_is_lost():
    hands = fill({0: ["Spy 1", "Blind Assassin 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    assert "play Spy 1" in legal_names(s)
    commit(s)  # nobody plays a Spy
    assert s.phase == C.MYSTIC
    assert legal_names(s) == ["done"]  # the Spy can't be played any more
    skip_to(s, C.BLIND_ASSASSIN)
    assert legal_names(s) == ["play Blind Assassin 2", "done"]
    assert s.hand[0] == [card("Spy 1"), card("Blind Assassin 2")]


def test_every_living_player_is_asked_once_per_card_held():
    hands = fill({0: ["Spy 1", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands, alive=[True, True, False, True, True])
    asked = []
    while s.phase == C.SPY:
        asked.append(s.current_player)
        if s.current_player == 0 and len(s.hand[0]) == 2:
            play(s, "play Spy 1")
        elif s.current_player == 0:
            play(s, "done")
        else:
            play(s, "done")
        if s.decision_kind != "commit":
            break
    assert asked == [0, 0, 1, 1, 3, 3, 4, 4]  # the dead player_2 is not asked


def test_after_done_only_done():
    hands = fill({0: ["Spy 1", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    play(s, "done")
    assert s.current_player == 0 and legal_names(s) == ["done"]


def test_commitments_are_hidden_until_revealed():
    hands = fill({0: ["Spy 1", "Spy 2"]})
    a = build(G5, houses=HOUSES5, hands=hands)
    b = a.clone()
    play(a, "play Spy 1", "play Spy 2")
    play(b, "done", "done")
    for p in range(1, 5):
        assert np.array_equal(a.observation(p), b.observation(p)), p
    assert obs_field(a, 0, "own_committed")[card("Spy 1")] == 1


def test_death_before_ones_card_resolves():
    hands = fill({0: ["Blind Assassin 1", "Spy 1"], 1: ["Blind Assassin 4", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.BLIND_ASSASSIN)
    commit(s, {0: ["Blind Assassin 1"], 1: ["Blind Assassin 4"]})
    play(s, "Blind Assassin 1 attacks player_1")
    assert legal_names(s) == ["no react"]  # asked although it holds no react
    play(s, "no react")
    assert not s.alive[1] and s.death[1] == card("Blind Assassin 1")
    rec = next(r for r in s.played if r[0] == card("Blind Assassin 4"))
    assert rec[5] == LOST
    assert s.decision_kind == "commit" and s.phase == C.SHINOBI
    assert 1 not in [s.current_player]


def test_judge_ignores_reacts():
    hands = fill({0: ["Judge", "Spy 1"], 2: ["Mirror Monk", "Martyr"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Judge"]})
    assert s.looks[-1] == [-1, 0, house("L1"), False]  # the Judge reveals its House card
    play(s, "Judge kills player_2")
    assert not s.alive[2] and s.decision_kind == "commit"  # no react asked
    assert card("Mirror Monk") in s.hand[2]


def test_mirror_monk_reflects_the_kill():
    hands = fill({0: ["Blind Assassin 2", "Spy 1"], 3: ["Mirror Monk", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.BLIND_ASSASSIN)
    commit(s, {0: ["Blind Assassin 2"]})
    play(s, "Blind Assassin 2 attacks player_3")
    assert s.current_player == 3 and legal_names(s) == ["reveal Mirror Monk", "no react"]
    play(s, "reveal Mirror Monk")
    assert s.alive[3] and not s.alive[0] and s.death[0] == C.MIRROR_MONK
    assert [card("Mirror Monk"), 3, 0, 0, -1, RESOLVED] == s.played[-1]


def test_martyr_dies_and_gains_a_token():
    hands = fill({1: ["Shinobi 3", "Spy 1"], 4: ["Martyr", "Mirror Monk"]})
    s = build(G5R, houses=HOUSES5, hands=hands, stack=[4])
    skip_to(s, C.SHINOBI)
    commit(s, {1: ["Shinobi 3"]})
    play(s, "Shinobi 3 looks at player_4")
    assert s.looks[-1] == [1, 4, C.RONIN, False]
    play(s, "kill")
    assert legal_names(s) == ["reveal Mirror Monk", "reveal Martyr", "no react"]
    play(s, "reveal Martyr")
    assert not s.alive[4] and s.alive[1]
    assert s.awards[4] == [AWARD_MARTYR] and s.score(4) == 4


def test_shinobi_may_spare():
    hands = fill({1: ["Shinobi 3", "Spy 1"]})
    s = build(G5R, houses=HOUSES5, hands=hands)
    skip_to(s, C.SHINOBI)
    commit(s, {1: ["Shinobi 3"]})
    play(s, "Shinobi 3 looks at player_4", "spare")
    assert all(s.alive)


def test_spy_look_is_private():
    hands = fill({1: ["Spy 5", "Mystic 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    commit(s, {1: ["Spy 5"]})
    play(s, "Spy 5 looks at player_2")
    assert obs_field(s, 1, "house_known")[1, house("L2")] == 1  # row 1 = left neighbour
    for p in (0, 2, 3, 4):
        assert obs_field(s, p, "house_known").sum() == 0
    # the named target is public
    assert obs_field(s, 0, "card_target")[card("Spy 5"), 2] == 1


def test_mystic_sees_house_and_a_random_ninja_card():
    hands = fill({0: ["Mystic 1", "Spy 1"], 2: ["Blind Assassin 1", "Shinobi 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.MYSTIC)
    commit(s, {0: ["Mystic 1"]})
    play(s, "Mystic 1 looks at player_2")
    who, target, seen, _ = s.mystic[-1]
    assert (who, target) == (0, 2) and seen in (card("Blind Assassin 1"), card("Shinobi 1"))
    assert obs_field(s, 0, "mystic_seen")[2, seen] == 1
    assert obs_field(s, 0, "house_known")[2, house("L2")] == 1


def test_shapeshifter_swaps_secretly():
    hands = fill({0: ["Shapeshifter", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    assert "name player_0" in legal_names(s)  # itself allowed
    play(s, "name player_1", "name player_2")
    assert legal_names(s) == ["don't swap", "swap"]
    play(s, "swap")
    assert s.house[1] == house("L2") and s.house[2] == house("C1")
    # the swapped players still see the House card dealt to them
    assert obs_field(s, 1, "own_house_dealt")[house("C1")] == 1
    assert obs_field(s, 2, "own_house_dealt")[house("L2")] == 1
    assert obs_field(s, 0, "house_seen_before_swap")[1, house("C1")] == 1
    assert obs_field(s, 0, "ss_swap")[0] == 1
    # nobody else can tell a swap from no swap
    t = build(G5, houses=HOUSES5, hands=hands)
    skip_to(t, C.TRICKSTER)
    commit(t, {0: ["Shapeshifter"]})
    play(t, "name player_1", "name player_2", "don't swap")
    for p in range(1, 5):
        assert np.array_equal(s.observation(p), t.observation(p))
        assert obs_field(s, p, "ss_named")[(1 - p) % 5] == 1


def test_a_look_before_the_swap_is_marked():
    hands = fill({3: ["Spy 1", "Mystic 1"], 0: ["Shapeshifter", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    commit(s, {3: ["Spy 1"]})
    play(s, "Spy 1 looks at player_1")
    assert obs_field(s, 3, "house_known")[(1 - 3) % 5, house("C1")] == 1
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    play(s, "name player_1", "name player_4", "swap")
    row = (1 - 3) % 5
    assert obs_field(s, 3, "house_known")[row].sum() == 0
    assert obs_field(s, 3, "house_seen_before_swap")[row, house("C1")] == 1


def test_grave_digger_play_now():
    hands = fill({0: ["Grave Digger", "Spy 1"]})
    s = build(
        G5,
        houses=HOUSES5,
        hands=hands,
        discards=["Judge", "Thief", "Shinobi 4", "Shinobi 5", "Shinobi 6"],
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"]})
    seen = [c for c in s.gd[1:3]]
    assert len(seen) == 2 and all(c in s.discards for c in seen)
    assert obs_field(s, 0, "gd_seen")[seen].sum() == 2
    assert obs_field(s, 1, "gd_seen").sum() == 0
    take = seen[0]
    play(s, f"take {C.CARD_NAMES[take]}")
    assert take not in s.discards
    assert legal_names(s) == ["keep it", "play it now"]
    play(s, "play it now")
    rec = next(r for r in s.played if r[0] == take)
    assert rec[1] == 0 and rec[2] == 1  # from the Grave Digger, public
    assert s.current_player == 0  # its effect resolves now
    check_invariants(s)


def test_grave_digger_keep_and_play_a_trickster_at_its_number():
    hands = fill({0: ["Grave Digger", "Spy 1"], 2: ["Spirit Merchant", "Spy 2"]})
    s = build(
        G5,
        houses=HOUSES5,
        hands=hands,
        discards=["Thief", "Troublemaker", "Spy 4", "Spy 5", "Spy 6"],
        seed=1,
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"], 2: ["Spirit Merchant"]})
    set_grave_digger_sight(s, ["Troublemaker", "Thief"])  # fix the random sight for the test
    play(s, "take Thief", "keep it")
    assert s.kept[0] == card("Thief")
    assert obs_field(s, 1, "gd_kept")[(0 - 1) % 5] == 1
    # number 3: nobody played the Troublemaker: the keeper is asked (only "don't play")
    assert s.decision_kind == "kept_trickster" and legal_names(s) == ["don't play"]
    play(s, "don't play")
    # number 4: the Spirit Merchant resolves (no question to the keeper)
    assert s.decision["card"] == card("Spirit Merchant")
    play(s, "Spirit Merchant visits player_0", "look at house")
    # number 5: the kept Thief may be played now
    assert legal_names(s) == ["play kept Thief", "don't play"]
    play(s, "play kept Thief")
    assert s.kept[0] == -1 and s.looks[-1][:2] == [-1, 0]
    # number 6: still asked (it holds no kept card any more: not asked)
    assert s.decision_kind == "commit" and s.phase == C.BLIND_ASSASSIN


def test_grave_digger_keep_a_killer_for_later():
    hands = fill({0: ["Grave Digger", "Spy 1"]})
    s = build(
        G5,
        houses=HOUSES5,
        hands=hands,
        discards=["Blind Assassin 6", "Shinobi 3", "Shinobi 4", "Shinobi 5", "Shinobi 6"],
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"]})
    set_grave_digger_sight(s, ["Blind Assassin 6", "Shinobi 3"])
    play(s, "take Blind Assassin 6", "keep it")
    for _ in range(4):
        play(s, "don't play")
    assert s.phase == C.BLIND_ASSASSIN
    assert legal_names(s) == ["play Blind Assassin 6", "done"]
    commit(s, {0: ["Blind Assassin 6"]})
    play(s, "Blind Assassin 6 attacks player_3", "no react")
    assert not s.alive[3]


def test_grave_digger_react_can_only_be_kept():
    s = build(
        G5,
        houses=HOUSES5,
        hands=[
            ["Grave Digger", "Spy 1"],
            ["Spy 2", "Spy 3"],
            ["Spy 4", "Spy 5"],
            ["Spy 6", "Mystic 1"],
            ["Mystic 2", "Mystic 3"],
        ],
        discards=["Mirror Monk", "Mastermind", "Martyr", "Judge", "Thief"],
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"]})
    set_grave_digger_sight(s, ["Mirror Monk", "Mastermind"])
    play(s, "take Mastermind")
    assert legal_names(s) == ["keep it"]


def test_troublemaker_may_reveal():
    hands = fill({0: ["Troublemaker", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Troublemaker"]})
    play(s, "Troublemaker looks at player_3")
    assert obs_field(s, 0, "house_known")[3, house("C2")] == 1
    assert obs_field(s, 1, "house_known").sum() == 0
    play(s, "reveal")
    for p in range(5):
        assert obs_field(s, p, "house_revealed")[(3 - p) % 5] == 1


def test_spirit_merchant_token_look_and_swap():
    hands = fill({0: ["Spirit Merchant", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands, tokens=[[2], [4], [], [], []])
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Spirit Merchant"]})
    play(s, "Spirit Merchant visits player_1")
    assert legal_names(s) == ["look at house", "look at honor token"]
    play(s, "look at honor token")
    token = s.sm[3]
    assert token in s.known[0] and s.tokens[1] == [token]
    assert obs_field(s, 0, "tokens_known")[1].tolist() == [0, 0, 1]
    assert legal_names(s) == ["no swap", "give a 2"]
    play(s, "give a 2")
    assert scores(s)[:2] == [4, 2]
    assert obs_field(s, 1, "tokens_known")[4].tolist() == [0, 0, 1]  # it knows what it gave
    assert obs_field(s, 1, "tokens_known")[0].tolist() == [1, 0, 0]


def test_spirit_merchant_without_tokens():
    hands = fill({0: ["Spirit Merchant", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Spirit Merchant"]})
    play(s, "Spirit Merchant visits player_1")
    assert legal_names(s) == ["look at house"]
    play(s, "look at house")
    assert s.decision_kind == "commit"  # no swap possible


def test_thief_reveals_and_steals_from_a_richer_player():
    hands = fill({4: ["Thief", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands, tokens=[[3, 3], [2], [4], [], [2]])
    skip_to(s, C.TRICKSTER)
    commit(s, {4: ["Thief"]})
    assert s.looks[-1] == [-1, 4, C.RONIN, False]
    assert legal_names(s) == ["steal from player_0", "no theft"]  # more tokens than it: only 0
    play(s, "steal from player_0")
    assert len(s.tokens[0]) == 1 and len(s.tokens[4]) == 2 and s.score(4) == 5


def test_thief_without_richer_player():
    hands = fill({4: ["Thief", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {4: ["Thief"]})
    assert s.decision_kind == "commit" and s.looks[-1] == [-1, 4, C.RONIN, False]


G5_OLD = NightOfTheNinja(num_players=5, living_targets_only=True, target_learns_look=False)
G5R_OLD = NightOfTheNinja(
    num_players=5, mode="round", living_targets_only=True, target_learns_look=False
)
DEAD_1_4 = [True, False, True, True, False]


@pytest.mark.parametrize("game", [G5, G5_OLD])
def test_killing_cards_need_a_living_target(game):
    """Judge: "Choose a player and KILL them"; Blind Assassin: "Choose a player and KILL them";
    Shinobi: "Choose a player. Look at their HOUSE card. You may choose to KILL them." A dead
    player cannot be killed: with either reading only the living are targets."""
    hands = fill({0: ["Blind Assassin 1", "Judge"], 2: ["Shinobi 2", "Spy 1"]})
    s = build(game, houses=HOUSES5, hands=hands, alive=DEAD_1_4)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Judge"]})
    assert legal_names(s) == ["Judge kills player_2", "Judge kills player_3"]
    play(s, "Judge kills player_3")
    skip_to(s, C.BLIND_ASSASSIN)
    commit(s, {0: ["Blind Assassin 1"]})
    assert legal_names(s) == ["Blind Assassin 1 attacks player_2"]
    play(s, "Blind Assassin 1 attacks player_2", "no react")
    t = build(game, houses=HOUSES5, hands=hands, alive=DEAD_1_4, phase="shinobi")
    commit(t, {2: ["Shinobi 2"]})
    assert legal_names(t) == ["Shinobi 2 looks at player_0", "Shinobi 2 looks at player_3"]


def test_spy_mystic_and_troublemaker_may_look_at_a_dead_player():
    """Spy: "Look at another player's HOUSE card"; Mystic: "Look at the HOUSE card and one NINJA
    card of another player"; Troublemaker: "Look at another player's HOUSE card. You may reveal
    it." None of them KILLs, and a dead player is still a player (the rulebook: "you may continue
    to speak ..."): a dead player may be named (``living_targets_only=False``, the default)."""
    hands = fill({0: ["Spy 1", "Mystic 1"], 3: ["Troublemaker", "Spy 2"]})
    s = build(G5, houses=HOUSES5, hands=hands, alive=DEAD_1_4)
    commit(s, {0: ["Spy 1"]})
    assert legal_names(s) == [f"Spy 1 looks at player_{q}" for q in (1, 2, 3, 4)]
    play(s, "Spy 1 looks at player_1")
    assert obs_field(s, 0, "house_known")[1, house("C1")] == 1
    commit(s, {0: ["Mystic 1"]})
    play(s, "Mystic 1 looks at player_4")  # dead, still holding its two cards
    assert s.mystic[-1][:2] == [0, 4] and s.mystic[-1][2] in s.hand[4]
    assert obs_field(s, 0, "house_known")[4, C.RONIN] == 1
    commit(s, {3: ["Troublemaker"]})
    assert "Troublemaker looks at player_1" in legal_names(s)
    play(s, "Troublemaker looks at player_1", "reveal")
    for p in range(5):  # the dead player's House card is now public
        assert obs_field(s, p, "house_revealed")[(1 - p) % 5] == 1
    assert_samples_agree(s)


def test_spirit_merchant_may_look_at_and_swap_with_a_dead_player():
    """Spirit Merchant: "Look at another player's HONOR token or HOUSE card. You may swap one
    HONOR token with them." It does not KILL: a dead player may be visited and traded with."""
    hands = fill({0: ["Spirit Merchant", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands, tokens=[[2], [4], [], [], []], alive=DEAD_1_4)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Spirit Merchant"]})
    assert "Spirit Merchant visits player_1" in legal_names(s)
    play(s, "Spirit Merchant visits player_1", "look at honor token", "give a 2")
    assert scores(s)[:2] == [4, 2] and not s.alive[1]
    assert_samples_agree(s)


def test_thief_may_steal_from_a_dead_player():
    """Thief: "Reveal your HOUSE card. You may take one HONOR token from a player who has more
    than you." The dead player who has more is such a player."""
    hands = fill({4: ["Thief", "Spy 1"]})
    alive = [False, True, True, True, True]
    s = build(G5, houses=HOUSES5, hands=hands, tokens=[[3, 3], [2], [4], [], [2]], alive=alive)
    skip_to(s, C.TRICKSTER)
    commit(s, {4: ["Thief"]})
    assert legal_names(s) == ["steal from player_0", "no theft"]
    play(s, "steal from player_0")
    assert len(s.tokens[0]) == 1 and s.score(4) == 5


def test_shapeshifter_may_swap_a_dead_players_house():
    """Shapeshifter: "Look at the HOUSE cards of two players. You may secretly swap them around."
    Any two players, a dead one too; "every member of the winning House draws one Honor token --
    even if they were killed", so the swap decides who scores."""
    hands = fill({0: ["Shapeshifter", "Spy 1"]})
    alive = [True, False, True, True, True]  # Crane 1 (player_1) is dead
    s = build(G5R, houses=HOUSES5, hands=hands, alive=alive)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    assert legal_names(s) == [f"name player_{q}" for q in range(5)]
    play(s, "name player_0", "name player_1", "swap")  # player_0 now holds Crane 1
    skip_to(s, C.SHINOBI)
    commit(s)
    # living: C1 (player_0), L2, C2, Ronin: Crane wins; the dead Lotus 1 holder gets nothing
    assert s.result == C.CRANE and s.house[1] == house("L1")
    assert s.awards[0] == [AWARD_HOUSE] and s.awards[1] == [] and s.awards[3] == [AWARD_HOUSE]
    assert_samples_agree(s)


def test_a_grave_digger_kill_makes_a_dead_player_a_target_in_play():
    """In play a card that does not kill meets a dead player only after the Grave Digger plays a
    killer "immediately" (Trickster 2): then the Troublemaker (3), Spirit Merchant (4) and
    Thief (5) may name the dead player. Every player's samples keep its observation."""
    hands = fill(
        {0: ["Grave Digger", "Spy 1"], 3: ["Troublemaker", "Spy 2"], 1: ["Thief", "Spy 3"]}
    )
    s = build(
        G5,
        houses=HOUSES5,
        hands=hands,
        tokens=[[], [], [3, 4], [], []],
        discards=["Blind Assassin 1", "Judge", "Shinobi 4", "Shinobi 5", "Shinobi 6"],
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"], 3: ["Troublemaker"], 1: ["Thief"]})
    set_grave_digger_sight(s, ["Blind Assassin 1", "Judge"])
    play(s, "take Blind Assassin 1", "play it now", "Blind Assassin 1 attacks player_2")
    play(s, "no react")
    assert not s.alive[2]
    assert "Troublemaker looks at player_2" in legal_names(s)
    play(s, "Troublemaker looks at player_2", "reveal")
    assert legal_names(s) == ["steal from player_2", "no theft"]  # the dead player has more
    play(s, "steal from player_2")
    assert len(s.tokens[1]) == 1 and len(s.tokens[2]) == 1
    assert_samples_agree(s)


def test_living_targets_only_keeps_the_earlier_reading():
    """Config flag ``living_targets_only=True``: every target, of every card, is a living
    player."""
    hands = fill({0: ["Spy 1", "Shapeshifter"], 2: ["Thief", "Spirit Merchant"]})
    s = build(G5_OLD, houses=HOUSES5, hands=hands, alive=DEAD_1_4, tokens=[[], [3, 3], [], [], []])
    commit(s, {0: ["Spy 1"]})
    assert legal_names(s) == ["Spy 1 looks at player_2", "Spy 1 looks at player_3"]
    play(s, "Spy 1 looks at player_2")
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"], 2: ["Spirit Merchant", "Thief"]})
    assert legal_names(s) == [f"name player_{q}" for q in (0, 2, 3)]
    play(s, "name player_0", "name player_2", "don't swap")
    assert legal_names(s) == [
        "Spirit Merchant visits player_0",
        "Spirit Merchant visits player_3",
    ]
    play(s, "Spirit Merchant visits player_0", "look at house")
    # the Thief: only the dead player_1 has more tokens than player_2: nobody to steal from
    assert s.decision_kind == "commit" and s.phase == C.BLIND_ASSASSIN


@pytest.mark.parametrize("game", [G5, G5_OLD])
def test_mystic_target_learns_which_ninja_card_was_seen(game):
    """Mystic: "Look at the HOUSE card and one NINJA card of another player." The card is taken
    from the target's hand, so the target knows which one was seen (``target_learns_look``, the
    default); the others only know that one was. With the flag off, the earlier reading: the
    target is not told, and its information set deals the seen card again."""
    hands = fill({0: ["Mystic 1", "Spy 1"], 2: ["Blind Assassin 1", "Shinobi 1"]})
    s = build(game, houses=HOUSES5, hands=hands)
    skip_to(s, C.MYSTIC)
    commit(s, {0: ["Mystic 1"]})
    play(s, "Mystic 1 looks at player_2")
    seen = s.mystic[-1][2]
    told = obs_field(s, 2, "mystic_saw_yours")
    for p in (0, 1, 3, 4):
        assert obs_field(s, p, "mystic_saw_yours").sum() == 0
    rng = np.random.default_rng(12)
    sampled = {smp.mystic[-1][2] for smp in (s.info_set(2).sample(rng) for _ in range(40))}
    line = f"player_0's Mystic saw your {C.CARD_NAMES[seen]}"
    if game.target_learns_look:
        assert told[(0 - 2) % 5, seen] == 1 and told.sum() == 1  # row of the Mystic's owner
        assert sampled == {seen}
        assert line in s.render(2)
    else:
        assert told.sum() == 0
        assert line not in s.render(2)
        assert sampled == {card("Blind Assassin 1"), card("Shinobi 1")}
    # a third player's samples never know which card it was
    third = {smp.mystic[-1][2] for smp in (s.info_set(3).sample(rng) for _ in range(60))}
    assert len(third) > 1
    assert_samples_agree(s)


@pytest.mark.parametrize("game", [G5, G5_OLD])
def test_spirit_merchant_target_learns_which_token_was_seen(game):
    """Spirit Merchant: "Look at another player's HONOR token ..." The token is picked up from
    the target's pile, so the target knows which one (and it knows its value): with
    ``target_learns_look`` (the default) its observation shows the value the Merchant saw."""
    hands = fill({0: ["Spirit Merchant", "Spy 1"]})
    s = build(game, houses=HOUSES5, hands=hands, tokens=[[], [2, 4], [], [], []])
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Spirit Merchant"]})
    play(s, "Spirit Merchant visits player_1", "look at honor token")
    value = s.token_value[s.sm[3]]
    one_hot = [1 if v == value else 0 for v in (2, 3, 4)]
    assert obs_field(s, 0, "sm_token_seen").tolist() == one_hot  # the Merchant itself
    expected = one_hot if game.target_learns_look else [0, 0, 0]
    assert obs_field(s, 1, "sm_token_seen").tolist() == expected
    for p in (2, 3, 4):
        assert obs_field(s, p, "sm_token_seen").sum() == 0
    assert_samples_agree(s)


def test_the_end_of_round_check_is_in_the_observation():
    """Rulebook: "At the end of any round, if you have collected enough Honor tokens to score 10
    points, reveal them to claim victory!" Nobody claiming is a public fact: after a round ends
    below 10 every observation says so, with the number of tokens each player held then."""
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(
        G5,
        houses=hs,
        hands=hands5(),
        phase="shinobi",
        alive=LOTUS_WINS,
        tokens=[[2, 2], [3], [], [], []],
        stack=[2, 3, 4],
    )
    for p in range(5):
        assert obs_field(s, p, "game_went_on")[0] == 0
        assert obs_field(s, p, "checked_tokens").sum() == 0
    commit(s)
    assert s.round == 2 and not s.is_terminal()
    counts = [len(t) for t in s.tokens]  # L1 and L2 (House win) and the Ronin drew a token
    assert counts == [3, 2, 0, 0, 1]
    for p in range(5):
        assert obs_field(s, p, "game_went_on")[0] == 1
        rows = obs_field(s, p, "checked_tokens").tolist()
        assert rows == [counts[(p + r) % 5] for r in range(5)]  # seat-relative
    # mode "round" has no such check
    r = _reveal_with([True, False, False, True, True], houses=hs)
    assert r.is_terminal() and obs_field(r, 0, "game_went_on")[0] == 0


# =========================================================================== House Reveal
def _reveal_with(alive, houses=HOUSES5, game=G5R, hands=None, **kw):
    s = build(game, houses=houses, hands=hands or hands5(), alive=alive, phase="shinobi", **kw)
    commit(s)
    return s


def test_rulebook_example_lotus_1_beats_crane_2_3_4():
    assert compare_houses([house(h) for h in ("L1", "C2", "C3", "C4")]) == C.LOTUS


def test_rulebook_misprinted_example_read_lexicographically():
    # "Lotus 1 and Lotus 2 survive against Crane 2 and Crane 3. Crane House wins!" is a misprint
    # (data sheet section 8 gap 1): with best-first comparison Lotus wins.
    assert compare_houses([house(h) for h in ("L1", "L2", "C2", "C3")]) == C.LOTUS
    # the example its explanation fits: 2's tied, then 3 beats 4
    assert compare_houses([house(h) for h in ("L2", "L4", "C2", "C3")]) == C.CRANE


def test_rulebook_example_ronin_survives():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = _reveal_with([True, False, False, True, True], houses=hs)  # L1, C2, Ronin
    assert s.result == C.LOTUS
    assert s.awards[0] == [AWARD_HOUSE] and s.awards[1] == [AWARD_HOUSE]  # dead L2 too
    assert s.awards[4] == [AWARD_RONIN] and s.awards[2] == s.awards[3] == []


def test_rulebook_example_total_tie():
    hs = ["L2", "C2", "L1", "C1", "R"]
    s = _reveal_with([True, True, False, False, True], houses=hs)  # L2, C2, Ronin alive
    assert s.result == RESULT_TIE
    assert s.awards == [[AWARD_TIE], [AWARD_TIE], [], [], [AWARD_RONIN]]  # Ronin: one token


def test_extra_survivor_wins():
    assert compare_houses([house(h) for h in ("L1", "C1", "C3")]) == C.CRANE
    assert compare_houses([house("C4")]) == C.CRANE
    assert compare_houses([C.RONIN]) == RESULT_TIE
    assert compare_houses([]) == RESULT_TIE


def test_dead_players_do_not_reveal_and_winners_are_public():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = _reveal_with([True, False, False, True, True], houses=hs)
    public = {t for w, t, _, _ in s.looks if w == -1}
    assert public == {0, 3, 4}
    aw = obs_field(s, 3, "awards")
    assert aw[(1 - 3) % 5, AWARD_HOUSE] == 1  # the dead player_1 got a House-win token


def test_mastermind_house_holder_wins():
    hs = ["C3", "L1", "C1", "L2", "C2", "L3", "R"]
    g = NightOfTheNinja(num_players=7, mode="round")
    hands = [
        ["Mastermind", "Spy 1"],
        ["Spy 2", "Spy 3"],
        ["Spy 4", "Spy 5"],
        ["Spy 6", "Mystic 1"],
        ["Mystic 2", "Mystic 3"],
        ["Mystic 4", "Mystic 5"],
        ["Mystic 6", "Martyr"],
    ]
    s = _reveal_with([True] * 7, houses=hs, game=g, hands=hands)
    assert s.by_mastermind and s.result == C.CRANE  # although Lotus 1 is alive
    assert [C.MASTERMIND, 0, 0, -1, -1, RESOLVED] in s.played


def test_mastermind_ronin_holder_no_house_wins():
    s = _reveal_with([True] * 5, hands=hands5(p4=["Mastermind", "Spy 1"], p2=["Spy 2", "Spy 5"]))
    assert s.result == RESULT_RONIN_MASTERMIND
    assert s.awards == [[], [], [], [], [AWARD_RONIN]]


def test_dead_mastermind_holder_is_ignored():
    s = _reveal_with([True, True, False, True, True])  # player_2 holds the Mastermind
    assert not s.by_mastermind and s.result == C.CRANE  # L1 against C1, C2
    assert card("Mastermind") in s.hand[2]


def test_honor_stack_exhaustion():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = _reveal_with([True, False, False, True, True], houses=hs, stack_size=1)
    assert s.result == C.LOTUS and s.awards[0] == [AWARD_HOUSE]
    assert s.awards[1] == [] and s.awards[4] == [] and not s.stack


# =========================================================================== end of game
def test_game_ends_at_ten_with_shared_victory():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(
        G5,
        houses=hs,
        hands=hands5(),
        phase="shinobi",
        alive=LOTUS_WINS,
        tokens=[[4, 4], [3, 3, 2], [4, 4], [], []],
        stack=[2, 2, 3],
    )
    commit(s)
    assert s.is_terminal() and not s.truncated
    assert scores(s) == [10, 10, 8, 0, 3]
    assert s.winners == [0, 1]
    assert s.returns().tolist() == [1, 1, -1, -1, -1]
    # scores are public at the end
    assert obs_field(s, 3, "tokens_known")[(0 - 3) % 5].tolist() == [1, 0, 2]


def test_highest_score_wins():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(
        G5,
        houses=hs,
        hands=hands5(),
        phase="shinobi",
        alive=LOTUS_WINS,
        tokens=[[4, 4], [4, 4, 3], [], [], []],
        stack=[2, 2, 3],
    )
    commit(s)
    assert scores(s)[:2] == [10, 13] and s.winners == [1]


def test_game_goes_on_below_ten_and_records_the_public_check():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(
        G5,
        houses=hs,
        hands=hands5(),
        phase="shinobi",
        alive=LOTUS_WINS,
        tokens=[[2, 2], [], [], [], []],
        stack=[2, 2, 3],
    )
    commit(s)
    assert not s.is_terminal() and s.round == 2 and s.decision_kind == "draft_pick1"
    assert sorted(s.tokens[0]) in s.checks  # three tokens worth less than 10: public fact
    assert s.played == [] and all(s.alive)


def test_round_mode_returns():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = _reveal_with([True, False, False, True, True], houses=hs)
    assert s.is_terminal()
    assert s.returns().tolist() == [1, 1, -1, -1, 1]


def test_round_mode_nobody_gains():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = _reveal_with([True] * 5, houses=hs, stack_size=0)
    assert s.is_terminal() and not s.returns().any()


def test_truncation():
    g = NightOfTheNinja(num_players=4, max_rounds=1)
    s = build(
        g,
        houses=["L1", "C1", "L2", "C2"],
        hands=[
            ["Spy 1", "Spy 2"],
            ["Spy 3", "Spy 4"],
            ["Spy 5", "Spy 6"],
            ["Mystic 1", "Mystic 2"],
        ],
        phase="shinobi",
    )
    commit(s)
    assert s.is_terminal() and s.truncated and not s.returns().any()


def test_honor_shaping():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(G5R, houses=hs, hands=hands5(), phase="shinobi", stack=[4, 3, 2], alive=LOTUS_WINS)
    before = s.clone()
    commit(s)
    assert np.allclose(honor_shaping(before, s), [0.4, 0.3, 0, 0, 0.2])


def test_illegal_action_leaves_state_unchanged():
    s = build(G5, houses=HOUSES5, hands=hands5())
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(card("Judge"))
    assert s.to_dict() == before


# =========================================================================== information
def test_hidden_hands_houses_and_values_do_not_change_an_observation():
    s = build(G5, houses=HOUSES5, hands=hands5(), tokens=[[2], [3], [], [], []])
    t = s.clone()
    # swap the hidden House cards of players 3 and 4 and the hands of players 3 and 4 (their
    # draft records too), and the value of the tokens player_0 does not know
    t.dealt_house[3], t.dealt_house[4] = t.dealt_house[4], t.dealt_house[3]
    t.house = list(t.dealt_house)
    t.hand[3], t.hand[4] = t.hand[4], t.hand[3]
    t.token_value[1], t.token_value[2] = t.token_value[2], t.token_value[1]
    assert np.array_equal(s.observation(0), t.observation(0))
    assert not np.array_equal(s.observation(3), t.observation(3))


def test_swapped_player_still_sees_its_dealt_house_and_samples_know_it():
    hands = fill({0: ["Shapeshifter", "Spy 1"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    play(s, "name player_1", "name player_2", "swap")
    info = s.info_set(1)
    rng = np.random.default_rng(0)
    flags = set()
    for _ in range(40):
        smp = info.sample(rng)
        assert smp.dealt_house[1] == house("C1")
        flags.add(smp.ss[3])
        check_invariants(smp)
    assert flags == {0, 1}  # player_1 cannot tell whether it was swapped
    own = s.info_set(0)
    for _ in range(10):  # the Shapeshifter knows
        smp = own.sample(rng)
        assert smp.ss[3] == 1 and smp.house[1] == house("L2") and smp.house[2] == house("C1")


def test_samples_respect_a_spy_look():
    hands = fill({1: ["Spy 5", "Mystic 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    commit(s, {1: ["Spy 5"]})
    play(s, "Spy 5 looks at player_3")
    rng = np.random.default_rng(1)
    info = s.info_set(1)
    others = set()
    for _ in range(60):
        smp = info.sample(rng)
        assert smp.house[3] == house("C2") and smp.dealt_house[1] == house("C1")
        others.add(smp.house[0])
    assert others == {house("L1"), house("L2"), house("R")}
    # another player's samples do not know it
    seen = {info2.house[3] for info2 in (s.info_set(2).sample(rng) for _ in range(60))}
    assert len(seen) > 1


def test_samples_respect_the_draft_pass():
    dealt = [
        ["Spy 1", "Spy 2", "Spy 3"],
        ["Mystic 1", "Mystic 2", "Mystic 3"],
        ["Judge", "Thief", "Martyr"],
        ["Shinobi 1", "Shinobi 2", "Shinobi 3"],
    ]
    s = build(G4, phase="draft", dealt=dealt, houses=["L1", "C1", "L2", "C2"])
    play(s, "pick Spy 1", "pick Mystic 2", "pick Judge", "pick Shinobi 3")
    play(s, "keep Shinobi 2", "keep Spy 3", "keep Mystic 1", "keep Martyr")
    rng = np.random.default_rng(2)
    info = s.info_set(0)
    kept_by_left = set()
    for _ in range(80):
        smp = info.sample(rng)
        check_invariants(smp)
        passed = {card("Spy 2"), card("Spy 3")}
        in_hand = passed & set(smp.hand[1])
        assert len(in_hand) == 1 and (passed - in_hand) <= set(smp.discards)
        kept_by_left |= in_hand
        # the two received came from the right neighbour's deal
        assert {card("Shinobi 1"), card("Shinobi 2")} <= set(smp.dealt[3])
        assert smp.hand[0] == s.hand[0]
    assert kept_by_left == {card("Spy 2"), card("Spy 3")}


def test_samples_respect_a_mystic_sight_and_played_cards():
    hands = fill(
        {0: ["Mystic 1", "Spy 1"], 2: ["Blind Assassin 1", "Shinobi 1"], 3: ["Spy 2", "Judge"]}
    )
    s = build(G5, houses=HOUSES5, hands=hands)
    commit(s, {3: ["Spy 2"]})
    play(s, "Spy 2 looks at player_4")
    commit(s, {0: ["Mystic 1"]})
    play(s, "Mystic 1 looks at player_2")
    seen = s.mystic[-1][2]
    rng = np.random.default_rng(3)
    info = s.info_set(0)
    for _ in range(50):
        smp = info.sample(rng)
        assert seen in smp.hand[2]
        assert card("Spy 2") in (smp.pick1[3], smp.pick2[3])
        check_invariants(smp)


def test_samples_respect_a_grave_digger_sight():
    hands = fill({0: ["Grave Digger", "Spy 1"]})
    s = build(
        G5,
        houses=HOUSES5,
        hands=hands,
        discards=["Judge", "Thief", "Mirror Monk", "Shinobi 5", "Shinobi 6"],
    )
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Grave Digger"]})
    a, b = s.gd[1:3]
    play(s, f"take {C.CARD_NAMES[a]}", "keep it")
    rng = np.random.default_rng(4)
    info = s.info_set(0)
    for _ in range(40):
        smp = info.sample(rng)
        assert b in smp.discards and smp.kept[0] == a
    # the others only know that it keeps one of the discards (which they have not seen)
    other = s.info_set(1)
    kept = set()
    for _ in range(60):
        smp = other.sample(rng)
        assert smp.kept[0] >= 0 and smp.kept[0] not in s.hand[1]
        kept.add(smp.kept[0])
        check_invariants(smp)
    assert len(kept) > 5


def test_samples_keep_token_knowledge_and_public_checks():
    hs = ["L1", "L2", "C1", "C2", "R"]
    s = build(
        G5,
        houses=hs,
        hands=hands5(),
        phase="shinobi",
        alive=LOTUS_WINS,
        tokens=[[2, 2], [3, 3], [], [], []],
        stack=[2, 2, 3],
    )
    commit(s)
    assert s.round == 2
    rng = np.random.default_rng(5)
    info = s.info_set(3)
    values = set()
    for _ in range(60):
        smp = info.sample(rng)
        for check in smp.checks:
            assert smp.score_of(check) < 10
        values.add(tuple(smp.token_value[t] for t in smp.tokens[1]))
        check_invariants(smp)
    assert len(values) > 1
    own = s.info_set(1)
    for _ in range(10):
        smp = own.sample(rng)
        assert [smp.token_value[t] for t in smp.tokens[1]] == [3, 3, 2]


def test_knowledge_is_the_same_for_every_state_of_an_information_set():
    g = NightOfTheNinja(num_players=6)
    rng = np.random.default_rng(6)
    for seed in range(6):
        s = g.new_state(seed)
        for _ in range(int(rng.integers(10, 80))):
            if s.is_terminal():
                break
            s.apply(int(rng.choice(s.legal_actions())))
        for p in range(g.num_players):
            info = s.info_set(p)
            for _ in range(3):
                assert info.sample(rng).info_set(p).knowledge == info.knowledge


# =========================================================================== rendering
def test_render_text_and_rgb():
    hands = fill({1: ["Spy 5", "Mystic 2"]})
    s = build(G5, houses=HOUSES5, hands=hands)
    commit(s, {1: ["Spy 5"]})
    play(s, "Spy 5 looks at player_2")
    text = s.render(1)
    assert "Lotus 2" in text and "Crane 2" not in text
    assert "Crane 2" in s.render(None)
    img = s.render_rgb(1)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3


def test_samples_never_take_an_impossible_swap_hypothesis():
    # player_3 saw player_1's Crane 1 before the Shapeshifter named players 1 and 2, then sees
    # Lotus 2 there with its Shinobi: the swap must have happened, in every sample
    hands = fill({3: ["Spy 1", "Shinobi 1"], 0: ["Shapeshifter", "Spy 2"]})
    s = build(G5R, houses=HOUSES5, hands=hands)
    commit(s, {3: ["Spy 1"]})
    play(s, "Spy 1 looks at player_1")
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    play(s, "name player_1", "name player_2", "swap")
    skip_to(s, C.SHINOBI)
    commit(s, {3: ["Shinobi 1"]})
    play(s, "Shinobi 1 looks at player_1")
    rng = np.random.default_rng(8)
    info = s.info_set(3)
    for _ in range(40):
        smp = info.sample(rng)
        assert smp.ss[3] == 1
        assert smp.dealt_house[1] == house("C1") and smp.house[1] == house("L2")
        check_invariants(smp)
    # player_4 saw nothing: both hypotheses appear
    flags = {s.info_set(4).sample(rng).ss[3] for _ in range(40)}
    assert flags == {0, 1}


def test_swap_hypotheses_weighted_by_consistent_deals():
    # 4 players (L1 L2 C1 C2). player_3 (dealt C2) saw player_0's L1 before the Shapeshifter
    # (player_0 itself) named players 0 and 1. Without a swap the deal is (L1, ?, ?, C2): 2 deals;
    # with a swap the same 2 deals: the weights are equal
    g = NightOfTheNinja(num_players=4, mode="round")
    hands = [
        ["Shapeshifter", "Spy 2"],
        ["Spy 3", "Spy 4"],
        ["Spy 5", "Spy 6"],
        ["Spy 1", "Mystic 1"],
    ]
    s = build(g, houses=["L1", "C1", "L2", "C2"], hands=hands)
    commit(s, {3: ["Spy 1"]})
    play(s, "Spy 1 looks at player_0")
    skip_to(s, C.TRICKSTER)
    commit(s, {0: ["Shapeshifter"]})
    play(s, "name player_0", "name player_1", "don't swap")
    rng = np.random.default_rng(9)
    info = s.info_set(3)
    swaps = [info.sample(rng).ss[3] for _ in range(400)]
    assert 0.4 < np.mean(swaps) < 0.6


def test_kept_reacts_and_mastermind_work():
    hands = fill({0: ["Grave Digger", "Spy 1"], 1: ["Blind Assassin 1", "Spy 2"]})
    s = build(
        G5R,
        houses=HOUSES5,
        hands=hands,
        phase="blind assassin",
        kept={0: "Mirror Monk"},
        discards=["Mirror Monk", "Judge", "Thief", "Shinobi 5", "Shinobi 6"],
    )
    assert s.kept[0] == C.MIRROR_MONK and obs_field(s, 3, "gd_kept")[(0 - 3) % 5] == 1
    commit(s, {1: ["Blind Assassin 1"]})
    play(s, "Blind Assassin 1 attacks player_0")
    assert legal_names(s) == ["reveal Mirror Monk", "no react"]
    play(s, "reveal Mirror Monk")
    assert not s.alive[1] and s.alive[0]
    assert s.played[-1][:3] == [C.MIRROR_MONK, 0, 1]  # came from the Grave Digger
    t = build(
        G5R,
        houses=HOUSES5,
        hands=hands5(p0=["Grave Digger", "Spy 1"], p2=["Spy 2", "Spy 5"]),
        phase="shinobi",
        kept={0: "Mastermind"},
        discards=["Mastermind", "Judge", "Thief", "Shinobi 5", "Shinobi 6"],
    )
    commit(t)
    assert t.by_mastermind and t.result == C.LOTUS


def test_token_sampler_falls_back_to_a_complete_search():
    # four public checks of three tokens each worth less than 7: they must be the twelve 2s,
    # which rejection sampling almost never finds
    from boardgames_rl.games.night_of_the_ninja import infoset

    values = [2] * 12 + [3] * 12 + [4] * 11
    d = {
        "token_value": list(values),
        "known": [[] for _ in range(5)],
        "checks": [list(range(3 * k, 3 * k + 3)) for k in range(4)],
    }
    g = NightOfTheNinja(num_players=5, target_score=7)
    rng = np.random.default_rng(10)
    for _ in range(3):
        infoset._tokens(d, 0, g, rng)
        assert d["token_value"][:12] == [2] * 12
        assert sorted(d["token_value"]) == sorted(values)
