"""Files are data: the one checked reader and the one safe writer of the whole library.

Every file the library reads back (run folders, tournament folders, game records, pretrained
entries, model files, caches) and every file it writes goes through this module, so the rules
below hold everywhere at once.

**Reading** (:func:`read_bytes`, :func:`read_text`, :func:`read_json`, :func:`loads_json`):

* only a regular file is read: a FIFO, a device (``/dev/zero``), a socket or a folder -- also
  behind a symbolic link -- is refused in one line, without blocking (the file is opened with
  ``O_NONBLOCK`` and checked with ``fstat`` on the open descriptor, so nothing changes between
  the check and the read);
* at most ``limit`` bytes: a bigger file is refused before anything is read, and a file that
  grows while it is read is cut at ``limit + 1`` bytes and refused;
* text is UTF-8, JSON is strict: ``NaN``/``Infinity``, numbers beyond the float range
  (``1e400``), integers longer than :data:`MAX_INT_DIGITS` digits and nesting too deep for the
  parser are refused, so no caller meets an ``OverflowError`` later.

**Writing** (:func:`write_file`, :func:`write_text`, :func:`append_text`, :func:`make_dir`,
:func:`remove_file`, :func:`truncate_file`, :func:`list_dir`): the person chooses a folder
(``root``); every file is created inside it and nothing outside it is written or deleted:

* a file is written to a fresh temporary name made by ``mkstemp`` in its own folder, flushed,
  then renamed over its target (``os.replace``): a symbolic link planted at the target is
  replaced by the file, never followed, and a reader never sees half a file;
* a folder below ``root`` that is a symbolic link (``checkpoints -> /elsewhere``) is refused in
  one line naming it; folders are created one level at a time, never through a link;
* appending and truncating open the file with ``O_NOFOLLOW`` and refuse anything but a regular
  file; removing a link removes the link, never its target.

Errors are :class:`UnsafeFileError` (an :class:`~boardgames_rl.core.errors.InvalidConfigError`),
one line that names the path and says what to do.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from boardgames_rl.core.errors import InvalidConfigError

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "UnsafeFileError",
    "append_text",
    "list_dir",
    "loads_json",
    "make_dir",
    "open_append",
    "printable",
    "read_bytes",
    "read_json",
    "read_text",
    "remove_file",
    "truncate_file",
    "write_file",
    "write_stream",
    "write_text",
]

MAX_JSON_BYTES = 64 * 2**20
"""Default cap of a JSON file read back (settings, entries, tournament parameters): 64 MiB."""
MAX_INT_DIGITS = 40
"""Longest integer literal a JSON file may hold: 40 digits holds every 128-bit generator state
(``2**128`` has 39) and refuses ``10**400``, which no float can hold."""

Pathish = str | os.PathLike[str]


class UnsafeFileError(InvalidConfigError):
    """A file that is not what it should be: not a regular file, too big, not UTF-8 or not strict
    JSON when read; a symbolic link or a path outside the chosen folder when written."""


# ------------------------------------------------------------------------------------ reading
def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _size(n: int) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def read_bytes(path: Pathish, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises:
        FileNotFoundError: ``path`` does not exist (callers say what to give instead).
        UnsafeFileError: not a regular file (a FIFO, a device, a folder, ...), bigger than
            ``limit``, or unreadable.
    """
    p = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise UnsafeFileError(f"{p}: the {what} cannot be read ({e.strerror})") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFileError(
                f"{p}: the {what} is {_kind(st.st_mode)}, not a regular file: give a file"
            )
        if st.st_size > limit:
            raise UnsafeFileError(
                f"{p}: the {what} holds {_size(st.st_size)}, more than the {_size(limit)} "
                "this reader accepts: give the right file"
            )
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        raise UnsafeFileError(f"{p}: the {what} cannot be read ({e.strerror})") from e
    finally:
        os.close(fd)
    if got > limit:
        raise UnsafeFileError(f"{p}: the {what} grew past {_size(limit)} while it was read")
    return b"".join(chunks)


