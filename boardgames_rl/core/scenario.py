"""Scenario helpers shared by every game's ``scenario`` module: play a state forward by the
contextual action names a person reads (what ``state.action_name`` and the CLI show)."""

from __future__ import annotations

from typing import TypeVar

from boardgames_rl.core.game import State

S = TypeVar("S", bound=State)


def legal_names(state: State) -> list[str]:
    """Contextual names of the legal actions of the pending decision, in action-id order."""
    return [state.action_name(int(a)) for a in state.legal_actions()]


def play(state: S, *names: str) -> S:
    """Apply legal actions given by their contextual names, in order; returns ``state``.

    Raises ``ValueError`` naming the decision (``state.decision_kind`` where the game has one),
    the player on move and the legal actions when a name is not legal now.
    """
    for name in names:
        table = {state.action_name(int(a)): int(a) for a in state.legal_actions()}
        if name not in table:
            kind = getattr(state, "decision_kind", None)
            at = f" at decision {kind!r}" if kind is not None else ""
            raise ValueError(
                f"{state.game.name}: {name!r} is not legal{at} for "
                f"{state._seat_name(state.current_player)}; legal: " + "; ".join(table)
            )
        state.apply(table[name])
    return state
