"""Read-only records (``core.record``), in both builds: equal by their fields and class, shown by
their fields, never hashed, and (compiled build) a write to an attribute refused at run time.

Night of the Ninja's player view and its parts are records (issue 44: a search rollout builds a
view at every move), and Castle Nightingale's legal placements (built at every placement a search
or a batched env asks for)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import boardgames_rl
from boardgames_rl.compiled import build_info
from boardgames_rl.games.castle_nightingale import paths
from boardgames_rl.games.night_of_the_ninja import infoset
from boardgames_rl.games.night_of_the_ninja.infoset import Decision, HouseFact, HouseHypothesis

RECORDS = [
    infoset.Decision,
    infoset.ShapeshifterNaming,
    infoset.GraveDiggerSight,
    infoset.MerchantVisit,
    infoset.HouseFact,
    infoset.PlayerView,
    infoset.HouseHypothesis,
    paths.Placements,
]


def test_records_are_equal_by_class_and_every_field():
    a = Decision("target", 1, 7, 1, -1)
    assert a == Decision("target", 1, 7, 1, -1)
    assert (a != Decision("target", 1, 7, 1, -1)) is False  # __ne__ too
    for k, other in enumerate((("commit", 1, 7, 1, -1), ("target", 1, 7, 1, 2))):
        assert a != Decision(*other), k
    assert HouseFact(1, 7, True) != HouseFact(1, 7, False)
    assert a != ("target", 1, 7, 1, -1)  # not a tuple
    assert HouseFact(1, 2, True) != HouseHypothesis(1, [2], [], [], [], 1)


def test_a_record_shows_its_fields_and_is_not_hashed():
    fact = HouseFact(3, 7, False)
    assert repr(fact) == "HouseFact(target=3, card=7, before_swap=False)"
    with pytest.raises(TypeError):
        hash(fact)


def test_each_records_fields_are_its_constructors_arguments_in_order():
    """Read from the sources (``FIELDS`` and ``__init__``'s parameters, the same in both builds):
    every ``Record`` subclass of the package, and each is in ``RECORDS``."""
    package = Path(boardgames_rl.__file__).parent
    by_name = {r.__name__: r for r in RECORDS}
    found = []
    for source in sorted(package.rglob("*.py")):
        for node in ast.parse(source.read_text()).body:
            if not isinstance(node, ast.ClassDef):
                continue
            if not any(getattr(b, "id", "") == "Record" for b in node.bases):
                continue
            found.append(node.name)
            record = by_name[node.name]
            init = next(
                f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"
            )
            assert list(record.FIELDS) == [a.arg for a in init.args.args[1:]], node.name
    assert sorted(found) == sorted(by_name)


@pytest.mark.skipif(build_info()["build"] != "compiled", reason="the compiled build's check")
def test_the_compiled_build_refuses_a_write():
    fact = HouseFact(3, 7, False)
    with pytest.raises(AttributeError):
        fact.card = 8  # type: ignore[misc]
    with pytest.raises(AttributeError):
        fact.extra = 1  # type: ignore[attr-defined]
    assert fact.card == 7
