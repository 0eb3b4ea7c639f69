"""Legal actions of every Night of the Ninja decision (the action mask)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.games.night_of_the_ninja import actions as A
from boardgames_rl.games.night_of_the_ninja import cards as C

if TYPE_CHECKING:
    from boardgames_rl.games.night_of_the_ninja.state import NinjaState


def legal_ids(s: NinjaState) -> list[int]:
    """Ids of the legal actions of the pending decision (empty when the game is over)."""
    d = s.decision
    if d is None:
        return []
    lay = s.game.layout
    kind = d["kind"]
    p = d["player"]
    if kind == "draft_pick1":
        return list(s.dealt[p])
    if kind == "draft_pick2":
        return list(s.received[p])
    if kind == "commit":
        if s.commit_done[p]:
            return [lay.DONE]
        phase = s.phase
        return sorted(c for c in s.held(p) if C.CARD_PHASE[c] == phase) + [lay.DONE]
    if kind == "target":
        return [A.PLAYER + q for q in s.targets(p, d["card"])]
    if kind == "ss_first":
        return [A.PLAYER + q for q in s.shapeshifter_names()]
    if kind == "ss_second":
        return [A.PLAYER + q for q in s.shapeshifter_names(d["target"])]
    if kind in ("ss_swap", "tm_reveal", "shinobi_kill"):
        return [lay.DONE, lay.YES]
    if kind == "gd_take":
        return sorted(c for c in s.gd[1:3] if c >= 0)
    if kind == "gd_use":
        return [lay.DONE, lay.YES] if s.gd[3] in C.ACTIVE_CARDS else [lay.DONE]
    if kind == "kept_trickster":
        return [d["card"], lay.DONE] if s.kept[p] == d["card"] else [lay.DONE]
    if kind == "sm_look":
        return [lay.LOOK_HOUSE, lay.LOOK_TOKEN] if s.tokens[d["target"]] else [lay.LOOK_HOUSE]
    if kind == "sm_swap":
        values = {s.token_value[t] for t in s.tokens[p]}
        return [lay.DONE] + [lay.GIVE + i for i, v in enumerate(C.TOKEN_VALUES) if v in values]
    if kind == "thief_target":
        return [A.PLAYER + q for q in s.thief_targets(p)] + [lay.DONE]
    if kind == "react":
        held = s.held(p)
        return [c for c in C.REACTS if c in held] + [lay.DONE]
    raise RuntimeError(f"night_of_the_ninja: unknown decision {kind!r}")


def legal_mask(s: NinjaState) -> np.ndarray:
    """Boolean mask of shape ``(num_actions,)`` of the legal actions."""
    mask = np.zeros(s.game.num_actions, dtype=bool)
    ids = legal_ids(s)
    if ids:
        mask[ids] = True
    elif s.decision is not None:
        raise RuntimeError(f"night_of_the_ninja: decision {s.decision['kind']!r} has no action")
    return mask
