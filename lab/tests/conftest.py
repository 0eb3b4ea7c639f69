"""The lab's tests (``pytest`` runs them with the library's: ``testpaths`` in ``pyproject.toml``).

They import the lab (``lab.recipes``, ``lab.experiments``) from the root of the clone: pytest puts
it on ``sys.path`` for ``lab/tests`` (``lab`` is a package); the lines below do the same under
``--import-mode=importlib``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = str(Path(__file__).resolve().parents[2])
if REPO_ROOT not in sys.path:
    sys.path.insert(0, REPO_ROOT)
