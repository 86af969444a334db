"""What this machine remembers of each game it has seen: a rewritten history is caught (R41).

A signed game's lines prove who made them, but a shared copy can still lose lines: a force-push, a
rebase that drops a player's own signed decisions, a merge with ``-X ours``.  The file that is left
verifies (it is a shorter, or another, chain), so only memory can tell.  This machine keeps, per
game, in the data directory (``history/<game id>.json`` beside the keys, mode 0600):

* ``tip``: the number and SHA-256 of the last line it wrote or verified;
* ``mine``: the number and hash of each line made by a seat whose key is held here (or, in an
  unsigned game, by the seat this machine plays), to say how many of your own decisions are gone;
* ``theirs``: the number of the opponent's last line it saw (a dropped line before it is one the
  opponent had built on: what a cheater would drop);
* ``played``: the seats this machine has made decisions for in an unsigned game (``move``,
  ``play`` and ``bot`` record them), so that ``apply`` refuses mailed lines made in the name of the
  one seat played here (R41);
* ``seat``: the seat this machine plays in an unsigned game played by mail — the seat it had
  played (or was named by ``--as``) when it applied a mail, or else the seat left by the first
  mail's decisions.  A mailed decision of that seat is refused at ``apply`` and this machine makes
  no decision for the other human seat, as in a signed game (R41, issue 50);
* (version 2) ``path``, ``at``, ``lines`` and ``players``: the file's last path (absolute), when this
  machine last saw the game change (seconds since the epoch), its number of lines then and the
  players' names — what ``agility games`` lists when the file has moved or gone;
* (version 2) ``mailbox`` and ``address``: the mail source ``play --mail`` last read this game's mail
  from (a folder, a file or an ``imaps://`` address: never a password) and the opponent's address
  its replies go to, confirmed once; ``sent``, the last line the tool mailed (a command with nothing
  new sends nothing); ``printed``, the last line ``agility send`` printed to be mailed (what this
  machine knows the opponent may have: R42, a sealed game's audit keys not sent are said so);
  ``audit``, the line of this machine's own audit keys when its tool wrote them here.

A version-1 record is still read (the new fields empty) and is written as version 2 at its next
change.

:func:`check` compares the file with the record: when the file no longer holds the recorded tip,
:class:`Rewrite` says which line, whose, and which of your own lines are gone.  :func:`note`
records a file that continues the record (or, with ``accept``, replaces it).  ``undo`` and
``repair`` change the file on purpose and call :func:`note` with ``accept``, so they never raise
the alarm.  The record is a convenience of one machine, not a proof: deleting it only silences
the warning on that machine.
"""

from __future__ import annotations

import msgspec
from pathlib import Path
from typing import Annotated

from ..i18n import N_
from ..said import Said, said
from ..text import shell_command
from . import datadir, keys

FORMAT = "agility-history/2"
#: The versions this machine reads (a version-1 record has none of version 2's fields).
FORMATS = ("agility-history/1", FORMAT)
MAX_RECORD_BYTES = 1 << 20


class Record(msgspec.Struct):
    """One game's memory on this machine (see the module docstring)."""

    tip: tuple[int, str] = (0, "")
    tip_player: str = ""
    mine: list[tuple[int, str]] = msgspec.field(default_factory=list)
    theirs: int = 0
    played: list[str] = msgspec.field(default_factory=list)
    #: by git: the number and hash of the last line this machine saw the upstream's copy hold (after
    #: its own confirmed push, or a fetch): a remote that no longer holds it was rewritten
    upstream: tuple[int, str] = (0, "")
    path: str = ""
    at: float = 0.0
    lines: int = 0
    players: list[str] = msgspec.field(default_factory=list)
    mailbox: str = ""
    address: str = ""
    sent: int = 0
    #: the seat this machine plays in an unsigned game it plays by mail (the seat it played when it
    #: applied a mail, or the one left by the first mail's lines): the other seat's decisions come
    #: by mail only (R41, issue 50)
    seat: str = ""
    #: the last line ``agility send`` printed to mail (R42: the keys of the audit, sent or not)
    printed: int = 0
    #: the line of this machine's own audit keys (its seal secret, R42), when its tool wrote it here
    audit: int = 0


