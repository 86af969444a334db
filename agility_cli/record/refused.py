"""Refused lines kept as evidence (R42; issue 49): a line of the opponent's that this machine's tool
refused — one that does not verify (a forged proof, a bad signature, a broken chain), a decision
made in this player's name, a mail deciding for both seats — is never built on and never written
into the game file, but it is not forgotten either (nor is the line an abort of this tool's
replaces, which the abort carries, R42).

Each one is kept in the data directory, in ``refused/<game id>/`` (folders 0700, files 0600, each
written whole: a temporary file renamed), one file a line, named by the SHA-256 of its bytes, so
the same line refused again (a mailbox read at every ``play --mail``) is kept once.  A file holds
the raw line (as received: UTF-8, any other byte replaced), who it says wrote it, its line number in
the game, why it was refused, how it came (``mail``: ``apply`` or ``play --mail``; ``git``: ``play --git``)
and when.  At most :data:`MAX_KEPT` are kept a game: the first ones stay (an opponent
cannot flush them away with more), and the rest are still refused, only not kept.

``agility show FILE --refused`` lists them, ``--refusal K`` prints one whole (made safe for the
terminal), and ``show`` / ``show --json`` name the last one.  Keeping is a convenience of this
machine: a data directory that cannot be written never changes what is refused (the refusal
stands; only its trace is missing).
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Annotated

import msgspec

from ..engine.notation import UsageError
from . import datadir, storage

FORMAT = "agility-refused/1"
#: Refused lines kept a game, at most (the first ones).
MAX_KEPT = 100
#: The longest raw line kept whole (a sealed line with its proofs is some 13 KB); a longer one is
#: kept cut at this length, and says so — so a game's evidence stays bounded however many lines
#: an opponent mails (at most 100 records of at most 1.6 MB each, some 260 KB for text lines).
MAX_RAW = 1 << 18
#: Longest record file read back.
MAX_RECORD_BYTES = MAX_RAW * 6 + (1 << 16)  # a control byte is 6 in JSON (\u0001)

_Text = Annotated[str, msgspec.Meta(max_length=MAX_RAW)]
_Short = Annotated[str, msgspec.Meta(max_length=8192)]


class Evidence(msgspec.Struct, frozen=True):
    """One refused line as this machine keeps it (see the module docstring)."""

    format: str
    game: _Short
    line: Annotated[int, msgspec.Meta(ge=0, lt=1 << 31)]
    writer: _Short
    reason: _Text
    code: _Short
    via: _Short
    at: Annotated[float, msgspec.Meta(ge=0, lt=1e11)]
    sha256: _Short
    raw: _Text
    cut: bool = False  # the raw line was longer than MAX_RAW and is kept cut


_DECODER = msgspec.json.Decoder(Evidence)


def _valid_id(game_id: str) -> bool:
    return len(game_id) == 64 and all(c in "0123456789abcdef" for c in game_id)


def _folder(game_id: str, *, create: bool) -> Path:
    datadir.folder("refused", create=create)  # 0700, this user's alone (datadir)
    return datadir.folder(f"refused/{game_id}", create=create)


def keep(game_id: str, raw: bytes, *, line: int, writer: str, reason: str, code: str, via: str) -> bool:
    """Keep the refused line ``raw`` of game ``game_id`` as evidence; whether it is kept now (False:
    kept before, the game's :data:`MAX_KEPT` reached, or the data directory cannot be written —
    the refusal stands either way)."""
    if not _valid_id(game_id):
        return False
    name = digest(raw)
    try:
        folder = _folder(game_id, create=True)
        target = folder / f"{name}.json"
        if os.path.lexists(target):
            return False  # the same line, refused again: kept once
        if len(_names(folder)) >= MAX_KEPT:
            return False
        cut = len(raw) > MAX_RAW
        record = Evidence(FORMAT, game_id, max(0, min(line, (1 << 31) - 1)), writer[:8192], reason[:8192],
                          code[:8192], via[:8192], time.time(), name,
                          raw[:MAX_RAW].decode("utf-8", "replace"), cut)
        storage.write_new(target, msgspec.json.encode(record) + b"\n", what="the refused line's record",
                          replace=False, mode=0o600)
    except (OSError, UsageError):  # storage's WriteError is an OSError, datadir's refusals UsageErrors
        return False
    return True


def has(game_id: str, raw: bytes) -> bool:
    """Whether the refused line ``raw`` of ``game_id`` is kept here."""
    if not _valid_id(game_id):
        return False
    return os.path.isfile(datadir.home() / "refused" / game_id / f"{digest(raw)}.json")


def digest(raw: bytes) -> str:
    """The name a refused line is kept under: the SHA-256 (hex) of its bytes."""
    return hashlib.sha256(raw).hexdigest()


def _names(folder: Path) -> list[str]:
    try:
        return sorted(p.name for p in folder.iterdir() if p.name.endswith(".json") and len(p.name) == 69)
    except OSError:
        return []


def kept(game_id: str) -> list[Evidence]:
    """The refused lines kept for ``game_id``, the first refused first; a record that cannot be read
    as one (damaged, another user's, not a regular file) is left out."""
    if not _valid_id(game_id):
        return []
    folder = _folder(game_id, create=False)
    if not folder.is_dir():
        return []
    found = (_read(folder / name, game_id) for name in _names(folder)[:MAX_KEPT * 2])
    return sorted((e for e in found if e is not None), key=lambda e: (e.at, e.sha256))


def _read(path: Path, game_id: str) -> Evidence | None:
    """The record at ``path``, or None when it cannot be read as one of ``game_id`` (damaged,
    another user's, not a regular file, named for another line)."""
    try:
        raw = datadir.read_record(path, MAX_RECORD_BYTES, secret=False)
        if raw is None:
            return None
        record = _DECODER.decode(raw)
    except (OSError, ValueError, UsageError, msgspec.DecodeError, RecursionError):  # RecordError: a ValueError
        return None
    ok = record.format == FORMAT and record.game == game_id and path.name == f"{record.sha256}.json"
    return record if ok else None


def last(game_id: str) -> tuple[int, Evidence] | None:
    """How many refused lines are kept for ``game_id`` and the last one (the newest record file;
    only that one is read: ``show`` says it at every run); None when there is none."""
    if not _valid_id(game_id):
        return None
    folder = _folder(game_id, create=False)
    names = _names(folder) if folder.is_dir() else []
    dated = []
    for name in names[:MAX_KEPT * 2]:
        try:
            dated.append((os.lstat(folder / name).st_mtime, name))
        except OSError:
            continue
    for _, name in sorted(dated, reverse=True)[:3]:  # the newest that reads as a record
        found = _read(folder / name, game_id)
        if found is not None:
            return len(names), found
    return None
