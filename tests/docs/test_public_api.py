"""The site's public-API check (``docs/_ext/public_api.py``) catches a public name without a
docstring and a public name the site does not describe; fast, no Sphinx build."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from public_api import PUBLIC_MODULES, missing  # noqa: E402

SOURCE = '''
"""A throwaway public module."""

__all__ = ["LIMIT", "Shown", "bare", "hidden", "undocumented"]

LIMIT = 3
"""The limit."""


class Shown:
    """Described on the site."""


def bare():
    pass


def hidden():
    """Has a docstring, but no page describes it."""


undocumented = 4
'''


@pytest.fixture
def throwaway(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / "throwaway_public.py").write_text(textwrap.dedent(SOURCE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "throwaway_public"
    sys.modules.pop("throwaway_public", None)


def test_each_undocumented_name_is_one_line(throwaway: str) -> None:
    documented = {f"{throwaway}.{name}" for name in ("LIMIT", "Shown", "bare")}
    lines = missing([throwaway], documented)
    by_name = {line.split(" ", 1)[0].rsplit(".", 1)[1]: line for line in lines}
    assert len(lines) == len(by_name) == 3, lines
    assert "no docstring of its own:" in by_name["bare"]
    assert "no description on the site:" in by_name["hidden"]
    assert "no docstring of its own and no description on the site:" in by_name["undocumented"]
    assert "'#:' comment" in by_name["undocumented"]  # data: where its docstring goes


def test_a_re_exported_class_counts_under_its_canonical_name() -> None:
    # boardgames_rl.Agent is boardgames_rl.core.agent.Agent, described once under its canonical
    # name. (Agent, not Game: the compiled build keeps no class docstrings, and the site reads
    # the pure build, docs/conf.py.)
    without = missing(["boardgames_rl"], set())
    assert any(line.startswith("boardgames_rl.Agent ") for line in without)
    assert missing(["boardgames_rl"], {"boardgames_rl.core.agent.Agent"}) == [
        line for line in without if not line.startswith("boardgames_rl.Agent ")
    ]


def test_a_dataclass_without_a_docstring_has_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = 'from dataclasses import dataclass\n__all__ = ["Point"]\n'
    source += "@dataclass\nclass Point:\n    x: int\n"
    (tmp_path / "throwaway_dataclass.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        lines = missing(["throwaway_dataclass"], {"throwaway_dataclass.Point"})
    finally:
        sys.modules.pop("throwaway_dataclass", None)
    assert len(lines) == 1 and "no docstring" in lines[0]


def test_the_public_modules_import() -> None:
    for name in PUBLIC_MODULES:
        assert importlib.import_module(name).__all__


def test_the_api_index_links_every_top_level_name() -> None:
    import boardgames_rl

    index = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    for name in boardgames_rl.__all__:
        assert f"`boardgames_rl.{name}" in index, f"docs/api/index.md does not link {name}"