class Rewrite(msgspec.Struct, frozen=True):
    """The file no longer holds the line this machine last wrote or verified."""

    line: int  # the recorded tip's line number
    player: str  # whose line it was ("" if unknown)
    lines_now: int  # how many lines the file has now
    gone_mine: list[int]  # line numbers of your own lines that are gone
    seen_by_them: list[int]  # of those, the ones the opponent had built on

    def message(self, path: str) -> Said:
        """What every command prints on stderr (the CLI makes it terminal-safe): English where a
        program reads it, told in the language in use where a person does."""
        gone = len(self.gone_mine)
        numbers = ", ".join(map(str, self.gone_mine))
        own: Said = (said(N_("{n} of your own decisions is gone (line {lines})"), n=gone, lines=numbers) if gone == 1
                     else said(N_("{n} of your own decisions are gone (lines {lines})"), n=gone, lines=numbers) if gone
                     else said(N_("none of your own decisions is gone")))
        built = ", ".join(map(str, self.seen_by_them))
        seen: Said | str = (
            "" if not self.seen_by_them else
            said(N_("; the opponent had already built on line {lines} — dropping lines the opponent has seen is what a "
                    "cheater would do"), lines=built) if len(self.seen_by_them) == 1 else
            said(N_("; the opponent had already built on lines {lines} — dropping lines the opponent has seen is what "
                    "a cheater would do"), lines=built))
        template = (N_("the history of {path} was rewritten: line {line} ({player}'s), which this machine wrote or "
                       "verified, is no longer in the file (it has {now} lines now; a force-push, a rebase or a merge "
                       "that kept one side drops lines); {own}{seen}.  Restore the longer history — by git, "
                       "`{command}` finds the lines in the reflog and puts them back as a new commit on top of the "
                       "remote; else from a backup — or accept this one with --accept-rewrite") if self.player else
                    N_("the history of {path} was rewritten: line {line}, which this machine wrote or verified, is no "
                       "longer in the file (it has {now} lines now; a force-push, a rebase or a merge that kept one side "
                       "drops lines); {own}{seen}.  Restore the longer history — by git, `{command}` finds the lines in "
                       "the reflog and puts them back as a new commit on top of the remote; else from a backup — or "
                       "accept this one with --accept-rewrite"))
        return said(template, path=path, line=self.line, player=self.player, now=self.lines_now, own=own, seen=seen,
                    command=shell_command(['agility', 'play', path, '--git', '--restore']))


def _path(game_id: str) -> Path:
    return keys.home() / "history" / f"{game_id}.json"


_Count = Annotated[int, msgspec.Meta(ge=0, lt=1 << 31)]
_Hash = Annotated[str, msgspec.Meta(max_length=64)]
_Name = Annotated[str, msgspec.Meta(max_length=4096)]
_Time = Annotated[float, msgspec.Meta(ge=0, lt=1e11)]


class _Doc(msgspec.Struct):
    """A record as it is stored, read by a typed decoder with bounds: a record of another shape
    is damaged, never silently empty (issue 50: rewrite detection would turn off unseen)."""

    format: str
    tip: tuple[_Count, _Hash] = (0, "")
    tip_player: _Name = ""
    mine: Annotated[list[tuple[_Count, _Hash]], msgspec.Meta(max_length=1 << 20)] = msgspec.field(default_factory=list)
    theirs: _Count = 0
    played: Annotated[list[_Name], msgspec.Meta(max_length=16)] = msgspec.field(default_factory=list)
    upstream: tuple[_Count, _Hash] = (0, "")
    path: _Name = ""
    at: _Time = 0.0
    lines: _Count = 0
    players: Annotated[list[_Name], msgspec.Meta(max_length=2)] = msgspec.field(default_factory=list)
    mailbox: _Name = ""
    address: _Name = ""
    sent: _Count = 0
    seat: _Name = ""
    printed: _Count = 0
    audit: _Count = 0


_DECODER = msgspec.json.Decoder(_Doc)


