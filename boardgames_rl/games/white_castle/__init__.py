"""The White Castle: 2-4 players, dice drafting from bridges, castle rooms and clan members.

Three rounds at Himeji castle, three turns per player each: a player takes a die from either
end of one of the three bridges and places it on a space of the main board (a castle room,
Outside the Walls, the Well) or of its own Domain, gaining coins when the die shows more than the
space and paying when less, then performs the space's actions (resources, seals, clan members:
courtiers climbing the castle, gardeners, warriors; steps on the Passage of Time); a die from the
left end also gives the Lantern reward. The most Clan Points after the final scoring wins.
See ``docs/rules/white_castle.md`` for the rules, their readings and the engine notes.

Usage::

    import pettingzoo

    from boardgames_rl import make_game

    game = make_game("white_castle", num_players=3)
    state = game.new_state(seed=0)
    print(state.render(0))  # the text board as player_0 sees it
    state.apply(int(state.legal_actions()[0]))

    # the AEC env: see boardgames_rl.envs
    env = pettingzoo.make("aec", "boardgames_rl/white_castle-v0", num_players=3)

Players
    2-4 (``num_players``, default 2), seats ``player_0`` ..; the turn order changes each round
    (farthest on the Passage of Time first).

Config (keyword arguments; ``WhiteCastleGame`` checks them)
    ``num_players`` (2-4) and ``well_one_pays_tiles`` (default False, the rulebook: a die
    showing 1 on the Well gains only the seal; True: the data sheet's reading, a 1 also pays
    both Well tiles).

Actions
    ``choose k``: option k of the pending decision (the die to take, the space, the effect, the
    resource, the order of the effects; ``state.action_name(a)`` says which in context), and the
    four seal exchanges, open whenever a player may exchange Daimyo Seals.

Observation (``float32``, ``game.observation_spec``)
    A flat seat-relative vector of every public fact (layout in ``observation.make_spec``,
    described in the ``observation`` module docstring): the board with the value, owner and
    colour of every die (rooms, Outside the Walls, the Well, Domains), the pending decision with
    its options and details, every pending effect, and every player's holdings.

Hidden information
    Only the order of the Steward and Diplomat decks (and the dice not yet rolled): everything
    else on the table is open. ``infoset`` shuffles both decks again.

Chance
    The dice rolled onto the bridges at the start of every round, and the setup: the shuffled
    Steward and Diplomat decks (whose cards refill the castle rooms during play), the Daimyo
    card, the Garden cards, the Yard tiles, the starting offer and the first turn order.

Rewards (at the end only)
    +1 for the winner (most points; a tie goes to the player higher in the final turn order),
    -1 for every other seat.

Observation version history
    v0 1511/1639/1769 floats (2/3/4 players); v1 (issue 11) adds die colours, Well dice,
    decision details and pending effects: 2211/2378/2553 floats.

Version history (the env id stays ``white_castle-v0``)
    * issue 40: the Well follows the rulebook. A die showing 1 gains only the Daimyo Seal ("If you
      place a die with a value greater than 1, you gain the difference in coins ..., plus the
      benefits indicated on the 2 tiles in the Well"); the earlier default, both tiles for a 1 too,
      is ``well_one_pays_tiles=True`` (now kept in ``config`` only when True: a saved config
      without the key means the new default). The Well's seal is one of its actions, resolved
      with the tiles "in any order you choose" (turn step 4) on the space and in every Well action
      of cards, gardens and yards: with 5 seals the player is asked the order when a tile's Passage
      of Time could pay a checkpoint (formerly the seal came first and was lost at the cap). The
      order is now asked only when a checkpoint lies within the Passage of Time steps the frame can
      make (formerly: any checkpoint ahead), everywhere. Action and observation layouts unchanged
      (20 actions; 2211/2378/2553 floats); recorded games differ.
    * issue 41: one shape inside. ``WhiteCastleGame``, ``WhiteCastleState``, ``WhiteCastleInfoSet``
      (``WhiteCastle`` is kept as a deprecated alias); the effect kinds are ``data.EffectKind`` (the
      same strings in states and observations); ``legal.legal_mask``; ``scenario.build(game=None, *,
      seed=0, **fields)`` starts from ``game.new_state(seed)`` (``blank_fields`` gives the blank
      table the rule tests use); ``infoset.PublicView`` / ``SeatView``, the typed public facts
      (``info_set.view``) that the heuristic's value function reads; mypy checks the package.
      Rules, layouts and recorded games unchanged.
    * issue 44: ``data.py`` and ``ai/value.py`` compile with the engine. ``data.EffectKind`` is a
      class of plain string constants, no longer a ``str`` enum (``EffectKind.GAIN == "g"`` as
      before; it has no ``.value`` and is not iterable); ``ai.value.Weights`` and
      ``infoset.SeatView`` are named tuples (read-only as before); a frame keeps the effects it is
      given without copying them (no rule changes an effect in place). Rules, layouts, recorded
      games and searches unchanged.
    * issue 44 (fifth step; games unchanged): the state writes an observation straight into a
      caller's buffer (``State.write_observation``, what the batched env calls): its kept vector
      copied into the row, with no copy of its own.
"""

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.white_castle import state_checks
from boardgames_rl.games.white_castle.ai import WhiteCastleHeuristic, evaluate, potential
from boardgames_rl.games.white_castle.game import WhiteCastle, WhiteCastleGame
from boardgames_rl.games.white_castle.infoset import WhiteCastleInfoSet
from boardgames_rl.games.white_castle.rules_help import rules_help
from boardgames_rl.games.white_castle.state import WhiteCastleState

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=WhiteCastleGame.name,
    game=WhiteCastleGame,
    test_configs=(
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "well_one_pays_tiles": True},
    ),
    summary="2-4 players, dice drafting worker placement in Himeji castle",
    heuristic=WhiteCastleHeuristic,
    evaluate=evaluate,
    potential=potential,
    rules_help=rules_help,
)
"""The White Castle's declaration for the registry (``boardgames_rl.registry``): the game
class, its heuristic, value and shaping functions, test configurations and one-line summary.

:meta hide-value:
"""

__all__ = [
    "SPEC",
    "WhiteCastle",
    "WhiteCastleGame",
    "WhiteCastleHeuristic",
    "WhiteCastleInfoSet",
    "WhiteCastleState",
]
