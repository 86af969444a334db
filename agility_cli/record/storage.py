"""Reading and writing game files (and key files) safely: regular files only, bounded sizes, an
exclusive lock, whole writes (a temporary file renamed, or an append undone on failure), fsync."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path
from collections.abc import Iterator

from ..engine.notation import UsageError
from ..i18n import N_
from ..said import Said, os_words, said
from ..text import PATH_LIMIT, quoted, shell_command
from .lines import GameFileError, MAX_FILE_BYTES


class WriteError(OSError):
    """An append, a new game or a backup could not be written (a full disk, an I/O error).

    Every byte written was taken back: the game file is as it was (exit 2, like other OS errors).
    """

    def __init__(self, path: str, what: str, cause: OSError, unchanged: bool = True, after: str | None = None):
        reason = os_words(cause)
        if after is None:
            after = (
                said(N_("the game file is unchanged")) if unchanged
                else said(N_("the game file may hold part of it: run `{command}`"),
                          command=shell_command(['agility', 'repair', path]))
            )
        super().__init__(cause.errno or errno.EIO, said(N_("could not write {what} ({why}); {after}"),
                                                         what=_what(what), why=reason, after=after))
        self.filename = path


def kind_of_file(mode: int) -> str:
    """What a file that is not a regular one is, in words (a FIFO, a device …)."""
    if stat.S_ISDIR(mode):
        return N_("a directory")
    if stat.S_ISFIFO(mode):
        return N_("a named pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return N_("a device")
    if stat.S_ISSOCK(mode):
        return N_("a socket")
    return N_("not a regular file")


GAME_FILE = "game file"
#: The outputs a refusal names in the player's language (another ``what`` is said as it is written)
OUTPUTS = frozenset({N_("the path"), N_("the output"), N_("the game file"), N_("the new game file"),
                     N_("the key file"), N_("the reply")})


def _what(what: str) -> str:
    return what if isinstance(what, Said) else said(what) if what in OUTPUTS | NOUNS else what


def _a(what: str) -> str:
    """``what`` with its article: "a game file", "an analysis file" ("the key store" as it is)."""
    if what.startswith(("a ", "an ", "the ")):
        return what
    return ("an " if what[:1].lower() in "aeiou" else "a ") + what


#: The files a refusal names with their article, in the player's language (:func:`_a_said`)
NOUNS = frozenset({N_("a game file"), N_("an analysis file"), N_("a calibration data file"), N_("a journal"),
                   N_("a mail message"), N_("a checkpoint"), N_("the benchmark's mailbox"), N_("the key store"),
                   N_("the mailbox index"), N_("the refused line's record"), N_("the key file"), N_("the game file"),
                   N_("the new game file"), N_("the reply"), N_("a key file"), N_("a components file")})


#: The same files without their article ("no such key file")
BARE = frozenset({N_("game file"), N_("analysis file"), N_("calibration data file"), N_("journal"),
                  N_("mail message"), N_("key file"), N_("components file")})


def _bare(what: str) -> str:
    return said(what) if what in BARE else what


def _a_said(what: str) -> str:
    """:func:`_a`, said in the player's language where the catalog has the noun."""
    noun = _a(what)
    return said(noun) if noun in NOUNS else noun


