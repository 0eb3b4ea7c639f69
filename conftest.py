"""Setup shared by both test trees (``tests/`` and ``lab/tests/``, pyproject's ``testpaths``)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def sb3_logs_inside_the_test_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """SB3's default logger (any ``learn`` without a logger of its own, as in the docs' examples)
    makes an ``SB3-<time>`` folder in the system's temporary folder; the tests keep theirs, and
    those of the processes they start, under pytest's own temporary folder."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