def read_text(path: Pathish, limit: int, what: str = "file") -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes`)."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnsafeFileError(
            f"{path}: the {what} is not UTF-8 text (byte {e.start}): give the right file"
        ) from e


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is beyond the float range")
    return value


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def loads_json(text: str | bytes, source: str = "JSON") -> Any:
    """Strict JSON: no ``NaN``/``Infinity``, no number beyond the float range, no integer longer
    than :data:`MAX_INT_DIGITS` digits, no nesting too deep for the parser.

    Raises:
        UnsafeFileError: one line naming ``source`` and what is wrong.
    """
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_parse_float,
            parse_int=_parse_int,
        )
    except RecursionError as e:
        raise UnsafeFileError(f"{source}: JSON nested too deeply") from e
    except UnicodeDecodeError as e:
        raise UnsafeFileError(f"{source}: not UTF-8 text (byte {e.start})") from e
    except ValueError as e:  # JSONDecodeError and the parse hooks' refusals
        raise UnsafeFileError(f"{source}: not valid JSON ({str(e).splitlines()[0][:160]})") from e


def read_json(path: Pathish, limit: int = MAX_JSON_BYTES, what: str = "JSON file") -> Any:
    """The strict JSON value of the regular file ``path`` (see :func:`read_bytes` and
    :func:`loads_json`)."""
    return loads_json(read_text(path, limit, what), f"{path}")


_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")
"""A terminal escape sequence: CSI (colours, cursor moves), OSC (window titles, links), or one
escaped character."""
_CONTROL = {c: None for c in range(32) if c not in (9, 10)} | {127: None}
_CONTROL.update({c: None for c in range(0x80, 0xA0)})


def printable(text: str) -> str:
    """``text`` without control characters (terminal escape sequences included), kept to tabs and
    newlines: what is printed of anything that came from a file."""
    return _ESCAPE.sub("", text).translate(_CONTROL)


# ------------------------------------------------------------------------------------ writing
def _inside(path: Path, root: Path) -> tuple[str, ...]:
    """The parts of ``path`` below ``root``; refuses a path outside it or with ``..``."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise UnsafeFileError(f"{path} is not inside the chosen folder {root}") from None
    if any(part in ("..", "") for part in rel.parts):
        raise UnsafeFileError(f"{path}: '..' leaves the chosen folder {root}")
    return rel.parts


def _check_dirs(path: Path, root: Path, create: bool) -> None:
    """Every folder between ``root`` and ``path``'s parent is a real folder (made when ``create``)
    and never a symbolic link."""
    parts = _inside(path, root)
    here = root
    for part in parts[:-1]:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            if not create:
                raise
            os.mkdir(here)
            continue
        if stat.S_ISLNK(st.st_mode):
            raise UnsafeFileError(
                f"{here} is a symbolic link: the library writes only inside {root}, never "
                "through a link; remove the link (or choose another folder)"
            )
        if not stat.S_ISDIR(st.st_mode):
            raise UnsafeFileError(f"{here} is not a folder: remove it (or choose another folder)")


def _root(path: Path, root: Pathish | None) -> Path:
    return path.parent if root is None else Path(root)


def make_dir(path: Pathish, root: Pathish | None = None) -> Path:
    """Create the folder ``path`` inside ``root`` (one level at a time) and return it; a symbolic
    link anywhere below ``root`` is refused. ``root`` itself is the person's choice: created if
    missing, used as it is."""
    p = Path(path)
    r = _root(p, root)
    r.mkdir(parents=True, exist_ok=True)
    if p != r:
        _check_dirs(p / "_", r, create=True)
    return p


def write_file(
    path: Pathish, write: Callable[[str], None], root: Pathish | None = None, mode: int = 0o644
) -> None:
    """``write(tmp)`` fills a fresh temporary file in ``path``'s folder, which then replaces
    ``path`` (fsynced, ``os.replace``): a link at ``path`` is replaced, never followed; the
    folders between ``root`` (default: ``path``'s folder) and ``path`` must not be links."""
    p = Path(path)
    r = _root(p, root)
    r.mkdir(parents=True, exist_ok=True)
    _check_dirs(p, r, create=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, mode)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_stream(
    path: Pathish, write: Callable[[IO[bytes]], Any], root: Pathish | None = None
) -> None:
    """:func:`write_file` with ``write`` given the open binary file (e.g. ``savefig(f,
    format="png")``)."""

    def fill(tmp: str) -> None:
        with open(tmp, "wb") as f:
            write(f)

    write_file(path, fill, root)


def write_text(path: Pathish, text: str, root: Pathish | None = None) -> None:
    """``text`` (UTF-8) as the file ``path`` (see :func:`write_file`)."""
    data = text.encode("utf-8")

    def write(f: IO[bytes]) -> None:
        f.write(data)

    write_stream(path, write, root)


def _open_regular(path: Path, flags: int, what: str) -> int:
    """Open ``path`` (never through a link, never blocking on a FIFO) and refuse anything but a
    regular file; the descriptor is switched back to blocking for the writes."""
    nonblock = getattr(os, "O_NONBLOCK", 0)
    extra = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | nonblock
    try:
        fd = os.open(path, flags | extra, 0o644)
    except FileNotFoundError:
        raise
    except OSError as e:  # ENXIO: a FIFO without a reader; ELOOP: a link
        raise UnsafeFileError(f"{path}: {what} cannot be opened ({e.strerror}): remove it") from e
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise UnsafeFileError(f"{path}: {what} is {_kind(st.st_mode)}: remove it")
    if nonblock:
        os.set_blocking(fd, True)
    return fd


def _no_link(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise UnsafeFileError(
                f"{path} is a symbolic link: the library writes only inside the chosen folder, "
                "never through a link; remove the link"
            )


def append_text(path: Pathish, text: str, root: Pathish | None = None) -> None:
    """Append ``text`` to the regular file ``path`` (created if missing); a link is refused."""
    p = Path(path)
    r = _root(p, root)
    r.mkdir(parents=True, exist_ok=True)
    _check_dirs(p, r, create=True)
    _no_link(p)
    fd = _open_regular(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, "the log")
    with os.fdopen(fd, "ab") as f:
        f.write(text.encode("utf-8"))


def open_append(path: Pathish, root: Pathish | None = None) -> IO[str]:
    """The regular file ``path`` opened for appending text (created if missing; a link refused)."""
    p = Path(path)
    r = _root(p, root)
    r.mkdir(parents=True, exist_ok=True)
    _check_dirs(p, r, create=True)
    _no_link(p)
    fd = _open_regular(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, "the log")
    return os.fdopen(fd, "a", encoding="utf-8", newline="")


def truncate_file(path: Pathish, size: int, root: Pathish | None = None) -> None:
    """Cut the regular file ``path`` to ``size`` bytes (no-op when missing or shorter); a link is
    refused."""
    p = Path(path)
    r = _root(p, root)
    try:
        _check_dirs(p, r, create=False)
    except FileNotFoundError:
        return
    _no_link(p)
    try:
        fd = _open_regular(p, os.O_WRONLY, "the log")
    except FileNotFoundError:
        return
    try:
        if os.fstat(fd).st_size > size:
            os.ftruncate(fd, size)
    finally:
        os.close(fd)


def remove_file(path: Pathish, root: Pathish | None = None) -> None:
    """Remove the file (or link: the link itself, never its target) ``path`` inside ``root``;
    missing is fine, a folder is refused."""
    p = Path(path)
    r = _root(p, root)
    try:
        _check_dirs(p, r, create=False)
        st = os.lstat(p)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeFileError(f"{p} is a folder where a file belongs: remove it")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(p)


def list_dir(path: Pathish, root: Pathish | None = None) -> list[str]:
    """The names in the folder ``path`` inside ``root`` (empty when missing); a link refused."""
    p = Path(path)
    r = _root(p, root)
    if p != r:
        try:
            _check_dirs(p / "_", r, create=False)
        except FileNotFoundError:
            return []
    try:
        return sorted(os.listdir(p))
    except FileNotFoundError:
        return []
