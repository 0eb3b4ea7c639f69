"""Modules that moved out of ``core`` (issue 41.4) keep their old path for one release: the old
module gives the new module's objects, each use with a DeprecationWarning naming the new path."""

from __future__ import annotations

import importlib

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


MOVED_NAMES = [
    ("boardgames_rl.training.checkpoint", "boardgames_rl.training.args", "read_config"),
    ("boardgames_rl.training.defaults", "boardgames_rl.training.args", "defaults_for"),
]


@pytest.mark.parametrize("old,new,name", MOVED_NAMES, ids=[m[0] for m in MOVED_NAMES])
def test_a_name_that_moved_out_of_a_circle_warns(old: str, new: str, name: str) -> None:
    """``training.args`` and ``training.defaults`` / ``training.checkpoint`` import each other no
    more (issue 41.4): the names that moved keep their old place for one release."""
    with pytest.warns(DeprecationWarning, match=f"moved to {new}.{name}"):
        value = getattr(importlib.import_module(old), name)
    assert value is getattr(importlib.import_module(new), name)


def test_the_missing_extra_error_is_one_class() -> None:
    from boardgames_rl._util.extras import MissingExtraError
    from boardgames_rl.core.errors import MissingExtraError as from_core

    assert from_core is MissingExtraError
