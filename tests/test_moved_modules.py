"""Modules that moved out of ``core`` (issue 41.4) keep their old path for one release: the old
module gives the new module's objects, each use with a DeprecationWarning naming the new path.
Modules and names that moved out of the package to the lab (the SB3 trainer, ``lab/recipes/sb3``)
say where they went in one line (the package never imports the lab)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

MOVED = [
    ("boardgames_rl.core.progress", "boardgames_rl._util.progress", "progress_bar"),
    ("boardgames_rl.core.threads", "boardgames_rl._util.threads", "one_blas_thread_in_children"),
    ("boardgames_rl.core.extras", "boardgames_rl._util.extras", "require"),
    ("boardgames_rl.core.policy_obs", "boardgames_rl.envs.policy_obs", "policy_observation"),
]


@pytest.mark.parametrize("old,new,name", MOVED, ids=[m[0] for m in MOVED])
def test_the_old_path_gives_the_same_object_with_a_warning(old: str, new: str, name: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"moved to {new}.{name}"):
        value = getattr(importlib.import_module(old), name)
    assert value is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize("old,new,name", MOVED, ids=[m[0] for m in MOVED])
def test_a_name_the_new_module_lacks_is_an_attribute_error(old: str, new: str, name: str) -> None:
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'nothing'"):
        importlib.import_module(old).nothing  # noqa: B018


ROOT = Path(__file__).resolve().parents[1]
TRAINER = "the library's trainer is boardgames_rl.training.ppo"
SB3_MODULES = [
    "train_ppo",
    "fast_ppo",
    "callbacks",
    "args",
    "defaults",
    "imitation",
    "demos",
    "init_from",
    "fork",
    "shaping",
]
"""The SB3 trainer's modules, moved out of ``boardgames_rl.training`` to ``lab/recipes/sb3/``."""


@pytest.mark.parametrize("name", SB3_MODULES)
def test_a_module_moved_to_the_lab_says_where_in_one_line(name: str) -> None:
    """``import boardgames_rl.training.<name>`` and ``from boardgames_rl.training import <name>``
    give one line naming the lab file (which exists, and is that module) and the library's
    trainer; the package never imports the lab to say it."""
    old = f"boardgames_rl.training.{name}"
    line = f"{old} moved to the lab: lab/recipes/sb3/{name}.py; {TRAINER}"
    with pytest.raises(ImportError) as info:
        importlib.import_module(old)
    assert str(info.value) == line
    with pytest.raises(ImportError) as info:
        exec(f"from boardgames_rl.training import {name}", {})
    assert str(info.value) == line
    assert (ROOT / "lab" / "recipes" / "sb3" / f"{name}.py").is_file()
    assert old not in sys.modules


def test_a_moved_module_in_a_fresh_process_is_one_line_and_imports_no_lab() -> None:
    code = (
        "import sys\n"
        "try:\n"
        "    import boardgames_rl.training.train_ppo\n"
        "except ImportError as e:\n"
        "    print(e)\n"
        "print(sorted(m for m in sys.modules if m == 'lab' or m.startswith('lab.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert done.returncode == 0, done.stderr
    line, imported = done.stdout.splitlines()
    assert line.endswith(f"moved to the lab: lab/recipes/sb3/train_ppo.py; {TRAINER}")
    assert imported == "[]"


MOVED_NAMES = [
    # (old module, name, lab file, what the library has instead)
    ("boardgames_rl.training.checkpoint", "read_config", "args", "training.runs.read_config"),
    ("boardgames_rl.training.checkpoint", "MAX_CONFIG_BYTES", "args", "runs.MAX_CONFIG_BYTES"),
    ("boardgames_rl.training.envs", "build_vec_env", "envs", TRAINER),
    ("boardgames_rl.training.envs", "make_learner_env", "envs", TRAINER),
    ("boardgames_rl.training.envs", "make_batched_env", "envs", TRAINER),
    ("boardgames_rl.training.envs", "LearnerEnv", "envs", TRAINER),
]


@pytest.mark.parametrize(("old", "name", "lab", "instead"), MOVED_NAMES)
def test_a_name_moved_to_the_lab_says_where_in_one_line(
    old: str, name: str, lab: str, instead: str
) -> None:
    """A name that left a module still in the package: using it (or importing it) gives one line
    naming the lab file that defines it now and what the library has instead; the module's other
    missing names stay plain AttributeErrors."""
    module = importlib.import_module(old)
    with pytest.raises(ImportError) as info:
        getattr(module, name)
    message = str(info.value)
    assert message.startswith(f"{old}.{name} moved to the lab: lab/recipes/sb3/{lab}.py; ")
    assert instead in message and "\n" not in message
    with pytest.raises(ImportError, match="moved to the lab"):
        exec(f"from {old} import {name}", {})
    source = (ROOT / "lab" / "recipes" / "sb3" / f"{lab}.py").read_text()
    assert re.search(rf"^(class|def) {name}\b|^{name} = ", source, re.M), (lab, name)
    with pytest.raises(AttributeError, match=f"module '{old}' has no attribute 'nothing'"):
        module.nothing  # noqa: B018


def test_the_library_keeps_what_the_lab_names_instead() -> None:
    from boardgames_rl.training import runs

    assert callable(runs.read_config) and isinstance(runs.MAX_CONFIG_BYTES, int)
    assert callable(importlib.import_module("boardgames_rl.training.ppo").main)


def test_the_missing_extra_error_is_one_class() -> None:
    from boardgames_rl._util.extras import MissingExtraError
    from boardgames_rl.core.errors import MissingExtraError as from_core

    assert from_core is MissingExtraError
