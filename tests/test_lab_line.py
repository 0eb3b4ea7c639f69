"""The line between the library and the lab (issue 41): read from the package's own source.

* No module of ``boardgames_rl`` imports the lab (``lab``, ``benchmarks``, ``experiments``) or
  changes ``sys.path``: the package works the same installed or from a clone.
* No package docstring or comment holds a measured figure (a timing, a throughput, "on this
  machine", an interval, a dated run, an "Nx faster"): figures go in results files with their
  date, commit and machine (``docs/results/``, ``lab/benchmarks/results/``), and the docstring
  points there.

Both checks are tested on planted examples too, so a detector that stopped finding anything
would fail here.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "boardgames_rl"
LAB_MODULES = {"lab", "benchmarks", "experiments"}

# Files that still hold measured figures, each owned by someone who is rewriting it. An entry is
# a path under boardgames_rl/ or a folder ending in "/"; remove it once its figures have moved.
ALLOWLIST = {
    # The game engineers (issue 41 item 6), rewriting every game: no figure the detector sees is
    # left there today; drop this entry once their rewrite has landed.
    "games/",
}

# ------------------------------------------------------------------------- the figure detector
_NUM = r"\d[\d,]*(?:\.\d+)?"
FIGURES: dict[str, re.Pattern[str]] = {
    # 0.5 us, 3 µs, 12 ms (a rule never counts in microseconds)
    "timing": re.compile(rf"(?<![\w.]){_NUM}\s?(?:µs|μs|us|ns|ms)\b"),
    # 47.5 s, 2.4 minutes: a decimal duration is a measurement, an option default is a whole one
    "duration": re.compile(r"(?<![\w.])\d+\.\d+\s?(?:s|sec|seconds|min|minutes|h|hours)\b"),
    # took 40 s, costs ~3 minutes
    "took": re.compile(
        rf"\b(?:took|takes|costs?|lasted)\s(?:about\s|~)?{_NUM}\s?(?:s|seconds|min|minutes)\b"
    ),
    # 49,228 steps/s, 1.2k games/s
    "throughput": re.compile(
        rf"(?<![\w.]){_NUM}\s?k?\s?(?:steps|games|decisions|actions|moves|frames|samples)"
        r"\s?(?:/\s?s|per second)\b"
    ),
    # on this 2-core virtual machine, a 4-core box, an idle machine
    "machine": re.compile(
        r"\b\d+-core\b|\bon this\s(?:[\w-]+\s){0,3}?machine\b"
        r"|\b(?:idle|loaded|shared)\s(?:machine|core)s?\b",
        re.I,
    ),
    # [0.42, 0.79], 17% [9, 28], 95% CI 0.109-0.520, Wilson 95% 12.1-28.2%
    "interval": re.compile(
        r"\[\s?-?\d*\.\d+\s?,\s?-?\d*\.\d+\s?\]"
        r"|\d%?\s\[\d+(?:\.\d+)?%?,\s?\d+(?:\.\d+)?%?\]"
        r"|\b(?:CI|Wilson|interval)\b[^.\n\[]{0,20}?\d*\.\d+%?\s?(?:-|–|to)\s?\d*\.\d+"
    ),
    # a dated run: 2026-11-03
    "date": re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b"),
    # 6x slower, 2.3× faster, faster by 40%, a speed-up of 1.9
    "ratio": re.compile(
        r"\d(?:\.\d+)?\s?[x×]\s(?:faster|slower|quicker|as fast|the speed|speed-?up)"
        r"|\b(?:faster|slower)\sby\s(?:a factor of\s)?\d|\bspeed-?up\sof\s\d",
        re.I,
    ),
}


def figures_in(text: str) -> list[tuple[str, str, int]]:
    """The measured figures in ``text``: (kind, the matched words, where they start)."""
    found = [(kind, m.group(0), m.start()) for kind, p in FIGURES.items() for m in p.finditer(text)]
    return sorted(found, key=lambda f: f[2])


def prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every docstring (module, class, function, and the string under an
    assignment) and every comment of a module's source."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string


def figures_in_tree(root: Path, allow: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """``path:line: kind: words`` for every figure in the docstrings and comments of ``root``'s
    modules, except the files ``allow`` names (relative paths; a folder ends in ``/``)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if any(rel == a or (a.endswith("/") and rel.startswith(a)) for a in allow):
            continue
        for line, text in prose(path.read_text(encoding="utf-8")):
            for kind, words, start in figures_in(text):
                at = line + text.count("\n", 0, start)
                found.append(f"{root.name}/{rel}:{at}: {kind}: {words!r}")
    return found


# ------------------------------------------------------------------------- the import reader
_MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "__setitem__"}


def _is_sys_path(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript):
        node = node.value
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def lab_line_breaches(source: str) -> list[str]:
    """What in a module's source crosses the line: an import of the lab (a statement, or
    ``importlib.import_module``/``__import__`` of a literal name) or a change to ``sys.path``
    (assignment, augmented assignment, ``del``, a mutating call, ``site.addsitedir``,
    ``from sys import path``). Reading ``sys.path`` (e.g. to hand it to a child process) is
    not a change."""
    out = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if node.module == "sys" and any(a.name == "path" for a in node.names):
                out.append(f"line {node.lineno}: from sys import path")
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    names = [arg.value]
            if called in _MUTATORS and isinstance(func, ast.Attribute) and _is_sys_path(func.value):
                out.append(f"line {node.lineno}: sys.path.{called}(...)")
            if called == "addsitedir":
                out.append(f"line {node.lineno}: site.addsitedir(...)")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            if any(_is_sys_path(t) for t in targets):
                out.append(f"line {node.lineno}: sys.path changed")
        out += [
            f"line {node.lineno}: imports {name}"
            for name in names
            if name.split(".")[0] in LAB_MODULES
        ]
    return out


