"""The verified prefix of a sealed game, kept per game in the data directory (R42: speed only).

Verifying a sealed game (format 3) checks every pass's proofs, about 0.3 s of CPU for a whole game,
and a command reads its file two or three times.  After a full verification the verifier keeps
where it stopped: the state, the deck and the hash chain's tip after the file's last line, with the
length and SHA-256 of the bytes it verified.  The next read of a file that starts with exactly those
bytes goes on from there and verifies only the lines after them; any other file — edited, cut,
rewritten by a force-push, a copy from elsewhere — matches nothing and is verified whole.

What is kept is this machine's own work, not input: it is written only here, 0600 in the data
directory's ``cache/`` folder (0700, this user's alone: ``datadir`` refuses one that another user
owns or may write to, before reading anything in it), and authenticated with HMAC-SHA-256 under a
random key of that folder, so a file put there by anyone else (or damaged) is ignored.  Nothing is
pickled: the objects are kept as snapshots (``record.snapshot``: msgspec's MessagePack of the
classes of a fixed set of modules), which are read back without importing or calling anything the
bytes name — a snapshot naming any other class is refused, and the game verified in full.  A
checkpoint is also tied to the code that wrote it (the package's version and its source files'
sizes and times) and to the seal secrets the key store holds for the game: a new version of the
tool, or a key imported since, verifies again.  Every failure to read or write a checkpoint only
costs the time it would have saved: the verification is then done in full.
"""

from __future__ import annotations

import msgspec
import hashlib
import hmac
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

from ..engine.state import Catalog, State
from ..text import shell_command
from . import datadir, keys, snapshot, storage
from .lazy import Deferred, Recent

#: The layout of a checkpoint file; a change makes every older one unreadable (verified again).
MAGIC = b"agility-checkpoint 12\n"  # 12: a finished game's every card kept once the audit is in; 11: the deck keeps its aborts (R42); 10: the verdict's summary kept beside the deck; 9: snapshots, no pickle
#: The largest checkpoint file read (a finished sealed game's four checkpoints are about 170 KB).
MAX_BYTES = 8 << 20


class Cursor(msgspec.Struct):
    """Where the verifier stands after a line: every variable its loop carries to the next line."""

    header: Any
    components: Any
    trust: Any
    sealed: Any  # a lazy.Deferred (:func:`deferred`): the deck and the table state, kept encoded
    state: Any
    lineno: int
    offset: int  # bytes of the file verified (the next line starts here)
    prev: str
    prev_record: Any
    ended_at: int | None
    last_raw: bytes
    #: the last lines read (lazy.Recent, each kept as its own snapshot: read only by ``show``, to
    #: tell the news since a player's last decision without verifying those lines again)
    tail: bytes = b""
    #: whether this machine's tool may owe a line after it (its keys, a pass, a forced decision:
    #: R44); kept outside the snapshots, so that a command learns it without reading the deck
    owes: bool = True


class _Kept(msgspec.Struct, array_like=True):
    """A cursor as a checkpoint file holds it: the verifier's variables, typed, and three
    snapshots: the header, component set, trust, state and last record (``body``), the deck
    and the table state (read when used: lazy.Deferred)."""

    body: bytes
    lineno: int
    offset: int
    prev: str
    ended_at: int | None
    last_raw: bytes
    tail: bytes
    owes: bool
    deck: bytes
    table: bytes
    forfeits: dict[int, str] = {}  # R42: the verdict's summary (lazy.Deferred), read without the deck
    audited: list[int] | None = None


_KEPT = msgspec.msgpack.Decoder(_Kept)
_TAIL = msgspec.msgpack.Decoder(list[tuple[int, bytes]])
_ENCODER = msgspec.msgpack.Encoder()
_CODECS: dict[str, snapshot.Codec] = {}


def _core() -> snapshot.Codec:
    """The codec of the engine's state, the lines and the verified game (a game's catalogue is
    kept as its component set, and made again from it)."""
    if "core" not in _CODECS:
        from ..engine import components, moves, ruleset, state
        from . import game, lazy

        codec = snapshot.Codec([state, components, moves, ruleset, game, lazy],
                               {Catalog: (lambda cat: cat.components, Catalog)})
        del codec.classes[snapshot.tag_of(Deferred)]  # holds a function, never data
        _CODECS["core"] = codec
    return _CODECS["core"]


