"""Every code example in a docstring of the package (what the API reference shows) runs.

Three kinds of example are found in the docstrings of every module under ``boardgames_rl``, of its
classes and their members (methods, properties), and in the attribute docstrings autodoc shows
(the string after an assignment):

- ``>>>`` examples run as doctests (their printed output is compared);
- literal blocks (a paragraph ending in ``::``, or ``.. code-block:: python``) are Python: each runs
  in a fresh interpreter, in a temporary working directory, with no input;
- ``.. code-block:: bash`` (or ``console``) blocks are commands of this project: each line runs
  (or, when some lines start with ``$ ``, each of those: the others are output), with the
  ``boardgames-rl`` command as this interpreter's ``-m boardgames_rl.cli`` and ``python`` as
  this interpreter.

A block that is not code (a folder layout, a JSON schema) says so with ``.. code-block:: text``
(or ``json``): it is shown as it is and not run. ``tests/docs/test_site.py`` checks that every
code block on the built site comes from a source that a test runs.
"""

from __future__ import annotations

import doctest
import functools
import importlib
import inspect
import json
import os
import pkgutil
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

import boardgames_rl
from boardgames_rl.compiled import BUILD, PURE_ENV, build_info

ROOT = Path(__file__).resolve().parents[2]
NOT_CODE = {"text", "json", "none"}
PYTHON = {"default", "python", "python3", "py"}
CONSOLE = {"console", "bash", "shell"}
DIRECTIVE = re.compile(r"^\.\. (?:code-block|code|sourcecode)::(?:\s+(\S+))?\s*$")


@dataclass(frozen=True)
class Example:
    where: str
    language: str
    code: str


C_HELPERS = {
    "boardgames_rl." + ".".join(p.relative_to(ROOT / "boardgames_rl").with_suffix("").parts)
    for p in (ROOT / "boardgames_rl").rglob("*.pyi")
    if not p.with_suffix(".py").exists()
}
"""The compiled build's C helpers (``core.native_draws``...), known by their stubs."""


def modules() -> list[ModuleType]:
    """Every module of the package that imports here (``__main__`` modules are not imported)."""
    found = [boardgames_rl]
    for info in pkgutil.walk_packages(boardgames_rl.__path__, "boardgames_rl."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        if info.name in C_HELPERS and BUILD != "compiled":
            continue  # the compiled build's C helpers: the pure build refuses to load them
        found.append(importlib.import_module(info.name))
    return found


def _member_doc(member: object) -> str | None:
    """The docstring of a class member autodoc shows: a method, property or nested class."""
    if isinstance(member, staticmethod | classmethod):
        member = member.__func__
    if isinstance(member, property):
        member = member.fget
    if isinstance(member, functools.cached_property):
        member = member.func
    if inspect.isfunction(member) or inspect.isclass(member):
        return member.__doc__
    return None


def _attribute_docs(module: ModuleType) -> Iterator[tuple[str, str]]:
    """The attribute docstrings of ``module`` (a string after an assignment, at module level, in
    a class or as ``self.x`` in a method), as autodoc reads them."""
    pycode = pytest.importorskip("sphinx.pycode")
    source = Path(str(module.__file__))  # a compiled module's source lies beside it
    source = source.with_name(source.name.split(".", 1)[0] + ".py")
    if not source.is_file():  # a C helper (core.native_masks): no Python source, no attributes
        return
    analyzer = pycode.ModuleAnalyzer.for_file(str(source), module.__name__)
    for (namespace, name), lines in analyzer.find_attr_docs().items():
        if name.startswith("_") or not any(line.strip() for line in lines):
            continue
        where = ".".join(part for part in (module.__name__, namespace, name) if part)
        yield where, "\n".join(lines)


def _docstrings(module: ModuleType) -> Iterator[tuple[str, str]]:
    if module.__doc__:
        yield module.__name__, module.__doc__
    for name, obj in vars(module).items():
        if getattr(obj, "__module__", None) != module.__name__ or name.startswith("_"):
            continue
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__doc__:
            yield f"{module.__name__}.{name}", obj.__doc__
        if inspect.isclass(obj):
            for member_name, member in vars(obj).items():
                doc = _member_doc(member)
                if doc and (member_name == "__init__" or not member_name.startswith("_")):
                    yield f"{module.__name__}.{name}.{member_name}", doc
    yield from _attribute_docs(module)


def literal_blocks(doc: str) -> Iterator[tuple[str, str]]:
    """``(language, code)`` of each literal block of one docstring, and of each doctest block (a
    paragraph starting with ``>>>``: ``pycon``, run by ``doctest``)."""
    lines = inspect.cleandoc(doc).splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        directive = DIRECTIVE.match(stripped)
        if stripped.startswith(">>>"):
            j = i
            while j < len(lines) and lines[j].strip():
                j += 1
            yield "pycon", textwrap.dedent("\n".join(lines[i:j]))
            i = j
            continue
        if directive:
            language = directive[1] or "default"
        elif stripped.endswith("::") and not stripped.startswith(".. "):
            language = "default"
        else:
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while directive and j < len(lines) and lines[j].strip().startswith(":"):
            j += 1  # directive options
        body: list[str] = []
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
        ):
            body.append(lines[j])
            j += 1
        code = textwrap.dedent("\n".join(body)).strip("\n")
        if code:
            yield language, code
        i = j


