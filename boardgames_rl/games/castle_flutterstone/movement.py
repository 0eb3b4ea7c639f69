"""Figure movement on the path (rulebook "Moving your figure forward", data sheet 5.3 and 6.2).

Pure functions over plain ints, so the rules are testable on hand-made positions.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def occupied_by_others(positions: Sequence[int], mover: int, goal: int) -> set[int]:
    """Path fields holding the figures other than seat ``mover`` 's (the start field 0 and the
    last step ``goal`` never block)."""
    return {field for seat, field in enumerate(positions) if seat != mover and 0 < field < goal}


def advance(
    start: int, points: int, occupied: Collection[int], bridges: Collection[int], goal: int
) -> int:
    """Field reached by moving ``points`` fields forward from ``start``.

    * only free fields count: a field holding another figure is jumped and not counted;
    * a bridge field counts as a field, but no figure may stop on it: a move that would end on a
      bridge stops on the field before it (the extra point is lost), and if that field holds a
      figure, on the field before that figure, and so on;
    * never backwards: if no legal field lies ahead the figure stays on ``start``;
    * reaching ``goal`` ends the move (excess points do not count).

    ``occupied`` holds the fields of the *other* figures still on the path (start field 0 and the
    goal never block).
    """
    t = start
    counted = 0
    while counted < points and t < goal:
        t += 1
        if t in occupied:
            continue
        counted += 1
    while t > start and (t in bridges or t in occupied):
        t -= 1
    return t


def figure_ahead(start: int, occupied: Collection[int], goal: int) -> int | None:
    """Field of the nearest other figure ahead of ``start`` on the path, or ``None``."""
    ahead = [q for q in occupied if start < q < goal]
    return min(ahead) if ahead else None


def ghost_jump(start: int, occupied: Collection[int], bridges: Collection[int], goal: int) -> int:
    """Field reached with the *Ghost jump* card: as far as the next figure ahead, on the field
    behind it (just before it); if that field is a bridge, before the bridge.

    Raises ``ValueError`` when no figure is ahead (the card cannot be played then).
    """
    q = figure_ahead(start, occupied, goal)
    if q is None:
        raise ValueError("Ghost jump needs another figure ahead on the path")
    t = q - 1
    while t > start and (t in bridges or t in occupied):
        t -= 1
    return t
