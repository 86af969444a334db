"""The data directory (``AGILITY_HOME``, or the platform's user data folder): this user's alone.

It holds what this machine keeps of its games — the key store (``games/``), the history records
(``history/``) and the checkpoints (``cache/``) — and nothing in it is read unless it is this
user's own:

* every folder of it (itself, and each folder under it) is made with mode 0700 whatever the umask,
  and every file 0600 (``storage.write_new``);
* an existing folder or file owned by another user, or that others may write to (a ``cache/`` made
  beforehand by someone else could hold a planted checkpoint and its key), is refused before
  anything in it is read: :class:`DataDirError` (exit 2) with the command that fixes it.  A folder
  of ours that others may only read or enter is made 0700; a secret (a key store file, the
  checkpoints and their key) that others may read is refused;
* every record is opened without blocking and without following a symbolic link, and must be a
  regular file of a bounded size: else :class:`RecordError` (the caller names the record; this
  machine's own record damaged is exit 3).  A FIFO planted as a record answers at once.

On a system without user ids (Windows) only the regular-file checks apply.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..engine.notation import UsageError
from ..i18n import N_
from ..said import said
from ..text import shell_word
from .storage import kind_of_file

#: How the data directory's records are opened: never blocking on a FIFO, never through a link.
OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_CLOEXEC", 0))


class DataDirError(UsageError):
    """A folder or file of the data directory is another user's, or others may write to it (or
    read a secret in it): nothing in it is read.  Exit 2, with the command that fixes it."""


class RecordError(ValueError):
    """A record of the data directory is not a regular file agility wrote (a FIFO, a device, a
    symbolic link, too large).  ``why`` says what it is; the caller says which record it is."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path} {why}")
        self.path = path
        self.why = why


def home() -> Path:
    """The data directory: ``AGILITY_HOME`` or the platform's user data directory for agility."""
    env = os.environ.get("AGILITY_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("agility", appauthor=False))


def _checked() -> bool:
    return hasattr(os, "geteuid") and os.name != "nt"


def _owner_error(path: Path, kind: str, uid: int) -> DataDirError:
    template = (N_("the data directory's folder {path} belongs to another user (uid {uid}), who could have put what "
                   "is in it: nothing in it is read.  Make it yours (`{command}`), or rename it, or set {var} to a "
                   "folder of your own") if kind == "folder" else
                N_("the data directory's file {path} belongs to another user (uid {uid}), who could have put what "
                   "is in it: nothing in it is read.  Make it yours (`{command}`), or rename it, or set {var} to a "
                   "folder of your own"))
    return DataDirError(said(template, path=path, uid=uid, var="AGILITY_HOME",
                             command=f'sudo chown -R "$(id -un)" {shell_word(str(path))}'))


def check_folder(path: Path, st: os.stat_result) -> None:
    """Refuse a folder of the data directory that is not this user's alone; make one of ours that
    others may only read or enter 0700."""
    if not _checked():
        return
    if st.st_uid != os.geteuid():
        raise _owner_error(path, "folder", st.st_uid)
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        raise DataDirError(said(
            N_("the data directory's folder {path} can be written by others (mode {mode}), who could have put files "
               "in it: nothing in it is read.  If no one else has, make it yours alone with `{command}` (and delete "
               "what you did not put there)"), path=path, mode=f"{mode:04o}", command=f"chmod 700 {shell_word(str(path))}"))
    if mode & 0o077:
        try:
            os.chmod(path, 0o700)  # ours, and nobody could write in it: only made private
        except OSError:
            pass


def folder(name: str | None = None, *, create: bool) -> Path:
    """The data directory (``name`` None) or its folder ``name``, checked (:func:`check_folder`)
    when it exists; made, with its missing parents, mode 0700, when ``create``.  The path is
    returned either way (a missing folder holds nothing).  ``OSError`` when it cannot be made."""
    base = home()
    for path in (base,) if name is None else (base, base / name):
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            if not create:
                return base if name is None else base / name
            _make(path)
            st = os.stat(path)
        if not stat.S_ISDIR(st.st_mode):
            raise DataDirError(said(N_("the data directory's folder {path} is not a directory; set {var} to a "
                                       "directory (or rename that file)"), path=path, var="AGILITY_HOME"))
        check_folder(path, st)
    return base if name is None else base / name


def _make(path: Path) -> None:
    """``path`` and its missing parents, each 0700 (``mkdir``'s mode is cut by the umask; a chmod
    makes it exact)."""
    missing = []
    at = path
    while not os.path.lexists(at) and at.parent != at:
        missing.append(at)
        at = at.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            continue  # another process made it first: checked as any existing folder
        os.chmod(directory, 0o700)


def read_record(path: Path, limit: int, *, secret: bool) -> bytes | None:
    """The bytes of a record of the data directory (None if there is none): opened without
    blocking or following a link, a regular file of at most ``limit`` bytes (else
    :class:`RecordError`), this user's and writable by nobody else — nor readable, if ``secret``
    (else :class:`DataDirError`).  Other failures (permission refused) are ``OSError``."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise RecordError(path, "is a symbolic link, not a regular file") from None
        if isinstance(exc, IsADirectoryError):
            raise RecordError(path, "is a directory, not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RecordError(path, f"is {kind_of_file(st.st_mode)}, not a regular file")
        if _checked():
            check_file(path, st, secret=secret)
        if st.st_size > limit:
            raise RecordError(path, f"is {st.st_size} bytes long, more than such a record can be")
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise RecordError(path, "grew past the size such a record can have while it was read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_file(path: Path, st: os.stat_result, *, secret: bool) -> None:
    """Refuse a record owned by another user or writable by others (or, ``secret``, readable)."""
    if st.st_uid != os.geteuid():
        raise _owner_error(path, "file", st.st_uid)
    mode = stat.S_IMODE(st.st_mode)
    if mode & (0o077 if secret else 0o022):
        raise DataDirError(said(
            N_("the data directory's file {path} can be written by others (mode {mode}): it is not read.  If no one "
               "else has changed it, make it yours alone with `{command}`") if mode & 0o022 else
            N_("the data directory's file {path} can be read by others (mode {mode}): it is not read.  If no one "
               "else has changed it, make it yours alone with `{command}`"),
            path=path, mode=f"{mode:04o}", command=f"chmod 600 {shell_word(str(path))}"))