# ------------------------------------------------------------------------- the package
def test_no_module_of_the_package_imports_the_lab_or_changes_sys_path() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += [f"{path.relative_to(ROOT)}: {b}" for b in lab_line_breaches(path.read_text())]
    assert not found, "the package reaches into the lab:\n" + "\n".join(found)


def test_no_measured_figure_in_a_package_docstring_or_comment() -> None:
    found = figures_in_tree(PACKAGE, ALLOWLIST)
    assert not found, (
        "measured figures in package docstrings or comments; move them to a results page "
        "(docs/results/, with date, commit and machine) and point there:\n" + "\n".join(found)
    )


def test_the_package_build_finds_no_lab_package() -> None:
    """``pip install .`` / ``python -m build`` ship what setuptools finds with pyproject's
    ``packages.find``: only ``boardgames_rl`` (the lab has an ``__init__.py``, so only the
    ``include`` keeps it out). tests/test_packaging.py installs it for real."""
    import tomllib
    from setuptools import find_packages

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = setuptools["packages"]["find"]
    found = find_packages(
        str(ROOT), include=find.get("include", ("*",)), exclude=find.get("exclude", ())
    )
    assert "boardgames_rl" in found and (ROOT / "lab" / "__init__.py").is_file()
    assert all(p.split(".")[0] == "boardgames_rl" for p in found), found


# ------------------------------------------------------------------------- the tests' tests
@pytest.mark.parametrize(
    "text",
    [
        "one step costs 0.5 us where flatnonzero took 3 us",
        "an encode is 12 µs on this machine",
        "the whole page took 47.5 s wall",
        "the warm start took about 4 minutes",
        "Engine: 49,228 steps/s before, 52,611 after",
        "measured on this 2-core virtual machine",
        "probes on a loaded core",
        "won 16.5 of 100 games, 0.165 [0.105, 0.250]",
        "ninja: 17% [9, 28] unshaped",
        "heuristic 0.267 (95% CI 0.109-0.520)",
        "won 17.0 (18.9%, Wilson 95% 12.1-28.2%)",
        "latest run (2026-11-03 02:08 UTC)",
        "flatnonzero is 6x slower",
        "the fused kernel is 2.3× faster",
    ],
)
def test_the_detector_finds_a_planted_figure(text: str) -> None:
    assert figures_in(text), f"missed: {text!r}"


@pytest.mark.parametrize(
    "text",
    [
        "rule 4.2.1: the ninja moves 2 spaces; see section 3.1 and data sheet section 9",
        "needs torch>=2.10 and sb3-contrib 2.3; version 0.1.0; landing model v2",
        "lr (default 2.5e-4), gamma 0.995, clip 0.1, --seconds 2, timeout 600 s",
        "a card is worth 0.8 when drawn; 25% of the deck; values in [0, 1]",
        "95% Wilson interval of the win rate (the ladder's target is >= 0.55)",
        "one process per core; the learner's seat; 4 envs x 256 steps",
        "reads the file (a 2 GiB cap); a 1/k share; Nx is the board width",
        "this machine's worker processes, or a Ray cluster",
    ],
)
def test_the_detector_leaves_rules_versions_and_defaults_alone(text: str) -> None:
    assert not figures_in(text), figures_in(text)


def test_a_figure_planted_in_a_module_is_found_and_its_line_named(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "clean.py").write_text('"""Plays a game; rule 3.1."""\nX = 1  # the default\n')
    (pkg / "doc.py").write_text('"""Fast.\n\nMeasured: 0.42 ms a step."""\n')
    (pkg / "attr.py").write_text('T = {}\n"""Chosen by probes: 0.61 [0.42, 0.79]."""\n')
    (pkg / "note.py").write_text("x = 1\ny = 2  # 3x faster than before\n")
    found = figures_in_tree(pkg)
    assert [f.split(": ")[0] for f in found] == ["pkg/attr.py:2", "pkg/doc.py:3", "pkg/note.py:2"]
    assert figures_in_tree(pkg, {"attr.py", "doc.py", "note.py"}) == []


@pytest.mark.parametrize(
    "source",
    [
        "import lab.benchmarks.throughput\n",
        "from benchmarks.throughput import main\n",
        "import experiments\n",
        "import importlib\nimportlib.import_module('lab.benchmarks.throughput')\n",
        "import sys\nsys.path.insert(0, '/clone')\n",
        "import sys\nsys.path[:0] = ['/clone']\n",
        "import sys\nsys.path += ['/clone']\n",
        "from sys import path\n",
        "import site\nsite.addsitedir('/clone')\n",
    ],
)
def test_the_import_reader_finds_a_planted_breach(source: str) -> None:
    assert lab_line_breaches(source), source


def test_the_import_reader_allows_reading_sys_path_and_other_names() -> None:
    source = (
        "import json, sys\nfrom boardgames_rl.arena import laboratory\nimport labels\n"
        "args = [json.dumps(sys.path)]\n"
    )
    assert lab_line_breaches(source) == []
