"""The White Castle: 2-4 players, dice drafting from bridges, castle rooms and clan members.

See ``docs/rules/white_castle.md`` and ``NOTES.md`` in this folder for the rules and readings.

Config: ``num_players`` (2-4) and ``well_one_pays_tiles`` (default True: a 1 on the Well still
pays both Well tiles; False: the literal rulebook reading, only the seal).

Actions: ``Discrete(20)``, ``choose k`` (option k of the pending decision, k < 16) and the four
seal exchanges. Observation: a flat seat-relative vector of every public fact (layout in
``observation.make_spec``, described in the ``observation`` module docstring): the board with the
value, owner and colour of every die (rooms, Outside the Walls, the Well, Domains), the pending
decision with its options and details, every pending effect, and every player's holdings.
Only the order of the Steward and Diplomat decks (and future dice) is hidden.

Observation version history: v0 1511/1639/1769 floats (2/3/4 players); v1 (issue 11) adds die
colours, Well dice, decision details and pending effects: 2211/2378/2553 floats.
"""

from boardgames_rl.core.spec import GameSpec
from boardgames_rl.games.white_castle import state_checks
from boardgames_rl.games.white_castle.ai import WhiteCastleHeuristic, evaluate, potential
from boardgames_rl.games.white_castle.game import WhiteCastle
from boardgames_rl.games.white_castle.rules_help import rules_help

SPEC = GameSpec(
    state_checks=state_checks.problems,
    name=WhiteCastle.name,
    game=WhiteCastle,
    test_configs=(
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 2, "well_one_pays_tiles": False},
    ),
    summary="2-4 players, dice drafting worker placement in Himeji castle",
    heuristic=WhiteCastleHeuristic,
    evaluate=evaluate,
    potential=potential,
    rules_help=rules_help,
)

__all__ = ["SPEC", "WhiteCastle"]
