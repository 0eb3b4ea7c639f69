"""Look-ahead copies of a White Castle state for the heuristic's search (cheaper than
``State.clone``: the chance generator and the tables never changed after setup are shared)."""

from __future__ import annotations

from typing import Any

from boardgames_rl.games.white_castle.state import KEYS, WhiteCastleState


def _copy(x: Any) -> Any:
    """Deep copy of the engine's JSON-like data (lists, dicts, scalars): much faster than
    ``copy.deepcopy``."""
    if type(x) is list:
        return [_copy(y) for y in x]
    if type(x) is dict:
        return {k: _copy(v) for k, v in x.items()}
    return x


# keys never changed in place after setup (shared by look-ahead copies) and flat lists
_SHARED = ("room_tiles", "well_tiles", "yards", "gardens", "daimyo")
_FLAT = ("turn_order", "steward_deck", "diplomat_deck", "rooms", "daimyo_pos", "draft_left")
_NESTED = ("bridges", "domain_dice", "garden_workers", "yard_warriors")
_SCALARS = ("n", "round", "phase", "turns_taken", "turn_active", "pot_counter")


def clone(state: WhiteCastleState) -> WhiteCastleState:
    """A look-ahead copy sharing the (sampled, private) chance generator and setup tables.

    Fields are read and set with ``getattr`` / ``setattr`` in ``KEYS`` order, never through
    ``__dict__`` (see :class:`~boardgames_rl.core.plain_state.PlainDataState`: touching an
    instance's ``__dict__`` slows every later attribute read of the engine on it).
    """
    get = state.__getattribute__
    out: dict[str, Any] = {}
    for k in _SHARED + _SCALARS:
        out[k] = get(k)
    for k in _FLAT:
        out[k] = list(get(k))
    for k in _NESTED:
        out[k] = [list(x) for x in get(k)]
    out["spaces"] = [[list(x) for x in sp] for sp in get("spaces")]
    out["players"] = [
        {
            **pl,
            "members": list(pl["members"]),
            "courtiers": list(pl["courtiers"]),
            "lantern": list(pl["lantern"]),
        }
        for pl in get("players")
    ]
    for k in ("offer", "held", "stack", "decision", "final_left"):
        out[k] = _copy(get(k))
    s = type(state)(state.game, state.rng)
    for k in KEYS:
        setattr(s, k, out[k])
    return s
