"""Look-ahead copies of a White Castle state for the heuristic's search (cheaper than
``State.clone``: the chance generator and the tables never changed after setup are shared)."""

from __future__ import annotations


def _copy(x):
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


def clone(state):
    """A look-ahead copy sharing the (sampled, private) chance generator and setup tables."""
    s = type(state)(state.game, state.rng)
    d, src = s.__dict__, state.__dict__
    for k in _SHARED + _SCALARS:
        d[k] = src[k]
    for k in _FLAT:
        d[k] = list(src[k])
    for k in _NESTED:
        d[k] = [list(x) for x in src[k]]
    d["spaces"] = [[list(x) for x in sp] for sp in src["spaces"]]
    d["players"] = [
        {
            **pl,
            "members": list(pl["members"]),
            "courtiers": list(pl["courtiers"]),
            "lantern": list(pl["lantern"]),
        }
        for pl in src["players"]
    ]
    for k in ("offer", "held", "stack", "decision", "final_left"):
        d[k] = _copy(src[k])
    return s
