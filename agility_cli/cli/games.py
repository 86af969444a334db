"""``agility games``: the games this machine takes part in, those awaiting you first; and the game
``agility play`` goes to when no FILE is given."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import typer

from ..engine.notation import UsageError
from ..record.gamefile import Game
from ..record.mail import box
from ..table import gamelist
from ..table.screen import shell
from ..text import safe
from .application import app
from .common import boundary, err, fit, print_json


def mail_check(extra: Optional[str] = None) -> Callable[[gamelist.Row, Game], int]:
    """For a row: how many lines of its game's mail, in its remembered mailbox (or ``extra``, or
    ``AGILITY_MAILBOX``), the file does not hold yet.  Local mailboxes only (an IMAP one is read
    by ``play``); each mailbox is scanned once (its index makes that cheap); one that cannot be
    read counts nothing here (``play`` says why)."""
    scans: dict[str, list[box.Entry]] = {}

    def check(row: gamelist.Row, game: Game) -> int:
        total = 0
        sources = {s for s in (row.mailbox, extra, os.environ.get("AGILITY_MAILBOX")) if s}
        for source in sources:
            if box.kind_of(source) not in ("maildir", "mbox"):
                continue
            if source not in scans:
                try:
                    scans[source] = box.scan(source)[1]
                except box.MailboxError:
                    scans[source] = []
            try:
                found = box.of_game(scans[source], game.hashes[0][:8], game.hashes, lambda e: e.key)
            except box.MailboxError:
                continue
            total += box.unapplied_lines(found, game.hashes)
            if total and not row.mailbox:
                row.mailbox = source
        return total

    return check


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "-"


def _versus(row: gamelist.Row) -> str:
    """Who the game is against, in words true to what this machine knows: "vs bob" when it plays
    alice; "alice vs bob" when no seat is known to be its own; "both seats played here" (one screen)."""
    if len(row.players) != 2:
        return ""
    if not row.you:
        return f"{safe(row.players[0])} vs {safe(row.players[1])}"
    if all(p in row.you for p in row.players):
        return "both seats played here"
    return f"vs {safe(row.opponent)}"


def _line(row: gamelist.Row) -> str:
    """One game, wrapped at 80 columns on a terminal (whole for a pipe, for grep)."""
    where = safe(row.file or "(no file)")
    versus = _versus(row)
    line = f"  {where}  {versus}  {safe(row.words)}  ({_when(row.last_activity)})"
    return fit(line).replace("\n  ", "\n      ") if sys.stdout.isatty() else line


@app.command()
def games(
    folders: Optional[list[Path]] = typer.Argument(None, metavar="[FOLDER...]", help="Also look for game files here (and up to 3 folders down); default: the current folder."),
    as_json: bool = typer.Option(False, "--json", help='JSON: {"games": [{file, opponent, status, awaiting_you, says, last_activity, winner, ...}]}.'),
) -> None:
    """List the games this machine takes part in, those awaiting you first.

    From this machine's key store and the history it keeps of each game (the file's last path,
    when it last changed), and the game files under the folders given (the current one by
    default).  Each game: its file, the opponent, whose decision it is or what it waits for (the
    other's keys, a mail of the game in its mailbox not applied yet), the last activity, and the
    result once it is over.  A file that has moved or gone is said so.  Nothing is written.

    \b
    Examples:
      agility games
      agility games ~/games --json
    """
    with boundary():
        for folder in folders or []:
            if not folder.is_dir():
                raise UsageError(f"{safe(str(folder))} is not a folder: give the folders to look for game files in")
        rows, others = gamelist.collect(folders or [Path.cwd()], mail_check())
        if as_json:
            print_json({"games": [r.as_json() for r in rows]})
            return
        if not rows:
            err("agility: no game on this machine yet: start one with "
                f"`{shell('agility', 'new', 'game.jsonl', '--players', 'YOU', 'THEM')}`")
            return
        mine = [r for r in rows if r.awaiting_you]
        if mine:
            print(f"awaiting you ({len(mine)}):")
            print("\n".join(_line(r) + "".join(f"\n      {safe(n)}" for n in r.notes) for r in mine))
        rest = [r for r in rows if not r.awaiting_you]
        if rest:
            print(f"{'other games' if mine else 'your games'} ({len(rest)}):")
            print("\n".join(_line(r) + "".join(f"\n      {safe(n)}" for n in r.notes) for r in rest))
        if others:
            err(f"agility: {others} game file{'s' if others > 1 else ''} found here {'are' if others > 1 else 'is'} "
                "of games this machine has no part in")


def pick_game(source: Optional[str]) -> Path:
    """``agility play`` with no FILE: the one game that awaits you; asked when several do; a clear
    message (exit 0) when none does."""
    rows, _ = gamelist.collect([Path.cwd()], mail_check(source))
    ready = gamelist.awaiting(rows)
    if not ready:
        what = (f"none of your {len(rows)} game{'s' if len(rows) > 1 else ''} awaits you "
                f"(`{shell('agility', 'games')}` says what each waits for)" if rows else
                f"no game on this machine yet: start one with "
                f"`{shell('agility', 'new', 'game.jsonl', '--players', 'YOU', 'THEM')}`")
        err(f"agility: {what}")
        raise typer.Exit(0)
    if len(ready) == 1:
        err(f"agility: {safe(ready[0].file)}: {safe(ready[0].words)}")
        return Path(ready[0].file)
    err(f"agility: {len(ready)} games await you:")
    for k, row in enumerate(ready, 1):
        err(f"  {k}. {_line(row).strip()}")
    err(f"agility: which one? [1-{len(ready)}] ")
    answer = sys.stdin.readline().strip()
    if not answer.isdigit() or not 1 <= int(answer) <= len(ready):
        raise UsageError(f"answer a number from 1 to {len(ready)}, or give the file: "
                         f"`{shell('agility', 'play', ready[0].file)}`")
    return Path(ready[int(answer) - 1].file)
