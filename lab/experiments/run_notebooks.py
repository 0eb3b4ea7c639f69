"""Execute every notebook in ``notebooks/`` and save it with its outputs, so that a reader on the
web sees the pictures and tables without running anything.

    python lab/experiments/run_notebooks.py                    # every notebook, in place
    python lab/experiments/run_notebooks.py notebooks/training.ipynb

Run it before committing a notebook change (``tests/test_notebooks.py`` executes the notebooks
fresh and checks that the committed ones carry their outputs). The kernel is this interpreter
(a ``python3`` kernelspec pointing at ``sys.executable`` is installed into a temporary prefix when
the default one runs another Python); ``MPLBACKEND=Agg``; each notebook runs with ``notebooks/``
as its working directory. Execution counts and outputs are saved; the notebook's own metadata
(kernel name, language) is kept as it was.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"


def use_this_interpreter_as_kernel(prefix: str) -> None:
    """Install a ``python3`` kernelspec running ``sys.executable`` under ``prefix`` and put it
    first on ``JUPYTER_PATH``."""
    from ipykernel.kernelspec import install

    install(kernel_name=KERNEL, prefix=prefix)
    jupyter_dir = Path(prefix) / "share" / "jupyter"
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(jupyter_dir), *([old] if old else [])])


def run(path: Path, timeout: int) -> float:
    """Execute ``path`` in place; returns the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    metadata = dict(nb.metadata)
    start = time.time()
    nbclient.NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=KERNEL,
        allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nb.metadata = metadata
    for cell in nb.cells:  # nbclient's per-cell timing metadata would change on every run
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return time.time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb"))
    os.environ.setdefault("MPLBACKEND", "Agg")
    with tempfile.TemporaryDirectory() as prefix:
        use_this_interpreter_as_kernel(prefix)
        for path in paths:
            seconds = run(path, args.timeout)
            print(f"{path.relative_to(ROOT) if path.is_absolute() else path}: {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
