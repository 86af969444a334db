"""Mail sources: a mailbox (a Maildir folder, an mbox file), a single saved message, or standard
input, read a message at a time, and the messages of one game found in it.

What ``play --mail SRC`` and ``apply FILE SRC`` take (:func:`kind_of`): ``-`` is standard input;
an existing folder is a Maildir (``cur/`` and ``new/``); an existing file is an mbox when it
starts with a ``From `` line, else one saved message; an ``imaps://`` address is an IMAP mailbox
(:mod:`.imap`, which hands its messages to the same index); anything else is pasted text.

**Reading never changes the mailbox**: files are opened read-only, nothing is renamed, no flag is
set.  Each message is read on its own, at most :data:`MAX_MESSAGE_BYTES` (a larger one is not read:
a note names it), and a Maildir entry that is not a regular file (a FIFO, a device, a link) is an
error naming it.

**The game's messages.**  A message belongs to a game by its armoured block's game id (the first
8 hex digits of the header line's SHA-256, which ``send`` puts in the markers) or by a line that
chains onto the file (its ``prev`` is the hash of one of the file's lines) — never by the subject
alone.  Of those, the ones holding a line the file does not hold are the mail not yet applied;
they are given oldest line first, and ``apply`` verifies each before anything is written.

**The index.**  Finding the game lines of a message means decoding it (MIME, charsets, blocks):
some milliseconds a message.  So what each message holds — the block ids, and for each game line
its ``n``, ``prev`` and hash, cut to 16 hex digits (a selection only: ``apply`` verifies the whole
line) — is kept in the data directory's ``mailindex/`` folder, one file a mailbox, named by the
mailbox's identity (its real path, device and inode) and holding its size and modification time.
A mailbox that has not changed is not read at all; an mbox that has is split again and only the
messages whose bytes are new are decoded (each known by its SHA-256); a Maildir's new file names
only.  Deleting the index only costs time.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterable, Iterator

import msgspec

from . import find
from .. import datadir, storage
from ..lines import GameFileError
from ...engine.notation import UsageError
from ...i18n import N_
from ...said import Said, message_of, os_words, said

if TYPE_CHECKING:
    from . import apply

#: The largest message read from a mailbox (a game's mail is some KB; a whole game file attached
#: some MB): a larger one is left unread, with a note naming it.
MAX_MESSAGE_BYTES = 8 << 20
#: The largest index file read back (a 10,000-message mailbox's is some hundreds of KB).
MAX_INDEX_BYTES = 64 << 20
INDEX_FORMAT = 4  # 2: damaged blocks kept by the lines they name; 3: an invitation in a base64 body named;
#                   4: a damaged block's problem kept as its message (told in the language in use)
HASH_DIGITS = 16

_SHORT_ID = re.compile(rb"BEGIN[\s>]+AGILITY[\s>]+LINES[\s>]+game[\s>]+([A-Za-z0-9]{1,16})")
_MAYBE = (b"AGILITY", b"kind", b"ase64", b"ASE64", b"uoted-", b"UOTED-")


class MailboxError(UsageError):
    """A mail source that cannot be read as one: the message names it (and the message at fault).
    Exit 2, as other sources the command cannot read."""


class Line(msgspec.Struct, array_like=True):
    """A game line found in a message, for the selection: its ``n``, its ``prev`` and its own hash
    (each cut to :data:`HASH_DIGITS` hex digits)."""

    n: int
    prev: str
    hash: str


class Entry(msgspec.Struct, array_like=True):
    """What one message of a mailbox holds for the selection."""

    key: str  # the message's place: an mbox offset, a Maildir file name, an IMAP UID
    digest: str  # SHA-256 of its bytes (hex, cut), so that a message moved in an mbox is known again
    size: int
    games: list[str] = []  # the game ids its armoured blocks name
    lines: list[Line] = []
    sender: str = ""  # its From: address (the opponent's, for the reply)
    problem: str = ""  # why it could not be read (too large): said if it is the game's
    #: its armoured blocks cut short or changed on the way: judged only on the lines they add
    damaged: list[Damage] = []


class Damage(msgspec.Struct, array_like=True):
    """An armoured block of a message that is cut short or changed: the lines its markers name."""

    game: str
    first: int
    last: int
    problem: Any  # the message as :func:`kept` keeps it (English, and what translates it)

    def of(self) -> find.Damaged:
        return find.Damaged(self.game, self.first, self.last, restored(self.problem))


def kept(text: Any) -> Any:
    """A message (:class:`~agility_cli.said.Said`) as data the index keeps: ``{"said": [english,
    message, values, kind]}``, its values kept alike; anything else as it is."""
    if isinstance(text, Said):
        return {"said": [str(text), text.template, {k: kept(v) for k, v in text.params.items()}, text.kind]}
    if isinstance(text, (list, tuple)):
        return [kept(v) for v in text]
    return text


def restored(data: Any) -> Any:
    """The message :func:`kept` kept (a damaged index gives what it holds, as text)."""
    if isinstance(data, list):
        return [restored(v) for v in data]
    if not isinstance(data, dict):
        return data
    try:
        english, template, params, kind = data["said"]
        return Said(str(english), str(template), {str(k): restored(v) for k, v in dict(params).items()},
                    None if kind is None else str(kind))
    except (KeyError, TypeError, ValueError):
        return str(data)


class Index(msgspec.Struct):
    format: int
    identity: str
    stamp: list[int]  # size and modification times (ns) of the mailbox: unchanged, it is not read
    entries: list[Entry]


@dataclass
class Found:
    """The messages of one game in a mailbox, not yet applied (oldest line first), and notes."""

    messages: list[Entry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sender: str = ""  # the From: address of the newest message of the game
    lost: list[str] = field(default_factory=list)  # messages whose damaged blocks lose lines, said once


def kind_of(source: str) -> str:
    """``stdin``, ``imaps``, ``maildir``, ``mbox``, ``message`` or ``text`` (DECISIONS: an
    existing file or folder, or an ``imaps://`` address, is a mail source; else pasted text)."""
    if source == "-":
        return "stdin"
    if source.lower().startswith("imaps://"):
        return "imaps"
    if not os.path.lexists(source):
        return "text"
    if os.path.isdir(source):
        return "maildir"
    try:
        with open(source, "rb") as fh:
            start = fh.read(5)
    except OSError:
        return "message"  # the reader says why it cannot be opened
    return "mbox" if start == b"From " else "message"


def _cut(text: str) -> str:
    return text[:HASH_DIGITS]


class _LineHead(msgspec.Struct):
    n: object = None
    prev: object = None


_HEAD = msgspec.json.Decoder(_LineHead)


def _oversize(size: int) -> Said:
    return said(N_("it is {n} MiB, more than a game's mail can be, and was not read"), n=size >> 20)


def scan_message(data: bytes) -> tuple[list[str], list[Line], str, list[Damage]]:
    """The block ids, the game lines, the sender's address and the damaged blocks of one message."""
    games = sorted({m.group(1).decode() for m in _SHORT_ID.finditer(data)})
    if not any(mark in data for mark in _MAYBE):
        return games, [], sender_of(data), []
    incoming = find.read_mail(data)
    damaged = [Damage(d.game, d.first, d.last, kept(d.problem)) for d in incoming.damaged]
    texts = incoming.found
    lines: list[Line] = []
    for text in dict.fromkeys(texts):
        raw = text.encode()
        try:
            head = _HEAD.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            continue
        if isinstance(head.n, int) and isinstance(head.prev, str):
            lines.append(Line(head.n, _cut(head.prev), _cut(hashlib.sha256(raw).hexdigest())))
        elif raw.startswith(b'{"kind":"game"'):
            # a game's first line (an invitation): its block's id is the line's hash, cut as the
            # armour cuts it — found here when the raw bytes hide the block's markers (a base64 or
            # quoted-printable body), so that an invitation mailed that way is found (issue 52)
            games = sorted({*games, hashlib.sha256(raw).hexdigest()[:8]})
    return games, lines, sender_of(data), damaged


_FROM = re.compile(rb"^From:[^\n]*?<?([A-Za-z0-9._%+=-]+@[A-Za-z0-9.-]+)>?", re.M | re.I)


def sender_of(data: bytes) -> str:
    """The ``From:`` address of a raw message ("" if none)."""
    end = data.find(b"\n\n")
    head = data[: end if end != -1 else 16384][:65536]
    found = _FROM.search(head)
    return found.group(1).decode("ascii", "replace") if found else ""


def entry_of(key: str, data: bytes, oversize: int = 0) -> Entry:
    digest = hashlib.sha256(data).hexdigest()[:32]
    if oversize:
        games = sorted({m.group(1).decode() for m in _SHORT_ID.finditer(data)})
        return Entry(key, digest, oversize, games, problem=str(_oversize(oversize)))
    games, lines, sender, damaged = scan_message(data)
    return Entry(key, digest, len(data), games, lines, sender, damaged=damaged)


# ----------------------------------------------------------------------------------------------
# mbox: one message at a time


def _mbox_messages(fh: BinaryIO) -> Iterator[tuple[int, bytes, int]]:
    """(offset, bytes, oversize) of each message of an mbox, read a line at a time: a ``From ``
    line at the start or after a blank line begins a message (``>From `` loses one ``>``, mboxrd).
    A message past :data:`MAX_MESSAGE_BYTES` is given with no bytes and its size."""
    offset = 0
    start = -1
    chunks: list[bytes] = []
    size = 0
    blank = True
    for line in fh:
        at = offset
        offset += len(line)
        if blank and line.startswith(b"From "):
            if start >= 0:
                yield start, _trimmed(chunks), size if size > MAX_MESSAGE_BYTES else 0
            start, chunks, size, blank = at, [], 0, False
            continue
        blank = line in (b"\n", b"\r\n")
        if start < 0:
            continue
        if line.startswith(b">") and line.lstrip(b">").startswith(b"From "):
            line = line[1:]
        size += len(line)
        if size <= MAX_MESSAGE_BYTES:
            chunks.append(line)  # past the cap the start is kept (its block ids name its game)
    if start >= 0:
        yield start, _trimmed(chunks), size if size > MAX_MESSAGE_BYTES else 0


def _trimmed(chunks: list[bytes]) -> bytes:
    """A message's bytes without the blank lines that end it (the separator before the next
    ``From ``: a message is the same bytes whether another follows it or not)."""
    return b"".join(chunks).rstrip(b"\r\n") + b"\n"


def _open_regular(path: str, label: str) -> BinaryIO:
    try:
        fd = os.open(path, datadir.OPEN_FLAGS)
    except OSError as exc:
        if os.path.islink(path):
            raise MailboxError(said(N_("{label} is a symbolic link, not a message file: not read"), label=label)) from None
        raise MailboxError(said(N_("cannot open {label} ({error})"), label=label, error=os_words(exc))) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise MailboxError(said(N_("{label} is {kind}, not a message file: not read"), label=label,
                                kind=said(storage.kind_of_file(st.st_mode))))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb", buffering=1 << 16)


def _maildir_files(folder: str) -> list[tuple[str, str]]:
    """(key, path) of every message of a Maildir, in the order of their names (delivery time
    first in every Maildir naming), ``new/`` and ``cur/`` together; the key is the unique part of
    the name, before the flags (``:2,S``) a mail program changes."""
    if not any(os.path.isdir(os.path.join(folder, sub)) for sub in ("new", "cur")):
        raise MailboxError(said(N_("{folder} is a folder but not a Maildir (it has no cur/ or new/): give a Maildir, "
                                   "an mbox file, or the saved message's file"), folder=folder))
    out = []
    for sub in ("new", "cur"):
        where = os.path.join(folder, sub)
        try:
            names = os.listdir(where)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise MailboxError(said(N_("cannot read the Maildir folder {folder} ({error})"), folder=where,
                                    error=os_words(exc))) from None
        out += [(name.split(":", 1)[0], os.path.join(where, name)) for name in names if not name.startswith(".")]
    return sorted(out)


# ----------------------------------------------------------------------------------------------
# The index


def _index_path(identity: str) -> Path:
    return datadir.folder("mailindex", create=False) / f"{hashlib.sha256(identity.encode()).hexdigest()[:32]}.msgpack"


_INDEX = msgspec.msgpack.Decoder(Index)


def load_index(identity: str) -> Index | None:
    try:
        raw = datadir.read_record(_index_path(identity), MAX_INDEX_BYTES, secret=True)
    except (datadir.RecordError, OSError):
        return None  # only time is lost: the mailbox is read again
    if raw is None:
        return None
    try:
        index = _INDEX.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None
    return index if index.format == INDEX_FORMAT and index.identity == identity else None


def save_index(index: Index) -> None:
    try:
        folder = datadir.folder("mailindex", create=True)
        storage.write_new(folder / _index_path(index.identity).name, msgspec.msgpack.encode(index),
                          what="the mailbox index", replace=True, mode=0o600)
    except (OSError, ValueError):
        pass  # a convenience: the next scan reads the mailbox again


def _identity(path: str, st: os.stat_result) -> str:
    return f"{os.path.realpath(path)}\0{st.st_dev}\0{st.st_ino}"


def scan(source: str) -> tuple[str, list[Entry]]:
    """The entries of every message of a local mailbox (``maildir`` or ``mbox``), from the index
    where the mailbox has not changed, and the mailbox's kind."""
    kind = kind_of(source)
    try:
        st = os.stat(source)
    except OSError as exc:
        raise MailboxError(said(N_("cannot read the mailbox {source} ({error})"), source=source,
                                error=os_words(exc))) from None
    identity = _identity(source, st)
    if kind == "maildir":
        stamp = [st.st_mtime_ns] + [_mtime(os.path.join(source, sub)) for sub in ("new", "cur")]
    else:
        stamp = [st.st_size, st.st_mtime_ns]
    index = load_index(identity)
    if index is not None and index.stamp == stamp:
        return kind, index.entries
    known = {} if index is None else {(e.key if kind == "maildir" else e.digest): e for e in index.entries}
    entries = _scan_maildir(source, known) if kind == "maildir" else _scan_mbox(source, known)
    save_index(Index(INDEX_FORMAT, identity, stamp, entries))
    return kind, entries


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _scan_maildir(folder: str, known: dict[str, Entry]) -> list[Entry]:
    entries = []
    for key, path in _maildir_files(folder):
        if key in known:
            entries.append(known[key])
            continue
        with _open_regular(path, said(N_("the message {path}"), path=path)) as fh:
            data = fh.read(MAX_MESSAGE_BYTES + 1)
        entries.append(entry_of(key, data[:MAX_MESSAGE_BYTES], len(data) if len(data) > MAX_MESSAGE_BYTES else 0))
    return entries


def _scan_mbox(path: str, known: dict[str, Entry]) -> list[Entry]:
    entries = []
    with _open_regular(path, said(N_("the mailbox {path}"), path=path)) as fh:
        for offset, data, oversize in _mbox_messages(fh):
            digest = hashlib.sha256(data).hexdigest()[:32]
            old = known.get(digest)
            if old is not None and not oversize:
                entries.append(msgspec.structs.replace(old, key=str(offset)))
            else:
                entries.append(entry_of(str(offset), data, oversize))
    return entries


def read_message(source: str, kind: str, entry: Entry) -> bytes:
    """The bytes of one message the index names (checked against its digest: a mailbox changed
    since the scan is an error naming the message)."""
    label = label_of(source, kind, entry)
    if kind == "maildir":
        match = [p for k, p in _maildir_files(source) if k == entry.key]
        if not match:
            raise MailboxError(said(N_("{label} is no longer in the mailbox: run the command again"), label=label))
        with _open_regular(match[0], label) as fh:
            data = fh.read(MAX_MESSAGE_BYTES + 1)
    else:
        with _open_regular(source, said(N_("the mailbox {path}"), path=source)) as fh:
            fh.seek(int(entry.key))
            data = next(_mbox_messages(fh), (0, b"", 0))[1]
    if hashlib.sha256(data).hexdigest()[:32] != entry.digest:
        raise MailboxError(said(N_("{label} changed while it was read: run the command again"), label=label))
    return data


def label_of(source: str, kind: str, entry: Entry) -> Said:
    """How a message is named in a message to the player."""
    if kind == "maildir":
        return said(N_("the message {key} of the Maildir {source}"), key=entry.key, source=source)
    if kind == "imaps":
        return said(N_("the message of UID {key} in {source}"), key=entry.key, source=source)
    return said(N_("the message at byte {key} of the mbox {source}"), key=entry.key, source=source)


# ----------------------------------------------------------------------------------------------
# The messages of one game


def of_game(entries: Iterable[Entry], short_id: str, hashes: list[str],
            label: Callable[[Entry], str]) -> Found:
    """The messages of the game whose lines hash to ``hashes`` (line 1 first; its block id
    ``short_id``) that hold a line the file does not, oldest first: by the lowest new ``n``.

    No message stalls the game: a damaged block is judged only on the lines it adds — it is
    passed over when the file holds them, or a whole block or line of any message of the game
    carries them (a re-send); else it is said once in ``notes`` (which message, which lines, what
    to ask for) and every other message is still taken."""
    have = {_cut(h) for h in hashes}
    out = Found()
    picked: list[tuple[int, int, Entry]] = []
    ours = [e for e in entries if short_id in e.games or any(line.prev in have for line in e.lines)]
    carried = {(short_id, line.n + 1) for e in ours for line in e.lines}
    for order, entry in enumerate(ours):
        if entry.problem:
            out.notes.append(said(N_("{label} was not read: {why}"), label=label(entry), why=_oversize(entry.size)))
            continue
        if entry.sender:
            out.sender = entry.sender
        new = [line.n for line in entry.lines if line.hash not in have]
        if new:
            picked.append((min(new), order, entry))
            continue  # judged as it is applied, on what it adds then
        lost = find.unheld([d.of() for d in entry.damaged], short_id, len(hashes), carried)
        if lost:
            out.lost.append(lost_note(label(entry), lost))
    out.messages = [entry for _, _, entry in sorted(picked, key=lambda t: (t[0], t[1]))]
    return out


def lost_note(label: str, lost: list[find.Damaged]) -> Said:
    """A message's damaged blocks that lose lines, said once: which lines, and what to ask for."""
    return said(N_("{label}: {damage} (your file lacks those lines)"), label=label, damage=find.damage_message(lost))


def unapplied_lines(found: Found, hashes: list[str]) -> int:
    """How many distinct game lines the found messages hold that the file does not."""
    have = {_cut(h) for h in hashes}
    return len({line.hash for e in found.messages for line in e.lines if line.hash not in have})


def read_stdin() -> bytes:
    """A message (or pasted lines) on standard input, at most the size of a game file."""
    received = sys.stdin.buffer.read(MAX_MESSAGE_BYTES + 1)
    if len(received) > MAX_MESSAGE_BYTES:
        raise MailboxError(said(N_("the input is more than {n} MiB: not a mail of game lines"),
                                n=MAX_MESSAGE_BYTES >> 20))
    return received


def check_message_file(path: str) -> bytes:
    """A single saved message, as a game file is read (a regular file, bounded)."""
    try:
        return storage.read_bytes(path, what="mail message", limit=MAX_MESSAGE_BYTES)
    except GameFileError as exc:
        raise MailboxError(said(N_("{path}: {error}"), path=path, error=exc.message)) from None


def apply_found(path: str | Path, source: str, kind: str, found: Found, read: Callable[[Entry], bytes], *,
                as_player: str | None, recipient: str | None, strict: bool = False) -> list["apply.ApplyReport"]:
    """Apply the found messages of the game to the file, one message at a time, oldest first
    (each verified before it is written: ``apply.apply_lines``).  A message that does not fit is
    passed over and every other message is still read (no mail stalls a game): its refusal goes
    to ``found.notes`` unless the file holds its lines by the end (a re-send of a damaged mail).
    With ``strict`` (``apply FILE MAILBOX``), when no message added a line, the first refusal
    that still stands is raised, naming its message."""
    from ...engine.notation import Refused
    from . import apply

    reports = []
    refused: list[tuple[Entry, Exception]] = []
    for entry in found.messages:
        label = label_of(source, kind, entry)
        try:
            incoming = find.read_mail(read(entry))
            if not incoming.found and not incoming.damaged:
                continue
            reports.append(apply.apply_lines(path, [], as_player=as_player, recipient=recipient, incoming=incoming))
        except Refused as exc:
            exc.message = said(N_("{label}: {error}"), label=label, error=exc.message)
            exc.args = (exc.message,)
            refused.append((entry, exc))
        except MailboxError:
            raise  # the mailbox itself (changed while read, gone): nothing more can be read
        except UsageError as exc:
            refused.append((entry, UsageError(said(N_("{label}: {error}"), label=label, error=message_of(exc)))))
    if refused:
        rows = storage.read_bytes(path, what="game file").split(b"\n")[:-1]
        have = {_cut(hashlib.sha256(row).hexdigest()) for row in rows}
        gid = hashlib.sha256(rows[0]).hexdigest()[:8] if rows else ""
        standing = [(e, exc) for e, exc in refused if any(line.hash not in have for line in e.lines)
                    or find.unheld([d.of() for d in e.damaged], gid, len(rows))]
        found.lost += [message_of(exc) for _, exc in standing]
        if strict and standing and not any(r.applied or r.keys or r.handshake for r in reports):
            raise standing[0][1]
    if strict and found.lost and not any(r.applied or r.keys or r.handshake for r in reports):
        raise UsageError(found.lost[0])
    return reports
