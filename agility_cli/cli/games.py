"""``agility games``: the games this machine takes part in, those awaiting you first; and the game
``agility play`` goes to when no FILE is given."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Optional

import typer

from ..i18n import N_, _, english, ngettext
from ..said import said
from ..engine.notation import UsageError
from ..table import gamelist
from ..table.layout import cell_len
from ..table.prose import wrap_cells
from ..table.screen import shell
from ..text import safe
from .application import app
from . import look
from .common import boundary, err, fit, print_json

OFFLINE_HELP = N_("Read nothing over the network: no IMAP mailbox, no git fetch (local mailboxes are still "
                "read).  Without it, the mailboxes and remotes of the games waiting for the other side are "
                "looked at, 10 s at most in all.")


def look_around(extra: Optional[str] = None, offline: bool = False) -> look.Look:
    """What looks where each game lives (``cli.look``): its mailbox, ``AGILITY_MAILBOX``, ``extra``
    (``play --mail``'s), and its git remote, within one whole deadline; local only when ``offline``."""
    return look.Look(extra, offline)


def _collect(folders: list[Path], looking: look.Look) -> tuple[list[gamelist.Row], int, list[tuple[str, Any]]]:
    """The games, how many files found are of games this machine has no part in, and the
    invitations waiting in ``AGILITY_MAILBOX`` (or ``play --mail``'s mailbox)."""
    try:
        rows, others = gamelist.collect(folders, looking)
        return rows, others, looking.invitations()
    finally:
        for note in looking.done():
            err(_("agility: note: {note}").format(note=note))


def _own_name(invitation: Any) -> str:
    """The file ``play`` with no FILE joins an invitation into, in the current folder: the
    creator's name (letters, digits, - and _ only) and the game's 8 hex digits."""
    import re

    who = re.sub(r"[^A-Za-z0-9_-]+", "", invitation.creator)[:20] or "game"
    return f"{who}-{invitation.game[:8]}.jsonl"


def _invitation_rows(found: list[tuple[str, Any]]) -> list[str]:
    """Each invitation and the command that joins it (a file name of the player's choosing)."""
    out = []
    for source, inv in found:
        line = "  " + _("{creator} invites {joiner} (game {game}, from {sender}, in {source}); join it with:").format(
            creator=safe(inv.creator), joiner=safe(inv.joiner), game=inv.game[:8], sender=safe(inv.sender or "?"),
            source=safe(source))
        out.append("\n".join(wrap_cells(line, 80, 4)) if cell_len(line) != len(line) else fit(line))
        out.append(safe(f"      {shell('agility', 'play', 'GAME.jsonl', '--mail', source)}"))
    return out


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
        return _("both seats played here")
    return _("vs {name}").format(name=safe(row.opponent))


def _line(row: gamelist.Row) -> str:
    """One game, wrapped at 80 columns on a terminal (whole for a pipe, for grep)."""
    where = safe(row.file or _("(no file)"))
    versus = _versus(row)
    line = f"  {where}  {versus}  {safe(row.words)}  ({_when(row.last_activity)})"
    return fit(line).replace("\n  ", "\n      ") if sys.stdout.isatty() else line


@app.command(
    help=_(
        "List the games this machine takes part in, those awaiting you first.\n"
        "\n"
        "From this machine's key store and the history it keeps of each game (the file's last path,\n"
        "when it last changed), and the game files under the folders given (the current one by\n"
        "default).  Each game: its file, the opponent, whose decision it is or what it waits for (the\n"
        "other's keys, a mail of the game in its mailbox not applied yet, a push not pulled yet), the\n"
        "last activity, and the result once it is over.  For a game waiting for the other side, its\n"
        "mailbox (IMAP too) and its git remote are looked at first (10 s at most in all; --offline\n"
        "skips the network).  A file that has moved or gone is said so.  No game file is written.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility games\n"
        "  agility games ~/games --json"
    ),
)
def games(
    folders: Optional[list[Path]] = typer.Argument(None, metavar="[FOLDER...]", help=_("Also look for game files here (and up to 3 folders down); default: the current folder.")),
    as_json: bool = typer.Option(False, "--json", help=_('JSON: {"games": [{file, opponent, status, awaiting_you, says, last_activity, winner, ...}]}.')),
    offline: bool = typer.Option(False, "--offline", help=_(OFFLINE_HELP)),
) -> None:
    with boundary():
        for folder in folders or []:
            if not folder.is_dir():
                raise UsageError(said(N_("{folder} is not a folder: give the folders to look for game files in"),
                                      folder=safe(str(folder))))
        if as_json:  # for programs: its "says" is English in every language
            with english():
                rows, others, invited = _collect(folders or [Path.cwd()], look_around(offline=offline))
        else:
            rows, others, invited = _collect(folders or [Path.cwd()], look_around(offline=offline))
        if as_json:
            print_json({"games": [r.as_json() for r in rows], "invitations": [
                {"game": inv.game[:8], "game_id": inv.game, "from": inv.sender or None,
                 "creator": inv.creator, "you": inv.joiner, "mailbox": source} for source, inv in invited]})
            return
        if invited:
            print(_("invitations ({n}):").format(n=len(invited)))
            print("\n".join(_invitation_rows(invited)))
        if not rows and invited:
            return
        if not rows:
            err(_("agility: no game on this machine yet: start one with {command}").format(
                command=f"`{shell('agility', 'new', 'game.jsonl', '--players', 'YOU', 'THEM')}`"))
            return
        mine = [r for r in rows if r.awaiting_you]
        if mine:
            print(_("awaiting you ({n}):").format(n=len(mine)))
            print("\n".join(_line(r) + "".join(f"\n      {safe(n)}" for n in r.notes) for r in mine))
        rest = [r for r in rows if not r.awaiting_you]
        if rest:
            print((_("other games ({n}):") if mine else _("your games ({n}):")).format(n=len(rest)))
            print("\n".join(_line(r) + "".join(f"\n      {safe(n)}" for n in r.notes) for r in rest))
        if others:
            err(ngettext("agility: {n} game file found here is of a game this machine has no part in",
                         "agility: {n} game files found here are of games this machine has no part in", others).format(n=others))


def pick_game(source: Optional[str], offline: bool = False) -> tuple[Path, bool]:
    """``agility play`` with no FILE: the one game that awaits you (its mail or push looked for
    first, as ``games`` does), and whether it is to be played by git (a push waits); asked when
    several do; a clear message (exit 0) when none does."""
    rows, _others, invited = _collect([Path.cwd()], look_around(source, offline))
    ready = gamelist.awaiting(rows)
    if not ready and len(invited) == 1 and not os.path.lexists(_own_name(invited[0][1])):
        name = _own_name(invited[0][1])  # issue 52: the one invitation, joined into a file named after it
        err(_("agility: no game awaits you; {name}'s invitation waits: joining it as {file}").format(
            name=safe(invited[0][1].creator), file=name))
        return Path(name), False
    if not ready and invited:
        err(ngettext("agility: no game awaits you, but an invitation waits:",
                     "agility: no game awaits you, but {n} invitations wait:", len(invited)).format(n=len(invited)))
        err("\n".join(_invitation_rows(invited)))
        raise typer.Exit(0)
    if not ready:
        what = (ngettext("none of your {n} game awaits you (`{command}` says what each waits for)",
                         "none of your {n} games awaits you (`{command}` says what each waits for)", len(rows)).format(
                    n=len(rows), command=shell('agility', 'games')) if rows else
                _("no game on this machine yet: start one with {command}").format(
                    command=f"`{shell('agility', 'new', 'game.jsonl', '--players', 'YOU', 'THEM')}`"))
        err(_("agility: {error}").format(error=what))
        raise typer.Exit(0)
    if len(ready) == 1:
        err(f"agility: {safe(ready[0].file)}: {safe(ready[0].words)}")
        return Path(ready[0].file), ready[0].status == "push"
    err(_("agility: {n} games await you:").format(n=len(ready)))
    for k, row in enumerate(ready, 1):
        err(f"  {k}. {_line(row).strip()}")
    err(_("agility: which one? [1-{n}] ").format(n=len(ready)))
    answer = sys.stdin.readline().strip()
    if not answer.isdigit() or not 1 <= int(answer) <= len(ready):
        raise UsageError(said(N_("answer a number from 1 to {n}, or give the file: `{command}`"), n=len(ready),
                              command=shell('agility', 'play', ready[0].file)))
    chosen = ready[int(answer) - 1]
    return Path(chosen.file), chosen.status == "push"
