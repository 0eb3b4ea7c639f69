"""The lab's tests (``pytest`` runs them with the library's: ``testpaths`` in ``pyproject.toml``).

They import the lab (``lab.recipes``, ``lab.experiments``) from the root of the clone: pytest puts
it on ``sys.path`` for ``lab/tests`` (``lab`` is a package); the lines below do the same under
``--import-mode=importlib``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = str(Path(__file__).resolve().parents[2])
if REPO_ROOT not in sys.path:
    sys.path.insert(0, REPO_ROOT)


@pytest.fixture(scope="session", autouse=True)
def sb3_logs_inside_the_test_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """SB3's default logger (any ``learn`` without a logger of its own) makes an ``SB3-<time>``
    folder in the system's temporary folder; the tests keep theirs, and those of the processes
    they start, under pytest's own temporary folder."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
