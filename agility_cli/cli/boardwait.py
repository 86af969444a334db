"""``play --mail MAILBOX --wait`` and ``play --git --wait`` on the full-screen board (issue 51):
what the command does around the board's wait (``table.board.waiting``).

Before the board: the seed handshake's wait (R40) stays in the line mode, and the one question
the sending may ask — the opponent's address, when the mail read came from an address not
confirmed yet — is asked at the terminal, never inside the board.  The board is then given how to
send (``distance.send_out``, asking nothing) and how to wait (``distance.wait_turn`` with a stop
event and a progress callback).  After it: the words it leaves, then a failed send or check said
as the line mode says it, or the stopped wait's words (Ctrl-C: exit 130, as the line mode's wait).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from ..record import gamefile, keys
from ..table import session
from . import distance
from .common import err, fail


def before(file: Path, as_player: Optional[str], every: float, accept: bool, use_git: bool,
           source: Optional[str], to: Optional[str], seen: str, plain: bool) -> bool:
    """``--wait`` before the game is shown: the line mode's whole wait where the board is not
    used (False), else the handshake's wait and the address's question (True: the board waits)."""
    from ..table.board import match

    mailbox = None if use_git else source
    if match.board_refused(plain) is not None:
        distance.wait_here(file, as_player, every, accept, mailbox)
        return False
    distance.wait_here(file, as_player, every, accept, mailbox, turn=False)
    if mailbox is not None and seen and not to:
        _confirm_address(file, seen, as_player)
    return True


def _confirm_address(file: Path, seen: str, as_player: Optional[str]) -> None:
    """The question ``send_out`` would ask after the decision (send to the address of the mail
    read?), asked now, at the terminal: the board never reads standard input."""
    from ..table import mailing
    from . import outbox

    how = outbox.way()
    if how is None or how == "command":
        return
    try:
        out = mailing.outgoing(file, as_player)
    except session.ViewerError:
        return  # the game's own read says what is wrong
    gid = keys.game_id(gamefile.read_bytes(file).split(b"\n", 1)[0])
    distance._address(gid, None, seen, out.recipient, how)


def make(file: Path, as_player: Optional[str], every: float, accept: bool, use_git: bool, source: Optional[str],
         reply: Optional[Path], to: Optional[str], seen: str, player: Optional[str]) -> Any:
    """The board's :class:`waiting.Distance`: send as ``play`` sends after its loop (asking
    nothing), wait as ``--wait`` waits (stopped by the board)."""
    from ..table.board import waiting

    mailbox = None if use_git else source

    def send() -> waiting.Sent:
        distance.send_out(file, use_git, source is not None, reply, player, to, seen, ask=False)
        if use_git:
            return ("git", "")
        return _mailed(file, player, to)

    def wait(stop: Any, progress: Any) -> bool:
        return distance.wait_turn(file, as_player, every, accept, mailbox, stop, progress)

    return waiting.Distance("git" if use_git else "mail", send, wait)


def _mailed(file: Path, player: Optional[str], to: Optional[str]) -> Optional[tuple[str, str]]:
    """How the reply went: mailed (to its address), nothing to send, or None: not sent (no way to
    send mail here, or no confirmed address: it is in the words, to mail by hand)."""
    left = distance.to_mail(file, player)
    if left is None:
        return ("", "")
    out, record = left
    if record.sent < out.last:
        return None
    return ("mail", record.address or to or out.recipient)


def ended(d: Any, closing: str) -> str:
    """The board has closed: no check after the one under way, which ends whole (said when it
    takes a while: a mail server's exchange has its deadline); the words to leave on the terminal."""
    from ..table.board import waiting

    d.stop.set()
    if not d.idle.wait(0.5):
        err("agility: ending the check under way (the game stays whole)…")
        d.idle.wait()
    return waiting.closing(d, closing)


def after(d: Any, file: Path, use_git: bool, source: Optional[str]) -> None:
    """Once the board has closed and its words are out: a failed send or check raised as the line
    mode raises it, or the stopped wait said (Ctrl-C: exit 130, as the line mode's wait)."""
    if d.error is not None:
        raise d.error
    if d.stopped:
        said = distance.stopped_waiting(file, None if use_git else source)
        if d.stopped == "ctrl+c":
            fail(130, "\n" + said)
        err(said)