def _deck_codec() -> snapshot.Codec:
    """The codec of a sealed deck: the core's classes and those of the sealed room's modules
    (imported here, by name in the code, never from a snapshot)."""
    if "deck" not in _CODECS:
        # the modules the room offers, and so every module of it they import: a deck's classes
        from .sealed import game, seal, verify, write  # noqa: F401

        room = [m for name, m in sorted(sys.modules.items()) if name.startswith(f"{__package__}.sealed.")]
        core = _core()
        codec = snapshot.Codec(room, core.custom)
        codec.classes.update(core.classes)
        _CODECS["deck"] = codec
    return _CODECS["deck"]


def _open(path: Path | None, catalog: Catalog, blob: bytes, deck: bool) -> Any:
    """A kept deck (``deck``) or table state, read with the game's catalogue.  Its classes were
    checked when the checkpoint was read (:func:`load`); one that still cannot be read is this
    machine's record damaged (exit 3): it is too late to verify the game in full instead."""
    try:
        return (_deck_codec() if deck else _core()).decode(blob, [catalog])
    except snapshot.SnapshotError as exc:
        fix = f"delete it (`{shell_command(['rm', str(path)])}`): a checkpoint only saves time"
        raise keys.DamagedRecord(f"this machine's checkpoint file {path} holds a deck that cannot be read ({exc}); "
                                 f"{fix}") from None


def deferred(sealed: Any, table: State) -> Deferred | None:
    """The deck as a checkpoint keeps it: its snapshot, and that of the table state made from it
    now (None if it cannot be kept: then no checkpoint is)."""
    try:
        return Deferred(_deck_codec().encode(sealed, [table.cat]), _core().encode(table, [table.cat]),
                        partial(_open, None, table.cat), getattr(sealed, "forfeits", {}), sorted(sealed.audits))
    except snapshot.SnapshotError:  # a class no module of the codec defines: no checkpoint
        return None


#: How many of the last lines a checkpoint keeps the states of (the news of a turn or two).
TAIL = 24


def pack_tail(previous: bytes, lines: list[Any]) -> bytes:
    """The tail of a new checkpoint: the last :data:`TAIL` of the lines kept before and ``lines``.

    Each line is kept as its own snapshot, without its state's catalogue (the game's, which the
    cursor holds): so the kept lines are carried over without reading them, and a reader reads
    only the lines it tells."""
    kept = _TAIL.decode(previous) if previous else []  # this machine's own (see load)
    fresh = [(recent.line, _core().encode(recent, [recent.after.cat])) for recent in lines]
    return _ENCODER.encode((kept + fresh)[-TAIL:])


def tail_of(cursor: Cursor, since: int = 0) -> list[Any]:
    """The last lines a checkpoint keeps (lazy.Recent) from line ``since`` on, oldest first."""
    try:
        kept = _TAIL.decode(cursor.tail) if cursor.tail else []
        out = [_core().decode(blob, [cursor.state.cat]) for line, blob in kept if line >= since]
    except (snapshot.SnapshotError, msgspec.DecodeError, msgspec.ValidationError):  # only time lost
        return []
    return out if all(isinstance(r, Recent) for r in out) else []


def _folder(create: bool = False) -> Path:
    """The cache folder, checked (``datadir``: refused, exit 2, if it is not this user's alone)."""
    try:
        return datadir.folder("cache", create=create)
    except OSError:
        if create:
            raise
        return keys.home() / "cache"  # the system refused a look (nothing there is read: only time lost)


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
    """A file of the cache folder (a regular file of at most ``limit`` bytes, 0600), or None.  One
    that is no regular file (a FIFO: never waited on) is this machine's record damaged (exit 3)."""
    try:
        return datadir.read_record(path, limit, secret=True)
    except datadir.RecordError as exc:
        raise keys.damaged_record("checkpoint file", exc, "delete it (`" + shell_command(["rm", str(path)])
                                  + "`): a checkpoint only saves time") from None
    except OSError:
        return None


def _write(path: Path, data: bytes, *, replace: bool) -> bool:
    """Write a file of the cache folder whole (0600), through the project's one writer."""
    try:
        _folder(create=True)
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


Entry = tuple[int, int, bytes, bool, bytes]  # line, offset, prefix hash, owes, the cursor (_Kept)


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


