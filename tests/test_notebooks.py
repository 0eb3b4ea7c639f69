"""Every notebook in ``notebooks/`` runs top to bottom without an error.

Each notebook is executed by ``nbclient`` in a fresh kernel, in a temporary working directory, with
``MPLBACKEND=Agg`` (no display). The kernel must run the interpreter of this test process (the
project's virtual environment): the ``python3`` kernelspec is checked, and when it resolves to
another interpreter (or does not exist) a kernelspec pointing at ``sys.executable`` is installed
into a temporary prefix and put first on ``JUPYTER_PATH``.

A notebook whose budget is too big for every commit marks its settings cell with the tag
``parameters`` (papermill's convention); the test runs it with :data:`TEST_PARAMETERS` in a cell
injected right after that one, so every line of the notebook still runs, on fewer games. The
committed outputs come from ``lab/experiments/run_notebooks.py`` with the notebook's own settings.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel  # noqa: E402

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
KERNEL_NAME = "python3"
CELL_TIMEOUT = 300

# notebook -> source of the cell injected after its ``parameters`` cell when tested
TEST_PARAMETERS = {
    "benchmark_your_agent.ipynb": (
        "GAMES_PER_PAIR = 2  # injected by tests/test_notebooks.py\n"
        "BUDGETS = (2, 4)  # the search rungs' iterations: every line runs, on fewer iterations\n"
        "WORLDS = 1"
    ),
    "training.ipynb": "TIMESTEPS = 1024  # injected by tests/test_notebooks.py: one rollout pair",
}


def _inject_parameters(nb, name: str) -> None:
    """Put ``TEST_PARAMETERS[name]`` in a new cell right after the ``parameters`` cell."""
    source = TEST_PARAMETERS.get(name)
    if source is None:
        return
    tagged = [
        i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])
    ]
    assert len(tagged) == 1, f"{name}: one cell must be tagged 'parameters', found {len(tagged)}"
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
    nb.cells.insert(tagged[0] + 1, cell)


def _kernel_prefix() -> str | None:
    """``sys.prefix`` of the interpreter the ``python3`` kernelspec launches (None if none)."""
    try:
        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except NoSuchKernel:
        return None
    if not spec.argv:
        return None
    exe = spec.argv[0]
    # jupyter_client launches a bare "python"/"python3"/"python3.X" as sys.executable
    major, minor = sys.version_info[:2]
    short = {"python", f"python{major}", f"python{major}.{minor}"}
    exe = sys.executable if exe in short else shutil.which(exe)
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "-c", "import sys; print(sys.prefix)"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


@pytest.fixture(scope="module")
def kernel_env(tmp_path_factory: pytest.TempPathFactory):
    """Environment under which the ``python3`` kernel is this process's interpreter."""
    mp = pytest.MonkeyPatch()
    mp.setenv("MPLBACKEND", "Agg")
    if _kernel_prefix() != sys.prefix:
        from ipykernel.kernelspec import install

        prefix = tmp_path_factory.mktemp("kernelspec")
        install(kernel_name=KERNEL_NAME, prefix=str(prefix))  # argv[0] = sys.executable
        jupyter_dir = prefix / "share" / "jupyter"
        old = os.environ.get("JUPYTER_PATH")
        mp.setenv("JUPYTER_PATH", os.pathsep.join([str(jupyter_dir), *([old] if old else [])]))
    prefix_seen = _kernel_prefix()
    assert prefix_seen == sys.prefix, (
        f"the {KERNEL_NAME!r} kernel runs the interpreter of {prefix_seen!r}, "
        f"not this test's {sys.prefix!r}"
    )
    yield
    mp.undo()


def test_notebooks_found():
    assert NOTEBOOKS, f"no notebooks in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path, kernel_env) -> None:
    nb = nbformat.read(path, as_version=4)
    _inject_parameters(nb, path.name)
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name=KERNEL_NAME,
        allow_errors=False,  # any cell raising fails the test (CellExecutionError)
        resources={"metadata": {"path": str(tmp_path)}},  # the kernel's working directory
    )
    client.execute()
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: cells raised: {[e.get('ename') for e in errors]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_committed_notebook_carries_its_outputs(path: Path) -> None:
    """A reader on the web sees what the notebook shows: every code cell was executed (in order,
    by ``lab/experiments/run_notebooks.py``), none raised, and the notebook shows a picture."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    assert None not in counts, (
        f"{path.name}: {counts.count(None)} code cells without outputs; "
        "run `python lab/experiments/run_notebooks.py` before committing"
    )
    assert counts == sorted(counts), f"{path.name}: cells were not executed top to bottom"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"], path.name
    assert any("image/png" in o.get("data", {}) for o in outputs), f"{path.name}: no picture"