def load(game_id: str) -> Record:
    """The record of ``game_id`` on this machine; an empty one when there is none.  A record that
    is not a regular file (a FIFO: it is never waited on), or whose content is not a record (cut
    short, another format, a field of the wrong type or out of bounds), is refused
    (``keys.DamagedRecord``, exit 3, naming the file: rewrite detection never turns off unseen);
    one in a folder, or itself, that another user owns or may write to (``datadir``, exit 2)."""
    if not game_id:
        return Record()
    path = _path(game_id)
    datadir.folder("history", create=False)  # this user's alone, or nothing in it is read (exit 2)
    moved = shell_command(["mv", str(path), f"{path}.moved"])
    fix = (f"move it away (`{moved}`): this machine then remembers the game from the next command on, and "
           "forgets which of its lines it wrote")
    try:
        raw = datadir.read_record(path, MAX_RECORD_BYTES, secret=False)
    except datadir.RecordError as exc:  # a FIFO, a device, a link: never waited on (exit 3)
        raise keys.damaged_record("history record", exc, fix) from None
    except OSError as exc:
        raise keys.damaged_record("history record", datadir.RecordError(path, f"cannot be read ({exc.strerror})"),
                                  fix) from None
    if raw is None:
        return Record()
    try:
        doc = _DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        why = f"is not a history record ({str(exc)[:200]})"
        raise keys.damaged_record("history record", datadir.RecordError(path, why), fix) from None
    except (msgspec.DecodeError, RecursionError):
        why = "is damaged (not whole JSON: cut short, or edited)"
        raise keys.damaged_record("history record", datadir.RecordError(path, why), fix) from None
    if doc.format not in FORMATS:
        why = f"is of a format this version does not read ({str(doc.format)[:40]!r})"
        raise keys.damaged_record("history record", datadir.RecordError(path, why), fix) from None
    return Record(doc.tip, doc.tip_player, list(doc.mine), doc.theirs, list(doc.played), doc.upstream, doc.path,
                  doc.at, doc.lines, list(doc.players), doc.mailbox, doc.address, doc.sent, doc.seat, doc.printed, doc.audit)


def _save(game_id: str, rec: Record) -> None:
    doc = {"format": FORMAT, "tip": list(rec.tip), "tip_player": rec.tip_player, "mine": [list(p) for p in rec.mine], "theirs": rec.theirs,
           "played": rec.played, "upstream": list(rec.upstream), "path": rec.path, "at": rec.at, "lines": rec.lines,
           "players": rec.players, "mailbox": rec.mailbox, "address": rec.address,
           "sent": rec.sent, "seat": rec.seat, "printed": rec.printed, "audit": rec.audit}
    try:
        keys._write_private(_path(game_id), msgspec.json.encode(doc) + b"\n")
    except OSError:
        pass  # a convenience of this machine: an unwritable data directory only loses the warning


def check(game_id: str, hashes: list[str]) -> Rewrite | None:
    """Whether the file (its line hashes, line 1 first) dropped what the record holds."""
    return _compare(load(game_id), hashes)


def _compare(rec: Record, hashes: list[str]) -> Rewrite | None:
    n, h = rec.tip
    if not n or (n <= len(hashes) and hashes[n - 1] == h):
        return None
    gone = [k for k, kh in rec.mine if not (k <= len(hashes) and hashes[k - 1] == kh)]
    return Rewrite(n, rec.tip_player, len(hashes), gone, [k for k in gone if k < rec.theirs])


def note(game_id: str, hashes: list[str], players: list[str], mine: set[str], *, accept: bool = False,
         path: str = "", names: list[str] | None = None) -> None:
    """Record the file as seen here: its tip, the lines of the seats in ``mine``, the opponent's last
    line, and (version 2) the file's path, its players' ``names`` and when it last changed.

    Without ``accept`` a file that does not continue the record is left unrecorded (:func:`check`
    keeps reporting it).  Writes only when something changed, so reading commands stay cheap.
    """
    if not game_id or not hashes:
        return
    rec = load(game_id)
    if not accept and _compare(rec, hashes) is not None:
        return
    tip = (len(hashes), hashes[-1])
    own = [(k + 1, hashes[k]) for k, p in enumerate(players) if p in mine]
    theirs = max((k + 1 for k, p in enumerate(players) if p and p not in mine), default=0)
    new = msgspec.structs.replace(rec, tip=tip, tip_player=players[-1], mine=own, theirs=theirs)
    new = _seen(new, path, len(hashes), names)
    if new != rec:
        _save(game_id, new)


def _seen(rec: Record, path: str, lines: int, names: list[str] | None) -> Record:
    """``rec`` with the file's absolute ``path``, its ``lines`` and players, and the time it changed."""
    import os
    import time

    where = os.path.abspath(path) if path else rec.path
    at = time.time() if lines != rec.lines or not rec.at else rec.at
    return msgspec.structs.replace(rec, path=where, lines=lines, at=at, players=list(names or rec.players)[:2])


