"""Castle Flutterstone: a 2-4 player dexterity race whose flick is a stochastic landing model.

Each turn a player flicks a bat at the castle wall; where it lands (miss, courtyard, moat, castle,
window) moves their figure up to 0, 1, 2 or 3 fields towards the castle's last step. A moat
landing lets them draw a ghost card: helpful ghosts (Second go, Moving forward, Ghost jump) are
played at a later turn start; in the variant, pesky ghosts (Eyes closed, Change hands, Pesky
ghost) are given to another player and spoil that player's next turn. The first figure on the
last step wins. The rules, every interpretation and the test of each:
``docs/rules/castle_flutterstone.md``.

Usage::

    import pettingzoo

    from boardgames_rl import make_game

    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    state = game.new_state(seed=0)
    state.apply(int(state.legal_actions()[0]))

    # the AEC env: see boardgames_rl.envs
    env = pettingzoo.make("aec", "boardgames_rl/castle_flutterstone-v0", num_players=3)

Players
    2-4 (``num_players``, default 2), seats ``player_0`` .. ``player_3``; seat ``first_player``
    (the youngest, default 0) starts, then clockwise. The player on move is the turn player,
    except that the giver of a Pesky ghost card places the ghost figure at its holder's turn start.

Config (keyword arguments; see ``CastleFlutterstoneGame`` for the full list and the checks)
    ``num_players`` 2..4 (2); ``pesky_ghosts`` the variant (False); ``landing_model`` ``"v2"``
    (default: three windows at distinct places, lateral aim in the action, elevations 10-60 deg)
    or ``"v1"`` (one column of windows, no lateral aim, 50-80 deg); ``aim_levels``,
    ``force_levels``, ``yaws`` the flick grid; ``skills`` "skilled" / "average" / "novice" or
    sigma dicts, one for all or one per seat ("average"); ``goal`` (22), ``bridges`` ([5, 10]);
    ``courtyard_optional`` (True); ``play_on`` play on for the places (False); ``max_turns``
    safety cap (150 per player); ``first_player`` (0).

Actions (``Discrete(game.num_actions)``: 624 by default, 96 with ``landing_model="v1"``)
    One flat space; each decision opens only its own block (``actions.ActionLayout``): the flick
    grid (yaw x elevation x force, ``flick aim 15 force 1.00 yaw -15``), ``move k fields`` (k =
    0..3, up to the landing's points), ``play <helpful card>``, ``start flicking``, ``draw ghost
    card`` / ``decline ghost card``, ``discard <helpful card>`` (a fourth was drawn), ``give
    pesky card to player +1..+3`` (seats clockwise), ``place ghost in window 1..3``.
    ``game.action_name(a)`` is that fixed name; ``state.action_name(a)`` (what the CLI lists)
    follows a flick's name with its meaning in words (``naming``): ``flick aim 15 force 1.00
    yaw -15: at window 1 (left), low arc, full force`` -- yaw the lateral aim (-15 / 0 / +15
    point at windows 1 / 2 / 3), aim the launch elevation, force 0 (softest) .. 1 (full).

Observation (``float32``, ``game.observation_spec``; 122 / 167 / 214 floats for 2 / 3 / 4 players)
    Every public fact, seat-relative (row 0 = the viewer, then clockwise): figure fields
    (one-hot and progress), finished flags, each player's helpful cards (usable / drawn last turn)
    and pesky cards, who gave each Pesky ghost, whose turn and whose decision, the phase, bats
    left, a pending "up to N" move, a pending pesky card, the window blocked by the ghost, the
    last landing zone, the draw pile's contents by kind, the discard pile, every seat's skill
    sigmas, the fraction of the turn cap used. Field table: ``observation`` module. Ghost cards
    lie face up; only the order of the draw pile is hidden. ``state_vector()`` (for centralised
    critics, ``game.state_spec``) is seat 0's view in absolute seat order
    plus the order in which the figures reached the last step.

Hidden information
    Only the order of the face-down ghost pile: every card lies face up, so the pile's contents
    are known by kind and no seat has a private fact. ``infoset`` deals the pile again in a
    random order.

Chance
    Every flick: its landing zone is drawn from the landing model (the flick, the thrower's skill
    sigmas and the wall's geometry give a distribution over miss, courtyard, moat, castle and
    window), and the ghost cards are drawn from the shuffled pile.

Rewards (at the end only)
    +1 for the winner, -1 for every other seat; with ``play_on`` the places are spread evenly
    from +1 (first) to -1 (last), ties sharing the mean. A game cut by ``max_turns`` before any
    figure finished is truncated with all zeros.

Modules
    ``data`` (component tables; the ``Card`` and ``Phase`` kind enums), ``actions`` (layout,
    names), ``game`` (config, spaces), ``state`` (rules engine), ``legal`` (mask and the rules
    it asks), ``observation`` (encoder), ``infoset`` (information set: the pile is re-dealt;
    ``CastleFlutterstoneView``, the typed public view the agents read), ``scenario``
    (hand-made positions: ``build``, ``play``), ``naming`` (contextual action names and
    decision words), ``rules_help`` (what ``?`` says), ``movement`` and ``landing`` (pure
    rules of moving and of the flick), ``flick_values`` (what each flick is worth; public, read
    by the hints and the heuristic), ``render`` (text and picture, with legends; never imports
    ``ai``), ``aiming`` (a flick typed or chosen number by number, for ``play``), ``ai`` (the
    heuristic in small modules; ``ai.value`` is the one value function of ``evaluate`` and
    ``potential``; ``heuristic`` and ``shaping`` re-export them; ``ai.solver`` and
    ``ai.race_agent`` solve the basic 2-player race, the agent spec ``solver``, which at 3 or 4
    players races its likeliest winner with those tables), ``plots``
    (figures for the docs; the engine never imports it).

Version history
    v0 (environment ``castle_flutterstone-v0``):

    * landing model v1 (data sheet 7.1-7.7): 7 x 11 flick grid, 96 actions;
    * landing model v2 (data sheet 7.2b) became the default: yaw in the action (5 x 11 x 11,
      624 actions), three windows; ``landing_model="v1"`` reproduces the old model, action
      space and trajectories; the turn cap after a winner ranks the places;
    * issue 12: package split into the common game shape, games unchanged (same seeds give the
      same trajectories, observations, masks, names and state dicts); ``state_vector`` gained
      ``finish_order`` (state_spec was the observation spec); ``FlutterstoneInfoSet.knowledge``
      holds the pile in a fixed shuffled order instead of sorted.
    * issue 40: the text view of a flick decision marks the best flicks a), b), c) and draws
      beside them a small picture of the wall (windows, moat, courtyard, the yaws offered and
      where each best flick aims); ``aiming`` reads a flick as a person gives it (``flick 20
      0.9 -15``: aim, force, yaw; or the three asked one at a time), used by ``boardgames-rl
      play`` instead of listing every flick. Games, observations and actions are unchanged.
    * issue 41: the same shape inside as every game: mypy-checked; the legality rules in
      ``legal``; ``flick_values`` (what a flick is worth, public) feeds the hints and the
      heuristic, so ``render`` never imports ``ai``; ``scenario.build(game, seed=..., **fields)``
      overwrites named fields of ``game.new_state(seed)`` and runs the state checks
      (``scenario.setup`` / ``FlutterstoneState.setup`` deprecated); one class-name stem
      (``CastleFlutterstoneGame``, ``CastleFlutterstoneState``, ``CastleFlutterstoneInfoSet``,
      ``CastleFlutterstoneHeuristic``; the old names ``CastleFlutterstone``,
      ``FlutterstoneState``, ``FlutterstoneInfoSet``, ``FlutterstoneHeuristic`` are deprecated
      aliases); the agents read ``info_set.view``, a typed frozen ``CastleFlutterstoneView``,
      instead of the engine's ``knowledge`` dict; ``data.Phase`` names the decision kinds
      (the state keeps plain ints). Games, observations, actions and every
      agent's moves are unchanged.
    * issue 44 (third step; games unchanged): ``ai.value`` compiles with the engine and its
      functions take a ``CastleFlutterstoneState`` (anything else is refused in one line, a
      ``TypeError``); the engine computes with card kinds as plain ints (``data.Card`` still
      names them); a flight converts degrees with ``x * pi / 180``, ``math.radians`` to the last
      bit.
    * issue 44 (fifth step; games unchanged): a flick's noise comes from ``core.draws``
      (``Draws.normals(5)``, ``Draws.uniform()``: ``rng.standard_normal(5)`` and ``rng.random()``,
      the same values from the same stream; numpy's own ziggurat in C in the compiled build); the
      phase ids (``data.PLACE_GHOST`` .. ``data.OVER``) are ``Final`` ints, ``data.Phase`` built
      from them; ``game.obs_layout`` (``observation.Layout``: the vector's offsets and sizes as
      fields) replaces ``game.obs_offsets``.
"""

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.castle_flutterstone import state_checks
from boardgames_rl.games.castle_flutterstone.ai import (
    CastleFlutterstoneHeuristic,
    FlutterstoneHeuristic,
    evaluate,
    potential,
)
from boardgames_rl.games.castle_flutterstone.ai.race_agent import build_solver
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstone, CastleFlutterstoneGame
from boardgames_rl.games.castle_flutterstone.infoset import CastleFlutterstoneView
from boardgames_rl.games.castle_flutterstone.landing import (
    Effects,
    SkillProfile,
    Zone,
    landing_distribution,
    landing_table,
)
from boardgames_rl.games.castle_flutterstone.rules_help import rules_help
from boardgames_rl.games.castle_flutterstone.state import (
    CastleFlutterstoneInfoSet,
    CastleFlutterstoneState,
    FlutterstoneInfoSet,
    FlutterstoneState,
)

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=CastleFlutterstoneGame.name,
    game=CastleFlutterstoneGame,
    test_configs=(
        {"num_players": 2},
        {"num_players": 3, "pesky_ghosts": True},
        {
            "num_players": 4,
            "pesky_ghosts": True,
            "skills": ["skilled", "average", "novice", "average"],
        },
        {
            "num_players": 4,
            "play_on": True,
            "pesky_ghosts": True,
            "aim_levels": 3,
            "force_levels": 5,
        },
    ),
    summary="2–4 players, dexterity race; flicks drawn from a physical landing model",
    heuristic=CastleFlutterstoneHeuristic,
    evaluate=evaluate,
    potential=potential,
    rules_help=rules_help,
    agents={"solver": build_solver},
)
"""Castle Flutterstone's declaration for the registry (``boardgames_rl.registry``): the game
class, its heuristic, value and shaping functions, test configurations and one-line summary.

:meta hide-value:
"""

__all__ = [
    "CastleFlutterstone",
    "CastleFlutterstoneGame",
    "CastleFlutterstoneHeuristic",
    "CastleFlutterstoneInfoSet",
    "CastleFlutterstoneState",
    "CastleFlutterstoneView",
    "Effects",
    "FlutterstoneHeuristic",
    "FlutterstoneInfoSet",
    "FlutterstoneState",
    "SkillProfile",
    "Zone",
    "landing_distribution",
    "landing_table",
]