def _size_text(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


def _check_regular(path: str, fd: int, what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> os.stat_result:
    """The open file's status, if it is a regular file of a size a ``what`` (a game file, a key
    file …) can have: at most ``limit`` bytes."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        if what == GAME_FILE:
            raise GameFileError(path, None, said(N_("is {kind}, not a game file"), kind=said(kind_of_file(info.st_mode))),
                                said(N_("a game file is a regular file of JSON lines")))
        raise GameFileError(path, None, said(N_("is {kind}, not {what}"), kind=said(kind_of_file(info.st_mode)),
                                             what=_a_said(what)),
                            said(N_("{what} is a regular file"), what=_a_said(what)))
    if info.st_size > limit:
        raise GameFileError(
            path, None, said(N_("is {size} bytes long; {what} is at most {limit}"), size=info.st_size,
                             what=_a_said(what), limit=_size_text(limit)),
            said(N_("this is not {what} agility wrote"), what=_a_said(what)),
        )
    return info


def _open(path: str | Path, flags: int, what: str = GAME_FILE) -> int:
    """Open a game file (or another ``what``) without blocking on a FIFO, with a clear message for a
    missing one."""
    name = str(path)
    try:
        return os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        if what == GAME_FILE:
            raise GameFileError(name, None, said(N_("no such game file")),
                                said(N_("create one with `agility new FILE --players YOU THEM` (a fair game)"))) from None
        raise GameFileError(name, None, said(N_("no such {what}"), what=_bare(what))) from None
    except IsADirectoryError:
        if what == GAME_FILE:
            raise GameFileError(name, None, said(N_("is a directory, not a game file"))) from None
        raise GameFileError(name, None, said(N_("is a directory, not {what}"), what=_a_said(what))) from None
    except OSError as exc:
        raise GameFileError(name, None, said(N_("cannot open the file ({error})"), error=os_words(exc))) from None


def read_bytes(path: str | Path, *, what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a game file: only a regular file, at most :data:`MAX_FILE_BYTES` (a FIFO would
    hang the reader, ``/dev/zero`` would fill the memory).  Key files and the key store are read
    through here too (``what`` names them in the messages, ``limit`` is their size bound)."""
    fd = _open(path, os.O_RDONLY, what)
    try:
        _check_regular(str(path), fd, what, limit)
        return read_fd(fd, str(path), what, limit)
    except OSError as exc:
        raise GameFileError(str(path), None, said(N_("cannot read the file ({error})"), error=os_words(exc))) from None
    finally:
        os.close(fd)


def check_output(target: str | Path, what: str = "the output") -> Path:
    """``target`` as a path a new file can be written at, or :class:`UsageError` (exit 2) saying
    why not: a path with no file name (``.``, ``..``, ``/``, a trailing ``/``), an existing folder,
    or a folder to write in that does not exist or is no folder.  Every writer checks it first (and
    the commands check their output options before doing any work), so no such path reaches
    ``os`` as a file name."""
    text = str(target)
    path = Path(target)
    shown = quoted(text, PATH_LIMIT)
    if not text or text.endswith(("/", os.sep)) or path.name in ("", ".", "..") or path.is_dir():
        raise UsageError(said(N_("{what} {path} is a folder, not a file name: give the file to write, such as "
                                 "{example}"), what=_what(what), path=shown,
                              example=quoted(str(path / 'FILE'), PATH_LIMIT)))
    parent = path.parent
    if not parent.exists():
        raise UsageError(said(N_("the folder of {what} {path} does not exist: make it first, or choose another "
                                 "path"), what=_what(what), path=shown))
    if not parent.is_dir():
        raise UsageError(said(N_("{what} {path} cannot be written: {parent} is not a folder"), what=_what(what),
                              path=shown, parent=quoted(str(parent), PATH_LIMIT)))
    refuse_special(path, what)
    return path


def refuse_special(target: str | Path, what: str = "the output") -> None:
    """Refuse (:class:`UsageError`, exit 2, nothing touched) a ``target`` that exists and is not a
    regular file: a device (``/dev/null``), a named pipe, a socket, a folder, or a symbolic link
    to one.  The tool writes only regular files it may replace (a regular file, or a link to one or
    to nothing, is replaced by renaming over the name: the link, never what it points at).  Every
    writer goes through it: :func:`check_output` (whole writes, and each output option before any
    work) and :func:`open_append` (journals)."""
    try:
        st = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise UsageError(said(N_("{what} {path} cannot be examined ({error}): nothing was written"), what=_what(what),
                              path=quoted(str(target), PATH_LIMIT), error=os_words(exc))) from None
    link = stat.S_ISLNK(st.st_mode)
    if link:
        try:
            st = os.stat(target)
        except OSError:
            return  # a link to nothing (or a loop): the link itself is replaced
    if not stat.S_ISREG(st.st_mode):
        template = (N_("{what} {path} is {kind} (through a symbolic link), not a regular file: agility writes over "
                       "regular files only, and nothing was written; choose another path") if link else
                    N_("{what} {path} is {kind}, not a regular file: agility writes over regular files only, and "
                       "nothing was written; choose another path"))
        raise UsageError(said(template, what=_what(what), path=quoted(str(target), PATH_LIMIT),
                              kind=said(kind_of_file(st.st_mode))))


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")


def write_new(
    target: Path, data: bytes, *, what: str, replace: bool = False, after: str = "nothing was created", mode: int = 0o644
) -> None:
    """Put a file holding ``data`` at ``target`` all at once, through a temporary file in the same
    directory.  Without ``replace`` the name must not exist (``os.link`` fails if it does, even if
    it is a dangling symlink); with ``replace`` a file or symlink there is replaced by
    ``os.replace``, which renames over the name itself and never writes through a link.  ``mode``
    is the new file's (0600 for keys: the temporary file has it from its creation on)."""
    check_output(target, "the path")
    temp = _temp_name(target)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as exc:
        raise WriteError(str(target), what, exc, after=after) from None
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            refuse_special(target, what)  # again: it may have changed while the file was written
            os.replace(temp, target)
        else:
            _link_new(temp, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
    except OSError as exc:
        raise WriteError(str(target), what, exc, after=after) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    _fsync_dir(target.parent)


def write_backup(target: Path, data: bytes, *, replace: bool) -> None:
    """Write a backup file all at once, never through a symlink: created only if the name is free,
    or with ``replace`` put in place of whatever is there (a symlink is replaced, not followed)."""
    write_new(target, data, what=said(N_("the backup {file}"), file=target), replace=replace,
              after=said(N_("the game file is unchanged")))


def _link_new(temp: Path, target: Path) -> None:
    """Give the finished ``temp`` the name ``target``, which must not exist.

    ``os.link`` does it atomically and refuses an existing name.  Where the file system has no
    hard links (FAT, some network shares), the name is first claimed by creating it exclusively,
    then ``temp`` renamed over it: still never an overwrite of someone else's file, with only an
    instant in which the claimed name is empty.
    """
    try:
        os.link(temp, target)
        return
    except FileExistsError:
        raise
    except (AttributeError, NotImplementedError):
        pass
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK, errno.EACCES):
            raise
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    os.close(fd)
    try:
        os.replace(temp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise


def _fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (best effort: not every platform can open a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def open_append(path: str | Path, what: str) -> int:
    """A descriptor appending to ``path`` (made, 0644, if missing): a regular file only
    (:func:`refuse_special`; opened without blocking, so a FIFO put there in between is refused
    too, never waited on)."""
    refuse_special(path, what)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        raise UsageError(said(N_("{what} {path} cannot be written ({why})"), what=_what(what),
                              path=quoted(str(path), PATH_LIMIT), why=os_words(exc))) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(said(N_("{what} {path} is {kind}, not a regular file: agility writes over regular files "
                                     "only; choose another path"), what=_what(what), path=quoted(str(path), PATH_LIMIT),
                                  kind=said(kind_of_file(info.st_mode))))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` (``os.write`` may write fewer than asked), or raise."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - a write of nothing with no error
            raise OSError(errno.EIO, "the write made no progress")
        view = view[written:]


def append(fd: int, path: str, old_size: int, data: bytes, what: str, restore: bytes = b"") -> None:
    """Append ``data`` (all of it, then fsync) at the end of a file ``old_size`` bytes long.

    On any error the file is cut back to ``old_size`` and ``restore`` (bytes cut from its end just
    before) is written back, so that it is as it was; then :class:`WriteError` says why.
    """
    try:
        write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        unchanged = True
        try:
            os.ftruncate(fd, old_size)
            if restore:
                write_all(fd, restore)
        except OSError:
            unchanged = False
        with contextlib.suppress(OSError):
            os.fsync(fd)
        raise WriteError(path, what, exc, unchanged) from None


LOCK_RETRIES = 20


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[int]:
    """An exclusive lock on the game file (advisory ``flock``), held while reading and appending.

    The lock is on the file the descriptor names.  While we waited for it, the path may have come
    to name another file (a ``git checkout``, an editor saving by rename): a line appended then
    would go to the old, unlinked file and be lost.  So once locked, the path must still name the
    locked file (same device and inode); if not, let go and start over with the new file.
    """
    name = str(path)
    for _ in range(LOCK_RETRIES):
        fd = _open(path, os.O_RDWR | os.O_APPEND)
        try:
            _check_regular(name, fd)
            _lock_exclusive(fd)
            if _same_file(path, fd):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the path names another file now: let go of this one and start over
    else:
        raise GameFileError(name, None, said(N_("the file was replaced {n} times while waiting for its lock"),
                                             n=LOCK_RETRIES),
                            said(N_("something keeps rewriting it (a sync tool?); try again when it has stopped")))
    try:
        yield fd
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _same_file(path: str | Path, fd: int) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock_exclusive(fd: int) -> None:
        """Lock the file's first byte (msvcrt's lock is mandatory and by range), waiting for it."""
        os.lseek(fd, 0, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for about 10 s, then raises
                return
            except OSError:
                continue

else:
    import fcntl

    def _lock_exclusive(fd: int) -> None:
        """An advisory ``flock`` on the whole file, waiting for it."""
        fcntl.flock(fd, fcntl.LOCK_EX)


def read_fd(fd: int, path: str = "game", what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> bytes:
    """The whole file, at most ``limit`` bytes (it may have grown since it was checked)."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    size = 0
    while chunk := os.read(fd, min(1 << 20, limit + 1)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise GameFileError(path, None, said(N_("is more than {limit} long; not {what} agility wrote"),
                                                 limit=_size_text(limit), what=_a_said(what)))
    return b"".join(chunks)
