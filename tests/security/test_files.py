"""The one checked reader and the one safe writer (``boardgames_rl.core.files``), attacked directly.

Every path of the library that reads or writes a file goes through these functions; the tests
beside this one drive those paths end to end (the CLI, training, tournaments, model files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardgames_rl.core import files
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import UnsafeFileError


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the chosen one, holding a victim file."""
    d = tmp_path / "outside"
    d.mkdir()
    (d / "victim.txt").write_text("keep me")
    return d


@pytest.fixture
def chosen(tmp_path: Path) -> Path:
    d = tmp_path / "chosen"
    d.mkdir()
    return d


# ------------------------------------------------------------------------------------ reading
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "games.jsonl"
    os.mkfifo(fifo)
    code = (
        "import sys\nfrom boardgames_rl.core.files import read_text\n"
        "try:\n    read_text(sys.argv[1], 1000)\nexcept Exception as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert "is a FIFO, not a regular file" in out.stdout


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_device_behind_a_link_is_refused(tmp_path, target):
    if not os.path.exists(target):
        pytest.skip(f"no {target}")
    link = tmp_path / "entry.json"
    link.symlink_to(target)
    with pytest.raises(UnsafeFileError, match="character device, not a regular file"):
        files.read_json(link)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(UnsafeFileError, match="a folder, not a regular file"):
        files.read_bytes(tmp_path, 10)


def test_size_cap(tmp_path):
    p = tmp_path / "big.json"
    p.write_bytes(b"[" + b"0," * 1000 + b"0]")
    with pytest.raises(UnsafeFileError, match="more than the 100 bytes"):
        files.read_json(p, limit=100)
    assert len(files.read_json(p, limit=10_000)) == 1001


def test_a_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        files.read_bytes(tmp_path / "nope", 10)


def test_not_utf8(tmp_path):
    p = tmp_path / "x.json"
    p.write_bytes(b'["\xff"]')
    with pytest.raises(UnsafeFileError, match="not UTF-8"):
        files.read_json(p)


@pytest.mark.parametrize(
    "text",
    [
        "[NaN]",
        "[Infinity]",
        "[-Infinity]",
        "[1e400]",
        "[-1e400]",
        "[1" + "0" * 400 + "]",
        "[" * 100_000,
    ],
)
def test_strict_json(text):
    with pytest.raises(UnsafeFileError) as info:
        files.loads_json(text, "x")
    assert isinstance(info.value, InvalidConfigError) and "\n" not in str(info.value)


def test_strict_json_keeps_what_files_hold():
    big = 2**128 - 1  # a generator state
    assert files.loads_json(f'{{"a": [{big}, -1.5e300, 0.1, true, null, "s"]}}') == {
        "a": [big, -1.5e300, 0.1, True, None, "s"]
    }


def test_printable_strips_escapes():
    text = "ninja\x1b]0;pwned\x07 \x1b[2J\x1b[31mred\x1b[0m\x9b\r\x00bell\x07\ttab\nline"
    clean = files.printable(text)
    assert clean == "ninja red" + "bell\ttab\nline"
    assert not any(ord(c) < 32 and c not in "\t\n" for c in clean)


# ------------------------------------------------------------------------------------ writing
def test_a_file_link_is_replaced_not_followed(chosen, outside):
    (chosen / "results.csv").symlink_to(outside / "victim.txt")
    files.write_text(chosen / "results.csv", "a,b\n")
    assert (outside / "victim.txt").read_text() == "keep me"
    assert not (chosen / "results.csv").is_symlink()
    assert (chosen / "results.csv").read_text() == "a,b\n"
    assert sorted(os.listdir(chosen)) == ["results.csv"]  # no temporary file left


def test_a_planted_tmp_name_is_not_used(chosen, outside):
    (chosen / "results.csv.tmp").symlink_to(outside / "victim.txt")
    files.write_text(chosen / "results.csv", "x")
    assert (outside / "victim.txt").read_text() == "keep me"


def test_a_folder_link_below_the_root_is_refused(chosen, outside):
    (chosen / "checkpoints").symlink_to(outside)
    with pytest.raises(UnsafeFileError, match="checkpoints is a symbolic link"):
        files.write_text(chosen / "checkpoints" / "model.zip", "x", root=chosen)
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.make_dir(chosen / "checkpoints", root=chosen)
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.list_dir(chosen / "checkpoints", root=chosen)
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.remove_file(chosen / "checkpoints" / "victim.txt", root=chosen)
    assert sorted(os.listdir(outside)) == ["victim.txt"]


def test_paths_outside_the_root_are_refused(chosen, outside):
    with pytest.raises(UnsafeFileError, match="not inside the chosen folder"):
        files.write_text(outside / "victim.txt", "x", root=chosen)
    with pytest.raises(UnsafeFileError, match="leaves the chosen folder"):
        files.write_text(chosen / ".." / "outside" / "victim.txt", "x", root=chosen)
    assert (outside / "victim.txt").read_text() == "keep me"


def test_append_and_truncate_refuse_links(chosen, outside):
    (chosen / "progress.csv").symlink_to(outside / "victim.txt")
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.append_text(chosen / "progress.csv", "row\n")
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.open_append(chosen / "progress.csv")
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        files.truncate_file(chosen / "progress.csv", 0)
    assert (outside / "victim.txt").read_text() == "keep me"


def test_append_truncate_remove_on_regular_files(chosen):
    files.append_text(chosen / "log.csv", "a\n")
    with files.open_append(chosen / "log.csv") as f:
        f.write("b\n")
    assert (chosen / "log.csv").read_text() == "a\nb\n"
    files.truncate_file(chosen / "log.csv", 2)
    assert (chosen / "log.csv").read_text() == "a\n"
    files.truncate_file(chosen / "missing.csv", 0)  # no-op
    files.remove_file(chosen / "log.csv")
    files.remove_file(chosen / "log.csv")  # missing is fine
    assert os.listdir(chosen) == []


def test_removing_a_link_removes_the_link_only(chosen, outside):
    (chosen / "model-1.zip").symlink_to(outside / "victim.txt")
    files.remove_file(chosen / "model-1.zip", root=chosen)
    assert not os.path.lexists(chosen / "model-1.zip")
    assert (outside / "victim.txt").read_text() == "keep me"


def test_make_dir_creates_real_folders(chosen):
    d = files.make_dir(chosen / "best" / "inner", root=chosen)
    assert d.is_dir() and not d.is_symlink()
    files.write_text(d / "best.json", "{}", root=chosen)
    assert files.list_dir(chosen / "best", root=chosen) == ["inner"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(chosen):
    files.write_text(chosen / "config.json", "old")

    def boom(tmp: str) -> None:
        Path(tmp).write_text("half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        files.write_file(chosen / "config.json", boom)
    assert (chosen / "config.json").read_text() == "old"
    assert os.listdir(chosen) == ["config.json"]


def test_appending_to_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "games.jsonl"
    os.mkfifo(fifo)
    code = (
        "import sys\nfrom boardgames_rl.core.files import append_text\n"
        "try:\n    append_text(sys.argv[1], 'x')\nexcept Exception as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=60
    )
    assert "cannot be opened" in out.stdout or "is a FIFO" in out.stdout
