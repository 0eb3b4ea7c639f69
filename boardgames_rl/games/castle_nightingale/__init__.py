"""Castle Nightingale: a 2-player hidden-movement duel, the ninja against the samurai.

The ninja sneaks through a castle of four floor boards around a garden, stealing vases (6 of the
8 hold a relic); it moves by placing footprint discs, and vanishes from the board unless a disc
lands on the colour the samurai secretly programmed with a nightingale tile (the floor sings and
the ninja is seen). The samurai moves zone by zone (a colour zone, or a trap-door square) and
captures a seen ninja by entering its zone, or any ninja on the board when every trap door is
closed. Both play action cards and equipment tokens. The ninja wins with 5 relics banked, the
samurai by capturing 3 ninjas. The rules, every interpretation and the test of each:
``docs/rules/castle_nightingale.md``.

Usage::

    import pettingzoo

    from boardgames_rl import make_game

    game = make_game("castle_nightingale", side="B")
    state = game.new_state(seed=0)
    print(state.render(0))  # the ninja's text board, with its legend
    state.apply(int(state.legal_actions()[0]))

    # the AEC env: see boardgames_rl.envs
    env = pettingzoo.make("aec", "boardgames_rl/castle_nightingale-v0")

Players
    2: seat 0 ``ninja``, seat 1 ``samurai``. Each decision belongs to one of them
    (``state.DECISION_PLAYER``); the samurai programmes first each turn.

Config (keyword arguments; ``CastleNightingale`` checks them)
    ``side`` "A" (first game, diagram layout) or "B"; ``random_layout`` (False; side B is always
    random); ``max_turns`` (60) and ``on_turn_limit`` "draw" / "samurai"; variants
    ``keep_last_disc`` (False), ``lockdown_needs_trace`` (False: a lockdown captures the ninja
    in the castle even with no disc and no figurine left; True: only one with a figurine or a
    disc on the board), ``never_force_token`` (False: the ninja must place every disc, a paid
    jump or a held Shuko counting as ways, and once only they complete the path spending is the
    move; True: spending is never forced, a step only a later paid jump completes is refused),
    ``lockdown_reopen`` "three_plus_one" / "one_per_board", ``merge_zones_across_seams`` (False).

Actions (``Discrete(175)``)
    One flat space (``actions``): 96 squares, 32 zones, 10 + 10 action cards, 6 tiles, 7 + 7
    tokens, pass, jump, adjust +1 / -1, lantern reveal / clear, +2 entries. Each decision opens
    only its own options; ``state.action_name(a)`` names them in context ("disc -> K5",
    "samurai enters zone II-A green"), ``game.action_name(a)`` generically.

Observation (``float32``, 2441 floats, ``game.observation_spec``)
    Per square: colour, trap door and its state, vase and what the viewer knows of it, discs,
    figurines, start square, zones marked (samurai, Watch Fire, decision); the decision and its
    decider; tiles face up, revealed, known programmed or not; the viewer's hand, card and tokens;
    cards shown, discards, tokens used openly, counts; flags of the turn. Nothing hidden from the
    viewer (``infoset`` deals the rest again). ``state_vector()`` (``game.state_spec``) is
    both views concatenated (omniscient, for centralised critics).

Hidden information
    Each side's hand, programmed card, equipment tokens and the order of its deck and token
    stack are hidden from the other; the contents of a vase until a seat looks into it; the
    samurai's programmed nightingale tile(s) from the ninja until revealed. A hidden ninja has no
    secret square: its footprint discs are on the board for both to see. Section 3 of the rules
    page lists every hidden fact and how ``infoset`` deals it again.

Chance
    Shuffles only, no dice: at setup the vase contents (relics among the vases), both decks and
    both token stacks, and the layout on side B (or with ``random_layout``); an empty deck's
    discard pile is shuffled again.

Rewards (at the end only)
    +1 for the winner, -1 for the loser; a game reaching ``max_turns`` is a draw (0 each,
    reported as truncation) unless ``on_turn_limit="samurai"``.

Views
    ``state.render(seat)`` (``None``: omniscient) the text board with a legend of its glyphs and
    the decision in words; ``state.render_rgb(seat)`` the picture with a legend and the tiles;
    ``naming.public_name`` what the other seat learns of a move, ``rules_help.rules_help`` the
    ``?`` of ``boardgames-rl play`` (both declared in ``SPEC``).

Modules
    ``data`` (component tables), ``board`` (layouts, squares, adjacency, jumps, zones),
    ``actions``, ``game``, ``state`` (rules engine), ``paths`` (footprint placement), ``legal``
    (the action mask), ``observation``, ``infoset``, ``naming`` (action names, decision words,
    public moves), ``rules_help`` (what ``?`` says), ``render`` (never imports the AI),
    ``scenario`` (``build``, ``play``), ``state_checks``, ``ai`` (the heuristic in small modules;
    ``ai.value`` the one value function of ``evaluate`` and ``potential``; ``heuristic`` and
    ``shaping`` re-export them).

Version history
    v0 (environment ``castle_nightingale-v0``):

    * the rulebook with the data sheet's readings; the last disc is removed like any other
      (``keep_last_disc`` the earlier reading);
    * issue 12: the tables moved into ``data`` (``cards`` and ``board_data`` removed), games
      unchanged.
    * issue 40 (games change; config of the default game unchanged): "The ninja must place all their
      footprint discs": a step is legal only if some completion from it places every disc (or as
      many as any path can); after a step only a paid jump (or the Shuko) completes, that spend is
      the only move, and "stop: the unplaced discs go back" is offered only where no disc can be
      placed (was: also where only a token could go on, so the ninja could stop with 2 of 3 discs
      beside a free path); the earlier "spending is never forced" is the variant
      ``never_force_token``, made consistent (such a step is refused). A lockdown captures the ninja
      in the castle "whether they are spotted or still hidden", also after the samurai removed its
      last disc (was: not captured; the variant ``lockdown_needs_trace``); a capture clears this
      turn's start square (observation and text board), which now marks a ninja still in the castle.
    * issue 41 (games, observations and every agent's moves unchanged): one class-name stem,
      ``CastleNightingaleState`` (``state``), ``CastleNightingaleInfoSet`` (``infoset``),
      ``CastleNightingaleHeuristic`` (``heuristic``, ``ai``); the old ``Nightingale*`` names still
      import, with a ``DeprecationWarning``, for one release. The heuristic reads the info set's
      typed ``view`` (``infoset.CastleNightingaleView``), never its state dict; rules help moved to
      ``rules_help``; ``scenario.build`` takes ``Ninja`` / ``Samurai`` records and
      ``scenario.FIELDS``; the package is type-checked (mypy).
    * issue 44 (third step; games unchanged): ``ai.value``, ``ai.paths`` and ``ai.geometry``
      compile with the engine; ``ai.value``'s functions take a ``CastleNightingaleState`` (anything
      else is refused in one line, a ``TypeError``); ``board.board_of_list`` finds a
      state's board by its layout list's exact value (checked by ``Layout.from_list`` the first
      time); an information set samples with ``core.draws`` instead of ``rng.integers`` and
      ``rng.choice`` (the same draws).
    * issue 44 (fifth step; games unchanged): ``paths.Placements`` is a read-only
      ``core.record.Record`` (was a frozen dataclass: no longer hashable); the state writes an
      observation straight into a caller's buffer (``State.write_observation``, what the batched
      env calls) without a vector of its own.
"""

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.castle_nightingale import state_checks
from boardgames_rl.games.castle_nightingale.game import CastleNightingale
from boardgames_rl.games.castle_nightingale.heuristic import CastleNightingaleHeuristic, evaluate
from boardgames_rl.games.castle_nightingale.naming import public_name
from boardgames_rl.games.castle_nightingale.rules_help import rules_help
from boardgames_rl.games.castle_nightingale.shaping import potential

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=CastleNightingale.name,
    game=CastleNightingale,
    test_configs=(
        {},
        {"side": "B", "max_turns": 30},
        {  # every variant flag at once (data sheet G4, G6, 2.4; issue 40)
            "side": "B",
            "max_turns": 30,
            "keep_last_disc": True,
            "lockdown_reopen": "one_per_board",
            "merge_zones_across_seams": True,
            "lockdown_needs_trace": True,
            "never_force_token": True,
        },
    ),
    summary="2 players, hidden movement: the ninja steals relics, the samurai hunts",
    heuristic=CastleNightingaleHeuristic,
    evaluate=evaluate,
    potential=potential,
    public_action_name=public_name,
    rules_help=rules_help,
)
"""Castle Nightingale's declaration for the registry (``boardgames_rl.registry``): the game
class, its heuristic, value and shaping functions, test configurations and one-line summary.

:meta hide-value:
"""

__all__ = ["SPEC", "CastleNightingale"]
