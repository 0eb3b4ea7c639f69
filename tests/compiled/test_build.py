"""Which build of the engines runs, and the refusals around it (issue 44, deliverable 1).

``boardgames_rl.compiled`` picks the compiled (mypyc) build where one is installed and up to date,
else the pure-Python one; ``BOARDGAMES_RL_PURE=1`` forces the pure one. Each case runs in a real
process, as a user's would.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import boardgames_rl
from boardgames_rl.compiled import PURE_ENV, build_info

INFO = "import json, boardgames_rl; print(json.dumps(boardgames_rl.build_info()))"


def _python(code: str, env_extra: dict[str, str], cwd: Path | None = None, path: str = ""):
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    env.update(env_extra)
    if path:
        env["PYTHONPATH"] = path
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_build_info_says_which_build_and_why():
    info = build_info()
    assert info["build"] in ("compiled", "pure")
    assert info["reason"]
    if info["build"] == "compiled":
        assert info["compiler"].startswith("mypyc ")
        assert "boardgames_rl.games.castle_flutterstone.state" in info["modules"]
        assert set(info["loaded_compiled"]) <= set(info["modules"])
        assert "boardgames_rl.core.game" in info["loaded_compiled"]
    else:
        assert info["modules"] == [] and info["loaded_compiled"] == []


@pytest.mark.parametrize("helper", ["native_draws", "native_masks"])
def test_the_pure_build_refuses_to_load_the_compiled_builds_c_helpers(helper):
    """``core.native_draws`` and ``core.native_masks`` (C, no Python source) belong to the
    compiled build: a process that runs the pure build refuses to import one, in one line
    saying why, and reports nothing compiled loaded."""
    code = INFO + f"\nimport boardgames_rl.core.{helper}"
    done = _python(code, {PURE_ENV: "1"})
    assert done.returncode != 0
    assert json.loads(done.stdout.splitlines()[0])["loaded_compiled"] == []
    last = done.stderr.strip().splitlines()[-1]
    assert last == (
        f"ImportError: boardgames_rl.core.{helper} is part of the compiled build, which this "
        f"process does not run ({PURE_ENV}=1)"
    )


def test_the_pure_variable_forces_the_pure_build():
    done = _python(INFO + "\nimport boardgames_rl.games.castle_flutterstone.state", {PURE_ENV: "1"})
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout.splitlines()[0])
    assert info["build"] == "pure" and info["reason"] == f"{PURE_ENV}=1"
    assert info["loaded_compiled"] == []


@pytest.mark.parametrize("value", ["yes", "true", "2", " 1"])
def test_a_bad_pure_value_is_refused_in_one_line(value):
    done = _python("import boardgames_rl", {PURE_ENV: value})
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ValueError: BOARDGAMES_RL_PURE must be 1"), last
    assert repr(value) in last


def _copy_of_the_package(tmp_path: Path) -> Path:
    """The installed package (compiled files included) in a folder of its own."""
    source = Path(boardgames_rl.__file__).parent
    root = tmp_path / "site"
    shutil.copytree(
        source,
        root / "boardgames_rl",
        ignore=shutil.ignore_patterns("__pycache__", "pretrained", "*.npz"),
    )
    for name, group in list(sys.modules.items()):  # mypyc's shared library of each group
        if name.startswith("boardgames_rl") and name.endswith("__mypyc") and group.__file__:
            shutil.copy2(group.__file__, root / Path(group.__file__).name)
    return root


@pytest.mark.skipif(build_info()["build"] != "compiled", reason="needs the compiled build")
@pytest.mark.parametrize(
    ("source", "edit"),
    [
        ("games/castle_flutterstone/legal.py", "\n# an edit\n"),
        ("core/native_draws.c", "\n/* an edit */\n"),  # the C helper of core.draws
    ],
    ids=["engine", "c-helper"],
)
def test_an_edited_engine_runs_pure_and_says_so(tmp_path, source, edit):
    """A compiled module (or the C helper built with them) whose source changed since the build
    (an edit in an editable install) is never run: the package runs the pure build, with one
    warning naming the file."""
    root = _copy_of_the_package(tmp_path)
    done = _python(INFO, {}, cwd=tmp_path, path=str(root))
    info = json.loads(done.stdout.splitlines()[0])
    assert info["build"] == "compiled", done.stderr
    assert "boardgames_rl.core.native_draws" in info["modules"]
    edited = root / "boardgames_rl" / source
    edited.write_text(edited.read_text() + edit)
    code = INFO + "; from boardgames_rl.core import draws; print(draws._native)"
    done = _python(code, {}, cwd=tmp_path, path=str(root))
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout.splitlines()[0])
    assert info["build"] == "pure" and info["loaded_compiled"] == []
    assert done.stdout.splitlines()[1] == "None"  # the pure build draws without the helper
    assert f"{source} changed since the compiled build" in info["reason"]
    assert "RuntimeWarning" in done.stderr and "pip install -e ." in done.stderr


@pytest.mark.skipif(build_info()["build"] != "compiled", reason="needs the compiled build")
@pytest.mark.parametrize(
    "manifest",
    [
        "not json",
        '{"compiler": "x"}',
        '{"compiler": "x", "modules": {"os.path": "0"}}',
        '{"compiler": "x", "modules": {"boardgames_rl./etc/passwd": "0"}}',  # a path as a name
        '{"compiler": "x", "modules": {}, "pad": "' + "x" * (1 << 20) + '"}',  # over the cap
        "LINK",  # a link to a good manifest is not followed
        "FIFO",  # a named pipe is not read (nor waited on)
    ],
    ids=["not-json", "no-modules", "outside", "path-name", "huge", "link", "fifo"],
)
def test_a_bad_manifest_runs_pure(tmp_path, manifest):
    """The manifest is data: anything but a regular, small file naming the package's own
    modules leaves the pure build, with the reason given, never an error at import."""
    root = _copy_of_the_package(tmp_path)
    target = root / "boardgames_rl/_compiled.json"
    if manifest == "LINK":
        good = tmp_path / "good.json"
        good.write_bytes(target.read_bytes())
        target.unlink()
        target.symlink_to(good)
    elif manifest == "FIFO":
        target.unlink()
        os.mkfifo(target)
    else:
        target.write_text(manifest)
    done = _python(INFO, {}, cwd=tmp_path, path=str(root))
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout.splitlines()[0])
    assert info["build"] == "pure" and info["loaded_compiled"] == [], info


def test_a_method_a_game_leaves_out_is_named_when_called():
    """The contract's classes are no ABCs (compiled, they shared one isinstance cache): a hook a
    game leaves out raises NotImplementedError naming it, in both builds."""
    from boardgames_rl.core.game import State
    from boardgames_rl.testing.toy_game import ToyGame

    game = ToyGame()
    state = game.new_state(0)
    with pytest.raises(NotImplementedError, match="must define _apply"):
        State._apply(state, 0)
    with pytest.raises(NotImplementedError, match="must define sample"):
        boardgames_rl.InfoSet.sample(state.info_set(0), None)


@pytest.mark.parametrize(
    "game", ["castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle"]
)
def test_a_value_function_refuses_what_is_not_its_games_state(game):
    """``ai.value`` compiles with the engine and reads the game's own state: given another
    object it refuses in one line naming what it needs, in both builds (it never reads another
    game's fields as its own)."""
    import importlib

    from boardgames_rl import make_game

    value = importlib.import_module(f"boardgames_rl.games.{game}.ai.value")
    other = "white_castle" if game == "castle_flutterstone" else "castle_flutterstone"
    wrong = make_game(other).new_state(0)
    for fn in (value.evaluate, value.potential):
        with pytest.raises(TypeError, match=f"{game} .*: give a .*State, not a "):
            fn(wrong)
    right = make_game(game).new_state(0)
    assert value.evaluate(right).shape == (right.game.num_players,)


def _compiled_sources() -> list[str]:
    """setup.py's ``COMPILED`` list, read from its syntax tree (setup.py is not run)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError("setup.py has no COMPILED list")


ROOT = Path(boardgames_rl.__file__).resolve().parent.parent


def test_compiled_modules_zip_without_keywords_and_only_they_skip_the_strict_lint():
    """mypyc compiles a ``zip`` loop natively only when the call has no keyword, so compiled
    modules write ``zip(a, b)`` (sequences of equal length by construction), and the lint's
    B905 (``zip`` without ``strict``) is switched off for compiled modules only."""
    import tomllib

    compiled = _compiled_sources()
    with_keywords = []
    for source in compiled:
        for node in ast.walk(ast.parse((ROOT / source).read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "zip"
                and node.keywords
            ):
                with_keywords.append(f"{source}:{node.lineno}")
    assert not with_keywords, f"zip with a keyword in a compiled module: {with_keywords}"
    ruff = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    skipping = [f for f, rules in ruff.get("per-file-ignores", {}).items() if "B905" in rules]
    assert skipping, "the per-file B905 ignores are gone: update this test"
    assert set(skipping) <= set(compiled), set(skipping) - set(compiled)
