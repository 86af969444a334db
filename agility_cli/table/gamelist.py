"""``agility games``: every game this machine takes part in, and which of them wait for you.

The games come from three places: the key store (a game whose signing key is held here), the
history records (every game a command has shown or changed here, with the file's last path and
the time it last changed: ``record.history``, version 2) and the game files found under the
folders given (the current one by default).  Each is read without writing anything (no reveal,
no keys written: a listing changes no game) and said as one row: the file, the opponent, whose
decision it is or what the game waits for, the last activity and, once it is over, the result.

What awaits you: your decision; keys this machine's tool owes in a sealed game (R44: any command
on the game writes them, ``play --mail`` or ``--git`` sends them); your part of the seed
handshake (R40); a mail of the game in its remembered mailbox that is not applied yet.  A file
that has moved or gone is said so; a damaged one says why, in a row, never as an error.  Games
awaiting you come first, then the most recently active.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ..i18n import _, ngettext
from ..said import message_of, tell
from ..record import gamefile, history, keys
from ..record.gamefile import Game
from . import session

#: The folders under a folder given that are searched (hidden folders and virtualenvs are not).
MAX_DEPTH = 3
#: At most this many files are looked at under the folders given (a home folder is not a game folder).
MAX_FILES = 5000
#: The suffixes of game files looked at under the folders.
SUFFIXES = (".jsonl", ".agility")

#: What a row's ``status`` may be (INTERFACE: ``agility games --json``).
AWAITING_YOU = ("your_decision", "your_keys", "your_join", "mail", "push")
STATUSES = (*AWAITING_YOU, "their_decision", "their_keys", "their_join", "their_reveal", "finished", "missing",
            "damaged", "unknown")


@dataclass
class Row:
    """One game as ``agility games`` lists it."""

    game_id: str
    file: str  # the path to show ("" when unknown)
    players: list[str]
    you: list[str]  # the seats of this game played here
    status: str  # one of STATUSES
    words: str  # the status for a person
    last_activity: float  # seconds since the epoch (0 when unknown)
    winner: str | None = None
    mailbox: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def awaiting_you(self) -> bool:
        return self.status in AWAITING_YOU

    @property
    def opponent(self) -> str:
        others = [p for p in self.players if p not in self.you]
        return others[0] if len(others) == 1 else " and ".join(self.players)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id[:8], "game_id": self.game_id, "file": self.file or None,
            "players": self.players, "you": self.you, "opponent": self.opponent if self.players else None,
            "status": self.status, "awaiting_you": self.awaiting_you, "says": self.words,
            "last_activity": _iso(self.last_activity), "winner": self.winner,
            "mailbox": self.mailbox or None,
        }


def _iso(at: float) -> str | None:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)) if at else None


def _header_id(path: Path) -> tuple[str, bytes] | None:
    """The game id of a file that starts like a game file (its first line a header), read without
    verifying; None for anything else (a FIFO is never opened: regular files only)."""
    try:
        if not path.is_file():
            return None
        with open(path, "rb") as fh:
            first = fh.readline(gamefile.MAX_LINE_BYTES + 1)
    except OSError:
        return None
    if not first.startswith(b'{"kind":"game"'):
        return None
    return keys.game_id(first.rstrip(b"\n")), first


def _walk(folder: Path) -> Iterator[Path]:
    """Game-file candidates under ``folder`` (at most :data:`MAX_DEPTH` folders down, hidden ones
    and virtualenvs skipped), in a stable order."""
    stack = [(folder, 0)]
    while stack:
        here, depth = stack.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name in ("node_modules", "__pycache__", "venv"):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_DEPTH:
                        stack.append((Path(entry.path), depth + 1))
                elif entry.name.endswith(SUFFIXES):
                    yield Path(entry.path)
            except OSError:
                continue


def found_files(folders: list[Path]) -> dict[str, list[Path]]:
    """The game files under ``folders``, by game id."""
    out: dict[str, list[Path]] = {}
    looked = 0
    for folder in folders:
        for path in _walk(folder):
            looked += 1
            if looked > MAX_FILES:
                return out
            found = _header_id(path)
            if found is not None:
                out.setdefault(found[0], []).append(path)
    return out


def _same(a: str, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


#: What looks for the other side's lines not taken in yet (``cli.look.Look``): called with the
#: game's remembered mailbox, its line hashes, its file and whether it waits for the other side;
#: gives None or what waits (``lines``, ``how``: ``mail`` or ``push``, ``where``).
Check = Callable[[str, list[str], str, bool], Any]


def collect(folders: list[Path], mail_check: Check | None = None) -> tuple[list[Row], int]:
    """The rows of ``agility games``, sorted (awaiting you first, then the latest), and how many
    game files found under ``folders`` are of games this machine has no part in."""
    records = history.records()
    held = set(keys.stored_games())
    found = found_files(folders)
    rows: list[Row] = []
    others = 0
    for gid in sorted(set(records) | held | set(found)):
        rec = records.get(gid, history.Record())
        paths = found.get(gid, [])
        recorded = rec.path if rec.path and recorded_is_game(rec.path, gid) else ""
        path = _shown(Path(recorded)) if recorded else (_shown(paths[0]) if paths else "")
        if not path:
            if gid not in held and not rec.path:
                continue
            rows.append(_missing(gid, rec, held))
            continue
        row = _row(gid, path, rec, gid in held or bool(rec.path), mail_check)
        if row is None:
            others += 1
            continue
        if rec.path and not recorded and path:
            row.notes.append(_("moved: last seen at {path}").format(path=rec.path))
        rows.append(row)
    rows.sort(key=lambda r: (not r.awaiting_you, r.status == "finished", -r.last_activity, r.file))
    return rows, others


def recorded_is_game(path: str, gid: str) -> bool:
    found = _header_id(Path(path))
    return found is not None and found[0] == gid


def _shown(path: Path) -> str:
    """A found file's path as the player would type it: relative to the current folder when under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def _missing(gid: str, rec: history.Record, held: set[str]) -> Row:
    where = _("last seen at {path}").format(path=rec.path) if rec.path else _("its file was never seen on this machine")
    words = (_("the file is missing (moved or deleted): {where}; `agility games FOLDER` finds a moved file").format(where=where)
             if rec.path else _("keys held here, but {where}: `agility games FOLDER` looks in a folder").format(where=where))
    return Row(gid, rec.path, rec.players, [], "missing", words, rec.at)


