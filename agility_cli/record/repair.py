"""Taking lines off the end of a game file, under its lock: ``repair`` of an interrupted write and
``undo`` of the viewer's last decisions of this turn (while nothing hidden came out since)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import gamefile
from ..engine import rules
from ..engine.rules import status_text
from .gamefile import Game, GameFileError
from ..engine.moves import Move, fields_text, kind_of
from ..engine.state import State
from ..i18n import N_, _, _name
from ..said import said, said_in, tell
from ..text import safe
from ..engine.notation import Refused


# ----------------------------------------------------------------------------------------------
# repair


@dataclass
class RepairReport:
    action: str  # "none", "removed" (an incomplete last line), "newline" (a missing final newline)
    line: int | None = None
    raw: bytes = b""
    backup: Path | None = None
    game: Game | None = None

    def text(self, path: str) -> str:
        if self.action == "none":
            return _("{file}: nothing to repair — every line verifies and the file ends with a newline.").format(
                file=safe(path))
        assert self.game is not None
        status = tell(status_text(self.game.state))
        if self.action == "newline":
            return _("{file}: line {line} was complete but had no newline at the end; added it (backup: {backup}).  "
                     "Every line verifies; {status}.").format(file=safe(path), line=self.line,
                                                               backup=safe(str(self.backup)), status=status)
        shown = safe(self.raw.decode("utf-8", "replace"), 60)
        return _("{file}: removed the incomplete line {line} ({n} bytes: {shown}); backup: {backup}.  The file now ends "
                 "at line {last}; {status}.  The decision that line held, if any, must be made again.").format(
            file=safe(path), line=self.line, n=len(self.raw), shown=shown, backup=safe(str(self.backup)),
            last=self.game.lines, status=status)


def _only_repairs(exc: GameFileError, what: str) -> GameFileError:
    hint = (exc.hint + ".  ") if exc.hint else ""
    return GameFileError(
        exc.path, exc.line, exc.message,
        f"{hint}`agility repair` {what}, so it left the file as it is",
    )


def _write_backup(path: Path, data: bytes, force: bool) -> Path:
    """``FILE.bak`` holding ``data``, written whole through a temporary file and created only where
    the name is free; with ``force`` it replaces what is there — a symlink (which an opponent could
    commit in git play) is replaced itself, never followed to overwrite its target."""
    backup = path.with_name(path.name + ".bak")
    try:
        gamefile.write_backup(backup, data, replace=force)
    except FileExistsError:
        raise Refused(said_in(_name("verb", "the backup {backup} already exists; move it away or pass --force to "
                                            "replace it"), backup=safe(str(backup))), [], None,
                      "repair/backup_exists") from None
    return backup


def repair(path: str | Path, *, force: bool = False) -> RepairReport:
    """Remove an incomplete last line (keeping ``FILE.bak``), or add a missing final newline.

    Raises :class:`GameFileError` (exit 3) for any other damage, touching nothing.
    """
    p = Path(path)
    name = str(path)
    report = RepairReport("none")
    gamefile.read_bytes(p)  # a clear message for a missing file

    def change(data: bytes) -> tuple[int, bytes] | None:
        if not data:
            raise GameFileError(
                name, 1, "the file is empty: there is no game to repair",
                "restore the file from git or a backup, or create a game with `agility new`",
            )
        if data.endswith(b"\n"):
            try:
                gamefile.load_bytes(data, name)
            except GameFileError as exc:
                raise _only_repairs(exc, "only removes an incomplete last line") from None
            return None
        cut = data.rfind(b"\n") + 1
        lineno = data.count(b"\n") + 1
        tail = data[cut:]
        try:
            gamefile.load_bytes(data + b"\n", name)
            complete = True
        except GameFileError:
            complete = False
        if not complete:
            if cut == 0:
                raise GameFileError(
                    name, 1, "line 1, the game header, is incomplete: there is nothing before it to keep",
                    "restore the file from git or a backup, or delete it and create the game again with `agility new`",
                )
            try:
                gamefile.load_bytes(data[:cut], name)
            except GameFileError as exc:
                raise _only_repairs(exc, f"only removes an incomplete last line (line {lineno})") from None
        report.backup = _write_backup(p, data, force)
        report.line = lineno
        report.raw = tail
        if complete:
            report.action = "newline"
            return len(data), b"\n"
        report.action = "removed"
        return cut, b""

    game = gamefile.update(p, change)
    if report.action != "none":
        report.game = game
    return report


def _refuse(message: str, code: str) -> Refused:
    return Refused(message, [], None, code)  # the CLI's boundary adds "the game file is unchanged"


# ----------------------------------------------------------------------------------------------
# undo


@dataclass
class _Entry:
    line: int
    offset: int  # byte offset of the line's start
    raw: bytes
    move: Move
    before: State


@dataclass
class UndoReport:
    removed: list[tuple[int, bytes, Move]]  # (line, raw, move)
    game: Game
    states: list[tuple[State, State]] = field(default_factory=list)  # (before, after) of each removed line


def _revealed(before: State, after: State) -> str:
    if after.rng != before.rng:
        return said(N_("the training deck was reshuffled"))
    if len(after.dog_deck) < len(before.dog_deck):
        return said_in(_name("verb", "a new dog was turned up"))
    if len(after.deck) < len(before.deck):
        return said_in(_name("verb", "a card was turned up from the deck"))
    return said(N_("hidden information came out"))


def undo(path: str | Path, *, actor: str, all_turn: bool = False) -> UndoReport:
    """Take back ``actor``'s last decision (and the forced lines after it) in this turn.

    ``actor`` is the viewer (the seat held here, R39): the decision now must be theirs, so that
    undo never removes a line made by the other player (in a signed game, signed with their key).
    Refuses (:class:`Refused`, exit 1) when that would remove the opponent's lines or lines of an
    earlier turn, or when hidden or random information came out since (``State.reveals``).
    """
    name = str(path)
    removed: list[tuple[int, bytes, Move]] = []

    def change(data: bytes) -> tuple[int, bytes]:
        removed.clear()
        entries: list[_Entry] = []
        offset = 0
        state: State | None = None
        for item in gamefile.verify(data, name, keep_before=True):
            if isinstance(item, gamefile.Start) and item.sealed is not None:
                raise _refuse(said(N_(
                    "a sealed game's lines cannot be taken back: each line released keys of the sealed deck, and a "
                    "key once read cannot be forgotten (R42); play on from here")), "undo/sealed")
            if isinstance(item, gamefile.Start):
                offset = 0  # the first decision follows the header (and a handshake's join and reveal, R40)
                for _line in range(item.line):
                    offset = data.index(b"\n", offset) + 1
                continue
            assert item.before is not None and item.move is not None
            if entries and entries[-1].before.turn != item.before.turn:
                entries.clear()  # only the current turn's lines can be taken back
            entries.append(_Entry(item.line, offset, item.raw, item.move, item.before))
            offset += len(item.raw) + 1
            state = item.after
        if state is None:
            raise _refuse(said(N_("there is no decision to take back yet")), "undo/nothing")
        if state.winner is not None:
            raise _refuse(said(N_("the game is over ({name} won): nothing can be taken back"),
                               name=state.players[state.winner].name), "undo/over")
        assert state.to_act is not None
        acting = state.players[state.to_act].name
        if acting != actor:
            raise _refuse(said(N_(
                "it is {acting}'s decision now, not {actor}'s: undo only takes back your own decisions of your "
                "current turn, while the decision is still yours (never a line of the other player)"),
                acting=acting, actor=actor), "undo/not_acting")
        mine = len(entries)
        while mine > 0 and entries[mine - 1].move.player == actor and entries[mine - 1].before.turn == state.turn:
            mine -= 1
        own = entries[mine:]
        if not own:
            last = entries[-1] if entries else None
            if last is not None and last.move.player != actor:
                why = said(N_("the last line (line {line}) is {name}'s: undo never removes the opponent's decisions"),
                           line=last.line, name=last.move.player)
            else:
                why = said(N_("{name} has made no decision yet in this turn (turn {turn}): earlier turns are final"),
                           name=actor, turn=state.turn)
            raise _refuse(said(N_("nothing to undo: {why}"), why=why), "undo/none")
        choices = [i for i, e in enumerate(own) if len(rules.legal_moves(e.before)) > 1]
        if not choices:
            raise _refuse(said(N_("nothing to undo: {name}'s lines in this turn so far were forced (the only legal "
                                  "option)"), name=actor), "undo/forced")
        start = choices[0] if all_turn else choices[-1]
        take = own[start:]
        if take[0].before.reveals != state.reveals:
            for i, e in enumerate(take):
                after = take[i + 1].before if i + 1 < len(take) else state
                if after.reveals != e.before.reveals:
                    what = _revealed(e.before, after)
                    later = [c for c in choices if own[c].line > e.line]
                    tip = said(N_("; plain `agility undo` (without --all-turn) takes back only the decisions after it")) \
                        if all_turn and later else ""
                    made = f"{kind_of(type(e.move))} {fields_text(e.move)}".rstrip()
                    raise _refuse(said(N_("{what} at line {line} ({name}: {made}): undoing past it would let {actor} "
                                          "choose again knowing what was revealed{tip}"), what=what, line=e.line,
                                       name=e.move.player, made=made, actor=actor, tip=tip), "undo/revealed")
        removed.extend((e.line, e.raw, e.move) for e in take)
        states.clear()
        states.extend((e.before, take[i + 1].before if i + 1 < len(take) else state) for i, e in enumerate(take))
        return take[0].offset, b""

    states: list[tuple[State, State]] = []
    game = gamefile.update(path, change)
    assert game is not None  # undo's change always cuts, or refuses
    return UndoReport(list(removed), game, list(states))
