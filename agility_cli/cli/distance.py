"""Play at a distance in one command a turn: what ``agility play --git`` and ``--mail`` do around
the interactive loop — take the opponent's lines in first (a pull, or a received message), and
send yours after (a commit and push, or the block to mail)."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path
from typing import Optional

from ..engine.notation import UsageError
from ..record import gamefile
from ..record.mail import apply as mail, find as mailfind
from ..table import mailing, session
from ..text import safe
from .common import err, git_commit_push, git_pull, say, view_for
from .mailcmd import _recipient, _tell_applied, note_recipient

MAIL_COMMAND = "AGILITY_MAIL_COMMAND"  # e.g. 'mail -s agility bob@example.org': the block is its input


def take_in(file: Path, use_git: bool, message: Optional[Path], as_player: Optional[str], accept: bool,
            restore: bool = False) -> None:
    """Before the loop: settle with the remote (``--git``: fetch, take the other player's lines,
    put back lost ones on ``restore``) or apply the received message (``--mail``)."""
    if use_git:
        git_pull(file, restore=restore, accept=accept, ask=True)
    if message is not None:
        data = gamefile.read_bytes(message, what="mail message", limit=gamefile.MAX_FILE_BYTES)
        incoming = mailfind.read_mail(data)
        recipient = _recipient(file, as_player, accept)
        report = mail.apply_lines(file, [], as_player=as_player, recipient=recipient, incoming=incoming)
        note_recipient(report, recipient)
        if report.applied or report.keys or report.own or report.handshake:
            _tell_applied(file, report, False, as_player, in_play=True)


def _kept(file: Path) -> str:
    """What a failed mail command leaves: the decisions are in the file (never "unchanged": they
    were written before the reply was made), and the reply is printed to mail by hand."""
    return f"your decisions are saved in {safe(str(file))}; mail the reply above yourself"


def send_out(file: Path, use_git: bool, by_mail: bool, reply: Optional[Path], as_player: Optional[str]) -> None:
    """After the loop: commit and push the lines not committed yet (``--git``: this turn's, and any
    the tool wrote on an earlier command), or print the block to mail (``--mail``/``--reply``: also
    written to the reply file, and handed to the mail command)."""
    if use_git:
        deciders = session.decision_players(gamefile.read_bytes(file))
        git_commit_push(file, as_player or (deciders[-1] if deciders else ""))
    if not (by_mail or reply):
        return
    try:
        out = mailing.outgoing(file, as_player)
    except session.ViewerError as exc:
        raise UsageError(str(exc)) from None
    if not out.rows or session.is_bot(out.recipient):
        return
    text = out.text()
    print(f"\n--- mail this to {out.recipient} ---\n{text}", end="")
    if reply is not None:
        gamefile.write_new(reply, text.encode(), what="the reply", replace=True)
        err(f"agility: the reply to mail {out.recipient} is in {reply}")
    command = os.environ.get(MAIL_COMMAND)
    if command:
        try:
            done = subprocess.run(shlex.split(command), input=text, text=True, timeout=120, check=False)
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            raise UsageError(f"{MAIL_COMMAND} ({command!r}) could not be run: {exc}; {_kept(file)}") from None
        if done.returncode != 0:
            raise UsageError(f"{MAIL_COMMAND} ({command!r}) failed (exit {done.returncode}); {_kept(file)}")
        err(f"agility: handed the reply to `{command}`")


def wait_turn(file: Path, as_player: Optional[str], every: float, accept: bool) -> None:
    """``play --git --wait``: fetch every ``every`` seconds (never ``git pull``) until the player
    has a decision or the game ends, with a one-line status on stderr; lines the tool writes
    meanwhile (a sealed game's keys, R44) are committed and pushed at once.  Ctrl-C stops it with
    everything whole: each step is a whole fetch, a whole append or a whole commit."""
    import sys
    import time

    from ..record import gitsync

    checks = 0
    while True:
        game = session.since_last(file).game  # writes the keys this machine owes (R44)
        viewer = view_for(game, as_player, whole=False)
        if gitsync.committed_lines(file) < game.lines:
            git_commit_push(file, viewer.name if viewer.plays else "")
        seat = session.decider_now(game)
        if game.written_state.winner is not None or (seat is not None and seat == viewer.seat and viewer.plays):
            if checks and sys.stderr.isatty():
                sys.stderr.write("\n")
            return
        waited = session.awaited_text(game)
        who = (game.written_state.players[seat].name if seat is not None else "the other player's keys")
        status = f"agility: waiting for {who} (checked {time.strftime('%H:%M:%S')}, every {every:g} s; Ctrl-C stops)"
        if waited is None and seat is None:
            status = status.replace("the other player's keys", "the other player")
        if sys.stderr.isatty():
            sys.stderr.write("\r" + status[:79].ljust(79))
            sys.stderr.flush()
        elif not checks:
            say(status)
        checks += 1
        time.sleep(every)
        git_pull(file, accept=accept)
