"""The verified prefix of a sealed game, kept per game in the data directory (R42: speed only).

Verifying a sealed game (format 3) checks every pass's proofs, about 0.3 s of CPU for a whole game,
and a command reads its file two or three times.  After a full verification the verifier keeps
where it stopped: the state, the deck and the hash chain's tip after the file's last line, with the
length and SHA-256 of the bytes it verified.  The next read of a file that starts with exactly those
bytes goes on from there and verifies only the lines after them; any other file — edited, cut,
rewritten by a force-push, a copy from elsewhere — matches nothing and is verified whole.

What is kept is this machine's own work, not input: it is written only here, 0600 in a 0700
folder of the data directory, and authenticated with HMAC-SHA-256 under a random key of that folder,
so a file put there by anyone else (or damaged) is ignored, never unpickled.  A checkpoint is
also tied to the code that wrote it (the package's version and its source files' sizes and
times) and to the seal secrets the key store holds for the game: a new version of the tool, or a
key imported since, verifies again.  Every failure to read or write a checkpoint only costs the
time it would have saved: the verification is then done in full.
"""

from __future__ import annotations

import msgspec
import hashlib
import hmac
import io
import os
import pickle
from pathlib import Path
from typing import Any

from ..engine.state import Catalog
from . import keys, storage
from .lines import GameFileError

#: The layout of a checkpoint file; a change makes every older one unreadable (verified again).
MAGIC = b"agility-checkpoint 8\n"  # 8: the sealed deck's modules moved to record/sealed/
#: The largest checkpoint file read (a finished sealed game's four checkpoints are about 170 KB).
MAX_BYTES = 8 << 20


class Cursor(msgspec.Struct):
    """Where the verifier stands after a line: every variable its loop carries to the next line."""

    header: Any
    components: Any
    trust: Any
    sealed: Any
    state: Any
    lineno: int
    offset: int  # bytes of the file verified (the next line starts here)
    prev: str
    prev_record: Any
    ended_at: int | None
    last_raw: bytes
    #: the last lines read (a list of verify.Recent, pickled apart: unpickled only by ``show``, to
    #: tell the news since a player's last decision without verifying those lines again)
    tail: bytes = b""
    #: whether this machine's tool may owe a line after it (its keys, a pass, a forced decision:
    #: R44); kept outside the pickle, so that a command learns it without unpickling the deck
    owes: bool = True


#: How many of the last lines a checkpoint keeps the states of (the news of a turn or two).
TAIL = 24


def pack_tail(previous: bytes, lines: list[Any]) -> bytes:
    """The tail of a new checkpoint: the last :data:`TAIL` of the lines kept before and ``lines``.

    Each line is pickled on its own, without its state's catalogue (the game's, which the cursor
    holds): so the kept lines are carried over without unpickling them, and a reader unpickles
    only the lines it tells."""
    kept = pickle.loads(previous) if previous else []  # this machine's own pickle (see load)
    fresh = []
    for recent in lines:
        out = io.BytesIO()
        _TailPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(recent)
        fresh.append((recent.line, out.getvalue()))
    return pickle.dumps((kept + fresh)[-TAIL:], protocol=pickle.HIGHEST_PROTOCOL)


def tail_of(cursor: Cursor, since: int = 0) -> list[Any]:
    """The last lines a checkpoint keeps (verify.Recent) from line ``since`` on, oldest first."""
    try:
        kept = pickle.loads(cursor.tail) if cursor.tail else []
        return [_TailUnpickler(io.BytesIO(blob), cursor.state.cat).load() for line, blob in kept if line >= since]
    except Exception:  # noqa: BLE001 - a tail that cannot be read is only time lost
        return []


class _TailPickler(pickle.Pickler):
    """Pickles a kept line with its catalogue left out (named by a persistent id)."""

    def persistent_id(self, obj: Any) -> str | None:
        return "catalog" if isinstance(obj, Catalog) else None


class _TailUnpickler(pickle.Unpickler):
    """Reads a kept line back, with the game's catalogue for the one left out."""

    def __init__(self, file: io.BytesIO, catalog: Catalog) -> None:
        super().__init__(file)
        self.catalog = catalog

    def persistent_load(self, pid: Any) -> Catalog:
        if pid != "catalog":
            raise pickle.UnpicklingError("an unknown persistent id in a checkpoint's tail")
        return self.catalog


def _folder() -> Path:
    return keys.home() / "cache"


_CODE: list[bytes] = []