def examples() -> list[Example]:
    """Every literal block in the package's docstrings (the second and later of one docstring
    named ``<where>#2`` and so on).

    The docstrings are read from the source: where this process runs the compiled build (whose
    classes keep no docstrings), a pure-build process reads them; the examples still run here."""
    if build_info()["build"] == "compiled":
        return _examples_from_a_pure_process()
    found = []
    for module in modules():
        for where, doc in _docstrings(module):
            for k, (language, code) in enumerate(literal_blocks(doc), 1):
                found.append(Example(where if k == 1 else f"{where}#{k}", language, code))
    return found


def _examples_from_a_pure_process() -> list[Example]:
    code = (
        "import json, tests.docs.test_docstring_examples as t; "
        "print(json.dumps([[e.where, e.language, e.code] for e in t.EXAMPLES]))"
    )
    env = {**os.environ, PURE_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [Example(*row) for row in json.loads(done.stdout.strip().splitlines()[-1])]


EXAMPLES = examples()


def test_every_block_names_a_known_language() -> None:
    known = NOT_CODE | PYTHON | CONSOLE | {"pycon"}
    odd = [f"{e.where}: {e.language}" for e in EXAMPLES if e.language not in known]
    assert not odd, f"code blocks in an unknown language: {odd}"


RUNNABLE = [e for e in EXAMPLES if e.language in PYTHON | CONSOLE and ">>>" not in e.code]
"""The blocks run here; the ``>>>`` ones run as doctests (``test_doctests_pass``)."""


@pytest.mark.parametrize("example", RUNNABLE, ids=[e.where for e in RUNNABLE])
def test_example_runs(example: Example, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    if example.language in PYTHON:
        commands = [[sys.executable, "-c", example.code]]
    else:
        commands = []
        lines = example.code.replace("\\\n", " ").splitlines()
        if any(line.startswith("$ ") for line in lines):
            lines = [line[2:] for line in lines if line.startswith("$ ")]
        for line in lines:
            line = line.split("  #", 1)[0].strip()
            if not line:
                continue
            argv = shlex.split(line)
            if argv[0] == "boardgames-rl":
                argv = [sys.executable, "-m", "boardgames_rl.cli", *argv[1:]]
            elif argv[0] == "python":
                argv = [sys.executable, *argv[1:]]
            else:
                pytest.fail(f"{example.where}: a console line that is not ours to run: {line}")
            commands.append(argv)
    for argv in commands:
        proc = subprocess.run(
            argv,
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, (
            f"{example.where} failed:\n{example.code}\n{proc.stderr[-3000:]}"
        )


DOCTEST_MODULES = [m for m in modules() if any(t.examples for t in doctest.DocTestFinder().find(m))]


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("module", DOCTEST_MODULES, ids=lambda m: m.__name__)
def test_doctests_pass(module: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it there
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0, f"{module.__name__}: {result.failed} doctest(s) failed"


def test_attribute_docstring_doctests_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``>>>`` examples in attribute docstrings, which ``doctest.testmod`` does not see."""
    monkeypatch.chdir(tmp_path)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    for module in modules():
        for where, doc in _attribute_docs(module):
            if ">>>" in doc:
                test = parser.get_doctest(doc, dict(vars(module)), where, module.__file__, 0)
                runner.run(test)
    assert runner.failures == 0, f"{runner.failures} attribute-docstring doctest(s) failed"
