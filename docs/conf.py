"""Sphinx configuration of the boardgames-rl site: MyST Markdown pages, furo, autodoc.

Build (from the repository root, after ``pip install -e '.[docs]'``)::

    sphinx-build -W --keep-going -n -b html docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import boardgames_rl  # noqa: E402

project = "boardgames-rl"
author = "The boardgames-rl authors"
copyright = "2026, the boardgames-rl authors"  # noqa: A001
release = boardgames_rl.__version__
version = release

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_generate", "**/README.md", "results/*/**.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # the notebooks are shown with the outputs they were committed with

html_theme = "furo"
html_title = f"boardgames-rl {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autosummary_generate = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False
