"""Reading and writing the files users name, safely: regular files only, never blocking, size-capped.

Pure standard library. Why: a path may name a FIFO (an open would wait for a writer forever), a device
(``/dev/zero`` reads until memory runs out) or a directory; each gets one message naming the path and what
it is, raised as :class:`stkit.errors.DataFileError`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from stkit.errors import DataFileError
from stkit.text import printable

#: The largest file any importer reads, in bytes, unless it asks for less.
MAX_FILE_BYTES = 20 * 1024 * 1024


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def describe(path: str | Path) -> str:
    """The path as shown in a message: ``repr``-safe for control characters."""

    return printable(os.fspath(path))


def read_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (links followed), at most ``max_bytes`` of them.

    Raises DataFileError: ``<path>: no such file``, ``<path>: is a folder / a named pipe (FIFO) / a device,
    not a regular file``, ``<path>: larger than N bytes``, ``<path>: cannot read: <reason>``. Never blocks:
    the file is opened non-blocking and checked with fstat before a byte is read.
    """
    shown = describe(path)
    try:
        fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise DataFileError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise DataFileError(f"{shown}: is a folder, not a regular file") from None
    except OSError as exc:
        raise DataFileError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise DataFileError(f"{shown}: is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise DataFileError(f"{shown}: {info.st_size} bytes is larger than the {max_bytes} bytes allowed")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise DataFileError(f"{shown}: larger than the {max_bytes} bytes allowed")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise DataFileError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def check_writable_target(path: str | Path) -> None:
    """Refuse to write to anything but a regular file or a new path: a FIFO would wait for a reader, a
    device or folder cannot hold the output. Raises DataFileError naming the path and what it is."""
    try:
        info = os.stat(os.fspath(path))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise DataFileError(f"{describe(path)}: cannot write: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataFileError(f"{describe(path)}: is {_kind(info.st_mode)}, not a regular file to write")


#: The mode of a new file written by :func:`write_atomic`: read and write for its owner only (character
#: sheets and logs may hold a Storyteller's notes).
NEW_FILE_MODE = 0o600


def write_atomic(path: str | Path, data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` all at once, never losing a file.

    - An existing file is refused unless ``force`` (``<path>: already exists; use --force to replace it``).
    - Only a new path or a regular file is written (:func:`check_writable_target`); the folder must exist.
    - The bytes go to a temporary file in the same folder, flushed to disk, then renamed over ``path``:
      a failed write leaves no partial file and the old file intact.
    - A replaced file keeps its permission bits; a new file gets :data:`NEW_FILE_MODE`.

    Raises DataFileError naming the path ("disk full" for ENOSPC).
    """

    target = Path(path)
    shown = describe(target)
    if target.is_dir():
        raise DataFileError(f"{shown}: is a folder; give a file name, e.g. {describe(target / 'character.yaml')}")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise DataFileError(f"{shown}: the folder {describe(parent)} does not exist; create it first")
    check_writable_target(target)  # a FIFO would wait for a reader forever; a device cannot hold the file
    mode = NEW_FILE_MODE
    if os.path.lexists(target):
        if not force:
            raise DataFileError(f"{shown}: already exists; use --force to replace it")
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(target).st_mode)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fchmod(fh.fileno(), mode)
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        reason = "disk full (No space left on device)" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
        raise DataFileError(f"{shown}: cannot be written: {reason}") from None