def seen(game_id: str, path: str, lines: int, names: list[str]) -> None:
    """Record where an unsigned game's file is and when it last changed (``agility games``)."""
    if not game_id:
        return
    rec = load(game_id)
    new = _seen(rec, path, lines, names)
    if new != rec:
        _save(game_id, new)


def remember_mail(game_id: str, *, mailbox: str | None = None, address: str | None = None,
                  sent: int | None = None, printed: int | None = None) -> None:
    """Record the mail source this game's mail was read from, the opponent's address, the last
    line mailed, or the last line ``send`` printed to be mailed."""
    rec = load(game_id)
    new = msgspec.structs.replace(rec, mailbox=rec.mailbox if mailbox is None else mailbox,
                                  address=rec.address if address is None else address,
                                  sent=rec.sent if sent is None else sent,
                                  printed=rec.printed if printed is None else max(rec.printed, printed))
    if new != rec:
        _save(game_id, new)


def records() -> dict[str, Record]:
    """Every game's record on this machine, by game id (``agility games``); records that cannot be
    read are left out (each command on its game says why)."""
    folder = datadir.folder("history", create=False)
    out: dict[str, Record] = {}
    try:
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    except OSError:
        return out
    for name in names[:100_000]:
        gid = name[:-5]
        if len(gid) == 64 and all(c in "0123456789abcdef" for c in gid):
            try:
                out[gid] = load(gid)
            except (keys.KeyStoreError, datadir.DataDirError):
                continue
    return out


def note_own_audit(before: bytes, payload: bytes) -> None:
    """R42: record the line of this machine's own audit keys (a line of ``payload``, appended
    after ``before``, that publishes the seal secret of a seat whose key is held here), so that
    until they are sent this machine says "audit pending: your keys are not sent".  Cheap when
    ``payload`` holds no audit (every other append)."""
    if b'"audit"' not in payload or not before:
        return
    first = before.count(b"\n") + 1
    try:
        game_id = keys.game_id(before.split(b"\n", 1)[0])
        held = set(keys.held_seats(before))
        for k, raw in enumerate(payload.split(b"\n")):
            if b'"audit"' not in raw:
                continue
            line = msgspec.json.decode(raw)
            seal = line.get("seal") if isinstance(line, dict) else None
            if isinstance(seal, dict) and seal.get("audit") and line.get("player") in held:
                rec = load(game_id)
                if rec.audit != first + k:
                    rec.audit = first + k
                    _save(game_id, rec)
    except (msgspec.DecodeError, keys.KeyStoreError, datadir.DataDirError, ValueError, OSError):
        return  # this machine's convenience: the line is written either way


def note_upstream(game_id: str, hashes: list[str]) -> None:
    """Record that the upstream's copy of the game holds these lines (by git: after a confirmed push
    or a fetch): a later copy there that drops any of them was rewritten."""
    if not game_id or not hashes:
        return
    rec = load(game_id)
    if rec.upstream != (len(hashes), hashes[-1]):
        rec.upstream = (len(hashes), hashes[-1])
        _save(game_id, rec)


def played(game_id: str, seat: str) -> None:
    """Record that this machine made a decision for ``seat`` (an unsigned game)."""
    rec = load(game_id)
    if seat not in rec.played:
        rec.played.append(seat)
        _save(game_id, rec)


def seat_played(game_id: str) -> str | None:
    """The seat this machine plays in an unsigned game: the one it plays by mail (:func:`learn_seat`),
    else the one seat it has made decisions for, if it made decisions for exactly one."""
    rec = load(game_id)
    if rec.seat:
        return rec.seat
    return rec.played[0] if len(rec.played) == 1 else None


def mail_seat(game_id: str, players: list[str]) -> str | None:
    """The seat of ``players`` this machine plays by mail in an unsigned game (:func:`learn_seat`)."""
    seat = load(game_id).seat if game_id else ""
    return seat if seat in players and not seat.startswith("bot:") else None


def learn_seat(game_id: str, seat: str) -> None:
    """Record that this machine plays ``seat`` of an unsigned game by mail (R41, issue 50): from
    now on a mailed decision of ``seat`` is refused at ``apply``, and this machine decides for no
    other human seat."""
    rec = load(game_id)
    if rec.seat != seat:
        rec.seat = seat
        _save(game_id, rec)
