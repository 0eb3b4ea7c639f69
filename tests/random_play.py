"""States sampled from seeded random play, for tests that compare two implementations on many
positions (e.g. an optimised observation encoder against its reference)."""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import Game, State


def random_play_states(
    game: Game, count: int, seed: int, first_game_seed: int, keep: float
) -> list[State]:
    """``count`` states (clones) from random play over as many games as it takes.

    Every state is kept with probability ``keep`` (seeded); the first state of every decision
    kind (``state.decision["kind"]``) and every terminal state are always kept, so rare decisions
    are covered. Game ``g`` starts from seed ``first_game_seed + g``.
    """
    rng = np.random.default_rng(seed)
    out: list[State] = []
    seen: set = set()
    g = 0
    while len(out) < count:
        s = game.new_state(seed=first_game_seed + g)
        g += 1
        while len(out) < count:
            kind = s.decision["kind"] if s.decision is not None else None
            if rng.random() < keep or s.is_terminal() or kind not in seen:
                seen.add(kind)
                out.append(s.clone())
            if s.is_terminal():
                break
            s.apply(int(rng.choice(s.legal_actions())))
    return out