#: The checkpoint files read in this process, authenticated: (path, inode, size, times, mode, owner) → entries (a
#: command reads its game two or three times; the file is read and its HMAC checked once)
_READ: dict[tuple[str, int, int, int, int, int], tuple[bytes, list[Entry]]] = {}


def _kept(game_id: str, key: bytes, held: dict[str, bytes]) -> list[Entry]:
    """The game's checkpoints made with the secrets ``held`` (none if the file is not ours)."""
    path = _path(game_id)
    try:
        st = os.lstat(path)
    except OSError:
        return []
    seen = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode, st.st_uid)  # read again if changed
    if seen not in _READ:
        blob = _read(path, MAX_BYTES)
        if blob is None:
            return []
        head = len(MAGIC) + 32
        _READ.clear()
        _READ[seen] = (blob[head + 32:head + 64], _entries(blob, key))
    held_print, entries = _READ[seen]
    return entries if entries and held_print == held_fingerprint(held) else []


#: The entries (their SHA-256) that :func:`load` found it could not read, in this process: the
#: next :func:`save` replaces them rather than keep them as the checkpoint of their line
_UNREADABLE: set[bytes] = set()


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
    for line, offset, prefix, _, blob in _kept(game_id, key, held):
        if (at_most is None or line <= at_most) and offset <= len(data) and (best is None or line > best[0]):
            if hashlib.sha256(data[:offset]).digest() == prefix:
                best = (line, offset, blob)
    if best is None:
        return None
    try:  # authenticated above: written by this machine's tool; read as data all the same
        kept = _KEPT.decode(best[2])
        header, components, trust, state, prev_record = _core().decode(kept.body)
        # the deck is read only when used (lazy.Deferred): the classes it names are checked now,
        # those of the sealed room by their module's name (its modules are not imported for this)
        core, room = _core().classes, f"{__package__}.sealed."
        if (not all(tag in core for tag in snapshot.tags_of(kept.table))
                or not all(tag in core or tag.startswith(room) for tag in snapshot.tags_of(kept.deck))):
            raise snapshot.SnapshotError("the deck names a class this tool does not keep")
    except (snapshot.SnapshotError, msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError):
        _UNREADABLE.add(hashlib.sha256(best[2]).digest())
        return None  # only time lost: verified in full (and this entry replaced by the next save)
    if not isinstance(state, State) or kept.offset != best[1] or kept.lineno != best[0]:
        _UNREADABLE.add(hashlib.sha256(best[2]).digest())
        return None
    deck = Deferred(kept.deck, kept.table, partial(_open, _path(game_id), state.cat), kept.forfeits, kept.audited)
    return Cursor(header, components, trust, deck, state, kept.lineno, kept.offset, kept.prev, prev_record,
                  kept.ended_at, kept.last_raw, kept.tail, kept.owes)


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
    old = [e for e in _kept(game_id, key, held) if hashlib.sha256(e[4]).digest() not in _UNREADABLE]
    if any(e[:3] == (cursor.lineno, cursor.offset, prefix) for e in old):
        return  # kept already (a read that went on from an earlier checkpoint to this one)
    deck = cursor.sealed
    if not isinstance(deck, Deferred):
        return  # the deck could not be kept (:func:`deferred`): the next read verifies in full
    try:
        body = _core().encode([cursor.header, cursor.components, cursor.trust, cursor.state, cursor.prev_record])
    except snapshot.SnapshotError:
        return
    kept_blob = _ENCODER.encode(_Kept(body, cursor.lineno, cursor.offset, cursor.prev, cursor.ended_at,
                                      cursor.last_raw, cursor.tail, cursor.owes, deck.blob, deck.table,
                                      deck.forfeits, deck.audited))
    kept = [e for e in old if e[0] < cursor.lineno and e[1] <= len(data) and hashlib.sha256(data[: e[1]]).digest() == e[2]]
    entries = sorted(kept)[-(KEEP - 1):] + [(cursor.lineno, cursor.offset, prefix, cursor.owes, kept_blob)]
    body = code_fingerprint() + held_fingerprint(held) + b"".join(
        line.to_bytes(4, "big") + offset.to_bytes(8, "big") + p + bytes([owes]) + len(blob).to_bytes(8, "big") + blob
        for line, offset, p, owes, blob in entries)
    _write(_path(game_id), MAGIC + hmac.new(key, body, hashlib.sha256).digest() + body, replace=True)