def code_fingerprint() -> bytes:
    """The package's version and the size and time of each of its source files (once a process)."""
    if not _CODE:
        import agility_cli

        root = Path(agility_cli.__file__).parent
        h = hashlib.sha256(agility_cli.__version__.encode())
        for folder in sorted([root, *[p for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")]]):
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    h.update(f"{folder.name}/{entry.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        _CODE.append(h.digest())
    return _CODE[0]


def held_fingerprint(held: dict[str, bytes]) -> bytes:
    """Which seal secrets the verification read with (their hash: a key imported since changes it)."""
    h = hashlib.sha256()
    for name in sorted(held):
        h.update(name.encode() + b"\0" + held[name])
    return h.digest()


def _read(path: Path, limit: int) -> bytes | None:
    """A file of the cache folder (a regular file of at most ``limit`` bytes), or None."""
    try:
        return storage.read_bytes(path, what="checkpoint", limit=limit)
    except (GameFileError, OSError):
        return None


def _write(path: Path, data: bytes, *, replace: bool) -> bool:
    """Write a file of the cache folder whole (0600), through the project's one writer."""
    try:
        _folder().mkdir(mode=0o700, parents=True, exist_ok=True)
        storage.write_new(path, data, what="a checkpoint", replace=replace, mode=0o600)
        return True
    except OSError:  # WriteError, FileExistsError: nothing kept, the next read verifies in full
        return False


def _key(create: bool) -> bytes | None:
    """The folder's HMAC key: 32 random bytes, made on the first checkpoint written."""
    path = _folder() / "key"
    key = _read(path, 64)
    if key is not None or not create:
        return key if key is not None and len(key) == 32 else None
    key = os.urandom(32)
    return key if _write(path, key, replace=False) else _key(create=False)  # another process made it first


def _path(game_id: str) -> Path:
    return _folder() / f"{game_id}.bin"


#: How many checkpoints a game keeps: the latest reads, so that the news since each player's last
#: decision (``show``) can start from one before it.
KEEP = 4


Entry = tuple[int, int, bytes, bool, bytes]  # line, offset, prefix hash, owes, pickled cursor


def _entries(blob: bytes, key: bytes) -> list[Entry]:
    """The authenticated entries of a checkpoint file."""
    head = len(MAGIC) + 32
    if not blob.startswith(MAGIC) or len(blob) < head + 64:
        return []
    tag, body = blob[len(MAGIC):head], blob[head:]
    if not hmac.compare_digest(tag, hmac.new(key, body, hashlib.sha256).digest()):
        return []
    if body[:32] != code_fingerprint():
        return []
    out, at = [], 64
    while at + 53 <= len(body):
        line, offset = int.from_bytes(body[at:at + 4], "big"), int.from_bytes(body[at + 4:at + 12], "big")
        prefix, owes, size = body[at + 12:at + 44], body[at + 44] != 0, int.from_bytes(body[at + 45:at + 53], "big")
        out.append((line, offset, prefix, owes, body[at + 53:at + 53 + size]))
        at += 53 + size
    return out


#: The checkpoint files read in this process, authenticated: (path, inode, size, mtime) → entries (a
#: command reads its game two or three times; the file is read and its HMAC checked once)
_READ: dict[tuple[str, int, int, int], tuple[bytes, list[Entry]]] = {}


def _kept(game_id: str, key: bytes, held: dict[str, bytes]) -> list[Entry]:
    """The game's checkpoints made with the secrets ``held`` (none if the file is not ours)."""
    path = _path(game_id)
    try:
        st = path.stat()
    except OSError:
        return []
    seen = (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
    if seen not in _READ:
        blob = _read(path, MAX_BYTES)
        if blob is None:
            return []
        head = len(MAGIC) + 32
        _READ.clear()
        _READ[seen] = (blob[head + 32:head + 64], _entries(blob, key))
    held_print, entries = _READ[seen]
    return entries if entries and held_print == held_fingerprint(held) else []


def _valid_name(game_id: str) -> bool:
    return len(game_id) == 64 and all(c in "0123456789abcdef" for c in game_id)


def load(game_id: str, data: bytes, held: dict[str, bytes], at_most: int | None = None) -> Cursor | None:
    """The latest checkpoint of ``game_id`` (at line ``at_most`` or before, when given) whose
    verified bytes ``data`` starts with; None if there is none."""
    if not _valid_name(game_id):
        return None
    key = _key(create=False)
    if key is None:
        return None
    best = None
    for line, offset, prefix, _, pickled in _kept(game_id, key, held):
        if (at_most is None or line <= at_most) and offset <= len(data) and (best is None or line > best[0]):
            if hashlib.sha256(data[:offset]).digest() == prefix:
                best = (line, offset, pickled)
    if best is None:
        return None
    try:
        cursor = pickle.loads(best[2])  # authenticated above: written by this machine's tool
    except Exception:  # noqa: BLE001 - a checkpoint that cannot be read is only time lost
        return None
    return cursor if isinstance(cursor, Cursor) and cursor.offset == best[1] else None


def settled(game_id: str, data: bytes, held: dict[str, bytes]) -> bool:
    """Whether a checkpoint of all of ``data`` says that this machine's tool owes no line (R44)."""
    key = _key(create=False) if _valid_name(game_id) else None
    if key is None:
        return False
    digest = None
    for _, offset, prefix, owes, _ in _kept(game_id, key, held):
        if offset == len(data) and not owes:
            digest = digest or hashlib.sha256(data).digest()
            if digest == prefix:
                return True
    return False


def save(game_id: str, data: bytes, held: dict[str, bytes], cursor: Cursor) -> None:
    """Keep ``cursor``, reached by verifying the first ``cursor.offset`` bytes of ``data``, with
    the earlier checkpoints of the game that are still prefixes of ``data`` (the latest few)."""
    if not _valid_name(game_id):
        return
    key = _key(create=True)
    if key is None:
        return
    prefix = hashlib.sha256(data[: cursor.offset]).digest()
    old = _kept(game_id, key, held)
    if any(e[:3] == (cursor.lineno, cursor.offset, prefix) for e in old):
        return  # kept already (a read that went on from an earlier checkpoint to this one)
    try:
        pickled = pickle.dumps(cursor, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - nothing kept: the next read verifies in full
        return
    kept = [e for e in old if e[0] < cursor.lineno and e[1] <= len(data) and hashlib.sha256(data[: e[1]]).digest() == e[2]]
    entries = sorted(kept)[-(KEEP - 1):] + [(cursor.lineno, cursor.offset, prefix, cursor.owes, pickled)]
    body = code_fingerprint() + held_fingerprint(held) + b"".join(
        line.to_bytes(4, "big") + offset.to_bytes(8, "big") + p + bytes([owes]) + len(blob).to_bytes(8, "big") + blob
        for line, offset, p, owes, blob in entries)
    _write(_path(game_id), MAGIC + hmac.new(key, body, hashlib.sha256).digest() + body, replace=True)