def _row(gid: str, path: str, rec: history.Record, known: bool, mail_check: Check | None) -> Row | None:
    """The row of the game file at ``path``; None when this machine has no part in its game."""
    try:
        stat = os.stat(path)
    except OSError:
        stat = None
    at = rec.at or (stat.st_mtime if stat is not None else 0.0)
    data = b""
    try:
        data = gamefile.read_bytes(path)
        game = gamefile.load_bytes(data, path)
    except gamefile.HandshakePending as exc:
        shake = _handshake(gid, path, exc.pending, at, known)
        if shake is not None and mail_check is not None and shake.status.startswith("their_"):
            shake.mailbox = rec.mailbox
            _waiting(shake, mail_check(rec.mailbox, [gamefile.line_hash(r) for r in data.split(b"\n")[:-1]], path,
                                       True))
        return shake
    except Exception as exc:  # one game that cannot be read is a row that says why, never the listing's end
        message = getattr(exc, "message", None) or message_of(exc) or type(exc).__name__
        return Row(gid, path, rec.players, [], "damaged", _("cannot be read: {why}").format(why=tell(message)), at)
    names = list(game.header.players)
    humans = [n for n in names if not session.is_bot(n)]
    if game.trust.signed:
        you = session.held_seats(game)
    else:
        you = [rec.seat] if rec.seat in names else list(rec.played) or (humans if len(humans) == 1 else [])
    if not you and not known:
        return None
    row = Row(gid, path, names, you, "unknown", "", at, mailbox=rec.mailbox)
    _status(row, game)
    if mail_check is not None and row.status not in ("finished", "your_decision") and you:
        _waiting(row, mail_check(rec.mailbox, game.hashes, path, row.status.startswith("their_")))
    elif mail_check is not None and row.status == "finished" and you and _audit_waits_for_them(game, you):
        # R42: a finished sealed game whose audit waits for the other's seal secret: their mail (or
        # push) that carries it is looked for, so `play` with no FILE takes it in and says "audited"
        _waiting(row, mail_check(rec.mailbox, game.hashes, path, True))
    return row


