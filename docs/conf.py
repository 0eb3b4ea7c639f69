"""Sphinx configuration of the boardgames-rl site: MyST Markdown pages, furo, autodoc.

Build (from the repository root, after ``pip install -e '.[docs]'``)::

    sphinx-build -W --keep-going -n -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))
# The site documents the readable source: autodoc reads the pure-Python modules (their signatures
# and docstrings as written), whichever build of the engines is installed.
os.environ["BOARDGAMES_RL_PURE"] = "1"

import boardgames_rl  # noqa: E402


def copy_notebooks() -> None:
    """The tutorials are the notebooks of ``notebooks/``: Sphinx reads only its source folder, so
    each build copies them (regular files only, no link followed) into ``docs/tutorials/``."""
    target = DOCS / "tutorials"
    for old in target.glob("*.ipynb"):
        old.unlink()
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        if notebook.is_file() and not notebook.is_symlink():
            (target / notebook.name).write_bytes(notebook.read_bytes())


copy_notebooks()

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
    "viewcode_backlinks",  # docs/_ext/viewcode_backlinks.py: [docs] links land on the object
    "sphinx_copybutton",
    "public_api",  # docs/_ext/public_api.py: an undocumented public name fails the build
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_generate", "_ext", "**/README.md", "results/*/**.md"]

myst_enable_extensions = ["attrs_inline", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # the notebooks are shown with the outputs they were committed with

html_theme = "furo"
html_title = f"boardgames-rl {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_show_sourcelink = False

autodoc_member_order = "bysource"
autodoc_typehints = "description"
# a dataclass lists its fields once, as attributes with their types, not again as parameters
autodoc_typehints_description_target = "documented_params"
autosummary_generate = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# -W -n: a reference to a name of ours that the site does not document fails the build. Names of
# other packages are not linked (the build reaches no network, so no intersphinx inventories).
nitpicky = True
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(numpy|np|collections|pathlib|torch|pyspiel|abc|pettingzoo|gymnasium|torchrl|typing|"
        r"argparse|ray|types|enum|io|os|concurrent|multiprocessing|threading|random|json|"
        r"dataclasses|tqdm|matplotlib|stable_baselines3|sb3_contrib|signal|subprocess|"
        r"queue|logging|open_spiel|datetime|zipfile|contextlib)(\..*)?",
    ),
    (
        r"py:.*",
        r"(int|float|str|bool|bytes|object|None|Any|type|dict|list|tuple|set|"
        r"frozenset|Exception|ValueError|RuntimeError|KeyError|TypeError|OSError|"
        r"Iterator|Callable|Sequence|Mapping|Iterable|Path|ndarray)",
    ),
    # other packages' own annotations that autodoc shows unqualified: the inherited __init__ of
    # PettingZoo's OrderEnforcingWrapper, RLlib's module written against ``gym``
    (r"py:.*", r"(AECEnv|AgentID|ObsType|ActionType)|gym\..*"),
]