def _audit_waits_for_them(game: Game, you: list[str]) -> bool:
    """R42: the game is over and its audit waits for a seal secret of a seat not played here."""
    if game.sealed is None:
        return False
    names = list(game.header.players)
    return any(names[seat] not in you for seat in game.sealed.audit_pending(game.written_state))


def _waiting(row: Row, waiting: Any) -> None:
    """The row of a game whose other side's lines wait: in a mailbox (``mail``), pushed (``push``)."""
    if not waiting:
        return
    if waiting.how == "mail":
        row.status = "mail"
        row.mailbox = row.mailbox or waiting.where
        row.words = ngettext("a mail of this game is not applied yet ({n} new line in {where})",
                             "a mail of this game is not applied yet ({n} new lines in {where})",
                             waiting.lines).format(n=waiting.lines, where=waiting.where)
    else:
        row.status = "push"
        row.words = ngettext("a push of this game is not pulled yet ({n} new line on {where}): play it with --git",
                             "a push of this game is not pulled yet ({n} new lines on {where}): play it with --git",
                             waiting.lines).format(n=waiting.lines, where=waiting.where)


def _status(row: Row, game: Game) -> None:
    state = game.written_state
    names = row.players
    verdict = session.verdict_of(game)  # R42: a forfeit (an abort's too) ends a game under way
    if state.winner is not None or (verdict is not None and verdict[0] is not None):
        row.status, row.winner = "finished", names[state.winner] if state.winner is not None else None
        if verdict is not None and verdict[0] is not None:
            row.winner = verdict[0]
        row.words = _("finished: {name} won").format(name=row.winner) + (
            _(" ({text})").format(text=verdict[1]) if verdict is not None else "")
        return
    if game.sealed is not None:
        seat = game.sealed.awaiting(state)
        if seat is not None:
            who = names[seat]
            if who in row.you:
                row.status = "your_keys"
                row.words = _("your tool owes keys of the sealed deck: any agility command on the game writes them; "
                              "send them")
            else:
                row.status, row.words = "their_keys", _("waiting for {name}'s keys of the sealed deck").format(name=who)
            return
    who = names[state.to_act] if state.to_act is not None else names[state.active]
    if who in row.you:
        row.status, row.words = "your_decision", _("your decision ({name} to play)").format(name=who)
    elif row.you:
        row.status, row.words = "their_decision", _("waiting for {name}'s decision").format(name=who)
    else:
        row.status, row.words = "unknown", _("{name} to play (no seat of it is known to be yours here)").format(name=who)


def _handshake(gid: str, path: str, pending: Any, at: float, known: bool) -> Row | None:
    names = list(pending.header.players)
    creator, joiner = pending.creator, pending.joiner
    creator_here = keys.signing_key(gid, creator) is not None
    if pending.awaiting == "join":
        if creator_here:
            return Row(gid, path, names, [creator], "their_join", _("waiting for {name} to join (the seed handshake)").format(name=joiner), at)
        return Row(gid, path, names, [joiner], "your_join",
                   _("your part of the seed handshake: {command}, then send what it prints").format(
                       command=f"`agility join {path}`"), at)
    if creator_here:
        return Row(gid, path, names, [creator], "your_keys",
                   _("your reveal is due: any agility command on the game writes it; send it"), at)
    if not known:
        return None
    return Row(gid, path, names, [joiner], "their_reveal", _("waiting for {name}'s reveal (the seed handshake)").format(name=creator), at)


def awaiting(rows: list[Row]) -> list[Row]:
    """The rows that wait for you, with a file to play (``agility play`` with no FILE)."""
    return [r for r in rows if r.awaiting_you and r.file and r.status != "missing"]
